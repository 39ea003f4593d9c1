"""Questions 1+2 together (in sample): the oracle cost models of oracle.py with the GPU's rounds and pushes replaced
by the wave simulation's (wave_sim.py, vertex order, one wave size for every graph: known before the run), judged
leaving one graph out per width on each graph's MIN run; and how the simulation's rounds and pushes compare with
the GPU's.

    PYTHONPATH=. python archive/gs-rounds-exploration-2026-11-28/predictor.py \
        > archive/gs-rounds-exploration-2026-11-28/predictor.txt
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from oracle import MODELS, logo, runs, summary

HERE = Path(__file__).resolve().parent
WAVE = 229376  # chosen in sample: the wave that matched urand19ef7's GPU rounds and pushes (README)


def sim_table() -> pd.DataFrame:
    s = pd.read_csv(HERE / "sim_rounds.csv")
    s = s[(s.wave == WAVE) & (s.order == "vertex") & (s.jacobi_below == 0) & (s.defer_degree == 0)]
    return s.dropna(subset=["lists"]).drop_duplicates("graph")  # the runs that logged lists and walks


def compare(r: pd.DataFrame, sim: pd.DataFrame) -> pd.DataFrame:
    g = r.groupby(["graph", "edge_bytes"])
    t = g.agg(gpu_rounds_min=("iterations", "min"), gpu_rounds_median=("iterations", "median"),
              gpu_rounds_max=("iterations", "max"), gpu_pushes_median=("edges_traversed", "median"),
              trace_rounds=("rounds", "first")).reset_index()  # fmt: skip
    m = r.loc[g.time_ms.idxmin(), ["graph", "edge_bytes", "iterations"]]
    m = m.rename(columns={"iterations": "min_run_rounds"})
    t = t.merge(m, on=["graph", "edge_bytes"]).merge(
        sim[["graph", "rounds", "pushes"]].rename(columns={"rounds": "sim_rounds", "pushes": "sim_pushes"}), on="graph"
    )
    t["sim_over_gpu_pushes"] = t.sim_pushes / t.gpu_pushes_median
    t["sim_over_gpu_min_rounds"] = t.sim_rounds / t.gpu_rounds_min
    return t


def rounds_table(r: pd.DataFrame) -> pd.DataFrame:
    """Per graph: the GPU's rounds (both widths' 10 runs) and the simulated rounds of every schedule tried."""
    gpu = r.groupby("graph").iterations.agg(gpu_min="min", gpu_median="median", gpu_max="max")
    s = pd.read_csv(HERE / "sim_rounds.csv")
    s = s[(s.jacobi_below == 0) & (s.defer_degree == 0)]
    s["schedule"] = np.where(s.wave == 0, "jacobi", "W" + s.wave.astype(str) + "_" + s.order)
    sim = s.groupby(["graph", "schedule"]).rounds.agg(["min", "max"])
    low, high = sim["min"].astype(str), sim["max"].astype(str)
    sim = low.where(sim["min"] == sim["max"], low + "-" + high)
    return gpu.join(sim.unstack("schedule")).reset_index()


def main() -> None:
    r = runs()
    rt = rounds_table(r)
    rt.to_csv(HERE / "rounds_table.csv", index=False)
    print(rt.to_string(index=False))
    sim = sim_table()
    t = compare(r, sim)
    t.to_csv(HERE / "sim_vs_gpu.csv", index=False, float_format="%.4g")
    print(f"wave {WAVE}, vertex order, {t.graph.nunique()} graphs")
    print(t.drop(columns=["edge_bytes"]).drop_duplicates("graph").to_string(index=False))
    p = t.sim_over_gpu_pushes
    q = t.sim_over_gpu_min_rounds
    print(f"sim / GPU pushes {p.min():.3f}-{p.max():.3f}; sim / GPU min rounds {q.min():.2f}-{q.max():.2f}")

    r = r[r.graph.isin(sim.graph)].copy()
    s = sim.set_index("graph")
    r["iterations"] = r.graph.map(s.rounds)  # the simulation's rounds and pushes stand in for the run's
    r["launches"] = r.iterations + 1
    r["edges_traversed"] = r.graph.map(s.pushes).astype(float)
    r["extra"] = r.iterations - r.rounds
    r["sim_lists"] = r.graph.map(s.lists).astype(float)
    r["sim_walk"] = r.graph.map(s.walk).astype(float)
    MODELS["simulated: a + l·rounds + b·rounds·V + c·pushes + q·lists + s·walk"] = lambda r: [
        np.ones(len(r)),
        r.launches,
        r.launches * r.V,
        r.edges_traversed,
        r.sim_lists,
        r.sim_walk,
    ]
    rows, cells = [], []
    for name in ("simulated: a + l·rounds + b·rounds·V + c·pushes + q·lists + s·walk",
                 "+ l·rounds + s·rounds·K + q·lists", "+ l·rounds + s·rounds·K + q·lists, per-push cost per family",
                 "v12 + extra·(l + s·K)", "trace rounds and pushes (no oracle)"):  # fmt: skip
        for train_on in ("all", "min"):
            res = logo(r, MODELS[name], train_on)
            res["model"], res["train_on"] = name, train_on
            cells.append(res)
            wo17 = res[~res.graph.str.endswith("17")]
            label = name if name.startswith("trace") else name + " (simulated rounds, pushes)"
            for w in (4, 8):
                rows.append({"model": label, "train_on": train_on, "edge_bytes": w,
                             "median_worst": summary(res[res.edge_bytes == w].error),
                             "without_scale17": summary(wo17[wo17.edge_bytes == w].error)})  # fmt: skip
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    table.to_csv(HERE / "predictor_logo.csv", index=False)
    allc = pd.concat(cells)
    allc.to_csv(HERE / "predictor_cells.csv", index=False, float_format="%.4g")
    best = allc[(allc.model == "v12 + extra·(l + s·K)") & (allc.train_on == "all")]
    print(best.reindex(best.error.abs().sort_values(ascending=False).index).head(8).to_string(index=False))


if __name__ == "__main__":
    main()
