#!/usr/bin/env bash
# Issue 24, Gauss-Seidel PageRank's misses on Kronecker graphs: per-round pass logs (`emogi run --pass-log`) of
# PageRank gauss-seidel and merged-aligned (its Jacobi schedule) on the held-out graphs where term v12 missed most
# and two uniform controls, device and zero-copy, 8- and 4-byte ids. A descriptive measurement, not a validation.
# From the repository root on the GPU machine (one call, ~4 min with the build; nothing carried):
#   EMOGI_COMMIT=<commit> EMOGI_WHEELS=none bash archive/gs-pass-logs-h200-2026-11-28/measure.sh
# Per graph and width: LOGGED processes (default 3) of 1 warm-up + REPS (5) timed runs with --pass-log, in rounds
# order, then one process of the same without the log (its overhead). Everything in $OUT/gspass.tgz.
set -uo pipefail
. tools/device/setup.sh
S=/tmp/gspass; G=/tmp/gspass_graphs; mkdir -p "$S/runs" "$S/passes" "$S/logs" "$S/graphs" "$G"
REPS=${REPS:-5}; LOGGED=${LOGGED:-3}; BUDGET_S=${BUDGET_S:-270}; start=$(date +%s)
# name -> generator seed: the held-out splits that judged them (docs/holdout-*.md)
declare -A SEED=([kron19ef11]=34 [kron19ef9]=35 [kron19ef13]=35 [kron19ef10]=30 [kron19ef12]=29 [kron20ef7]=31
  [urand19ef11]=34 [urand19ef9]=35)
NAMES=${NAMES:-"kron19ef11 kron19ef9 kron19ef13 kron19ef10 kron19ef12 urand19ef11 urand19ef9 kron20ef7"}
{ date -u; nvidia-smi; nvidia-smi -L; echo "commit: ${EMOGI_COMMIT:-$(git rev-parse HEAD 2> /dev/null)}"; } > "$S/host.txt" 2>&1
build_kernels
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
    args=(run --algorithm pagerank --graph "$G/$name.w$w.csr" --name "$name" --modes device,zerocopy
      --variants gauss-seidel,merged-aligned --reps "$REPS" --warmup 1 --run-order rounds)
    for p in $(seq 1 "$LOGGED"); do
      "$EMOGI_BINARY" "${args[@]}" --out "$S/runs/$name.w$w.p$p.csv" --pass-log "$S/passes/$name.w$w.p$p.csv" \
        > "$S/logs/run_$name.w$w.p$p.log" 2>&1 || echo "FAILED $name w$w p$p: $(tail -1 "$S/logs/run_$name.w$w.p$p.log")"
    done
    "$EMOGI_BINARY" "${args[@]}" --out "$S/runs/$name.w$w.nolog.csv" > "$S/logs/run_$name.w$w.nolog.log" 2>&1 \
      || echo "FAILED $name w$w nolog"
  done
  rm -f "$G/$name".w*.csr
  log "$name done after $(( $(date +%s) - start )) s"
done
touch "$S/deferred.txt"
python3 - "$S" <<'PY'
import sys, glob, pandas as pd
s = sys.argv[1]
runs = pd.concat([pd.read_csv(f).assign(process=f.split(".")[-2]) for f in glob.glob(f"{s}/runs/*.csv")])
print(runs.groupby(["name" if "name" in runs else "graph", "edge_bytes", "mode", "variant", "process"]).agg(
    ms=("time_ms", "min"), rounds=("iterations", "median")).unstack("process").round(2).to_string())
PY
tar czf "$OUT/gspass.tgz" -C /tmp gspass
ls -la "$OUT"
