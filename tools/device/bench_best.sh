#!/usr/bin/env bash
# The paper's merged+aligned and this project's faster variants, zero-copy, on the GAP-24 graphs the artifact
# was timed on (../shared/FACTS.md), with a prebuilt binary:
#   (device) EMOGI_BINARY=build/exp/emogi-d4 bash tools/device/bench_best.sh   -> $OUT/<algorithm>/summary.csv
set -uo pipefail
. tools/device/setup.sh
build_kernels
G=${BENCH_GRAPHS:-kron:24,urand:24}
best() {  # algorithm variants widths timeout_s
  echo "== $1 ($(date +%T))"
  timeout "$4" python3 -m emogi.bench --binary "$EMOGI_BINARY" --graphs "$G" --widths "$3" \
    --algorithms "$1" --variants "$2" --modes zerocopy --roots 2 --reps 2 --warmup 1 --graph-dir /tmp/g \
    --out-dir "$OUT/$1" 2> "$OUT/$1.log"; echo "exit $?"; grep -E "error|mismatch" "$OUT/$1.log" | head -3
}
best bfs merged-aligned,frontier,direction-optimizing 8,4 150
best sssp merged-aligned,frontier 8,4 150
best cc merged-aligned,afforest 8 60
best pagerank merged-aligned,frontier 8 120
for f in "$OUT"/*/summary.csv; do cut -d, -f1-4,6-7,10-12 "$f" | tail -n +2; done
