"""The lead of README.md ("Why"), tried in sample: term v16's floor with the cost per missed state read m that the
train range leaves at 0 set from outside the held-out cells, then every cell priced again. Nothing is refitted: in
those groups the m column is 0 in every train cell, so fixing m leaves their fit (floor and link terms) unchanged and
adds m · Σ_l w_l μ N_l to each cell's time (model/gpu_work_v6.py's columns). Two choices of m, neither from a held-out
cell:
- micro: the L2 microbenchmark's cost of a miss, tau(largest footprint) - tau(smallest) (model.l2_capacity.curve's
  normalisation), of the table the judgement used;
- cc: the mean of CC's two fitted m at the cell's width (the one group a train graph's state outgrows the L2 in).

    PYTHONPATH=. python archive/term-v16-issue-split-retrospective-2026-11-29/shared_miss.py > shared_miss.txt
"""

import importlib.util
import json
from pathlib import Path

import pandas as pd

from model import gpu_work_v4, gpu_work_v6
from model.gpu_work_v3 import mu_table
from model.holdout import read_workloads
from model.l2_capacity import curve, read_capacity

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("explore", HERE / "explore.py")
explore = importlib.util.module_from_spec(spec)
spec.loader.exec_module(explore)
WORK = ["graph", "algorithm", "variant", "edge_bytes", "root"]


def mu_n(cells: pd.DataFrame) -> pd.Series:
    """Per cell Σ_l w_l μ N_l over its expected launches (as the judge weighs Gauss-Seidel's)."""
    graphs = sorted(set(cells["graph"]))
    meta = {g: json.loads((explore.H100 / "session" / "graphs" / f"{g}.w8.json").read_text()) for g in graphs}
    vertices = {g: m["num_vertices"] for g, m in meta.items()}
    nonisolated = {g: m["num_vertices"] - m["isolated_vertices"] for g, m in meta.items()}
    workloads, launches = read_workloads(*(explore.H100 / "workloads" / g for g in graphs))
    workloads, launches = gpu_work_v4.expected(workloads, launches, vertices)
    mu = mu_table(cells, vertices, read_capacity(explore.L2))
    x = gpu_work_v6.totals(launches, cells[WORK], mu, nonisolated)
    return pd.Series(x[:, gpu_work_v6.PARAMS.index("m_ms")], index=cells.index)


def main() -> None:
    cells = pd.read_csv(HERE / "retro_cells.csv")
    costs = pd.read_csv(HERE / "retro_costs.csv")
    cells = cells.assign(root=cells["root"].fillna(-1).astype(int), mu_n=mu_n(cells))
    c = curve(pd.read_csv(explore.L2))
    micro_ms = (c["tau_ns"].iloc[-1] - c["tau_ns"].iloc[0]) * 1e-6
    cc = costs[costs["algorithm"] == "cc"].groupby("edge_bytes")["m_ms"].mean()
    print(f"m micro {micro_ms * 1e9:.2f} ps; m cc {', '.join(f'{w} B {v * 1e9:.2f} ps' for w, v in cc.items())}")
    fitted = costs.drop_duplicates(["algorithm", "variant", "edge_bytes"]).set_index(
        ["algorithm", "variant", "edge_bytes"]
    )
    unset = [
        fitted["m_ms"].get((a, v, w), 0.0) == 0
        for a, v, w in cells[["algorithm", "variant", "edge_bytes"]].itertuples(index=False)
    ]
    rows = []
    for name, m in (("v16", 0.0 * cells["edge_bytes"]), ("micro", micro_ms + 0.0 * cells["edge_bytes"]),
                    ("cc", cells["edge_bytes"].map(cc))):  # fmt: skip
        pred = cells["predicted_ms"] + m.where(unset, 0.0) * cells["mu_n"]
        err = pred / cells["measured_ms"] - 1
        for (split, mode), g in cells.assign(err=err).groupby(["split", "mode"]):
            rows.append({"m": name, "split": split, "mode": mode, "cells": len(g), "median": g["err"].abs().median(),
                         "worst": g["err"].abs().max(), "signed": g["err"].median()})  # fmt: skip
        held = cells.assign(err=err)[cells["split"] != "train"]
        groups = [*((g, "device", x) for g, x in held[held["mode"] == "device"].groupby("graph"))]
        groups += [(f"held-out {a}", "all", x) for a, x in held.groupby("algorithm")]
        for split, mode, g in groups:
            e = g["err"]
            rows.append({"m": name, "split": split, "mode": mode, "cells": len(g), "median": e.abs().median(),
                         "worst": e.abs().max(), "signed": e.median()})  # fmt: skip
    print(pd.DataFrame(rows).to_string(index=False, float_format=lambda x: f"{x:+.3f}"))


if __name__ == "__main__":
    main()
