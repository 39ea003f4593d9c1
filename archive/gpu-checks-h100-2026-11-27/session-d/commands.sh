#!/usr/bin/env bash
# Session E2: the pass-log test with its traceback, the streamed tests the first call's limit cut, the algorithms.
set -uo pipefail
export EMOGI_WHEELS=none
. tools/device/setup.sh
{ date -u; nvidia-smi; echo "commit $EMOGI_COMMIT"; } > $OUT/host.txt 2>&1
build_kernels
t() { local name=$1 lim=$2; shift 2; log "tests $name"; timeout $lim python3 -m pytest -q -m gpu --tb=short --durations=5 "$@" > $OUT/t_$name.log 2>&1; echo "$name: $(grep -E '(passed|failed|error)' $OUT/t_$name.log | tail -1)"; }
t pass_log 240 tests/test_gpu_pass_log.py
t streamed_rest 300 tests/test_gpu_streamed.py -k "sssp-racecheck or over_one_gib or without_edges"
t algorithms 480 tests/test_gpu_algorithms.py tests/test_gpu_bfs.py
log done
