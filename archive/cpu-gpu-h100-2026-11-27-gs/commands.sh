#!/usr/bin/env bash
# Session D3 (warm machine, graphs in /tmp/g): issue 23's Gauss-Seidel under GAP's rule after cpufast.
set -uo pipefail
export EMOGI_WHEELS=none
. tools/device/setup.sh
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "commit $EMOGI_COMMIT"; } > $OUT/host.txt
python3 -m emogi.toolchain --build build --arch 90 > $OUT/build.log 2>&1 || { tail -5 $OUT/build.log; exit 1; }
for name in kron24 urand24; do
  timeout 100 build/emogi_cpu pagerank --graph /tmp/g/$name.w4.csr --bind close --places cores --kernels unblocked,blocked \
    --segments auto --form gauss-seidel --stop total-change --epsilon 1e-4 --reps 3 --warmup 0 \
    > $OUT/pagerank_gap_gs_$name.csv 2> $OUT/pagerank_gap_gs_$name.log || tail -3 $OUT/pagerank_gap_gs_$name.log
done
python3 -c "
import pandas as pd,glob
for f in sorted(glob.glob('$OUT/pagerank_gap_gs_*.csv')):
    d=pd.read_csv(f); print(f.split('/')[-1]); print(d[['kernel','segments','iterations','converged','verified','median_ms','min_ms','max_ms','ms_per_iteration','threads']].to_string(index=False))
"
