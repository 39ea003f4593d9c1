"""The GPU-work term of a traversal predicted from the graph alone (issue 24, groundwork; docs/model.md, "GPU-work
term from the graph"): device-mode time t = a·L + b·L·V + c·N per algorithm, variant and edge width, from the
launches L, vertices V and list entries N of a CPU-derived trace, fitted on one set of archived cells and judged
on another (the split is in docs/model.md, written down before the fit).

    python -m model.gpu_work --cells archive/uvm-sim-validation-2026-11-25/cells.csv --out-dir DIR

Writes DIR/gpu_work_cells.csv (every cell with its features, prediction, error and split), gpu_work_params.csv
(a, b, c per group) and gpu_work_summary.csv (median and worst |error| per split and algorithm).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import nnls

from emogi.atomic import write_csv
from emogi.cli import exit_status

GROUP = ["algorithm", "variant", "edge_bytes"]
FEATURES = ["launches", "vertices_scanned", "entries"]
FIT_SCALES = (21,)  # docs/model.md: fitted on these, judged on the rest


class GpuWorkError(ValueError):
    """Cells the model cannot be fitted on."""


def features(cells: pd.DataFrame) -> pd.DataFrame:
    """The model's inputs per cell: L, L·V and N (the CPU-derived counts)."""
    out = cells.copy()
    out["vertices_scanned"] = out["launches"] * (2.0 ** out["scale"])
    out["entries"] = out["cpu_entries"].astype(float)
    out["split"] = np.where(out["scale"].isin(FIT_SCALES), "fit", "validation")
    return out


def fit_group(rows: pd.DataFrame) -> np.ndarray:
    """a, b, c >= 0 minimising the summed squared relative error over `rows`."""
    x = rows[FEATURES].to_numpy(float) / rows["device_ms"].to_numpy(float)[:, None]
    scale = np.maximum(x.max(axis=0), 1e-300)  # condition the columns; undone below
    coef, _ = nnls(x / scale, np.ones(len(rows)))
    return coef / scale


def predict(cells: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    f = features(cells)
    params, parts = [], []
    for key, rows in f.groupby(GROUP):
        fit = rows[rows["split"] == "fit"]
        if len(fit) < 2:
            continue  # nothing to fit on: the group is left out (and said so in the summary's counts)
        coef = fit_group(fit)
        params.append(dict(zip(GROUP, key, strict=True)) | dict(zip(["a_ms", "b_ms", "c_ms"], coef, strict=True)))
        parts.append(rows.assign(predicted_ms=rows[FEATURES].to_numpy(float) @ coef))
    if not parts:
        raise GpuWorkError("no algorithm, variant and width has two or more fit cells")
    out = pd.concat(parts, ignore_index=True)
    out["error"] = out["predicted_ms"] / out["device_ms"] - 1
    return out, pd.DataFrame(params)


def summary(cells: pd.DataFrame) -> pd.DataFrame:
    """Median and worst |error| per split and algorithm, and per split over every algorithm."""
    e = cells.assign(abs_error=cells["error"].abs())
    groups = [*e.groupby(["split", "algorithm"]), *(((s, "all"), g) for s, g in e.groupby("split"))]
    return pd.DataFrame(
        [{"split": s, "algorithm": a, "cells": len(g), "median": g["abs_error"].median(),
          "worst": g["abs_error"].max(), "within_5": float((g["abs_error"] <= 0.05).mean()),
          "within_15": float((g["abs_error"] <= 0.15).mean())} for (s, a), g in groups]
    )  # fmt: skip


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.gpu_work", description=__doc__.split("\n\n")[0])
    p.add_argument("--cells", required=True, type=Path, help="model.uvm_fit's cells.csv (device medians, counts)")
    p.add_argument("--out-dir", required=True, type=Path)
    a = p.parse_args(argv)

    def go():
        cells, params = predict(pd.read_csv(a.cells))
        write_csv(cells, a.out_dir / "gpu_work_cells.csv")
        write_csv(params, a.out_dir / "gpu_work_params.csv")
        s = summary(cells)
        write_csv(s, a.out_dir / "gpu_work_summary.csv")
        print(s.to_string(index=False))

    return exit_status(go, (GpuWorkError, OSError, KeyError))


if __name__ == "__main__":
    sys.exit(main())
