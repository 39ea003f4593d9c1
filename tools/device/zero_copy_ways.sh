#!/usr/bin/env bash
# The paper's three ways to zero-copy (§3.1: managed + AccessedBy, cudaHostAlloc, malloc + cudaHostRegister), which
# it found equally fast, with its kernel (merged+aligned) on GAP-24, 8-byte ids, after the GPU tests; then the
# default bench matrix, timed. One detached job:
#   (device) bash tools/device/detached.sh start ways tools/device/zero_copy_ways.sh
#   -> $OUT/{gpu_tests.log, ways.tgz, bench21.tgz}; SKIP_TESTS=1 leaves the tests out, SKIP_BENCH=1 the matrix.
set -uo pipefail
. tools/device/setup.sh
build_and_test
log "GAP-24: zerocopy, zerocopy-pinned, zerocopy-registered"
mkdir -p /tmp/ways
# zerocopy-registered asks for transparent huge pages: record whether the host grants them
echo "THP enabled: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1)" | tee /tmp/ways/thp.txt
( for i in $(seq 60); do sleep 5; echo "$(date +%T) $(grep AnonHugePages /proc/meminfo)"; done >> /tmp/ways/thp.txt ) &
sampler=$!
bench_target /tmp/ways 420 graphs=[kron:24,urand:24] widths=[8] modes=[zerocopy,zerocopy-pinned,zerocopy-registered] \
  variants=[merged-aligned] algorithms=[bfs,sssp,cc,pagerank] roots=2 reps=2 warmup=1
echo "ways exit $?"
kill $sampler 2>/dev/null
sort -k3 -n /tmp/ways/thp.txt | tail -1
tar czf "$OUT/ways.tgz" -C /tmp/ways .
cut -c1-120 /tmp/ways/stdout.txt
if [ "${SKIP_BENCH:-0}" != 1 ]; then
  log "snakemake --cores all bench (scale 21, the default config; needs the wheels: EMOGI_WHEELS=build/whl)"
  OUT=/tmp/bench21 bash tools/device/bench_workflow.sh > /tmp/bench21.txt 2>&1
  tar czf "$OUT/bench21.tgz" -C /tmp/bench21 . /tmp/bench21.txt 2>/dev/null
  head -5 /tmp/bench21.txt
fi
log done
