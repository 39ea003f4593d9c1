#!/usr/bin/env bash
# The scan kernels' grid: one warp per vertex (max_warps 0, the artifact's launch) against grids capped near the
# GPU's resident-warp capacity (warps walk the vertices grid-stride), merged+aligned zero-copy, GAP-24.
#   (device) EMOGI_BINARY=build/exp/emogi-d4 bash tools/device/grid_size.sh   -> $OUT/grid.tgz, $OUT/grid.log
set -uo pipefail
. tools/device/setup.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/grid"
build_kernels
BIN=$EMOGI_BINARY
for g in kron24 urand24; do gap_graph $g; done
run() {  # graph algorithm variants max_warps roots(0/1/2) reps
  local args=(run --algorithm "$2" --graph /tmp/g/$1.w8.csr --name "$1" --variants "$3" --modes zerocopy
              --reps "$6" --warmup 1 --max-warps "$4" --out "$OUT/grid/$1_$2_$4.csv")
  [ "$5" -gt 0 ] && args+=(--roots "$(cut -d, -f1-$5 /tmp/g/$1.roots)")
  timeout 120 "$BIN" "${args[@]}" 2>&1 | grep -E "median|error" | sed "s/^/[$4] /"
}
for g in kron24 urand24; do
  for mw in 0 4224 8448 16896; do
    run $g bfs merged-aligned,chunked $mw 2 2
    run $g sssp merged-aligned $mw 1 2
    run $g cc merged-aligned $mw 0 2
  done
  for mw in 0 16896; do run $g pagerank merged-aligned $mw 0 1; done
done 2>&1 | tee "$OUT/grid.log"
tar czf "$OUT/grid.tgz" -C "$OUT" grid && rm -rf "$OUT/grid"
