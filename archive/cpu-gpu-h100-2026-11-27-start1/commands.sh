#!/usr/bin/env bash
# Session E1 (2026-11-27): issue 23's GAP-start PageRank on the host, then the merged colblock + crossover
# branches: their GPU tests, SpMV rows vs columns, and per-pass logs of PageRank / CC / SSSP for the crossover figure.
set -uo pipefail
export EMOGI_WHEELS=none
. tools/device/setup.sh
{ date -u; nvidia-smi; echo "commit $EMOGI_COMMIT"; lscpu | head -20; } > $OUT/host.txt 2>&1
build_kernels
BIN=$EMOGI_BINARY
w4() { gap_graph $1 > $OUT/gen_$1.log 2>&1; [ -f /tmp/g/$1.w4.csr ] || python3 -m emogi.csr narrow /tmp/g/$1.w8.csr \
  --out /tmp/g/$1.w4.csr --meta /tmp/g/$1.w4.json >> $OUT/gen_$1.log 2>&1; }
log "graph kron24"; w4 kron24
log "cpu pr24gap kron24"
(export OUT=$OUT/cpu G=/tmp/g STEPS=pr24gap GAP_GRAPHS=kron24 ACCESS_AB=none; mkdir -p $OUT; bash tools/device/cpu_study.sh > $OUT/study_kron24.log 2>&1; tail -4 $OUT/study_kron24.log)
log "gpu tests"
TESTS="tests/test_gpu_column_blocks.py tests/test_gpu_pass_log.py tests/test_gpu_streamed.py" timeout 600 bash -c '. tools/device/setup.sh; gpu_tests'
log "graph urand24"; w4 urand24
log "columns"
(export OUT=$OUT/col PARTS=columns SKIP_TESTS=1; mkdir -p $OUT; bash tools/device/streamed_check.sh > $OUT/check.log 2>&1; tail -30 $OUT/check.log)
mkdir -p $OUT/pass
for name in kron24 urand24; do
  g=/tmp/g/$name.w4.csr R=$(cat /tmp/g/$name.roots)
  for a in pagerank cc sssp; do
    v=$([ $a = pagerank ] && echo gauss-seidel,merged-aligned || echo merged-aligned)
    log "pass log $a $name"
    o=$OUT/pass/crossover_${a}_${name}_w4
    timeout 300 "$BIN" run --algorithm $a --graph $g --name $name --variants $v --modes zerocopy,streamed \
      --stream-block-bytes 64M --stream-buffers 2 --reps 3 --warmup 1 $([ $a = sssp ] && echo --roots $R) \
      --pass-log $o.passes.csv --out $o.csv > $o.log 2>&1 || tail -3 $o.log
  done
done
log "cpu pr24gap urand24"
(export OUT=$OUT/cpu G=/tmp/g STEPS=pr24gap GAP_GRAPHS=urand24 ACCESS_AB=none; bash tools/device/cpu_study.sh > $OUT/study_urand24.log 2>&1; tail -4 $OUT/study_urand24.log)
log "table"
python3 - <<'PY'
import glob, os, pandas as pd
out = os.environ["OUT"]
for f in sorted(glob.glob(f"{out}/cpu/pagerank_gap*.csv")):
    try:
        d = pd.read_csv(f)
        print(os.path.basename(f)); print(d.filter(["kernel", "segments", "iterations", "converged", "verified", "median_ms", "min_ms", "max_ms", "l1_to_reference"]).to_string(index=False))
    except Exception as e: print(f, e)
for f in sorted(glob.glob(f"{out}/pass/*_w4.csv")):
    d = pd.read_csv(f)
    print(os.path.basename(f), d.groupby(["variant", "mode"]).agg(ms=("time_ms", "median"), ok=("verified", "all")).to_string())
PY
log done
