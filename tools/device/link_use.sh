#!/usr/bin/env bash
# How much of the link the kernels use, counted two ways, and SSSP's bucket width:
#   1. merged+aligned, zero-copy, 8-byte ids on graphs of over 1 B edges (GAP-25): GB/s of list bytes needed and
#      of bytes fetched (`snakemake bench` with bench.profile: Nsight Compute's host sectors), each over W;
#   2. SSSP `frontier` on GAP-24, 8-byte ids, at several bucket widths delta (SSSP_SWEEP=0 skips it).
#   (device) bash tools/device/link_use.sh   -> $OUT/link_use.tgz (summaries, per-run CSVs, Nsight Compute
#   tables and reports, logs) and a table on stdout. GRAPHS, ALGORITHMS, T1 (s) narrow part 1; SKIP_TESTS=1.
set -uo pipefail
. tools/device/setup.sh
build_kernels
BIN=$EMOGI_BINARY
G=/tmp/g R=$OUT/link_use
mkdir -p "$R/sssp"
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  log "gpu tests"
  python3 -m pytest -q -m gpu tests/test_gpu_algorithms.py tests/test_bench.py > "$R/gpu_tests.log" 2>&1
  tail -2 "$R/gpu_tests.log"
fi
log "merged+aligned zero-copy, profiled"
bench_target "$R/gap25" ${T1:-540} graphs="[${GRAPHS:-kron:25,urand:25}]" widths=[8] \
  algorithms="[${ALGORITHMS:-bfs,sssp,cc,pagerank}]" variants=[merged-aligned] modes=[zerocopy] roots=2 reps=2 \
  warmup=1 profile=true
echo "exit $?"
rm -f resources/graphs/kron25.* resources/graphs/urand25.*  # 26 GB of the machine's disk
sssp() {  # graph delta
  echo "## $1 delta $2" >> "$R/sssp.log"
  "$BIN" run --algorithm sssp --graph $G/$1.w8.csr --name "$1" --variants frontier --modes zerocopy \
    --roots "$(cat $G/$1.roots)" --reps 2 --warmup 1 --sssp-delta "$2" --out "$R/sssp/$1.d$2.csv" 2>> "$R/sssp.log" \
    || echo "sssp $1 delta $2 failed"
}
if [ "${SSSP_SWEEP:-1}" != 0 ]; then
  log "sssp frontier: bucket width"
  for name in kron24 urand24; do
    gap_graph "$name"
  done
  for d in ${KRON_DELTAS:-8 16 24 39 64}; do sssp kron24 "$d"; done
  for d in ${URAND_DELTAS:-8 16 39}; do sssp urand24 "$d"; done
fi
tar -C "$OUT" -czf "$OUT/link_use.tgz" link_use && rm -rf "$R"
log done
tar -xzOf "$OUT/link_use.tgz" link_use/gap25/summary.csv | cut -d, -f1,2,4,5,7,10,11,13,14
tar -xzOf "$OUT/link_use.tgz" link_use/sssp.log 2>/dev/null | grep -E "^## |median" || true
