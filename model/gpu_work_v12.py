"""The GPU-work term v12 (issue 24; docs/holdout-v12.md, registered before the session): v8's floor
(model/gpu_work_v8.py, unchanged) and v4's zero-copy link terms with one column added, chosen in sample by
archive/zerocopy-transfer-v12-exploration-2026-11-28 (leaving one graph out over the 21 graphs of the v11 combined
session): a cost per list walked over the link,

    zero-copy:  t = floor + η · D / T(d) + h · Σ_l w_l lists_l · L / N_max + g · Σ_l w_l σ_l · L

lists_l the lists launch l walks (model.holdout's launches table; w_l Gauss-Seidel's weights, model/gpu_work_v4.py),
L / N_max the time one request holds a slot of the link's concurrency, h ≥ 0 the slots a list costs beyond its
counted requests. Why: at the same d and D, graphs of more, shorter lists ran their zero-copy reads slower than
T(d) says (urand20ef3 against urand19ef6, urand21ef3 against urand19ef12), and the trace's request count lets
neighbouring lists share their first line (model/link_requests.py), which the GPU does not always do. η, h and g per
algorithm, variant and edge width by non-negative least squares on the relative error of the train graphs'
zero-copy cells, each predicted with its fitted floor, as v4's η and g.
"""

from __future__ import annotations

from typing import Callable, Iterable

import numpy as np
import pandas as pd
from scipy.optimize import nnls

from model import gpu_work_v4 as v4
from model.gpu_work_v3 import fit_groups
from model.gpu_work_v8 import class_column, degree_class, expected, fit_costs, floor_ms, mu_table

GROUP = v4.GROUP
WORK = v4.WORK
LINK_PARAMS = ["eta", "h", "g"]  # D / T(d), the lists' slots, the serial steps
__all__ = ["GROUP", "LINK_PARAMS", "class_column", "degree_class", "expected", "fit_costs", "fit_link", "floor_ms",
           "link_features", "lists_of", "mu_table", "predict_table", "priced"]  # fmt: skip


def lists_of(table: pd.DataFrame, launches: pd.DataFrame) -> np.ndarray:
    """Σ_l w_l lists_l for every row of `table` (its workload's launches, weighted; 0 where it has none)."""
    rows = launches.merge(table[WORK].drop_duplicates(), on=WORK)
    weight = rows["weight"].to_numpy(float) if "weight" in rows else 1.0
    per = rows[WORK].assign(n=rows["lists"].to_numpy(float) * weight).groupby(WORK, as_index=False)["n"].sum()
    return table[WORK].merge(per, on=WORK, how="left")["n"].fillna(0.0).to_numpy(float)


def link_features(table: pd.DataFrame, launches: pd.DataFrame, params, vertices: dict) -> np.ndarray:
    """Per row the three link columns in ms (rows × 3: v4's D / T(d), the lists' L / N_max, v4's Σ w σ · L); all 0
    for device rows and workloads without requests."""
    transfer, serial = v4.link_features(table, launches, params, vertices)
    zc = ((table["mode"] == "zerocopy") & (table["requests"] > 0)).to_numpy()
    slot_ms = params.L_us / params.N_max / 1e3
    lists = np.where(zc, lists_of(table, launches) * slot_ms, 0.0)
    return np.stack([transfer, lists, serial], axis=1)


def fit_link_group(floor: np.ndarray, x: np.ndarray, measured: np.ndarray) -> np.ndarray:
    """η, h, g ≥ 0 minimising Σ ((floor + x·p) / measured − 1)² (a column that is 0 in every cell stays 0)."""
    a = x / measured[:, None]
    y = 1.0 - floor / measured
    use = a.max(axis=0) > 0
    out = np.zeros(x.shape[1])
    if use.any():
        out[use], _ = nnls(a[:, use], y)
    return out


def fit_link(
    table: pd.DataFrame, x: np.ndarray, train: str, check_fit_set: Callable[[Iterable[str]], None]
) -> pd.DataFrame:
    """η, h and g per algorithm, variant and width on the zero-copy cells whose split is `train` (`x`: the rows'
    link columns, table's positional order); groups with fewer than 2 such cells get none."""
    out = []
    t = table.reset_index(drop=True)
    for a, v, w, fit in fit_groups(t, "zerocopy", train, check_fit_set):
        i = fit.index.to_numpy()
        p = fit_link_group(fit["floor_ms"].to_numpy(float), x[i], fit["measured_ms"].to_numpy(float))
        out.append({"algorithm": a, "variant": v, "edge_bytes": int(w), "zc_train_cells": len(fit)}
                   | dict(zip(LINK_PARAMS, p, strict=True)))  # fmt: skip
    return pd.DataFrame(out, columns=[*GROUP, "zc_train_cells", *LINK_PARAMS])


def predict_table(table: pd.DataFrame, launches: pd.DataFrame, params, vertices: dict, train: str,
                  check_fit_set: Callable[[Iterable[str]], None]) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """Every row (with its fitted floor_ms) predicted: device = floor; zero-copy = floor + transfer_ms + chain_ms,
    transfer_ms = η·D/T(d) + h·Σ w lists·L/N_max, chain_ms = g·Σ w σ·L; zero-copy rows of groups without link costs
    get NaN. Returns the table and the link costs."""
    t = table.reset_index(drop=True)
    x = link_features(t, launches, params, vertices)
    link = fit_link(t, x, train, check_fit_set)
    return priced(t, x, link), link


def priced(table: pd.DataFrame, x: np.ndarray, link: pd.DataFrame) -> pd.DataFrame:
    """`table` (with floor_ms) priced by the link costs `link` (η, h, g per GROUP) on its link columns `x`
    (link_features, the table's positional order): device = floor; zero-copy = floor + transfer_ms + chain_ms."""
    p = table[GROUP].merge(link, on=GROUP, how="left")[LINK_PARAMS].to_numpy(float)
    zc = (table["mode"] == "zerocopy").to_numpy()
    t = table.copy()
    t["transfer_ms"] = np.where(zc, p[:, 0] * x[:, 0] + p[:, 1] * x[:, 1], 0.0)
    t["chain_ms"] = np.where(zc, p[:, 2] * x[:, 2], 0.0)
    t["predicted_ms"] = t["floor_ms"] + t["transfer_ms"] + t["chain_ms"]
    return t
