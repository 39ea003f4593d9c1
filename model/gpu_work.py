"""The GPU-work term of a traversal predicted from the graph alone (issue 24; docs/predictor.md, "GPU-work term v2"):
device-mode time per algorithm, variant and edge width from per-launch counts of a CPU-derived trace
(model/gpu_features.py: grid V_l, entries N_l, longest walk K_l):

    max form (registered):  t = Σ_l [ a + max(b·V_l + c·N_l, s·K_l) ]
    sum form (secondary):   t = Σ_l [ a + b·V_l + c·N_l + s·K_l ]

a is fitted for `frontier` only (other variants' grids are V in every launch: a and b·V are one term at one scale).
Fitted on the cells of FIT_SCALES, judged on those of HELD_OUT_SCALES (the split is in docs/predictor.md).

    python -m model.gpu_work --cells archive/uvm-sim-validation-2026-11-25/cells.csv --launches L.csv.gz --out-dir D

Writes D/gpu_work_cells.csv.gz (every cell with its features, both predictions, errors and split),
gpu_work_params.csv (a, b, c, s per group and form) and gpu_work_summary.csv (median and worst |error| per form,
split and algorithm).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import least_squares, nnls

from emogi.atomic import write_csv
from emogi.cli import exit_status
from model.gpu_features import KEYS

GROUP = ["algorithm", "variant", "edge_bytes"]
PARAMS = ["a_ms", "b_ms", "c_ms", "s_ms"]
FORMS = ("max", "sum")
FIT_SCALES = (21,)  # docs/predictor.md: issue 24's 20-22, as far as the archived cells hold them
HELD_OUT_SCALES = (23, 24, 25)
LAUNCH_COST_VARIANTS = ("frontier",)  # variants whose launch cost a is fitted


class GpuWorkError(ValueError):
    """Cells the model cannot be fitted on."""


def split_of(scale: int) -> str:
    if scale in FIT_SCALES:
        return "fit"
    if scale in HELD_OUT_SCALES:
        return "held-out"
    return "other"


class Launches:
    """The launches of a set of cells as flat arrays, with the cell each belongs to."""

    def __init__(self, rows: pd.DataFrame, n_cells: int):
        self.cell = rows["cell"].to_numpy(int)
        self.x = rows[["one", "grid", "entries", "walk"]].to_numpy(float)  # the four per-launch terms
        self.n = n_cells

    def predict(self, p: np.ndarray, form: str) -> np.ndarray:
        a, b, c, s = p
        if form == "max":
            per = a + np.maximum(b * self.x[:, 1] + c * self.x[:, 2], s * self.x[:, 3])
        else:
            per = self.x @ p
        return np.bincount(self.cell, weights=per, minlength=self.n)

    def totals(self) -> np.ndarray:
        return np.stack([np.bincount(self.cell, weights=col, minlength=self.n) for col in self.x.T], axis=1)


def fit_group(launches: Launches, measured: np.ndarray, free_a: bool) -> dict:
    """a, b, c, s >= 0 for both forms, minimising the squared relative error over the cells of `launches`."""
    tot = launches.totals() / measured[:, None]
    use = np.array([free_a, True, True, True])
    unit = np.maximum(tot.max(axis=0), 1e-300)  # condition the columns; undone below
    coef = np.zeros(4)
    coef[use], _ = nnls((tot / unit)[:, use], np.ones(len(measured)))
    sum_p = coef / unit
    out = {"sum": sum_p}

    def residual(q):
        p = np.zeros(4)
        p[use] = q
        return launches.predict(p, "max") / measured - 1

    starts = [sum_p[use]]
    for j in np.flatnonzero(use):  # each term alone explaining the median cell, the others from the sum form
        solo = sum_p.copy()
        solo[j] = np.median(1 / np.maximum(tot[:, j], 1e-300))
        starts.append(solo[use])
    best = None
    for q0 in starts:
        r = least_squares(residual, np.maximum(q0, 0), bounds=(0, np.inf), x_scale=np.maximum(q0, 1e-12))
        if best is None or r.cost < best.cost:
            best = r
    max_p = np.zeros(4)
    max_p[use] = best.x
    out["max"] = max_p
    return out


def prepare(cells: pd.DataFrame, launches: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Cells with a split and launch counts, and their launches keyed by cell index; cells without launches are
    dropped (counted by the caller)."""
    cells = cells.copy()
    cells["split"] = [split_of(int(s)) for s in cells["scale"]]
    keyed = launches.merge(cells[KEYS].drop_duplicates(), on=KEYS)
    have = keyed[KEYS].drop_duplicates()
    cells = cells.merge(have, on=KEYS).reset_index(drop=True)
    cells["cell"] = np.arange(len(cells))
    rows = cells[KEYS + ["cell"]].merge(keyed, on=KEYS).assign(one=1.0)
    agg = rows.groupby("cell").agg(L=("launch", "size"), V=("grid", "sum"), N=("entries", "sum"), K=("walk", "sum"))
    return cells.join(agg, on="cell"), rows


