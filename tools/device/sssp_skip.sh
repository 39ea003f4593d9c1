#!/usr/bin/env bash
# SSSP `frontier` that reads a weight only where it can matter (sssp.cuh, SettledSkippingReader), against other
# builds of the kernels and over bucket widths: GAP-24, 8-byte ids, zero-copy, 2 roots x 3 reps after a warm-up.
# Then (unless SKIP_TESTS=1) the SSSP GPU tests, the long ones included.
#   (local)  mkdir -p build/old-src && git archive fc7f68d kernels | tar -x -C build/old-src
#   (device) OLD_SRC=build/old-src/kernels bash tools/device/detached.sh start skip tools/device/sssp_skip.sh
#            -> $OUT/sssp_skip.tgz (runs.csv with provenance, a log per run), $OUT/gpu_tests.log, a table
#   BINARIES "tag=path ..." (default: new = this tree's build, and old = OLD_SRC's if given), GRAPHS (default
#   "kron24 urand24"), DELTAS (default "default 8 12 16 24"; default: the binary's own bucket width), TEST_FILTER
#   (pytest -k; default "sssp or (every_cell and pagerank-4)").
set -uo pipefail
. tools/device/setup.sh
if [ -n "${OLD_SRC:-}" ]; then
  python3 -m emogi.toolchain --source "$OLD_SRC" --build build/old-bin --arch 90 > "$OUT/build_old.log" 2>&1 &
fi
build_kernels
wait
BINARIES=${BINARIES:-new=$EMOGI_BINARY${OLD_SRC:+ old=build/old-bin/emogi}}
R=$OUT/sssp_skip
mkdir -p "$R"
for g in ${GRAPHS:-kron24 urand24}; do
  log "$g"
  gap_graph "$g"
  for b in $BINARIES; do
    for d in ${DELTAS:-default 8 12 16 24}; do
      extra=()
      [ "$d" = default ] || extra=(--sssp-delta "$d")
      "${b#*=}" run --algorithm sssp --graph /tmp/g/$g.w8.csr --name "$g" --variants frontier --modes zerocopy \
        --roots "$(cat /tmp/g/$g.roots)" --reps 3 --warmup 1 "${extra[@]}" --out "$R/$g.${b%%=*}.$d.csv" \
        > "$R/$g.${b%%=*}.$d.log" 2>&1 || echo "$g ${b%%=*} $d failed"
    done
  done
done
python3 - "$R" "$EMOGI_BINARY" <<'PY'
import re, sys
from emogi import provenance

def annotate(path, log):  # GRAPH.BUILD.DELTA.csv; the log says the width the binary used
    delta = re.search(r"delta = (\d+)", log)
    return {"kernels": path.stem.split(".")[1], "delta": int(delta[1]) if delta else -1}

runs = provenance.stamp_runs(sys.argv[1], sys.argv[2], annotate)
print(runs.groupby(["graph", "kernels", "delta"]).agg(
    runs=("time_ms", "size"), median_ms=("time_ms", "median"), edges=("edges_traversed", "median"),
    iterations=("iterations", "median")).to_string())
PY
tar -czf "$OUT/sssp_skip.tgz" -C "$OUT" sssp_skip && rm -rf "$R"
[ "${SKIP_TESTS:-0}" = 1 ] && exit 0
EMOGI_LONG_GPU_TESTS=1 TESTS=tests/test_gpu_algorithms.py gpu_tests -k "${TEST_FILTER:-sssp or (every_cell and pagerank-4)}"
log done
