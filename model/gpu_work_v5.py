"""The GPU-work term v5 (issue 24; docs/holdout-v3-v6.md, "GPU-work term v5 and held-out validation v5", registered
before the session): v4's floor with a cost per list walked, a count of the CPU-derived trace
(archive/gpu-work-v5-exploration-2026-11-27 chose it, in sample). Over the launches l (grid V_l, entries N_l,
longest walk K_l, lists walked lists_l; μ as model/gpu_work_v3.py; weights w_l as model/gpu_work_v4.py runs
Gauss-Seidel), per algorithm, variant and edge width:

    device:     t = Σ_l w_l [ a + b·V_l + (c + m·μ)·N_l + s·K_l + q·lists_l ]      a, b, c, m, s, q ≥ 0
    zero-copy:  t = floor + η·D/T(d) + g·Σ_l w_l σ_l·L                            (v4's link terms, as v4)

- q, **a cost per list**: merged-aligned gives every list a warp (and the other variants a step per list), so a
  launch costs at least its lists whatever their length; on graphs of 32-72 entries a list v4 folded that cost
  into c, and a sparser graph (urand21ef8, 16) came out under.
- Fitted by non-negative least squares on the relative error of the train graphs' device cells (the sum form, as
  v4's registered floor; a column that is 0 in every train cell stays 0). Used by `python -m model.holdout --split
  v5`.
"""

from __future__ import annotations

from typing import Callable, Iterable

import numpy as np
import pandas as pd
from scipy.optimize import nnls

from model.gpu_work_v3 import fit_groups, mu_table
from model.gpu_work_v4 import GROUP, WORK, expected, predict_table

PARAMS = ["a_ms", "b_ms", "c_ms", "m_ms", "s_ms", "q_ms"]
FORM = "sum"
__all__ = ["FORM", "PARAMS", "expected", "fit_costs", "floor_ms", "mu_table", "predict_table"]


def columns(rows: pd.DataFrame, mu: dict) -> np.ndarray:
    """Per launch row the weighted counts of PARAMS' costs: w·(1, V_l, N_l, μ·N_l, K_l, lists_l); `mu`: (graph,
    algorithm) -> μ."""
    m = np.array([mu[g, a] for g, a in zip(rows["graph"], rows["algorithm"], strict=True)], float)
    n = rows["entries"].to_numpy(float)
    w = rows["weight"].to_numpy(float) if "weight" in rows else np.ones(len(rows))
    x = np.stack([np.ones(len(rows)), rows["grid"].to_numpy(float), n, m * n, rows["walk"].to_numpy(float),
                  rows["lists"].to_numpy(float)], axis=1)  # fmt: skip
    return x * w[:, None]


def totals(launches: pd.DataFrame, keys: pd.DataFrame, mu: dict, x: Callable = columns) -> np.ndarray:
    """Per row of `keys` (workloads, in their order) the sums of `x` (`columns`; v6 passes its own) over its
    launches (0 where none)."""
    idx = keys[WORK].reset_index(drop=True).assign(cell=lambda f: np.arange(len(f)))
    rows = launches.merge(idx, on=WORK)
    x = x(rows, mu)
    cell = rows["cell"].to_numpy(int)
    return np.stack([np.bincount(cell, weights=col, minlength=len(idx)) for col in x.T], axis=1)


def fit_group(totals_: np.ndarray, measured: np.ndarray) -> np.ndarray:
    """The costs ≥ 0 minimising Σ (totals·p / measured − 1)² (columns 0 in every cell stay 0)."""
    r = totals_ / measured[:, None]
    unit = r.max(axis=0)
    use = unit > 0
    p = np.zeros(r.shape[1])
    if use.any():
        z, _ = nnls(r[:, use] / unit[use], np.ones(len(measured)))
        p[use] = z / unit[use]
    return p


def fit_costs(table: pd.DataFrame, launches: pd.DataFrame, mu: dict, train: str,
              check_fit_set: Callable[[Iterable[str]], None], x: Callable = columns,
              params: list[str] = PARAMS) -> pd.DataFrame:  # fmt: skip
    """`params` (PARAMS) per algorithm, variant and width on the `device` cells whose split is `train` (groups with
    fewer than 2 get none), over the columns `x` (`columns`); `mu`: (graph, algorithm) -> μ
    (model.gpu_work_v3.mu_table); `check_fit_set` refuses a fit set holding a held-out graph."""
    out = []
    for a, v, w, fit in fit_groups(table, "device", train, check_fit_set):
        p = fit_group(totals(launches, fit, mu, x), fit["measured_ms"].to_numpy(float))
        out.append({"algorithm": a, "variant": v, "edge_bytes": int(w), "form": FORM, "train_cells": len(fit)}
                   | dict(zip(params, p, strict=True)))  # fmt: skip
    return pd.DataFrame(out, columns=[*GROUP, "form", "train_cells", *params])


def floor_ms(table: pd.DataFrame, launches: pd.DataFrame, costs: pd.DataFrame, mu: dict, x: Callable = columns,
             params: list[str] = PARAMS) -> np.ndarray:  # fmt: skip
    """Every row's floor with its group's costs (`params` over the columns `x`); NaN where the group has none."""
    out = np.full(len(table), np.nan)
    byg = costs.set_index(GROUP)
    t = table.reset_index(drop=True)
    for key, grp in t.groupby(GROUP):
        if key in byg.index:
            out[grp.index] = totals(launches, grp, mu, x) @ byg.loc[key, params].to_numpy(float)
    return out
