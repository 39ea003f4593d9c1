#!/usr/bin/env bash
# The out-of-GPU-memory study (config/oom.yaml, workflow/rules/oom.smk) on the device, as a user runs it:
# `snakemake --cores all TARGETS --configfile CONFIG` within TIMEOUT seconds (needs the wheels: setup.sh).
#   (device) CONFIG=config/oom.yaml TARGETS="results/oom/fresh/kron24.bfs.simulated.csv" TIMEOUT=540 \
#            bash tools/device/oom_study.sh
# Brings back $OUT/oom.tgz: results/oom/fresh/*.csv (not the traces: hundreds of MB), results/oom/tables, the
# jobs' logs and snakemake's; prints the parts' row counts. SMOKE=1 first runs the whole pipeline on kron18.
set -uo pipefail
. tools/device/setup.sh
log start
if [ "${SMOKE:-0}" = 1 ]; then
  cat > /tmp/oom-smoke.yaml <<'YAML'
graphs:
  kron18: {source: generator, generator: kron, scale: 18, edge_factor: 16, seed: 24, weights_seed: 24}
oom:
  measurements: fresh
  graphs: [kron18]
YAML
  log smoke
  timeout 300 snakemake --cores all results/oom/tables/oom.csv --configfile /tmp/oom-smoke.yaml \
    > "$OUT/smoke.log" 2>&1 || { echo "smoke failed"; tail -20 "$OUT/smoke.log"; }
  mkdir -p /tmp/smoke && cp -r results/oom /tmp/smoke/ && rm -rf results/oom
fi
log "snakemake ${TARGETS:-oom}"
timeout "${TIMEOUT:-540}" snakemake --cores all ${TARGETS:-results/oom/tables/oom.csv} --configfile "${CONFIG:-config/oom.yaml}" \
  > "$OUT/snakemake.log" 2>&1; rc=$?
[ $rc -eq 0 ] || { echo "snakemake exit $rc"; grep -hE "Error|error:|failed" "$OUT/snakemake.log" logs/oom/*.log | head -8; }
tar -czf "$OUT/oom.tgz" --exclude='*/traces/*' results/oom logs/oom logs/datasets logs/build /tmp/smoke 2> /dev/null
for f in results/oom/fresh/*.csv /tmp/smoke/oom/fresh/*.csv; do [ -f "$f" ] && echo "$(($(wc -l < "$f") - 1)) rows $f"; done
du -sh results/oom/fresh/traces/* 2> /dev/null
log done
