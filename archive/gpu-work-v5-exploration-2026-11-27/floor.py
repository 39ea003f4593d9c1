# Exploratory (in sample): the device floor t = Σ_l w_l (p · x_l), fitted per algorithm, variant and edge width by
# non-negative least squares on the relative error (as model.gpu_work_v3.fit_group's sum form), with v4's columns
# x_l = (1, V_l, N_l, μ·N_l, K_l) and candidates adding one column (data.py). Judged two ways on the device cells of
# both sessions (data.py): "v4 split" fits on split v4's train graphs and predicts its held-out graphs (the
# registered judgement's device cells, v4's row reproduces it); "LOGO" leaves every graph name out in turn (both
# sessions' cells of it), fitting on all other cells of both sessions; "v5 train set" fits on the v4 session's
# cells of split v5's eight train graphs and predicts that session's four others (kron19, urand19; kron22 and
# rmat22ef32, 4 M vertices, past the train range).
# Usage (repository root): python archive/gpu-work-v5-exploration-2026-11-27/floor.py > .../floor.txt
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import nnls

sys.path[:0] = [str(Path(__file__).parent), "."]
import data  # noqa: E402

from model import holdout_split_v5 as hs5  # noqa: E402

BASE = ["one", "grid", "entries", "mu_entries", "walk"]
CANDIDATES = {
    "v4": BASE,
    "+lists": [*BASE, "lists"],
    "+warp_steps": [*BASE, "warp_steps"],
    "+idle_lanes": [*BASE, "idle_lanes"],
    "mu at C/2": ["one", "grid", "entries", "mu2_entries", "walk"],
    "+fill": [*BASE, "fill_entries"],
    "+lists +fill": [*BASE, "lists", "fill_entries"],
    "+idle_lanes +fill": [*BASE, "idle_lanes", "fill_entries"],
}
GROUP = ["algorithm", "variant", "edge_bytes"]
HOWS = ("v4 split", "LOGO", "v5 train set")
V5_TRAIN = {g for g, e in hs5.GRAPHS.items() if e["split"] == hs5.TRAIN}


def totals(launches: pd.DataFrame, cols: list[str], cells: pd.Series) -> np.ndarray:
    t = launches.groupby("cell")[cols].sum()
    return t.reindex(cells.to_numpy()).fillna(0.0).to_numpy(float)


def fit(x: np.ndarray, measured: np.ndarray) -> np.ndarray:
    r = x / measured[:, None]
    unit = r.max(axis=0)
    use = unit > 0
    p = np.zeros(x.shape[1])
    if use.any():
        z, _ = nnls(r[:, use] / unit[use], np.ones(len(measured)))
        p[use] = z / unit[use]
    return p


def predictions(cells: pd.DataFrame, launches: pd.DataFrame, cols: list[str], how: str) -> pd.Series:
    out = pd.Series(np.nan, index=cells.index)
    for _, grp in cells.groupby(GROUP):
        x, y = totals(launches, cols, grp["cell"]), grp["measured_ms"].to_numpy(float)
        if how == "v4 split":
            tr = ((grp["session"] == "v4") & (grp["split"] == "train")).to_numpy()
            te = ((grp["session"] == "v4") & (grp["split"] == "held-out")).to_numpy()
            if tr.sum() >= 2:
                out[grp.index[te]] = x[te] @ fit(x[tr], y[tr])
            continue
        if how == "v5 train set":
            tr = ((grp["session"] == "v4") & grp["graph"].isin(V5_TRAIN)).to_numpy()
            te = ((grp["session"] == "v4") & ~grp["graph"].isin(V5_TRAIN)).to_numpy()
            out[grp.index[te]] = x[te] @ fit(x[tr], y[tr])
            continue
        for g in grp["graph"].unique():
            te = (grp["graph"] == g).to_numpy()
            if (~te).sum() >= 2:
                out[grp.index[te]] = x[te] @ fit(x[~te], y[~te])
    return out / cells["measured_ms"] - 1


def main() -> None:
    cells, launches = data.both()
    rows, per_graph = [], []
    for how in HOWS:
        for name, cols in CANDIDATES.items():
            e = cells.assign(err=predictions(cells, launches, cols, how)).dropna(subset=["err"])
            e["abs"] = e["err"].abs()
            for alg, g in [*e.groupby("algorithm"), ("all", e)]:
                rows.append({"how": how, "candidate": name, "algorithm": alg, "cells": len(g),
                             "median": g["abs"].median(), "worst": g["abs"].max(),
                             "within_15": (g["abs"] <= 0.15).mean()})  # fmt: skip
            per_graph.append(e.groupby("graph")["err"].agg(["median", "min", "max"]).assign(how=how, candidate=name))
    r = pd.DataFrame(rows)
    pd.set_option("display.width", 250)
    print(f"device cells: {len(cells)} ({cells.groupby('session').size().to_dict()}); |error| median / worst")
    for how, g in r.groupby("how", sort=False):
        t = g.pivot(index="candidate", columns="algorithm", values=["median", "worst"]).reindex(list(CANDIDATES))
        print(f"\n{how} ({int(g[g['algorithm'] == 'all']['cells'].iloc[0])} cells)")
        print((100 * t).round(1).to_string())
    pg = pd.concat(per_graph).reset_index()
    print("\nper graph, signed error (median, min, max; %):")
    for how, g in pg.groupby("how", sort=False):
        print(f"\n{how}")
        cell = zip(g["median"], g["min"], g["max"], strict=True)
        t = g.assign(s=[f"{100 * a:+.0f} [{100 * b:+.0f},{100 * c:+.0f}]" for a, b, c in cell])
        print(t.pivot(index="graph", columns="candidate", values="s")[list(CANDIDATES)].to_string())


if __name__ == "__main__":
    main()
