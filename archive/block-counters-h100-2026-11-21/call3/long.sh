#!/usr/bin/env bash
# stop-17 call 3: every long GPU test (the whole matrix on the 1.9 GiB graph) with the committed BlockCounters build
set -uo pipefail
. tools/device/setup.sh
EMOGI_BINARY=$PWD/build/exp/emogi-final EMOGI_LONG_GPU_TESTS=1 TESTS=tests/test_gpu_algorithms.py gpu_tests -k every_cell
