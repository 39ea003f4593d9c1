#!/usr/bin/env bash
# Issue 24: why does Gauss-Seidel PageRank's default hub deferral (`--pr-hub-entries auto`) inflate its rounds on
# kron20 at edge factors 3 and 4 (archive/pr-floor-class-exploration-2026-11-28)? Per graph (4-byte ids): PROCS
# processes without the log and one with --pass-log, each one `emogi run` per N in HUBS (N = 0 with merged-aligned,
# the Jacobi schedule, beside it), 1 warm-up + REPS timed runs, device and zero-copy, in rounds order.
# kron20 ef 3, 4, 7 are v14's train graphs (their seeds); kron19ef11 is a graph where auto helps. Descriptive, not a
# validation. From the repository root on the GPU machine:
#   EMOGI_COMMIT=<commit> EMOGI_WHEELS=none bash archive/gs-hub-rounds-h200-2026-11-29/measure.sh
# Call 2 (the rule with its floor): WIDTHS="8 4" LOGGED=0 HUBS="0 old auto" TESTS="..." with more NAMES; `old` is
# auto's length before the floor (2 E / resident warps, at least 32, as 3a7ebf1 took it).
set -uo pipefail
. tools/device/setup.sh
S=/tmp/gsround; G=/tmp/gsround_graphs; mkdir -p "$S/runs" "$S/passes" "$S/logs" "$S/graphs" "$G"
REPS=${REPS:-5}; PROCS=${PROCS:-2}; BUDGET_S=${BUDGET_S:-300}; start=$(date +%s)
HUBS=${HUBS:-"0 auto 4096 8192 16384"}; WIDTHS=${WIDTHS:-4}; LOGGED=${LOGGED:-1}
WARPS=$(python3 -c "import torch; p = torch.cuda.get_device_properties(0)
print(p.multi_processor_count * p.max_threads_per_multi_processor // 32)")
declare -A SEED=([kron20ef4]=28 [kron20ef3]=33 [kron20ef7]=31 [kron19ef11]=34 [kron20ef5]=30 [kron21ef3]=31
  [kron19ef9]=35 [kron19ef13]=35)
NAMES=${NAMES:-"kron20ef4 kron20ef3 kron19ef11 kron20ef7"}
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,uuid,driver_version --format=csv
  echo "commit: ${EMOGI_COMMIT:-$(git rev-parse HEAD 2> /dev/null)}"; } > "$S/host.txt" 2>&1
build_kernels
[ -n "${TESTS:-}" ] && { gpu_tests; cp "$OUT/gpu_tests.log" "$S/logs/"; }
for name in $NAMES; do
  [ $(( $(date +%s) - start )) -lt "$BUDGET_S" ] || { echo "$name" >> "$S/deferred.txt"; continue; }
  kind=${name%%[0-9]*} rest=${name#"$kind"}; scale=${rest%%ef*} ef=${rest#*ef}
  log "generate $name"
  python3 -m emogi.datasets.generators --kind "$kind" --scale "$scale" --edge-factor "$ef" --seed "${SEED[$name]}" \
    --weights-seed "${SEED[$name]}" --out "$G/$name.w8.csr" --meta "$S/graphs/$name.w8.json" \
    > "$S/logs/gen_$name.log" 2>&1 || { echo "gen $name failed"; continue; }
  python3 -m emogi.csr narrow "$G/$name.w8.csr" --out "$G/$name.w4.csr" --meta "$S/graphs/$name.w4.json" \
    >> "$S/logs/gen_$name.log" 2>&1
  edges=$(python3 -c "import json; print(json.load(open('$S/graphs/$name.w8.json'))['num_edges'])")
  old=$(( (2 * edges + WARPS - 1) / WARPS )); [ "$old" -ge 32 ] || old=32
  procs=$(seq 1 "$PROCS"); [ "$LOGGED" = 1 ] && procs="$procs log"
  for w in $WIDTHS; do
    base=(run --algorithm pagerank --graph "$G/$name.w$w.csr" --name "$name" --modes device,zerocopy --reps "$REPS"
      --warmup 1 --run-order rounds)
    for p in $procs; do
      for n in $HUBS; do
        variants=gauss-seidel; [ "$n" = 0 ] && variants=gauss-seidel,merged-aligned
        extra=(); [ "$p" = log ] && extra=(--pass-log "$S/passes/$name.w$w.n$n.csv")
        tag=$name.w$w.n$n.p$p; hub=$n; [ "$n" = old ] && hub=$old
        "$EMOGI_BINARY" "${base[@]}" --variants "$variants" --pr-hub-entries "$hub" --out "$S/runs/$tag.csv" \
          "${extra[@]}" > "$S/logs/run_$tag.log" 2>&1 || echo "FAILED $tag: $(tail -1 "$S/logs/run_$tag.log")"
      done
    done
  done
  rm -f "$G/$name".w*.csr
  log "$name done after $(( $(date +%s) - start )) s"
done
touch "$S/deferred.txt"
python3 - "$S" <<'PY' 2>&1 | tee "$S/summary.txt"
import sys, glob, os, pandas as pd
s = sys.argv[1]
frames = []
for f in glob.glob(f"{s}/runs/*.csv"):
    _, _, n, p = os.path.basename(f)[: -len(".csv")].rsplit(".", 3)
    frames.append(pd.read_csv(f).assign(n=n[1:], process=p[1:]))
runs = pd.concat(frames)
print("all verified:", bool(runs.verified.all()), "rows:", len(runs))
runs = runs[runs.process != "log"]
t = runs.groupby(["graph", "edge_bytes", "mode", "variant", "n"]).agg(ms=("time_ms", "median"), lo=("time_ms", "min"),
    hi=("time_ms", "max"), r_lo=("iterations", "min"), r_med=("iterations", "median"), r_hi=("iterations", "max"))
print(t.round(2).to_string())
PY
tar czf "$OUT/gsround.tgz" -C /tmp gsround
ls -la "$OUT"
