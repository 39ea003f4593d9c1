#!/usr/bin/env bash
# Issue 24: Gauss-Seidel PageRank with `--pr-hub-entries auto` (twice the entries per resident warp) against off,
# within one call: the gs-hub-entries archive's two scripts, unchanged, with N = 0 and auto.
#   kron19 ef 9, 13, 11 (held-out seeds), PROCS processes, 5 timed runs: where Gauss-Seidel's rounds inflate;
#   kron24, kron22, kron21, kron23 (edge factor 16, seed 24 as gap_graph makes them), 3 timed runs: where they do not.
# uniform graphs are left out: their longest lists (urand24: 66 entries) are far below auto's length, so no list is
# deferred and the kernel is the one of N = 0.
#   EMOGI_COMMIT=<commit> EMOGI_WHEELS=none bash archive/gs-hub-auto-h200-2026-11-28/measure.sh
set -uo pipefail
A=archive/gs-hub-entries-h200-2026-11-28
HUBS="0 auto" PROCS=${PROCS:-2} NAMES=${KRON19:-"kron19ef9 kron19ef13 kron19ef11"} BUDGET_S=${BUDGET_S19:-150} \
  bash "$A/measure.sh"
HUBS="0 auto" NAMES=${GAP:-"kron24 kron22 kron21 kron23"} BUDGET_S=${BUDGET_S24:-300} bash "$A/measure_gap24.sh"
python3 - <<'PY' 2>&1 | tee "$OUT/summary.txt"
import glob, os, re, pandas as pd
frames = []
for f in glob.glob("/tmp/gshub/runs/*.csv") + glob.glob("/tmp/gshub24/runs/*.csv"):
    parts = os.path.basename(f)[: -len(".csv")].split(".")
    frames.append(pd.read_csv(f).assign(n=parts[2][1:], process=parts[3][1:] if len(parts) > 3 else "1"))
runs = pd.concat(frames)
runs = runs[(runs.process != "log") & (runs.variant == "gauss-seidel")]
print("all verified:", bool(runs.verified.all()), "rows:", len(runs))
cell = runs.groupby(["graph", "edge_bytes", "mode", "n", "process"]).agg(ms=("time_ms", "min"), r=("iterations", "median"))
cell = cell.groupby(["graph", "edge_bytes", "mode", "n"]).agg(ms=("ms", "median"), rounds=("r", "median")).unstack("n")
cell["auto/0"] = cell[("ms", "auto")] / cell[("ms", "0")]
print(cell.round(3).to_string())
for log in sorted(glob.glob("/tmp/gshub*/logs/run_*auto*.log")):
    m = re.search(r"--pr-hub-entries auto = .*", open(log).read())
    print(os.path.basename(log), m.group(0) if m else "no auto line")
PY
