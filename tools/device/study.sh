#!/usr/bin/env bash
# The default study on a GPU machine exactly as a user runs it, then the new archive:
#   snakemake --cores all && snakemake --cores all archive
# Brings back $OUT/study.tgz (archive/, results/{tables,figures,model,report}, logs/) and $OUT/study.log.
set -uo pipefail
. tools/device/setup.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
log() { echo "== $* ($(date +%T))"; }

log GPU tests
timeout 240 python3 -m pytest tests/test_gpu_bfs.py -q 2>&1 | tail -4

log "workflow: snakemake --cores all"
start=$(date +%s)
snakemake --cores all > "$OUT/snakemake.log" 2>&1; rc=$?
echo "snakemake exit $rc after $(( $(date +%s) - start )) s"
grep -E "^rule |Error|error:|Finished job|steps \(" "$OUT/snakemake.log" | tail -40
[ $rc -eq 0 ] || { tail -60 "$OUT/snakemake.log"; for f in logs/*/*.log; do echo "--- $f"; tail -15 "$f"; done; }

log archive
snakemake --cores all archive > "$OUT/archive.log" 2>&1 && cat results/archived.txt

log measurements
python3 - <<'PY'
import pandas as pd
runs = pd.read_csv("results/tables/runs.csv")
per_root = runs.groupby(["graph", "edge_bytes", "mode", "variant", "root"]).time_ms.median()
print(per_root.groupby(["graph", "edge_bytes", "mode", "variant"]).mean().unstack().round(1).to_string())
prof = pd.read_csv("results/tables/profile.csv")
print(prof[["graph", "variant", "mode", "launches", "avg_request_bytes", "pcie_read_bytes", "pcie_read_gbps"]].round(2).to_string())
PY

log "all tests (CPU and GPU), with the new archive in place"
timeout 300 python3 -m pytest -q 2>&1 | tail -6

log "footprint check: kron25, managed vs pinned"
timeout 240 bash tools/device/footprint_check.sh 25 "$OUT/footprint_kron25.csv"

log "uvm replay check"
timeout 200 bash tools/device/uvm_replay_check.sh resources/graphs/kron23.w8.csr results/roots/kron23.txt

tar czf "$OUT/study.tgz" archive results/tables results/figures results/model results/report results/roots logs
ls -la "$OUT"
