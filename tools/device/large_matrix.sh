#!/usr/bin/env bash
# Every algorithm x variant x mode x width, verified on one graph of over 1 GiB (kron scale 23, edge factor 16:
# a 1.9 GiB edge list with 8-byte ids), after the GPU tests. One detached job:
#   (device) bash tools/device/detached.sh start large tools/device/large_matrix.sh
#   -> $OUT/{gpu_tests.log, kron23.tgz}; SKIP_TESTS=1 leaves the tests out.
set -uo pipefail
. tools/device/setup.sh
build_and_test
log "kron23: the whole matrix, both widths"
mkdir -p /tmp/kron23
python3 -m emogi.bench --binary "$EMOGI_BINARY" --graphs kron:23 --widths 8,4 --roots 1 --reps 1 --warmup 1 \
  --graph-dir /tmp/g --out-dir /tmp/kron23 > /tmp/kron23/stdout.txt 2> /tmp/kron23/bench.log
echo "bench exit $?"
ls -la /tmp/g >> /tmp/kron23/bench.log
tar czf "$OUT/kron23.tgz" -C /tmp/kron23 .
tail -3 /tmp/kron23/bench.log
log done
