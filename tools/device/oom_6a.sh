#!/usr/bin/env bash
# Issue 21 item 6a's missed cells measured again as supplements (docs/out-of-memory.md, "A supplement"): each part
# `emogi.oom_measure --only-hottest-first` (zerocopy with traces, then hottest-first at each budget, ranked by what a
# read costs its reader: emogi.trace_hotness.HOT_WEIGHTS), then `model.oom_simulate --placement-only` (c of the
# bytes actually read: emogi.trace_exact), with config/oom.yaml's settings (GAP graphs, seed 24, 8-byte ids; roots
# `--count 8 --seed 7`; 2 reps after 1 warm-up).
#   (device) bash tools/device/oom_6a.sh                 # STEPS="kron24 gs" (default): one call, about 7 minutes
#   (device) STEPS=merged bash tools/device/oom_6a.sh    # urand24's BFS Merged part (fits, zerocopy, auto, capped)
# Steps: kron24  kron24 BFS naive and direction-optimizing at 0.5 and 0.25;
#        gs      urand24 Gauss-Seidel PageRank at 0.5, then (while the call has 35 s left for each) its per-round
#                times (--pass-log) in hottest-first and zerocopy at 0.5 and in device memory;
#        merged  urand24 BFS merged, the whole part (about 5 minutes; its simulation is left to the CPU: --derive
#                is exact for BFS).
# A step starts only with the time it needs left of LIMIT seconds (default 560) and runs under what is left.
# Brings back $OUT/parts/*.csv (rows and c), $OUT/logs/*.log, $OUT/gs_passes_*.csv, host.txt; prints the medians.
set -uo pipefail
export EMOGI_WHEELS=${EMOGI_WHEELS:-none}
. tools/device/setup.sh
T0=$(date +%s)
LIMIT=${LIMIT:-560}
STEPS=${STEPS:-kron24 gs}
left() { echo $((LIMIT - ($(date +%s) - T0))); }
{ date -u; nvidia-smi; echo "commit: ${EMOGI_COMMIT:-$(git rev-parse --short HEAD 2> /dev/null)}"; nproc; free -g; } \
  > "$OUT/host.txt" 2>&1
build_kernels
G=resources/graphs T=/tmp/oomt
mkdir -p "$G" results/roots "$T" "$OUT/parts" "$OUT/logs"
graph() {  # NAME KIND: the graph as config/oom.yaml makes it, and the study's roots
  log "graph $1"
  [ -f "$G/$1.w8.csr" ] || python3 -m emogi.datasets.generators --kind "$2" --scale 24 --edge-factor 16 --seed 24 \
    --weights-seed 24 --out "$G/$1.w8.csr" --meta "$G/$1.w8.json" > "$OUT/logs/gen_$1.log" 2>&1 \
    || { tail -3 "$OUT/logs/gen_$1.log"; return 1; }
  python3 -m emogi.datasets.roots "$G/$1.w8.csr" --count 8 --seed 7 --out "results/roots/$1.txt" \
    >> "$OUT/logs/gen_$1.log" 2>&1 && paste -sd' ' "results/roots/$1.txt"
}
need() {  # STEP SECONDS: whether STEP is asked for and SECONDS are left
  [[ " $STEPS " == *" $1 "* ]] || return 1
  [ "$(left)" -ge "$2" ] && return 0
  echo "$1: skipped, $(left) s left of $LIMIT (needs $2)"
  return 1
}
measure() {  # NAME ALGORITHM VARIANTS BUDGETS SUFFIX [oom_measure options]: one part, under the time left
  local name=$1 alg=$2 variants=$3 budgets=$4 suffix=$5; shift 5
  log "measure $name.$alg$suffix ($variants at $budgets)"
  timeout $(($(left) - 10)) python3 -m emogi.oom_measure --binary "$EMOGI_BINARY" --graph "$G/$name.w8.csr" \
    --name "$name" --algorithm "$alg" --variants "$variants" --roots-file "results/roots/$name.txt" --roots 2 \
    --hot-roots 2 --budgets "$budgets" --reps 2 --warmup 1 --jobs 4 --trace-dir "$T/$name.$alg$suffix" \
    --out "$OUT/parts/$name.$alg$suffix.runs.csv" "$@" > "$OUT/logs/measure_$name.$alg$suffix.log" 2>&1 \
    || { echo "measure $name.$alg$suffix failed"; tail -3 "$OUT/logs/measure_$name.$alg$suffix.log"; }
  grep -E "^== .*: [0-9.]+ s|placed auto" "$OUT/logs/measure_$name.$alg$suffix.log" | cut -c1-150
}
placement() {  # NAME ALGORITHM SUFFIX: c of the part's placements from its recorded traces
  local part=$1.$2$3
  [ -f "$OUT/parts/$part.runs.csv" ] || return 0
  log "placement $part"
  timeout $(($(left) - 5)) python3 -m model.oom_simulate --graph "$G/$1.w8.csr" --runs "$OUT/parts/$part.runs.csv" \
    --trace-dir "$T/$part" --params archive/uvm-sim-validation-2026-11-25/params.json --placement-only --jobs 4 \
    --out "$OUT/parts/$part.simulated.csv" --out-placement "$OUT/parts/$part.placement.csv" \
    > "$OUT/logs/simulate_$part.log" 2>&1 || { echo "placement $part failed"; tail -3 "$OUT/logs/simulate_$part.log"; }
}
# kron24: generation 17 s; a part of 2 variants: zerocopy 35 s, hot traces 30 s, the bottom-up lines of 2 hot
# roots derived on the CPU 20 s, 4 hottest-first runs 30 s each; c of 4 traces 40 s (call 13's logs, this CPU)
if need kron24 300; then
  graph kron24 kron
  measure kron24 bfs naive,direction-optimizing 0.5,0.25 .6a --only-hottest-first
  placement kron24 bfs .6a
