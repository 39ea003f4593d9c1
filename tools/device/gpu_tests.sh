#!/usr/bin/env bash
# Build the kernels for the H100 and run the GPU tests (setup.sh's build_and_test):
#   (device) bash tools/device/gpu_tests.sh [pytest args, e.g. -k "sssp or cc"]   -> $OUT/{build,gpu_tests}.log
# TESTS names the test files (default: every file with GPU tests); EMOGI_LONG_GPU_TESTS=1 adds the long ones (every
# algorithm x variant x mode x width on the graph over 1 GiB, ~6 min more on an H100): past one 10-minute call, so
#   (device) EMOGI_LONG_GPU_TESTS=1 bash tools/device/detached.sh start long tools/device/gpu_tests.sh
set -uo pipefail
. tools/device/setup.sh
build_kernels
gpu_tests "$@"
log done
