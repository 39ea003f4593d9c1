"""The GPU-work term v3 (issue 24; docs/holdout-v3-v6.md, "GPU-work term v3 and held-out validation v3", registered
before it was fitted on any new run): device-mode time per algorithm, variant and edge width from the per-launch counts
of a CPU-derived trace (grid V_l, entries N_l, longest walk K_l: model/gpu_features.py, model.holdout's launches table),
with a launch cost for every variant and a per-entry cost that grows with the share μ of the entries' random reads of
per-vertex state that miss the L2:

    max form (registered):  t = Σ_l [ a + max( b·V_l + (c + m·μ)·N_l , s·K_l ) ]
    sum form (secondary):   t = Σ_l [ a + b·V_l + (c + m·μ)·N_l + s·K_l ]

μ = max(0, 1 − C / (V·r)): V the graph's vertices, r = STATE_BYTES[algorithm], C the L2's effective capacity
(model/l2_capacity.py). Used by `python -m model.holdout --split v3`.
"""

from __future__ import annotations

from typing import Callable, Iterable

import numpy as np
import pandas as pd
from scipy.optimize import least_squares, nnls

from model.l2_capacity import miss_share

GROUP = ["algorithm", "variant", "edge_bytes"]
WORK = ["graph", "algorithm", "variant", "edge_bytes", "root"]  # a workload's key (model.holdout.WORK)
PARAMS = ["a_ms", "b_ms", "c_ms", "m_ms", "s_ms"]
FORMS = ("max", "sum")
# bytes per vertex of the array each list entry indexes at random (kernels/include/emogi/*.cuh): BFS `depth`
# (uint32), SSSP `tentative` / `dist` (uint32), CC `label` (unsigned long long), PageRank `residual` (float)
STATE_BYTES = {"bfs": 4, "sssp": 4, "cc": 8, "pagerank": 4}


def mu_of(vertices: float, algorithm: str, capacity: float) -> float:
    """The share of an algorithm's per-entry random reads that miss an L2 of `capacity` bytes."""
    return float(miss_share(capacity, vertices * STATE_BYTES[algorithm]))


class Launches:
    """The launches of a set of cells as flat arrays: per launch 1, V_l, N_l, μ·N_l, K_l, and its cell."""

    def __init__(self, rows: pd.DataFrame, n_cells: int):
        self.cell = rows["cell"].to_numpy(int)
        entries = rows["entries"].to_numpy(float)
        self.x = np.stack([np.ones(len(rows)), rows["grid"].to_numpy(float), entries,
                           rows["mu"].to_numpy(float) * entries, rows["walk"].to_numpy(float)], axis=1)  # fmt: skip
        self.n = n_cells

    def predict(self, p, form: str) -> np.ndarray:
        a, b, c, m, s = np.asarray(p, float)
        work = b * self.x[:, 1] + c * self.x[:, 2] + m * self.x[:, 3]
        per = a + (np.maximum(work, s * self.x[:, 4]) if form == "max" else work + s * self.x[:, 4])
        return np.bincount(self.cell, weights=per, minlength=self.n)

    def totals(self) -> np.ndarray:
        return np.stack([np.bincount(self.cell, weights=col, minlength=self.n) for col in self.x.T], axis=1)


