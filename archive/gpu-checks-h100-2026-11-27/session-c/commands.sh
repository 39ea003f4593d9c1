#!/usr/bin/env bash
# Session C: the worklist fix on directed graphs, and the moved test helpers, on the H100.
set -uo pipefail
export EMOGI_WHEELS=.devrun/whl
. tools/device/setup.sh
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "commit $EMOGI_COMMIT"
build_kernels
mkdir -p /tmp/g
python3 -m emogi.datasets.generators --kind kron --scale 20 --edge-factor 16 --seed 24 --weights-seed 24 --directed \
  --out /tmp/g/dkron20.w8.csr > $OUT/dkron20.log 2>&1 && python3 -m emogi.csr transpose /tmp/g/dkron20.w8.csr >> $OUT/dkron20.log 2>&1
python3 -m emogi.datasets.roots /tmp/g/dkron20.w8.csr --count 2 --seed 24 --out /tmp/g/dkron20.roots.txt >> $OUT/dkron20.log 2>&1
for a in sssp bfs; do
  timeout 120 build/emogi run --algorithm $a --graph /tmp/g/dkron20.w8.csr --name dkron20 --modes device,zerocopy,uvm \
    --roots "$(paste -sd, /tmp/g/dkron20.roots.txt)" --reps 1 --warmup 0 --out $OUT/dkron20_$a.csv >> $OUT/dkron20.log 2>&1
  echo "dkron20 $a exit $? rows $(tail -n +2 $OUT/dkron20_$a.csv | wc -l) verified $(cut -d, -f14 $OUT/dkron20_$a.csv | sort | uniq -c | tr '\n' ' ')"
done
TESTS="tests/test_gpu_directed.py tests/test_figures_apps.py tests/test_gpu_bfs.py" timeout 300 bash -c '. tools/device/setup.sh; gpu_tests -k "not large and not over_1gib"'
grep -E "passed|failed" $OUT/gpu_tests.log | tail -3
