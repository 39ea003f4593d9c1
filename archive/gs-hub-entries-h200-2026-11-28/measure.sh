#!/usr/bin/env bash
# Issue 24, Gauss-Seidel PageRank's extra rounds on Kronecker graphs: does `emogi run --pr-hub-entries N` (a round
# defers lists longer than N to pagerank_push_hubs) shorten and steady the runs that the pass logs
# (archive/gs-pass-logs-h200-2026-11-28) showed held up by one warp walking a hub's list? First the option's GPU
# tests, then per graph and width: PROCS processes, each one `emogi run` per N (N = 0 with merged-aligned, its Jacobi
# schedule, beside it), 1 warm-up + REPS timed runs, device and zero-copy; then one process with --pass-log for
# N = 0 and 1024. A descriptive measurement, not a validation. From the repository root on the GPU machine:
#   EMOGI_COMMIT=<commit> EMOGI_WHEELS=none bash archive/gs-hub-entries-h200-2026-11-28/measure.sh
set -uo pipefail
. tools/device/setup.sh
S=/tmp/gshub; G=/tmp/gshub_graphs; mkdir -p "$S/runs" "$S/passes" "$S/logs" "$S/graphs" "$G"
REPS=${REPS:-5}; PROCS=${PROCS:-3}; BUDGET_S=${BUDGET_S:-300}; start=$(date +%s)
HUBS=${HUBS:-"0 256 1024 4096"}
# name -> generator seed: the held-out splits that judged them (docs/holdout-*.md), as the pass logs'
declare -A SEED=([kron19ef11]=34 [kron19ef9]=35 [kron19ef13]=35 [kron19ef12]=29 [urand19ef11]=34)
NAMES=${NAMES:-"kron19ef11 kron19ef9 kron19ef13 kron19ef12 urand19ef11"}
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,uuid,driver_version --format=csv
  echo "commit: ${EMOGI_COMMIT:-$(git rev-parse HEAD 2> /dev/null)}"; } > "$S/host.txt" 2>&1
build_kernels
TESTS=tests/test_pr_hub_entries.py gpu_tests; cp "$OUT/gpu_tests.log" "$S/logs/"
for name in $NAMES; do
  [ $(( $(date +%s) - start )) -lt "$BUDGET_S" ] || { echo "$name" >> "$S/deferred.txt"; continue; }
  kind=${name%%[0-9]*} rest=${name#"$kind"}; scale=${rest%%ef*} ef=${rest#*ef}
  log "generate $name"
  python3 -m emogi.datasets.generators --kind "$kind" --scale "$scale" --edge-factor "$ef" --seed "${SEED[$name]}" \
    --weights-seed "${SEED[$name]}" --out "$G/$name.w8.csr" --meta "$S/graphs/$name.w8.json" \
    > "$S/logs/gen_$name.log" 2>&1 || { echo "gen $name failed"; continue; }
  python3 -m emogi.csr narrow "$G/$name.w8.csr" --out "$G/$name.w4.csr" --meta "$S/graphs/$name.w4.json" \
    >> "$S/logs/gen_$name.log" 2>&1
  for w in 8 4; do
    base=(run --algorithm pagerank --graph "$G/$name.w$w.csr" --name "$name" --modes device,zerocopy --reps "$REPS"
      --warmup 1 --run-order rounds)
    for p in $(seq 1 "$PROCS") log; do
      for n in $HUBS; do
        [ "$p" = log ] && [ "$n" != 0 ] && [ "$n" != 1024 ] && continue
        variants=gauss-seidel; [ "$n" = 0 ] && variants=gauss-seidel,merged-aligned
        extra=(); [ "$p" = log ] && extra=(--pass-log "$S/passes/$name.w$w.n$n.csv")
        tag=$name.w$w.n$n.p$p
        "$EMOGI_BINARY" "${base[@]}" --variants "$variants" --pr-hub-entries "$n" --out "$S/runs/$tag.csv" \
          "${extra[@]}" > "$S/logs/run_$tag.log" 2>&1 || echo "FAILED $tag: $(tail -1 "$S/logs/run_$tag.log")"
      done
    done
  done
  rm -f "$G/$name".w*.csr
  log "$name done after $(( $(date +%s) - start )) s"
done
touch "$S/deferred.txt"
python3 - "$S" <<'PY'
import sys, glob, os, pandas as pd
s = sys.argv[1]
frames = []
for f in glob.glob(f"{s}/runs/*.csv"):
    _, _, n, p = os.path.basename(f)[: -len(".csv")].rsplit(".", 3)
    frames.append(pd.read_csv(f).assign(hub_entries=int(n[1:]), process=p[1:]))
runs = pd.concat(frames)
runs = runs[runs.process != "log"]
print("all verified:", bool(runs.verified.all()), "rows:", len(runs))
mins = runs.groupby(["graph", "edge_bytes", "mode", "variant", "hub_entries", "process"]).agg(
    ms=("time_ms", "min"), rounds=("iterations", "median")).reset_index()
t = mins.groupby(["graph", "edge_bytes", "mode", "variant", "hub_entries"]).agg(
    ms=("ms", "median"), lo=("ms", "min"), hi=("ms", "max"), rounds=("rounds", "median"))
t["spread%"] = (100 * (t.hi / t.lo - 1)).round(1)
print(t.round(2).to_string())
PY
tar czf "$OUT/gshub.tgz" -C /tmp gshub
ls -la "$OUT"
