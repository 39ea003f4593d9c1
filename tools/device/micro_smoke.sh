#!/usr/bin/env bash
# The microbenchmarks at the default config's settings, each timed, after their GPU tests.
#   (device) bash tools/device/micro_smoke.sh      -> $OUT/{toy,latency,concurrency_*,toy_profile}.csv
set -uo pipefail
. tools/device/setup.sh
build_kernels
log GPU tests
EMOGI_BINARY=$PWD/build/emogi timeout 240 python3 -m pytest tests/test_gpu_micro.py tests/test_gpu_bfs.py -q 2>&1 | tail -6
M="python3 -m emogi.measure"; B="--binary build/emogi"; MODES=device,zerocopy,zerocopy-pinned
t() { local s=$(date +%s); "$@" 2>&1 | grep -v "^+" | tail -12; echo "   ($(( $(date +%s) - s )) s)"; }
log toy;  t $M toy $B --out "$OUT/toy.csv" -- --bytes 2G --modes $MODES --reps 3
log chase; t $M chase $B --out "$OUT/latency.csv" -- --modes $MODES --footprints 4M,64M,256M,1G,4G,8G --steps 20000 --reps 3
log concurrency warps; t $M concurrency $B --out "$OUT/concurrency_warps.csv" -- --modes $MODES --footprints 256M,8G --reads-per-warp 1,4 --reps 3
log concurrency footprints; t $M concurrency $B --out "$OUT/concurrency_footprints.csv" -- --modes $MODES --footprints 64M,256M,512M,1G,2G,4G,8G --warps 4096 --reads-per-warp 4 --reps 3
log toy profile; t python3 -m emogi.profile toy $B --report /tmp/toy.ncu-rep --out "$OUT/toy_profile.csv" -- --bytes 2G --modes $MODES
ls -la "$OUT"
