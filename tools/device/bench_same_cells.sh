#!/usr/bin/env bash
# The bench as rules (`snakemake bench`) against an older tree's bench (its emogi/ and kernels/, built here), on the
# same small config: the same cells (algorithm x graph x width x variant x mode, in the same order, with the same
# run counts), the same columns in runs.csv and summary.csv, the same roots, graphs and edges traversed, every run
# verified. On the development machine first (the one-job bench, before the rules, is adc5067):
#   mkdir -p build/old-src && git archive adc5067 emogi kernels | tar -x -C build/old-src
#   (device, carry build/old-src) bash tools/device/bench_same_cells.sh  -> $OUT/{old,new}/, "same cells" or the difference
# OLD_TREE (default build/old-src), GRAPHS (default kron:12,urand:12); needs the wheels (snakemake).
set -uo pipefail
. tools/device/setup.sh
OLD=${OLD_TREE:-build/old-src}
[ -f "$OLD/emogi/bench.py" ] || { echo "$OLD/emogi/bench.py missing: see the header of $0"; exit 1; }
python3 -m emogi.toolchain --source "$OLD/kernels" --build build/old-bin --arch 90 > "$OUT/build_old.log" 2>&1 &
build_kernels
wait
G=${GRAPHS:-kron:12,urand:12}
log "old: one job"
mkdir -p "$OUT/old"
(cd "$OLD" && PYTHONPATH=$PWD:/tmp/site timeout 500 python3 -m emogi.bench --binary "$OLDPWD/build/old-bin/emogi" \
  --graphs "$G" --widths 8,4 --roots 2 --reps 1 --warmup 1 --graph-dir /tmp/oldg --out-dir "$OUT/old") \
  > "$OUT/old/stdout.txt" 2> "$OUT/old/bench.log"; echo "old exit $?"
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
