#!/usr/bin/env bash
# Reads in flight per lane (access.cuh, EMOGI_LOADS_IN_FLIGHT): the GPU tests on the new default build, then
# merged+aligned and the work-list variants, zero-copy, with 1 (the artifact's loop) against 4 (and 8).
# Binaries are built beforehand on the development machine and carried in build/exp/emogi-d{1,4,8} (bench.binary;
# `snakemake bench` needs the wheels):
#   (dev) cmake -S kernels -B /tmp/d1 -DCMAKE_CUDA_ARCHITECTURES=90 -DEMOGI_LOADS_IN_FLIGHT=1 && cmake --build /tmp/d1
#   (device) bash tools/device/loads_in_flight.sh     -> $OUT/pytest_gpu.log, $OUT/d*/summary.csv, $OUT/*.log
set -uo pipefail
. tools/device/setup.sh
nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader
export EMOGI_BINARY=$PWD/build/exp/emogi-d4 PATH=$PATH:/usr/local/cuda/bin
"$EMOGI_BINARY" list

log gpu tests
timeout ${TEST_TIMEOUT:-300} python3 -m pytest tests/test_gpu_algorithms.py tests/test_bench.py -q -p no:cacheprovider \
  --durations=5 > "$OUT/pytest_gpu.log" 2>&1; echo "pytest exit $?"; tail -12 "$OUT/pytest_gpu.log"

G=${GRAPHS:-kron:24,urand:24}
bench() {  # depth tag algorithms variants reps timeout
  log "d$1 $2"
  EMOGI_BINARY=$PWD/build/exp/emogi-d$1 bench_target "$OUT/d$1_$2" "$6" graphs="[$G]" widths=[8] algorithms="[$3]" \
    variants="[$4]" modes=[zerocopy] roots=2 reps="$5" warmup=1; echo "exit $?"
  cat "$OUT/d$1_$2/snakemake.log" >> "$OUT/bench.log"
}
for d in 1 4; do
  bench $d walk bfs,sssp merged-aligned,frontier 1 100
  bench $d cc cc merged-aligned,afforest 2 60
  bench $d pr pagerank merged-aligned 1 60
done
bench 8 walk bfs,sssp merged-aligned,frontier 1 80
grep -E "error|mismatch|generate_graph" "$OUT/bench.log" | head -12
log summary
python3 - "$OUT" <<'PY'
import sys, pathlib, pandas as pd
rows = []
for f in sorted(pathlib.Path(sys.argv[1]).glob("d*_*/summary.csv")):
    t = pd.read_csv(f); t.insert(0, "depth", f.parent.name.split("_")[0]); rows.append(t)
t = pd.concat(rows)
print(t.drop(columns=["edge_bytes", "mode"]).to_string(index=False, float_format=lambda x: f"{x:.3g}"))
PY
