"""Graph-or-machine check: a diagnostic, not a validation, registered before the session
(docs/uvm-capped-validations.md, "Graph-or-machine check"; tools/device/uvm_capped_graph_check.sh makes it). Is
urand20s35's over-prediction in capped validation 5 and its repeat the graph itself or the machines lent on 2026-11-28?

    python -m model.uvm_capped_graph_check judge --tarball uvmcg.tgz --graph-dir /tmp/ucapg --out D [--jobs 2]

One call measures urand20s33 (capped validation 4's graph, seed 33) and urand20s35 (validation 5's, seed 35) with
capped validation 4's design (one process of 5 runs a capped cell), their algorithms interleaved (ORDER), then
kron20s33 (seed 33) as a control. Every cell is judged by capped validation 4's registered rule, unchanged
(model.uvm_capped_validation4.predict, its registered input). The decision (`decide`) is on each urand graph's signed
median of the unit rule's error; beside it each graph's measured capped time over its earlier calls' (`compare`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv, write_text
from model import uvm_capped_validation2 as v2
from model import uvm_capped_validation3 as v3
from model import uvm_capped_validation4 as v4
from model.uvm_validation3 import judge_cli, regenerate

SEEDS = {"urand20s33": 33, "urand20s35": 35, "kron20s33": 33}  # each graph's seed in its own validation
SET = {"urand20s33": v4.SET["urand20s33"], "urand20s35": v4.SET["urand20s33"], "kron20s33": v4.SET["kron20s33"]}
QUESTION, CONTROL = ("urand20s33", "urand20s35"), "kron20s33"
# (algorithm, graph) in the order the call runs them: neither urand graph always first; the control after them
ORDER = (
    ("bfs", "urand20s33"), ("bfs", "urand20s35"), ("sssp", "urand20s35"), ("sssp", "urand20s33"),
    ("cc", "urand20s33"), ("cc", "urand20s35"), ("pagerank", "urand20s35"), ("pagerank", "urand20s33"),
)  # fmt: skip
CENTRED, OVER = 0.05, 0.10  # |signed median| < CENTRED: centred; signed median > OVER: over-predicted
MIN_CELLS = 36  # of a urand graph's 48 capped cells, judged, for a decision
# The machine of the earlier calls. On another one (only H200s are lent since 2026-11-28) a shift of every graph's
# error carries the machine change too, so the decision is on the difference s35 - s33 alone (registered amendment,
# docs/uvm-capped-validations.md, written before any data of this check).
EARLIER_GPU = "NVIDIA H100 80GB HBM3"
RULES, REPORTED, REGISTERED = v4.RULES, v4.REPORTED, v4.REGISTERED  # capped validation 4's rule, unchanged
ARCHIVE = Path(__file__).resolve().parents[1] / "archive"
# the earlier calls of each graph (their judged cells); validation 5's capped_ms is the median of 3 process medians
EARLIER = {
    "urand20s33": {"validation4": ARCHIVE / "uvm-capped-validation4-h100-2026-11-28/capped_validation4_cells.csv"},
    "urand20s35": {
        "validation5": ARCHIVE / "uvm-capped-validation5-h100-2026-11-28/capped_validation5_cells.csv",
        "repeat5": ARCHIVE / "uvm-capped-repeat5-h100-2026-11-28/capped_validation5_cells.csv",
    },
    "kron20s33": {"validation4": ARCHIVE / "uvm-capped-validation4-h100-2026-11-28/capped_validation4_cells.csv"},
}
NAME = "capped_graph_check"


def per_graph(cells: pd.DataFrame, rule: str = "unit") -> pd.DataFrame:
    """Per graph: judged cells, median and worst |error|, signed median and cells over-predicted, by `rule`."""
    e = cells[f"error_{rule}"]
    g = pd.DataFrame({"graph": cells["graph"], "e": e, "abs": e.abs(), "over": e > 0}).groupby("graph")
    table = {"n": g["e"].count(), "median": g["abs"].median(), "worst": g["abs"].max(),
             "signed_median": g["e"].median(), "over_predicted": g["over"].sum()}  # fmt: skip
    return pd.DataFrame(table).reset_index()


def decide(cells: pd.DataFrame, gpu: str = EARLIER_GPU) -> dict:
    """The registered decision on the unit rule's signed median per urand graph (s33, s35). On the earlier calls'
    GPU: `graph` if |s33| < 5% and s35 > +10%; `machines` if both > +10%; else `inconclusive`. On another GPU, on
    d = s35 - s33 only: `graph` if d > +10 points, `machines` if |d| < 5 points, else `inconclusive`. Always
    `inconclusive` if either urand graph has < MIN_CELLS judged."""
    table = per_graph(cells).set_index("graph")
    n = {g: int(table["n"].get(g, 0)) for g in QUESTION}
    s = {g: float(table["signed_median"].get(g, np.nan)) for g in QUESTION}
    s33, s35 = s["urand20s33"], s["urand20s35"]
    if min(n.values()) < MIN_CELLS:
        verdict, why = "inconclusive", f"too few judged cells ({n}; {MIN_CELLS} needed per urand graph)"
    elif gpu != EARLIER_GPU:
        verdict, why = _decide_on_difference(s35 - s33, gpu)
    elif abs(s33) < CENTRED and s35 > OVER:
        verdict, why = "graph", "urand20s33 centred while urand20s35 over-predicted in the same call"
    elif s33 > OVER and s35 > OVER:
        verdict, why = "machines", "both urand graphs over-predicted in the same call: the machines/period"
    else:
        verdict, why = "inconclusive", "neither pattern of the registered rule"
    signed = {g: None if np.isnan(v) else v for g, v in s.items()}  # JSON has no NaN
    return {"decision": verdict, "why": why, "signed_median": signed, "cells": n, "gpu": gpu}


def _decide_on_difference(d: float, gpu: str) -> tuple[str, str]:
    """Another GPU than the earlier calls': only the same call's difference between the two urand graphs counts."""
    if d > OVER:
        return "graph", f"on {gpu}: urand20s35 over-predicted {d:+.1%} beyond urand20s33 in the same call"
    if abs(d) < CENTRED:
        return "machines", f"on {gpu}: the two urand graphs within {CENTRED:.0%} of each other ({d:+.1%})"
    return "inconclusive", f"on {gpu}: the difference {d:+.1%} is in neither band of the amended rule"


def compare(cells: pd.DataFrame, earlier: dict = EARLIER) -> pd.DataFrame:
    """Each graph's measured capped time (and device-mode median) over its earlier calls', per design cell (the
    same graph, seed and roots); the median, min and max of the ratio per (graph, earlier call)."""
    rows = []
    for graph, calls in earlier.items():
        here = cells[cells["graph"] == graph]
        for call, path in calls.items():
            then = pd.read_csv(path)
            both = here.merge(then[then["graph"] == graph], on=v2.CELL, suffixes=("", "_then"))
            r, d = both["capped_ms"] / both["capped_ms_then"], both["device_ms"] / both["device_ms_then"]
            rows.append({"graph": graph, "earlier": call, "cells": len(both), "capped_ratio_median": r.median(),
                         "capped_ratio_min": r.min(), "capped_ratio_max": r.max(),
                         "device_ratio_median": d.median()})  # fmt: skip
    return pd.DataFrame(rows)


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET,
          seeds: dict = SEEDS, earlier: dict = EARLIER) -> pd.DataFrame:  # fmt: skip
    session, reg, shapes, factors, runs = v2.open_call(tarball, out, "uvmcg", registered)
    factors |= {"unit": 1.0, "pooled": reg["pooled"]["factor"]}
    for meta_file in sorted((session / "graphs").glob("*.w8.json")):
        # each graph made first with its own seed; trace_counts then finds it and checks the checksum again
        name = meta_file.name.split(".")[0]
        regenerate(name, graph_dir, json.loads(meta_file.read_text()), how, seeds.get(name, -1))
    counts = v2.trace_counts(session, graph_dir, how, jobs, -1, v3._simulate)
    if counts.empty:
        raise ValueError(f"{session}: no device-mode trace to simulate")
    cells = v4.predict(v2.measured_cells(runs, counts), shapes, factors, reg)
    note = "issue 21 uvm-capped, graph-or-machine check (model.uvm_capped_graph_check; a diagnostic)"
    summary = v4.write_out(out, None, session, how, runs, cells, counts, (shapes, factors, reg), REPORTED, NAME, note)
    gpus = sorted(set(runs["gpu"]))
    if len(gpus) != 1:
        raise ValueError(f"{session}: one GPU expected in the call's runs, found {gpus}")
    gpu = gpus[0]
    graphs, ratios, decision = per_graph(cells), compare(cells, earlier), decide(cells, gpu)
    write_csv(graphs, out / f"{NAME}_graphs.csv")
    write_csv(ratios, out / f"{NAME}_earlier.csv")
    write_text(json.dumps(decision, indent=2) + "\n", out / f"{NAME}_decision.json")
    print(graphs.to_string(index=False), ratios.to_string(index=False), sep="\n")
    print(f"DECISION: {decision['decision']} ({decision['why']})")
    return summary


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    return judge_cli(argv, "python -m model.uvm_capped_graph_check", __doc__.split("\n\n")[0], judge,
                     "uvmcg.tgz", REGISTERED, f"{NAME}_missing.csv")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
