#!/usr/bin/env bash
# The bench as rules (`snakemake bench`) against the one-job bench it replaced (emogi/bench.py before the rules,
# commit adc5067), on the same small config: the same cells (algorithm x graph x width x variant x mode, in the
# same order, with the same run counts), the same columns in runs.csv and summary.csv, the same roots, graphs and
# edges traversed, every run verified. On the development machine first:
#   git show adc5067:emogi/bench.py > old_bench.py      (untracked, so it travels with the working tree)
#   (device) bash tools/device/bench_same_cells.sh      -> $OUT/{old,new}/ and "same cells" or the difference
# GRAPHS (default kron:12,urand:12); needs the wheels (snakemake). EMOGI_BINARY=path skips the build.
set -uo pipefail
. tools/device/setup.sh
build_kernels
G=${GRAPHS:-kron:12,urand:12}
[ -f old_bench.py ] || { echo "old_bench.py missing: git show adc5067:emogi/bench.py > old_bench.py"; exit 1; }
log "old: one job"
mkdir -p "$OUT/old"
timeout 500 python3 old_bench.py --binary "$EMOGI_BINARY" --graphs "$G" --widths 8,4 --roots 2 --reps 1 --warmup 1 \
  --graph-dir /tmp/oldg --out-dir "$OUT/old" > "$OUT/old/stdout.txt" 2> "$OUT/old/bench.log"; echo "old exit $?"
log "new: snakemake bench"
bench_target "$OUT/new" 500 graphs="[$G]" widths=[8,4] roots=2 reps=1 warmup=1; echo "new exit $?"
python3 - "$OUT" <<'PY'
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi import csr

out = Path(sys.argv[1])
keys = ["algorithm", "graph", "edge_bytes", "variant", "mode"]
old_s, new_s = (pd.read_csv(out / side / "summary.csv") for side in ("old", "new"))
old_r, new_r = (pd.read_csv(out / side / "runs.csv") for side in ("old", "new"))
problems = []
if list(old_s.columns) != list(new_s.columns):
    problems.append(f"summary columns differ: {list(old_s.columns)} / {list(new_s.columns)}")
if list(old_r.columns) != list(new_r.columns):
    problems.append(f"runs columns differ: {sorted(set(old_r.columns) ^ set(new_r.columns))}")
if not old_s[keys + ["runs"]].equals(new_s[keys + ["runs"]]):
    problems.append("the cells (or their order or run counts) differ")
run_keys = keys + ["root", "rep"]
o, n = (r.sort_values(run_keys).reset_index(drop=True) for r in (old_r, new_r))
if not o[run_keys].equals(n[run_keys]):
    problems.append("the runs (cells x roots x reps) differ")
else:  # level-synchronous BFS reaches the same lists whatever the order; the others may differ run to run
    differ = o[o["edges_traversed"] != n["edges_traversed"]]
    print("edges_traversed differ in", differ.groupby(["algorithm", "variant"]).size().to_dict() or "no run")
    exact = (differ["algorithm"] == "bfs") & (differ["variant"] != "direction-optimizing")
    if exact.any():
        problems.append(f"BFS edges_traversed differ, e.g. {differ[exact][run_keys].head(3).to_dict('records')}")
if not (old_r["verified"].all() and new_r["verified"].all()):
    problems.append("unverified rows")
for name in old_s["graph"].unique():
    for width in (8, 4):
        a, b = csr.read_csr(f"/tmp/oldg/{name}.w{width}.csr"), csr.read_csr(f"resources/graphs/{name}.w{width}.csr")
        if not all(np.array_equal(getattr(a, f), getattr(b, f)) for f in ("offsets", "edges", "weights")):
            problems.append(f"{name}.w{width}.csr differs")
print(f"{len(new_s)} cells, {len(new_r)} runs: " + ("same cells" if not problems else "; ".join(problems)))
PY
