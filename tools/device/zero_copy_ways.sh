#!/usr/bin/env bash
# The paper's three ways to zero-copy (§3.1: managed + AccessedBy, cudaHostAlloc, cudaHostRegister), which it
# found equally fast, on GAP-24 with 8-byte ids, after the GPU tests. One detached job:
#   (device) bash tools/device/detached.sh start ways tools/device/zero_copy_ways.sh
#   -> $OUT/{gpu_tests.log, ways.tgz}; SKIP_TESTS=1 leaves the tests out.
set -uo pipefail
. tools/device/setup.sh
build_kernels
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  log "gpu tests"
  python3 -m pytest -q -m gpu tests/test_gpu_micro.py tests/test_bench.py tests/test_figures_apps.py \
    tests/test_gpu_bfs.py tests/test_gpu_algorithms.py tests/test_kernels.py > "$OUT/gpu_tests.log" 2>&1
  tail -2 "$OUT/gpu_tests.log"
fi
log "GAP-24: zerocopy, zerocopy-pinned, zerocopy-registered"
mkdir -p /tmp/ways
python3 -m emogi.bench --binary "$EMOGI_BINARY" --graphs kron:24,urand:24 --widths 8 \
  --modes zerocopy,zerocopy-pinned,zerocopy-registered --variants merged-aligned,direction-optimizing,frontier \
  --algorithms bfs,sssp,cc,pagerank --roots 2 --reps 2 --graph-dir /tmp/g --out-dir /tmp/ways \
  > /tmp/ways/stdout.txt 2> /tmp/ways/bench.log
echo "bench exit $?"
tar czf "$OUT/ways.tgz" -C /tmp/ways .
cut -c1-120 /tmp/ways/stdout.txt
log done
