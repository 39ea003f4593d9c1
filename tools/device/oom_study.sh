#!/usr/bin/env bash
# The out-of-GPU-memory study (config/oom.yaml, workflow/rules/oom.smk) on the device, as a user runs it, part by
# part: `snakemake --cores all results/oom/fresh/PART.runs.csv --configfile CONFIG` for every PART (GPU jobs, one
# after the other), then their `.simulated.csv` (the simulator on the CPU, after the GPU work, so that it does not
# load host memory under a timed zero-copy run). Needs the wheels (setup.sh).
#   (device) PARTS="kron24.bfs kron24.sssp" bash tools/device/oom_study.sh
# Brings back $OUT/oom_<first part>.tgz: the parts' CSVs (not the traces: hundreds of MB), the jobs' logs and
# snakemake's; prints the row counts. SMOKE=1 first runs the whole pipeline on kron18 (results kept apart).
set -uo pipefail
. tools/device/setup.sh
CONFIG=${CONFIG:-config/oom.yaml}
log start
if [ "${SMOKE:-0}" = 1 ]; then
  printf '%s\n' "graphs:" "  kron18: {source: generator, generator: kron, scale: 18, edge_factor: 16, seed: 24, weights_seed: 24}" \
    "oom:" "  measurements: fresh" "  graphs: [kron18]" > /tmp/oom-smoke.yaml
  log smoke
  timeout 300 snakemake --cores all results/oom/tables/oom.csv --configfile /tmp/oom-smoke.yaml \
    > "$OUT/smoke.log" 2>&1 || { echo "smoke failed"; tail -20 "$OUT/smoke.log"; }
  mkdir -p /tmp/smoke && cp -r results/oom /tmp/smoke/ && rm -rf results/oom
fi
sm() {  # label timeout targets...
  local label=$1 limit=$2; shift 2
  log "$label: $*"
  timeout "$limit" snakemake --cores all "$@" --configfile "$CONFIG" ${EXTRA_CONFIG:+"$EXTRA_CONFIG"} >> "$OUT/snakemake.log" 2>&1 \
    || { echo "$label: snakemake failed"; grep -hE "Error|error:|failed" "$OUT/snakemake.log" logs/oom/*.log | tail -6; }
}
# A kron24 BFS part takes 4.5 minutes (uvm-capped of four variants), PageRank 5.5, CC 3, SSSP an estimated 6-7
# (11 runs of the binary, each with its CPU references): one or two parts per call. EXTRA_CONFIG: a config file
# laid over CONFIG (e.g. fewer variants).
parts=(${PARTS:?name the parts, e.g. PARTS=\"kron24.bfs kron24.cc\"})
paths=("${parts[@]/#/results/oom/fresh/}")
limit=${MEASURE_TIMEOUT:-320}; [ "$limit" -gt 430 ] && limit=430  # leaves the simulation and the packing room in 600 s
sm measure "$limit" "${paths[@]/%/.runs.csv}"
# simulate every measured part not simulated yet (a warm machine keeps the traces of earlier calls)
pending=()
for r in results/oom/fresh/*.runs.csv; do [ -f "$r" ] && [ ! -f "${r%.runs.csv}.simulated.csv" ] && pending+=("${r%.runs.csv}.simulated.csv"); done
[ ${#pending[@]} -gt 0 ] && sm simulate "${SIMULATE_TIMEOUT:-190}" "${pending[@]}"
tar -czf "$OUT/oom_${parts[0]}.tgz" --exclude='*/traces/*' results/oom logs/oom /tmp/smoke 2> /dev/null
for f in results/oom/fresh/*.csv; do [ -f "$f" ] && echo "$(($(wc -l < "$f") - 1)) rows $f"; done
grep -h "median\|uvm-capped, \|error" logs/oom/measure_*.log | cut -c1-160 | tail -${TAIL:-60}
log done
