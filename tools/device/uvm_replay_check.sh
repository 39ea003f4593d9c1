#!/usr/bin/env bash
# Does Nsight Compute count a cold UVM traversal's page migrations the same under kernel replay (what the
# profile stage uses) and application replay (every pass a fresh process, so every pass is truly cold)?
#   bash tools/device/uvm_replay_check.sh GRAPH.csr ROOTS.txt     (on a GPU machine; prints one line per mode)
set -uo pipefail
graph=$1; roots=$2; OUT=$(mktemp -d)
log() { echo "== $* ($(date +%T))"; }
log 'ncu: cold-UVM PCIe bytes under kernel vs application replay: kron23, merged-aligned, one root'
r=$(head -n1 $roots)
for replay in kernel application; do
  timeout 240 ncu --replay-mode $replay --clock-control none -k regex:bfs_level --csv --page raw \
    --metrics pcie__read_bytes.sum,lts__t_sectors_srcunit_tex_aperture_sysmem_op_read.sum,gpu__time_duration.sum \
    build/emogi bfs --graph $graph --roots $r --variants merged-aligned --modes uvm \
    --reps 1 --warmup 0 --out /tmp/x.csv > "$OUT/ncu_uvm_$replay.csv" 2> "$OUT/ncu_uvm_$replay.err"
  python3 - "$OUT/ncu_uvm_$replay.csv" $replay <<'PY'
import io, sys, pandas as pd
text = open(sys.argv[1]).read()
frame = pd.read_csv(io.StringIO(text[text.index('"ID"'):]), skiprows=[1])
cols = [c for c in frame.columns if c.endswith(".sum")]
print(sys.argv[2], "replay:", len(frame), "launches;", {c: float(pd.to_numeric(frame[c].astype(str).str.replace(",", ""), errors="coerce").sum()) for c in cols})
PY
done
