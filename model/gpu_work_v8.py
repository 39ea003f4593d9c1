"""The GPU-work term v8 (issue 24; docs/holdout-v7-v10.md, "GPU-work term v8 and held-out validation v8", registered
before the session): v7's floor and trim (model/gpu_work_v7.py) and v4's zero-copy link terms, with one change,
chosen in sample by archive/gpu-work-v8-exploration-2026-11-27 (qb): direction-optimizing BFS fitted apart for
skewed and uniform graphs. The class comes from the graph file's metadata before any run: max_degree over
avg_degree_nonisolated ≥ SKEW (30) is `skewed` (every kron and rmat graph of v5-v7: ≥ 383), below it `uniform`
(every urand graph: ≤ 3.0). Every other group is fitted as v7's (pooled, `class` empty). The cells' statistic (the
min of the timed runs) is the split's (model/holdout_split_v8.py, STATISTIC), applied by model.holdout.cells_of.
"""

from __future__ import annotations

from typing import Callable, Iterable

import numpy as np
import pandas as pd

from model import gpu_work_v7 as v7
from model.gpu_work_v7 import FORM, GROUP, PARAMS, TRIM, WORK, columns, expected, mu_table, predict_table

SKEW = 30.0  # max degree / mean degree of the non-isolated vertices at or above it: skewed
SPLIT_APART = (("bfs", "direction-optimizing"),)  # the (algorithm, variant) groups fitted per degree class
__all__ = ["FORM", "GROUP", "PARAMS", "SKEW", "SPLIT_APART", "TRIM", "WORK", "class_column", "columns",
           "degree_class", "expected", "fit_costs", "floor_ms", "mu_table", "predict_table"]  # fmt: skip


def degree_class(meta: dict, skew: float = SKEW) -> str:
    """`skewed` or `uniform` from a graph file's metadata (max_degree, avg_degree_nonisolated)."""
    try:
        ratio = float(meta["max_degree"]) / float(meta["avg_degree_nonisolated"])
    except (KeyError, TypeError, ZeroDivisionError) as e:
        raise ValueError(f"no degree class: the metadata lacks max_degree or avg_degree_nonisolated ({e})") from None
    return "skewed" if ratio >= skew else "uniform"


def class_column(table: pd.DataFrame, classes: dict) -> np.ndarray:
    """Per row its fit's class: the graph's degree class in a SPLIT_APART group, '' elsewhere (pooled)."""
    apart = [(a, v) in SPLIT_APART for a, v in zip(table["algorithm"], table["variant"], strict=True)]
    return np.array([classes[g] if s else "" for g, s in zip(table["graph"], apart, strict=True)], dtype=object)


def fit_costs(table: pd.DataFrame, launches: pd.DataFrame, mu: dict, nonisolated: dict, classes: dict, train: str,
              check_fit_set: Callable[[Iterable[str]], None], trim: float = TRIM) -> pd.DataFrame:  # fmt: skip
    """v7's costs (model/gpu_work_v7.fit_costs) per class (`classes`: graph -> degree_class), with a `class`
    column: '' for the pooled groups, `skewed` or `uniform` for SPLIT_APART's."""
    cls = class_column(table, classes)
    out = [v7.fit_costs(table[cls == c], launches, mu, nonisolated, train, check_fit_set, trim).assign(**{"class": c})
           for c in sorted(set(cls))]  # fmt: skip
    cols = [*GROUP, "class", "form", "train_cells", "trimmed", *PARAMS]
    return pd.concat(out, ignore_index=True)[cols] if out else pd.DataFrame(columns=cols)


def floor_ms(table: pd.DataFrame, launches: pd.DataFrame, costs: pd.DataFrame, mu: dict, nonisolated: dict,
             classes: dict) -> np.ndarray:  # fmt: skip
    """Every row's floor with its group's and class's costs; NaN where they have none."""
    t = table.reset_index(drop=True)
    cls = class_column(t, classes)
    out = np.full(len(t), np.nan)
    for c in set(cls):
        rows = np.flatnonzero(cls == c)
        mine = costs[costs["class"] == c].drop(columns="class")
        out[rows] = v7.floor_ms(t.iloc[rows], launches, mine, mu, nonisolated)
    return out