def fit_group(launches: Launches, measured: np.ndarray) -> dict:
    """a, b, c, m, s >= 0 for both forms, minimising the squared relative error (columns that are zero in every
    cell, e.g. m where no train graph outgrows the L2, stay 0)."""
    tot = launches.totals() / measured[:, None]
    use = tot.max(axis=0) > 0
    unit = np.where(use, 1 / np.maximum(tot.max(axis=0), 1e-300), 0.0)  # p = z · unit: every column at most 1
    z = np.zeros(5)
    z[use], _ = nnls((tot * unit)[:, use], np.ones(len(measured)))
    out = {"sum": z * unit}

    def residual(q):
        p = np.zeros(5)
        p[use] = q * unit[use]
        return launches.predict(p, "max") / measured - 1

    starts = [z[use]]
    for j in np.flatnonzero(use):  # each term alone explaining the median cell, the others from the sum form
        solo = z.copy()
        solo[j] = min(float(np.median(1 / np.maximum(tot[:, j] * unit[j], 1e-9))), 1e3)
        starts.append(solo[use])
    best = None
    for q0 in starts:
        r = least_squares(residual, np.maximum(q0, 0), bounds=(0, np.inf))
        if best is None or r.cost < best.cost:
            best = r
    out["max"] = np.zeros(5)
    out["max"][use] = best.x * unit[use]
    return out


def launches_of(launches: pd.DataFrame, keys: pd.DataFrame, mu: dict) -> Launches:
    """Launches of the workloads `keys` (in their order); `mu`: (graph, algorithm) -> μ."""
    idx = keys[WORK].reset_index(drop=True).assign(cell=lambda f: np.arange(len(f)))
    rows = launches.merge(idx, on=WORK)
    rows["mu"] = [mu[g, a] for g, a in zip(rows["graph"], rows["algorithm"], strict=True)]
    return Launches(rows, len(idx))


def mu_table(table: pd.DataFrame, vertices: dict, capacity: float) -> dict:
    """(graph, algorithm) -> μ for every pair of `table`; `vertices`: graph -> V."""
    pairs = table[["graph", "algorithm"]].drop_duplicates().itertuples(index=False)
    return {(g, a): mu_of(vertices[g], a, capacity) for g, a in pairs}


def fit_groups(table: pd.DataFrame, mode: str, train: str, check_fit_set: Callable[[Iterable[str]], None]):
    """(algorithm, variant, width, its `mode` cells of split `train`) per group of `table` with at least 2 such
    cells; `check_fit_set` sees every group's fit set, a short one too (it refuses one holding a held-out graph)."""
    for (a, v, w), grp in table.groupby(GROUP):
        fit = grp[(grp["mode"] == mode) & (grp["split"] == train)]
        check_fit_set(fit["graph"])
        if len(fit) >= 2:
            yield a, v, w, fit


def fit_costs(table: pd.DataFrame, launches: pd.DataFrame, mu: dict, train: str,
              check_fit_set: Callable[[Iterable[str]], None], make=launches_of) -> pd.DataFrame:  # fmt: skip
    """a, b, c, m, s (both forms) per algorithm, variant and width on the `device` cells whose split is `train`;
    `check_fit_set` refuses a fit set holding a held-out graph; `make` gathers a set of cells' launches (v4 passes
    its weighted ones)."""
    out = []
    for a, v, w, fit in fit_groups(table, "device", train, check_fit_set):
        fitted = fit_group(make(launches, fit, mu), fit["measured_ms"].to_numpy(float))
        for form in FORMS:
            out.append({"algorithm": a, "variant": v, "edge_bytes": int(w), "form": form, "train_cells": len(fit)}
                       | dict(zip(PARAMS, fitted[form], strict=True)))  # fmt: skip
    return pd.DataFrame(out, columns=[*GROUP, "form", "train_cells", *PARAMS])


def floor_ms(table: pd.DataFrame, launches: pd.DataFrame, costs: pd.DataFrame, mu: dict, form: str = "max",
             make=launches_of) -> np.ndarray:  # fmt: skip
    """Every row's floor in `form` (v3's: max) with its group's costs; NaN where the group has none; `make` as for
    fit_costs."""
    out = np.full(len(table), np.nan)
    byform = costs[costs["form"] == form].set_index(GROUP)
    t = table.reset_index(drop=True)
    for key, grp in t.groupby(GROUP):
        if key in byform.index:
            out[grp.index] = make(launches, grp, mu).predict(byform.loc[key, PARAMS].to_numpy(float), form)
    return out
