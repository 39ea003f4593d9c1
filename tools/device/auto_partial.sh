#!/usr/bin/env bash
# `auto` where only part of the lists fits in GPU memory, as on the paper's 16 GB V100: --gpu-memory-budget caps
# what auto may place (and, as on a small GPU, refuses managed memory beyond it, so the rest is read from pinned
# host memory), on GAP-24 with 8-byte ids. PageRank (merged-aligned, gauss-seidel) and SSSP (merged-aligned,
# frontier) at each budget, and in zerocopy-pinned, the fixed mode auto falls back to.
#   (device) bash tools/device/auto_partial.sh  -> $OUT/auto_partial.tgz (one CSV and log per graph, algorithm and
#   budget) and a table on stdout. BUDGETS (default "1536M 2560M 4608M"), GRAPHS (default "kron24 urand24").
set -uo pipefail
. tools/device/setup.sh
build_kernels
G=/tmp/g R=$OUT/auto_partial
mkdir -p "$R"
for name in ${GRAPHS:-kron24 urand24}; do
  gap_graph "$name"
done
one() {  # graph algorithm variants tag mode-args...
  local g=$1 a=$2 v=$3 tag=$4; shift 4
  local extra=()
  [ "$a" = sssp ] && extra=(--roots "$(cat $G/$g.roots)")
  "$EMOGI_BINARY" run --algorithm "$a" --graph $G/$g.w8.csr --name "$g" --variants "$v" --reps 2 --warmup 1 \
    "${extra[@]}" "$@" --out "$R/$g.$a.$tag.csv" > "$R/$g.$a.$tag.log" 2>&1 || echo "$g $a $tag failed"
}
for g in ${GRAPHS:-kron24 urand24}; do
  log "$g"
  one "$g" pagerank merged-aligned,gauss-seidel pinned --modes zerocopy-pinned
  one "$g" sssp merged-aligned,frontier pinned --modes zerocopy-pinned
  for b in ${BUDGETS:-1536M 2560M 4608M}; do
    one "$g" pagerank merged-aligned,gauss-seidel "auto$b" --modes auto --gpu-memory-budget "$b" --auto-reserve 512M
    one "$g" sssp merged-aligned,frontier "auto$b" --modes auto --gpu-memory-budget "$b" --auto-reserve 512M
  done
done
tar -C "$OUT" -czf "$OUT/auto_partial.tgz" auto_partial && rm -rf /tmp/auto_partial.last \
  && mv "$R" /tmp/auto_partial.last  # only the archive comes back
log done
grep -H -E "placed|median" /tmp/auto_partial.last/*.log | sed 's|.*/auto_partial.last/||'
