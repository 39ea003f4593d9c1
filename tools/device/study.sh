#!/usr/bin/env bash
# The default study on a GPU machine exactly as a user runs it, then the new archive:
#   snakemake --cores all && snakemake --cores all archive
# Brings back $OUT/study.tgz (archive/, results/{tables,figures,model,report}, logs/) and $OUT/study.log.
# Tests: tools/device/gpu_tests.sh.
set -uo pipefail
. tools/device/setup.sh

log "workflow: snakemake --cores all"
start=$(date +%s)
# STUDY_TIMEOUT (s) stops the workflow early enough for the logs to come back from a time-limited call.
timeout "${STUDY_TIMEOUT:-0}" snakemake --cores all > "$OUT/snakemake.log" 2>&1; rc=$?
echo "snakemake exit $rc after $(( $(date +%s) - start )) s"
grep -E "Error|error:|steps \(" "$OUT/snakemake.log" | tail -4
[ $rc -eq 0 ] || { tail -40 "$OUT/snakemake.log"; for f in $(ls -t logs/*/*.log | head -4); do echo "--- $f"; tail -15 "$f"; done; }

log archive
[ $rc -eq 0 ] && snakemake --cores all archive > "$OUT/archive.log" 2>&1 && cat results/archived.txt

log measurements
python3 - <<'PY'
import json, pandas as pd
from emogi.tables import default_launch
runs = default_launch(pd.read_csv("results/tables/runs.csv"))
per_root = runs.groupby(["graph", "edge_bytes", "mode", "variant", "root"]).time_ms.median()
print(per_root.groupby(["graph", "edge_bytes", "mode", "variant"]).mean().unstack().round(1).to_string())
from figures.applications import app_times
apps = app_times(pd.read_csv("results/tables/apps.csv"))  # EMOGI §5.4, as Figs. 11 and 12 time them
if len(apps):
    print(apps.set_index(["algorithm", "graph", "edge_bytes", "variant", "mode"]).time_ms.unstack().round(1).to_string())
s = json.load(open("results/model/prediction_summary.json"))
print("model:", {k: s[k] for k in ("median_abs_error", "worst_abs_error", "worst_run", "n_runs", "rule")})
p = json.load(open("results/model/parameters.json"))
print("W", p["W_gbps"]["value"], "N_max", p["N_max"]["value"], [(l["mode"], l["footprint_bytes"] >> 20, round(l["L_us"], 3)) for l in p["latency"]])
PY

tar czf "$OUT/study.tgz" archive results/tables results/figures results/model results/report results/roots logs
ls -la "$OUT"
