#!/usr/bin/env bash
# The GPU tests with the long ones (EMOGI_LONG_GPU_TESTS=1: every algorithm x variant x mode x width on the graph
# over 1 GiB), one detached job (over 10 min):
#   (device) bash tools/device/detached.sh start long tools/device/long_tests.sh   -> $OUT/gpu_tests.log
set -uo pipefail
. tools/device/setup.sh
build_kernels
EMOGI_LONG_GPU_TESTS=1 gpu_tests
log done
