"""The GPU-work term v7 (issue 24; docs/holdout-v7-v10.md, "GPU-work term v7 and held-out validation v7", registered
before the session): v6's floor (model/gpu_work_v6.py: the same columns and costs) with one change in the fit,
chosen in sample by archive/gpu-work-v7-exploration-2026-11-27 (qb): per algorithm, variant and width, v6's NNLS on
the relative error of the train graphs' device cells, then the train cells whose |error| under that first fit
exceeds TRIM dropped and the group fitted again, once. Two anomalous 4-byte train cells in v6 (DO BFS, runs 1.7×
and 2.5× their v5 times) had bent that group's per-entry and per-list costs; the refit without them took its
held-out worst from 41.6% to 25.8% in sample. A group keeps its first fit where fewer than 2 cells would remain;
`trimmed` says how many train cells each group dropped. v4's zero-copy link terms are unchanged.
"""

from __future__ import annotations

from functools import partial
from typing import Callable, Iterable

import numpy as np
import pandas as pd

from model import gpu_work_v5 as v5
from model.gpu_work_v3 import fit_groups
from model.gpu_work_v6 import FORM, GROUP, PARAMS, WORK, columns, expected, floor_ms, mu_table, predict_table

TRIM = 0.30  # a train cell whose first-fit |error| exceeds it is left out of the refit
__all__ = ["FORM", "GROUP", "PARAMS", "TRIM", "WORK", "columns", "expected", "fit_costs", "floor_ms", "mu_table",
           "predict_table", "trimmed_fit"]  # fmt: skip


def trimmed_fit(totals: np.ndarray, measured: np.ndarray, trim: float = TRIM) -> tuple[np.ndarray, int]:
    """v5's fit (NNLS on the relative error), then again without the cells whose |error| exceeds `trim`: the costs
    and how many cells were dropped (0, and the first fit, where fewer than 2 would remain)."""
    p = v5.fit_group(totals, measured)
    keep = np.abs(totals @ p / measured - 1) <= trim
    if keep.all() or keep.sum() < 2:
        return p, 0
    return v5.fit_group(totals[keep], measured[keep]), int((~keep).sum())


def fit_costs(table: pd.DataFrame, launches: pd.DataFrame, mu: dict, nonisolated: dict, train: str,
              check_fit_set: Callable[[Iterable[str]], None], trim: float = TRIM) -> pd.DataFrame:  # fmt: skip
    """PARAMS per algorithm, variant and width on the `device` cells whose split is `train` (groups with fewer than
    2 get none), trimmed once (`trimmed_fit`); `check_fit_set` refuses a fit set holding a held-out graph."""
    x = partial(columns, nonisolated=nonisolated)
    out = []
    for a, v, w, fit in fit_groups(table, "device", train, check_fit_set):
        p, dropped = trimmed_fit(v5.totals(launches, fit, mu, x), fit["measured_ms"].to_numpy(float), trim)
        out.append({"algorithm": a, "variant": v, "edge_bytes": int(w), "form": FORM, "train_cells": len(fit),
                    "trimmed": dropped} | dict(zip(PARAMS, p, strict=True)))  # fmt: skip
    return pd.DataFrame(out, columns=[*GROUP, "form", "train_cells", "trimmed", *PARAMS])
