#!/usr/bin/env bash
# The paper's merged+aligned and this project's faster variants, zero-copy, on the GAP-24 graphs the artifact
# was timed on (../shared/FACTS.md), with a prebuilt binary (`snakemake bench`, bench_target; needs the wheels):
#   (device) bash tools/device/bench_best.sh   -> $OUT/<algorithm>/summary.csv (EMOGI_BINARY=path: a prebuilt binary)
set -uo pipefail
. tools/device/setup.sh
build_kernels
G=${BENCH_GRAPHS:-kron:24,urand:24}
best() {  # algorithm variants widths timeout_s
  echo "== $1 ($(date +%T))"
  bench_target "$OUT/$1" "$4" graphs="[$G]" widths="[$3]" algorithms="[$1]" variants="[$2]" modes=[zerocopy] \
    roots=2 reps=2 warmup=1; echo "exit $?"
}
best bfs merged-aligned,frontier,direction-optimizing 8,4 150
best sssp merged-aligned,frontier 8,4 150
best cc merged-aligned,afforest 8 60
best pagerank merged-aligned,frontier 8 120
for f in "$OUT"/*/summary.csv; do cut -d, -f1-4,6-7,10-12 "$f" | tail -n +2; done
