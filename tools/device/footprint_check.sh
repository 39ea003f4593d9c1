#!/usr/bin/env bash
# Does the pinned-memory footprint cliff (random 128-B reads slow to ~15 GB/s past 1 GiB on the H100) reach BFS?
# Times merged+aligned BFS with the edge list in managed (zerocopy) vs pinned (zerocopy-pinned) host memory on a
# kron graph; rows are stamped with provenance like any measurement.
#   bash tools/device/footprint_check.sh 25 OUT.csv      (on a GPU machine; scale 25 = an 8 GiB edge list)
set -uo pipefail
scale=${1:-25}; out=${2:-/tmp/footprint_kron$scale.csv}; dir=$(mktemp -d)
python3 -m emogi.datasets.generators --kind kron --scale "$scale" --seed "$scale" --out "$dir/g.csr" --meta "$dir/g.json" 2>&1 | tail -1
python3 -m emogi.datasets.roots "$dir/g.csr" --count 3 --seed 7 --out "$dir/roots"
python3 -m emogi.measure bfs --binary build/emogi --out "$out" -- --graph "$dir/g.csr" --name "kron$scale" \
  --roots-file "$dir/roots" --variants merged,merged-aligned --modes zerocopy,zerocopy-pinned --reps 3 --warmup 1 2>&1 | grep "^bfs\|error"
rm -rf "$dir"
