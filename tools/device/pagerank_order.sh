#!/usr/bin/env bash
# PageRank in Jacobi rounds (the artifact's merged-aligned, and `frontier`) against Gauss-Seidel order
# (`gauss-seidel`) on the artifact's GAP-24 graphs: GPU tests first, then the bench (`snakemake bench`: needs the wheels).
#   (device) bash tools/device/pagerank_order.sh   -> $OUT/pagerank_order.tgz (bench tables, logs, GPU tests)
#   MODES (default zerocopy,device), WIDTHS (default 8,4), GRAPHS (default kron:24,urand:24); SKIP_TESTS=1.
set -uo pipefail
. tools/device/setup.sh
build_kernels
R=$OUT/pagerank_order
mkdir -p "$R"
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  log "gpu tests"
  python3 -m pytest -q -m gpu tests/test_gpu_algorithms.py tests/test_bench.py tests/test_kernels.py \
    > "$R/gpu_tests.log" 2>&1
  tail -2 "$R/gpu_tests.log"
fi
log "pagerank bench"
bench_target "$R/bench" 3600 graphs="[${GRAPHS:-kron:24,urand:24}]" widths="[${WIDTHS:-8,4}]" algorithms=[pagerank] \
  variants=[merged-aligned,frontier,gauss-seidel] modes="[${MODES:-zerocopy,device}]" reps=2 warmup=1
echo "bench exit $?"
tar -C "$OUT" -czf "$OUT/pagerank_order.tgz" pagerank_order && rm -rf "$R"
log done
tar -xzOf "$OUT/pagerank_order.tgz" pagerank_order/bench/runs.csv | python3 -c "
import sys, pandas as pd
r = pd.read_csv(sys.stdin)
t = r.groupby(['graph', 'edge_bytes', 'mode', 'variant']).agg(median_ms=('time_ms', 'median'),
    rounds=('iterations', 'median'), entries=('edges_traversed', 'median'))
print(t.to_string())"
