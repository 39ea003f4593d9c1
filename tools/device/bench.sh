#!/usr/bin/env bash
# The kernel benchmark on the GPU machine (`snakemake bench`, bench_target in setup.sh), split to fit one device call:
#   (device) BENCH_GRAPHS=kron:24,urand:24 bash tools/device/bench.sh   -> $OUT/bench_*/summary.csv and logs
# Environment: BENCH_GRAPHS, BENCH_WIDTHS, BENCH_REPS, BENCH_ROOTS, BENCH_MODES and VARIANTS (traversals),
# PR_MODES and PR_VARIANTS (PageRank), T1/T2 (timeouts, s); EMOGI_BINARY=path skips the build. Needs the wheels.
set -uo pipefail
. tools/device/setup.sh
build_kernels
G=${BENCH_GRAPHS:-kron:24,urand:24}; W=${BENCH_WIDTHS:-8}; R=${BENCH_REPS:-2}
bench() {  # name algorithms variants modes timeout_s
  log "bench $1"
  bench_target "$OUT/bench_$1" "$5" graphs="[$G]" widths="[$W]" algorithms="[$2]" variants="[$3]" modes="[$4]" \
    roots=${BENCH_ROOTS:-2} reps="$R" warmup=1; echo "exit $?"; grep -hs "link limit" "$OUT/bench_$1/logs/summary.log"
}
bench traversals bfs,sssp,cc "${VARIANTS:-}" "${BENCH_MODES:-device,zerocopy,uvm,auto}" ${T1:-330}
bench pagerank pagerank "${PR_VARIANTS:-merged-aligned,chunked,frontier}" "${PR_MODES:-zerocopy,uvm,auto}" ${T2:-200}
for f in "$OUT"/bench_*/summary.csv; do cut -d, -f1-9,11 "$f"; done
