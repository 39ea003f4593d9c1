#!/usr/bin/env bash
# stop-16 call 2: SSSP frontier timing on another machine, then every long GPU test
set -uo pipefail
. tools/device/setup.sh
CASES="sssp:frontier" BINARIES="b256=build/exp/emogi-256" SKIP_TESTS=1 bash tools/device/compare_builds.sh
EMOGI_LONG_GPU_TESTS=1 TESTS=tests/test_gpu_algorithms.py gpu_tests -k every_cell
