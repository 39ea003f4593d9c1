#!/usr/bin/env bash
# Second benchmark call: the GPU tests again, CC on urand-24, 4-byte BFS, and the SSSP bucket width (needs the wheels).
#   (device) bash tools/device/bench_more.sh   -> $OUT
set -uo pipefail
. tools/device/setup.sh
build_kernels
log gpu tests
timeout 170 python3 -m pytest tests/test_gpu_algorithms.py tests/test_gpu_bfs.py -q -p no:cacheprovider \
  > "$OUT/pytest_gpu.log" 2>&1; echo "pytest exit $?"; tail -4 "$OUT/pytest_gpu.log"
b() { log "bench $1"; bench_target "$OUT/bench_$1" "$2" roots=2 reps=2 warmup=1 "${@:3}"; echo "exit $?"; }
b cc_urand 150 graphs=[urand:24] widths=[8] algorithms=[cc] modes=[device,zerocopy,uvm,auto]
b w4 200 graphs=[kron:24,urand:24] widths=[4] algorithms=[bfs,sssp] variants=[merged-aligned,frontier] \
  modes=[zerocopy,auto]
log sssp delta sweep
for g in kron24 urand24; do
  R=$(python3 -c "from emogi import csr; from emogi.datasets import roots; print(roots.pick_roots(csr.read_csr('resources/graphs/$g.w8.csr').offsets, 1, 24)[0])")
  for d in 16 80 160; do
  timeout 60 build/emogi run --algorithm sssp --graph resources/graphs/$g.w8.csr --name $g --variants frontier \
    --modes zerocopy --roots $R --reps 2 --warmup 1 --sssp-delta $d --out "$OUT/delta_${g}_$d.csv" 2>&1 | grep median
done; done
