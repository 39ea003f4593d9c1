"""The GPU-work term v5 (issue 24; docs/predictor.md, "GPU-work term v5 and held-out validation v5", registered
before the session): v4's floor with two more counts per launch, both from the CPU-derived trace and the graph
file (archive/gpu-work-v5-exploration-2026-11-27 chose them, in sample). Over the launches l (grid V_l, entries
N_l, longest walk K_l, lists walked lists_l; weights w_l as model/gpu_work_v4.py runs Gauss-Seidel), per
algorithm, variant and edge width:

    device:     t = Σ_l w_l [ a + b·V_l + (c + m·μ + f·φ)·N_l + s·K_l + q·lists_l ]      a, b, c, m, s, f, q ≥ 0
    zero-copy:  t = floor + η·D/T(d) + g·Σ_l w_l σ_l·L                                   (v4's link terms, as v4)

- q, **a cost per list**: merged-aligned gives every list a warp (and the other variants a step per list), so a
  launch costs at least its lists whatever their length; on graphs of 32-72 entries a list v4 folded it into c.
- f, **an L2-fill cost per entry**: φ = min(1, F/C), F = V·r the bytes of the per-vertex state each entry reads at
  random (r = model.gpu_work_v3.STATE_BYTES), C the L2's effective capacity (model/l2_capacity.py): the per-entry
  cost rises as the state fills the L2, before v3's miss share μ = max(0, 1 − C/F) leaves 0.
- Fitted by non-negative least squares on the relative error of the train graphs' device cells (the sum form,
  as v4's registered floor; a column that is 0 in every train cell stays 0). Used by `python -m model.holdout
  --split v5`.
"""

from __future__ import annotations

from typing import Callable, Iterable

import numpy as np
import pandas as pd
from scipy.optimize import nnls

from model.gpu_work_v3 import STATE_BYTES, mu_of
from model.gpu_work_v4 import GROUP, WORK, expected, predict_table

PARAMS = ["a_ms", "b_ms", "c_ms", "m_ms", "s_ms", "f_ms", "q_ms"]
FORM = "sum"
__all__ = ["FORM", "PARAMS", "expected", "fill_of", "fit_costs", "floor_ms", "predict_table", "state_table"]


def fill_of(vertices: float, algorithm: str, capacity: float) -> float:
    """φ: the share of an L2 of `capacity` bytes that an algorithm's per-vertex random state takes (at most 1)."""
    return float(min(1.0, float(vertices) * STATE_BYTES[algorithm] / capacity))


def state_table(table: pd.DataFrame, vertices: dict, capacity: float) -> dict:
    """(graph, algorithm) -> (μ, φ) for every pair of `table`; `vertices`: graph -> V."""
    pairs = table[["graph", "algorithm"]].drop_duplicates().itertuples(index=False)
    return {(g, a): (mu_of(vertices[g], a, capacity), fill_of(vertices[g], a, capacity)) for g, a in pairs}


def columns(rows: pd.DataFrame, state: dict) -> np.ndarray:
    """Per launch row the weighted counts of PARAMS' costs: w·(1, V_l, N_l, μ·N_l, K_l, φ·N_l, lists_l)."""
    mu, phi = (np.array([state[g, a][k] for g, a in zip(rows["graph"], rows["algorithm"], strict=True)], float)
               for k in (0, 1))  # fmt: skip
    n = rows["entries"].to_numpy(float)
    w = rows["weight"].to_numpy(float) if "weight" in rows else np.ones(len(rows))
    x = np.stack([np.ones(len(rows)), rows["grid"].to_numpy(float), n, mu * n, rows["walk"].to_numpy(float),
                  phi * n, rows["lists"].to_numpy(float)], axis=1)  # fmt: skip
    return x * w[:, None]


def totals(launches: pd.DataFrame, keys: pd.DataFrame, state: dict) -> np.ndarray:
    """Per row of `keys` (workloads, in their order) the sums of `columns` over its launches (0 where none)."""
    idx = keys[WORK].reset_index(drop=True).assign(cell=lambda f: np.arange(len(f)))
    rows = launches.merge(idx, on=WORK)
    x = columns(rows, state)
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


def fit_costs(table: pd.DataFrame, launches: pd.DataFrame, state: dict, train: str,
              check_fit_set: Callable[[Iterable[str]], None]) -> pd.DataFrame:  # fmt: skip
    """PARAMS per algorithm, variant and width on the `device` cells whose split is `train` (groups with fewer than
    2 get none); `check_fit_set` refuses a fit set holding a held-out graph."""
    out = []
    for (a, v, w), grp in table.groupby(GROUP):
        fit = grp[(grp["mode"] == "device") & (grp["split"] == train)]
        check_fit_set(fit["graph"])
        if len(fit) < 2:
            continue
        p = fit_group(totals(launches, fit, state), fit["measured_ms"].to_numpy(float))
        out.append({"algorithm": a, "variant": v, "edge_bytes": int(w), "form": FORM, "train_cells": len(fit)}
                   | dict(zip(PARAMS, p, strict=True)))  # fmt: skip
    return pd.DataFrame(out, columns=[*GROUP, "form", "train_cells", *PARAMS])


def floor_ms(table: pd.DataFrame, launches: pd.DataFrame, costs: pd.DataFrame, state: dict) -> np.ndarray:
    """Every row's floor with its group's costs; NaN where the group has none."""
    out = np.full(len(table), np.nan)
    byg = costs.set_index(GROUP)
    t = table.reset_index(drop=True)
    for key, grp in t.groupby(GROUP):
        if key in byg.index:
            out[grp.index] = totals(launches, grp, state) @ byg.loc[key, PARAMS].to_numpy(float)
    return out
