#!/usr/bin/env bash
# The kernel suite on a GPU: build, every GPU test (algorithms x variants x modes x widths, a >1 GiB graph,
# fault injection, compute-sanitizer), then a quick benchmark at scale 22 (`snakemake bench`: needs the wheels).
#   (device) bash tools/device/kernels_check.sh      -> logs and tables under $OUT
set -uo pipefail
. tools/device/setup.sh

build_kernels

log gpu tests
timeout ${TEST_TIMEOUT:-330} python3 -m pytest tests/test_gpu_algorithms.py tests/test_gpu_bfs.py -q -x -p no:cacheprovider \
  --durations=8 > "$OUT/pytest_gpu.log" 2>&1; echo "pytest exit $?"; tail -25 "$OUT/pytest_gpu.log"

log quick bench
bench_target "$OUT/bench" ${BENCH_TIMEOUT:-200} graphs="[${BENCH_GRAPHS:-kron:22,urand:22}]" widths=[8] \
  modes="[${BENCH_MODES:-device,zerocopy,auto}]" roots=1 reps=1 warmup=1; echo "bench exit $?"
