#!/usr/bin/env bash
# `auto`'s orders (--auto-order prefix / longest-first / shortest-first) where part of the lists fits in GPU
# memory: the GPU tests of the kernels first, then auto_partial.sh on GAP-24 (default: PageRank, SSSP and BFS).
#   (device) bash tools/device/auto_order.sh  -> $OUT/gpu_tests.log, $OUT/auto_partial.tgz; SKIP_TESTS=1, TESTS
#   (the GPU test files, default the kernels'), RUNS and BUDGETS (auto_partial.sh's, defaults below).
set -uo pipefail
. tools/device/setup.sh
TESTS=${TESTS:-tests/test_gpu_algorithms.py tests/test_kernels.py} build_and_test
RUNS=${RUNS:-"pagerank:gauss-seidel sssp:frontier bfs:direction-optimizing"} BUDGETS=${BUDGETS:-"1536M 2560M"} \
  bash tools/device/auto_partial.sh
