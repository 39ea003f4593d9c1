"""The GPU-work term v6 (issue 24; docs/holdout-v3-v6.md, "GPU-work term v6 and held-out validation v6", registered
before the session): v5's floor with the lists counted over non-isolated vertices, the isolated vertices' grid
threads priced apart, and a cost per warp step on Gauss-Seidel launches (archive/gpu-work-v6-exploration-2026-11-27
chose them, in sample, as "NI + steps_gs"). Over the launches l (grid V_l, entries N_l, longest walk K_l, lists
walked lists_l; μ as model/gpu_work_v3.py; weights w_l as model/gpu_work_v4.py runs Gauss-Seidel), per algorithm,
variant and edge width, with V_ni the graph's non-isolated vertices (its metadata's V − isolated_vertices):

    device:     t = Σ_l w_l [ a + b·V_l + b'·V_l,ni + (c + m·μ)·N_l + s·K_l + q·lists_l,ni + r·steps_l ]   all ≥ 0
                V_l,ni = min(V_l, V_ni), lists_l,ni = min(lists_l, V_ni),
                steps_l = max(lists_l, N_l / 32) on `gauss-seidel` launches, 0 elsewhere
    zero-copy:  t = floor + η·D/T(d) + g·Σ_l w_l σ_l·L                                 (v4's link terms, as v4)

- b' and q, **isolated vertices priced apart**: every CC launch's grid is V and Merged-Aligned CC's first launch
  walks every vertex's list, isolated or not (kron21ef4: 59% of its vertices isolated); an isolated thread costs
  b, a non-isolated one b + b', and only non-isolated lists cost q. The trace's per-launch counts do not say which
  lists are empty: min() is exact for the launches that walk every vertex.
- r, **a warp step of Gauss-Seidel**: its warp walks its 32 vertices' lists one after another, so a list costs at
  least a step whatever its length (≥ Σ ceil(deg/32) steps).
- Fitted as v5 (model/gpu_work_v5.py, whose fit and sums it reuses): NNLS on the relative error of the train graphs'
  device cells, the sum form; a column 0 in every train cell stays 0. Used by `python -m model.holdout --split v6`.
"""

from __future__ import annotations

from functools import partial
from typing import Callable, Iterable

import numpy as np
import pandas as pd

from model import gpu_work_v5 as v5
from model.gpu_work_v3 import mu_table
from model.gpu_work_v4 import GROUP, WORK, expected, predict_table

PARAMS = ["a_ms", "b_ms", "bni_ms", "c_ms", "m_ms", "s_ms", "q_ms", "r_ms"]
FORM = v5.FORM
WARP = 32
GAUSS_SEIDEL = "gauss-seidel"
__all__ = ["FORM", "GROUP", "PARAMS", "WORK", "columns", "expected", "fit_costs", "floor_ms", "mu_table",
           "predict_table", "totals"]  # fmt: skip


def columns(rows: pd.DataFrame, mu: dict, nonisolated: dict) -> np.ndarray:
    """Per launch row the weighted counts of PARAMS' costs: w·(1, V_l, V_l,ni, N_l, μ·N_l, K_l, lists_l,ni,
    steps_l); `mu`: (graph, algorithm) -> μ; `nonisolated`: graph -> V − isolated vertices."""
    m = np.array([mu[g, a] for g, a in zip(rows["graph"], rows["algorithm"], strict=True)], float)
    ni = rows["graph"].map(nonisolated).to_numpy(float)
    n, lists, grid = (rows[k].to_numpy(float) for k in ("entries", "lists", "grid"))
    w = rows["weight"].to_numpy(float) if "weight" in rows else np.ones(len(rows))
    steps = np.where((rows["variant"] == GAUSS_SEIDEL).to_numpy(), np.maximum(lists, n / WARP), 0.0)
    x = np.stack([np.ones(len(rows)), grid, np.minimum(grid, ni), n, m * n, rows["walk"].to_numpy(float),
                  np.minimum(lists, ni), steps], axis=1)  # fmt: skip
    return x * w[:, None]


def totals(launches: pd.DataFrame, keys: pd.DataFrame, mu: dict, nonisolated: dict) -> np.ndarray:
    """Per row of `keys` (workloads, in their order) the sums of `columns` over its launches (0 where none)."""
    return v5.totals(launches, keys, mu, partial(columns, nonisolated=nonisolated))


def fit_costs(table: pd.DataFrame, launches: pd.DataFrame, mu: dict, nonisolated: dict, train: str,
              check_fit_set: Callable[[Iterable[str]], None]) -> pd.DataFrame:  # fmt: skip
    """PARAMS per algorithm, variant and width on the `device` cells whose split is `train` (v5's fit; groups with
    fewer than 2 get none); `check_fit_set` refuses a fit set holding a held-out graph."""
    x = partial(columns, nonisolated=nonisolated)
    return v5.fit_costs(table, launches, mu, train, check_fit_set, x=x, params=PARAMS)


def floor_ms(table: pd.DataFrame, launches: pd.DataFrame, costs: pd.DataFrame, mu: dict,
             nonisolated: dict) -> np.ndarray:  # fmt: skip
    """Every row's floor with its group's costs; NaN where the group has none."""
    return v5.floor_ms(table, launches, costs, mu, partial(columns, nonisolated=nonisolated), PARAMS)
