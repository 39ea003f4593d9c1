#!/usr/bin/env bash
# stop-16 call 3: Nsight Compute counters of one frontier SSSP run (zero-copy, 8-byte ids) on kron24 and urand24
set -uo pipefail
. tools/device/setup.sh
export PATH=$PATH:/usr/local/cuda/bin
for g in kron24 urand24; do
  log "$g"
  gap_graph "$g"
  root=$(cut -d, -f1 /tmp/g/$g.roots)
  timeout 150 python3 -m emogi.profile run --binary "$EMOGI_BINARY" --report /tmp/$g.ncu-rep --out "$OUT/sssp_frontier_profile_$g.csv" \
    -- --algorithm sssp --graph /tmp/g/$g.w8.csr --name $g --variants frontier --modes zerocopy --roots "$root" \
    > "$OUT/profile_$g.log" 2>&1 || { echo "$g profile failed"; tail -5 "$OUT/profile_$g.log"; }
done
python3 - "$OUT" <<'PY'
import sys, glob, pandas as pd
for f in sorted(glob.glob(sys.argv[1] + "/sssp_frontier_profile_*.csv")):
    r = pd.read_csv(f)
    print(r[["graph", "variant", "launches", "sysmem_read_sectors", "pcie_read_bytes", "gpu_time_ns", "avg_request_bytes",
             "pcie_read_gbps", "edges_traversed" if "edges_traversed" in r else "graph"]].to_string())
PY
log done
