#!/usr/bin/env bash
# How much of the link the kernels use, counted two ways, and SSSP's work lists tuned:
#   1. GAP-25 (over 1 B edges), merged+aligned, zero-copy, 8-byte ids, the four algorithms: GB/s of lists needed
#      and of bytes fetched (emogi.bench --profile: Nsight Compute's host sectors), each over W;
#   2. SSSP `frontier` on GAP-24, 8-byte ids: bucket width delta, and weights aligned (the default build) or not
#      ($NOALIGN_BINARY, built with -DEMOGI_ALIGN_WEIGHTS=0).
#   (device) NOALIGN_BINARY=build/exp/emogi-noalign bash tools/device/link_use.sh
#   -> $OUT/link_use.tgz (summaries, per-run CSVs, Nsight Compute tables, logs) and a table on stdout
set -uo pipefail
. tools/device/setup.sh
build_kernels
BIN=$EMOGI_BINARY NOALIGN=${NOALIGN_BINARY:-}
G=/tmp/g R=$OUT/link_use
mkdir -p "$R/sssp"
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  log "gpu tests"
  python3 -m pytest -q -m gpu tests/test_gpu_algorithms.py tests/test_bench.py > "$R/gpu_tests.log" 2>&1
  tail -2 "$R/gpu_tests.log"
fi
log "gap25, merged+aligned zero-copy, profiled"
timeout ${T1:-480} python3 -m emogi.bench --binary "$BIN" --graphs kron:25,urand:25 --widths 8 \
  --variants merged-aligned --modes zerocopy --roots 2 --reps 2 --warmup 1 --profile --graph-dir $G \
  --out-dir "$R/gap25" 2> "$R/gap25.log"; echo "exit $?"; grep -E "error|mismatch|failed" "$R/gap25.log" | head -3
rm -f $G/kron25.* $G/urand25.*  # 26 GB of the machine's disk
sssp() {  # binary graph delta
  local tag; tag=$(basename "$1").$2.d$3
  echo "## $tag" >> "$R/sssp.log"
  "$1" run --algorithm sssp --graph $G/$2.w8.csr --name "$2" --variants frontier --modes zerocopy \
    --roots "$(cat $G/$2.roots)" --reps 2 --warmup 1 --sssp-delta "$3" --out "$R/sssp/$tag.csv" 2>> "$R/sssp.log" \
    || echo "sssp $tag failed"
}
log "sssp frontier: delta x weight alignment"
for name in kron24 urand24; do
  python3 - "$name" <<'PY'
import sys
from pathlib import Path
from emogi import bench, csr, roots
name = sys.argv[1]
paths = bench.make_graph(name.rstrip("0123456789"), int(name[-2:]), 24, Path("/tmp/g"), [8])
picked = roots.pick_roots(csr.read_csr(paths[8]).offsets, 2, 24)  # the roots emogi.bench draws
Path(f"/tmp/g/{name}.roots").write_text(",".join(map(str, picked)))
PY
done
for d in ${KRON_DELTAS:-8 16 24 39 64}; do sssp "$BIN" kron24 "$d"; done
for d in ${URAND_DELTAS:-8 16 39}; do sssp "$BIN" urand24 "$d"; done
if [ -n "$NOALIGN" ]; then for d in 16 39; do sssp "$NOALIGN" kron24 "$d"; done; fi
tar -C "$OUT" -czf "$OUT/link_use.tgz" link_use && rm -rf "$R"
log done
tar -xzOf "$OUT/link_use.tgz" link_use/gap25/summary.csv | cut -d, -f1,2,4,5,7,10,11,13,14
grep -E "^## |median" <(tar -xzOf "$OUT/link_use.tgz" link_use/sssp.log)
