#!/usr/bin/env bash
# Every algorithm x variant x mode x width, verified on one graph of over 1 GiB (kron scale 23, edge factor 16:
# a 1.9 GiB edge list with 8-byte ids), after the GPU tests (`snakemake bench`: needs the wheels). One detached job:
#   (device) bash tools/device/detached.sh start large tools/device/large_matrix.sh
#   -> $OUT/{gpu_tests.log, kron23.tgz}; SKIP_TESTS=1 leaves the tests out.
set -uo pipefail
. tools/device/setup.sh
build_and_test
log "kron23: the whole matrix, both widths"
bench_target /tmp/kron23 3600 graphs=[kron:23] widths=[8,4] roots=1 reps=1 warmup=1
echo "bench exit $?"
ls -la resources/graphs/kron23.* >> /tmp/kron23/snakemake.log
tar czf "$OUT/kron23.tgz" -C /tmp/kron23 .
tail -3 /tmp/kron23/snakemake.log
log done
