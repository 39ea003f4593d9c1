#!/usr/bin/env bash
# Nsight Compute counters of one run per GAP graph, launch by launch (`emogi.profile run --launches`): where a
# run's bytes and time go, e.g. SSSP `frontier` bucket by bucket. First the profile's GPU tests.
#   (device) bash tools/device/profile_launches.sh
#            -> $OUT/launches_GRAPH.csv (a row per launch), $OUT/profile_GRAPH.csv (the run), logs, a table
#   GRAPHS (default "kron24 urand24"), ALGORITHM (sssp), VARIANT (frontier), MODE (zerocopy); 8-byte ids, the
#   first of the bench's roots.
set -uo pipefail
. tools/device/setup.sh
build_kernels
export PATH=$PATH:/usr/local/cuda/bin
TESTS=tests/test_gpu_bfs.py gpu_tests -k profile
for g in ${GRAPHS:-kron24 urand24}; do
  log "$g"
  gap_graph "$g"
  python3 -m emogi.profile run --binary "$EMOGI_BINARY" --report "/tmp/$g.ncu-rep" --out "$OUT/profile_$g.csv" \
    --launches "$OUT/launches_$g.csv" -- --algorithm "${ALGORITHM:-sssp}" --graph "/tmp/g/$g.w8.csr" --name "$g" \
    --variants "${VARIANT:-frontier}" --modes "${MODE:-zerocopy}" --roots "$(cut -d, -f1 /tmp/g/$g.roots)" \
    > "$OUT/profile_$g.log" 2>&1 || { echo "$g: profile failed"; tail -5 "$OUT/profile_$g.log"; }
done
python3 - "$OUT" <<'PY'
import sys
from pathlib import Path

import pandas as pd

for path in sorted(Path(sys.argv[1]).glob("launches_*.csv")):
    t = pd.read_csv(path)
    t["fetched_MB"] = t["sysmem_read_sectors"] * 32 / 1e6
    t["ms"] = t["gpu_time_ns"] / 1e6
    print(f"\n{path.stem}: {len(t)} launches, {t['ms'].sum():.1f} ms, {t['fetched_MB'].sum():.0f} MB fetched")
    print(t.groupby("kernel").agg(launches=("ms", "size"), ms=("ms", "sum"), slowest_ms=("ms", "max"),
                                  fetched_MB=("fetched_MB", "sum")).round(2).to_string())
    print(t[["launch", "kernel", "ms", "fetched_MB", "avg_request_bytes", "pcie_read_gbps"]].round(2).to_string(index=False))
PY
log done