fi
if need gs 75 && graph urand24 urand; then
  measure urand24 pagerank gauss-seidel 0.5 .6a --only-hottest-first
  placement urand24 pagerank .6a
  # per-round times (docs/kernels.md, --pass-log): the GPU's own work (device, no budget) beside the link's
  M=$(grep "^+ " "$OUT/logs/measure_urand24.pagerank.6a.log" | grep -o -- "--gpu-memory-budget [0-9]*" | tail -1 | cut -d' ' -f2)
  hot=(--auto-reserve 0 --auto-order hottest-first --auto-hot "$T/urand24.pagerank.6a/hot/gauss-seidel.u32")
  for mode in auto zerocopy device; do
    need gs 35 || break
    log "gs passes $mode"
    case $mode in
      auto) opts=(--gpu-memory-budget "$M" "${hot[@]}") ;;
      zerocopy) opts=(--gpu-memory-budget "$M") ;;
      device) opts=() ;;
    esac
    timeout $(($(left) - 5)) "$EMOGI_BINARY" run --algorithm pagerank --graph "$G/urand24.w8.csr" --name urand24 \
      --variants gauss-seidel --modes "$mode" "${opts[@]}" --reps 1 --warmup 0 --pass-log "$OUT/gs_passes_$mode.csv" \
      --out "$OUT/gs_passes_runs_$mode.csv" >> "$OUT/logs/gs_passes.log" 2>&1 \
      || { echo "gs passes $mode failed"; tail -2 "$OUT/logs/gs_passes.log"; }
  done
fi
if need merged 300 && graph urand24 urand; then
  measure urand24 bfs merged 0.5,0.25 .merged
fi
python3 - "$OUT/parts" << 'PY'
import glob, sys
import pandas as pd
for p in sorted(glob.glob(f"{sys.argv[1]}/*.runs.csv")):
    d = pd.read_csv(p).assign(order=lambda f: f["auto_order"].fillna(f["mode"]))
    print(p.split("/")[-1])
    print(d.groupby(["variant", "budget_fraction", "order"], dropna=False)["time_ms"].median().to_string())
for p in sorted(glob.glob(f"{sys.argv[1]}/*.placement.csv")):
    print(p.split("/")[-1])
    print(pd.read_csv(p).groupby(["variant", "budget_fraction", "auto_order"])["served_fraction"].mean().to_string())
PY
log "done ($(left) s left)"
