#!/usr/bin/env bash
# Issue 21 items 1, 2 and 4 on a GPU: the GPU tests of the budget, uvm-capped and recorded traces (and the older
# ones the changes touch), then a small check on kron20 (8-byte ids, ~256 MiB of lists): PageRank and BFS in uvm
# and in uvm-capped at a quarter of the lists, with 1 and 4 sub-launches, and one traced run of each.
#   (device) bash tools/device/capped_check.sh    -> $OUT/gpu_tests.log, $OUT/capped_*.{csv,log}, $OUT/traces/
set -uo pipefail
. tools/device/setup.sh
build_kernels
TESTS="tests/test_gpu_budget.py tests/test_gpu_uvm_capped.py tests/test_gpu_traces.py tests/test_gpu_bfs.py \
  tests/test_gpu_algorithms.py" gpu_tests -k "not over_one_gib and not sanitizer"

log "kron20: uvm and uvm-capped (64M of lists kept), traces"
mkdir -p /tmp/g "$OUT/traces"
python3 -m emogi.datasets.generators --kind kron --scale 20 --edge-factor 16 --seed 24 --out /tmp/g/kron20.w8.csr \
  > "$OUT/gen.log" 2>&1 || { tail -5 "$OUT/gen.log"; exit 1; }
root=$(python3 -c "import numpy as np; from emogi import csr; print(int(np.argmax(np.diff(csr.read_csr('/tmp/g/kron20.w8.csr').offsets))))")
for a in pagerank bfs; do
  v=$([ $a = pagerank ] && echo merged-aligned,gauss-seidel || echo merged-aligned,direction-optimizing)
  for k in 1 4; do
    timeout 240 build/emogi run --algorithm $a --graph /tmp/g/kron20.w8.csr --roots "$root" --variants $v \
      --modes uvm,uvm-capped --uvm-capacity 64M --uvm-sublaunches $k --reps 2 --warmup 0 \
      --out "$OUT/capped_${a}_k$k.csv" > "$OUT/capped_${a}_k$k.log" 2>&1 || tail -3 "$OUT/capped_${a}_k$k.log"
    grep -E "median|uvm-capped," "$OUT/capped_${a}_k$k.log"
  done
  timeout 120 build/emogi run --algorithm $a --graph /tmp/g/kron20.w8.csr --roots "$root" --variants merged-aligned \
    --modes zerocopy --reps 1 --warmup 0 --trace-out /tmp/traces --out "$OUT/traced_$a.csv" > "$OUT/traced_$a.log" 2>&1 \
    || tail -3 "$OUT/traced_$a.log"
done
for t in /tmp/traces/*.trace; do  # as the model reads them (needs emogi.traces: the oom branch)
  python3 -m emogi.trace_recording convert "$t" --graph /tmp/g/kron20.w8.csr --out "$OUT/traces/$(basename "$t" .trace).npz"
done
ls -la "$OUT" "$OUT/traces"
