#!/usr/bin/env bash
# The second call of this folder: Gauss-Seidel PageRank with `--pr-hub-entries N` on the artifact's GAP-24 graphs
# (kron24, urand24; seed 24 as gap_graph makes them), device and zero-copy, 8- and 4-byte ids: one process per N, 1
# warm-up + REPS timed runs. Starts with the option's GPU tests (their pass-log check fixed after the first call).
#   EMOGI_COMMIT=<commit> EMOGI_WHEELS=none bash archive/gs-hub-entries-h200-2026-11-28/measure_gap24.sh
set -uo pipefail
. tools/device/setup.sh
S=/tmp/gshub24; mkdir -p "$S/runs" "$S/logs"
REPS=${REPS:-3}; BUDGET_S=${BUDGET_S:-420}; start=$(date +%s)
HUBS=${HUBS:-"0 4096 1024 16384"}; NAMES=${NAMES:-"kron24 urand24"}
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,uuid,driver_version --format=csv
  echo "commit: ${EMOGI_COMMIT:-$(git rev-parse HEAD 2> /dev/null)}"; } > "$S/host.txt" 2>&1
build_kernels
TESTS=tests/test_pr_hub_entries.py gpu_tests; cp "$OUT/gpu_tests.log" "$S/logs/"
for name in $NAMES; do
  log "generate $name"; gap_graph "$name" > "$S/logs/gen_$name.log" 2>&1 || { echo "gen $name failed"; continue; }
  python3 -m emogi.csr narrow "/tmp/g/$name.w8.csr" --out "/tmp/g/$name.w4.csr" >> "$S/logs/gen_$name.log" 2>&1
  for w in 8 4; do
    for n in $HUBS; do
      tag=$name.w$w.n$n
      [ $(( $(date +%s) - start )) -lt "$BUDGET_S" ] || { echo "$tag" >> "$S/deferred.txt"; continue; }
      "$EMOGI_BINARY" run --algorithm pagerank --graph "/tmp/g/$name.w$w.csr" --name "$name" --modes device,zerocopy \
        --variants gauss-seidel --reps "$REPS" --warmup 1 --run-order rounds --pr-hub-entries "$n" \
        --out "$S/runs/$tag.csv" > "$S/logs/run_$tag.log" 2>&1 || echo "FAILED $tag: $(tail -1 "$S/logs/run_$tag.log")"
      log "$tag after $(( $(date +%s) - start )) s"
    done
  done
  rm -f "/tmp/g/$name".w*.csr
done
touch "$S/deferred.txt"
python3 - "$S" <<'PY'
import sys, glob, os, pandas as pd
s = sys.argv[1]
runs = pd.concat(pd.read_csv(f).assign(hub_entries=int(os.path.basename(f).rsplit(".", 2)[1][1:]))
                 for f in glob.glob(f"{s}/runs/*.csv"))
print("all verified:", bool(runs.verified.all()), "rows:", len(runs))
t = runs.groupby(["graph", "edge_bytes", "mode", "hub_entries"]).agg(
    ms=("time_ms", "median"), lo=("time_ms", "min"), hi=("time_ms", "max"), rounds=("iterations", "median"))
print(t.round(1).to_string())
PY
tar czf "$OUT/gshub24.tgz" -C /tmp gshub24
ls -la "$OUT"
