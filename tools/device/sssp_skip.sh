#!/usr/bin/env bash
# SSSP `frontier` that reads a weight only where it can matter (sssp.cuh, SettledSkippingReader), against the
# kernels before it (OLD_SRC: kernels/ of an earlier commit) and over bucket widths: GAP-24, 8-byte ids,
# zero-copy, 2 roots x 3 reps after a warm-up. Then the SSSP GPU tests, the long ones included.
#   (local)  mkdir -p build/old-src && git archive fc7f68d kernels | tar -x -C build/old-src
#   (device) OLD_SRC=build/old-src/kernels bash tools/device/detached.sh start skip tools/device/sssp_skip.sh
#            -> $OUT/sssp_skip.tgz (runs.csv with provenance, a log per run), $OUT/gpu_tests.log, a table
#   GRAPHS (default "kron24 urand24"), DELTAS (default "8 12 16 24"), OLD_DELTAS (default "16 8").
set -uo pipefail
. tools/device/setup.sh
if [ -n "${OLD_SRC:-}" ]; then
  python3 -m emogi.toolchain --source "$OLD_SRC" --build build/old-bin --arch 90 > "$OUT/build_old.log" 2>&1 &
fi
build_kernels
wait
R=$OUT/sssp_skip
mkdir -p "$R"
one() {  # tag binary graph extra-args...
  local tag=$1 bin=$2 g=$3
  shift 3
  "$bin" run --algorithm sssp --graph /tmp/g/$g.w8.csr --name "$g" --variants frontier --modes zerocopy \
    --roots "$(cat /tmp/g/$g.roots)" --reps 3 --warmup 1 "$@" --out "$R/$g.$tag.csv" > "$R/$g.$tag.log" 2>&1 \
    || echo "$g $tag failed"
}
for g in ${GRAPHS:-kron24 urand24}; do
  log "$g"
  gap_graph "$g"
  if [ -x build/old-bin/emogi ]; then
    one old build/old-bin/emogi "$g"
    for d in ${OLD_DELTAS:-16 8}; do one "old-delta$d" build/old-bin/emogi "$g" --sssp-delta "$d"; done
  fi
  one new "$EMOGI_BINARY" "$g"
  for d in ${DELTAS:-8 12 16 24}; do one "new-delta$d" "$EMOGI_BINARY" "$g" --sssp-delta "$d"; done
done
python3 - "$R" "$EMOGI_BINARY" <<'PY'
import re, sys
from pathlib import Path
import pandas as pd
from emogi import provenance
R, binary = Path(sys.argv[1]), sys.argv[2]
frames = []
for path in sorted(R.glob("*.csv")):
    graph, tag = path.stem.split(".", 1)
    f = pd.read_csv(path)
    f.insert(0, "kernels", tag.split("-")[0])
    delta = re.search(r"delta = (\d+)", path.with_suffix(".log").read_text())
    f.insert(1, "delta", int(delta[1]) if delta else -1)
    frames.append(f)
runs = provenance.stamp(pd.concat(frames, ignore_index=True), provenance.collect(binary))
runs.to_csv(R / "runs.csv", index=False)
table = runs.groupby(["graph", "kernels", "delta"]).agg(runs=("time_ms", "size"), median_ms=("time_ms", "median"),
                                                      edges=("edges_traversed", "median"),
                                                      iterations=("iterations", "median"))
print(table.to_string())
PY
tar -czf "$OUT/sssp_skip.tgz" -C "$OUT" sssp_skip && rm -rf "$R"
log "sssp gpu tests"
EMOGI_LONG_GPU_TESTS=1 python3 -m pytest -q --durations=12 -m gpu tests/test_gpu_algorithms.py \
  -k "sssp or (every_cell and pagerank-4)" > "$OUT/gpu_tests.log" 2>&1
tail -2 "$OUT/gpu_tests.log"
log done