def check_split(fit_cells: pd.DataFrame) -> None:
    """Refuse a training table holding a held-out scale (docs/predictor.md's split)."""
    bad = sorted(set(fit_cells["scale"].astype(int)) & set(HELD_OUT_SCALES))
    if bad:
        raise GpuWorkError(f"held-out scale(s) {bad} in the fit set: the split of docs/predictor.md forbids it")


def predict(cells: pd.DataFrame, launches: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    cells, rows = prepare(cells, launches)
    params, parts = [], []
    for key, group in cells.groupby(GROUP):
        fit = group[group["split"] == "fit"]
        check_split(fit)
        if len(fit) < 2:
            continue  # nothing to fit on: left out, and counted in the summary
        fit_idx = {c: i for i, c in enumerate(fit["cell"])}
        fr = rows[rows["cell"].isin(fit_idx)]
        fl = Launches(fr.assign(cell=fr["cell"].map(fit_idx)), len(fit))
        fitted = fit_group(fl, fit["device_ms"].to_numpy(float), key[1] in LAUNCH_COST_VARIANTS)
        all_idx = {c: i for i, c in enumerate(group["cell"])}
        gr = rows[rows["cell"].isin(all_idx)]
        gl = Launches(gr.assign(cell=gr["cell"].map(all_idx)), len(group))
        out = group.copy()
        for form in FORMS:
            params.append(dict(zip(GROUP, key, strict=True)) | {"form": form} | dict(zip(PARAMS, fitted[form])))
            out[f"predicted_ms_{form}"] = gl.predict(fitted[form], form)
            out[f"error_{form}"] = out[f"predicted_ms_{form}"] / out["device_ms"] - 1
        parts.append(out)
    if not parts:
        raise GpuWorkError("no algorithm, variant and width has two or more fit cells")
    return pd.concat(parts, ignore_index=True), pd.DataFrame(params)


def summary(cells: pd.DataFrame) -> pd.DataFrame:
    """Median and worst |error| per form, split and algorithm, and per form and split over every algorithm."""
    out = []
    for form in FORMS:
        e = cells.assign(abs_error=cells[f"error_{form}"].abs())
        groups = [*e.groupby(["split", "algorithm"]), *(((s, "all"), g) for s, g in e.groupby("split"))]
        out += [{"form": form, "split": s, "algorithm": a, "cells": len(g), "median": g["abs_error"].median(),
                 "worst": g["abs_error"].max(), "within_5": float((g["abs_error"] <= 0.05).mean()),
                 "within_15": float((g["abs_error"] <= 0.15).mean())} for (s, a), g in groups]  # fmt: skip
    return pd.DataFrame(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.gpu_work", description=__doc__.split("\n\n")[0])
    p.add_argument("--cells", required=True, type=Path, help="model.uvm_fit's cells.csv (device medians, counts)")
    p.add_argument("--launches", required=True, type=Path, help="model.gpu_features' per-launch table")
    p.add_argument("--out-dir", required=True, type=Path)
    a = p.parse_args(argv)

    def go():
        raw = pd.read_csv(a.cells)
        cells, params = predict(raw, pd.read_csv(a.launches))
        print(f"{len(raw)} cells, {len(cells)} with launches and a fitted group")
        write_csv(cells, a.out_dir / "gpu_work_cells.csv.gz")
        write_csv(params, a.out_dir / "gpu_work_params.csv")
        s = summary(cells)
        write_csv(s, a.out_dir / "gpu_work_summary.csv")
        print(s.to_string(index=False))

    return exit_status(go, (GpuWorkError, OSError, KeyError))


if __name__ == "__main__":
    sys.exit(main())
