"""The UVM simulator's cost shape per access pattern: one shape for kernels that give a thread a list (naive, 32
lists per warp), one for kernels that give a warp a list, with one factor per session shared by both
(docs/uvm-validations.md, "Validation 4 of the UVM simulator: registered before the session").

    python -m model.uvm_access_shape --cells archive/uvm-sim-validation-2026-11-25/cells.csv \
        --oom-table archive/oom-h100-80gb-hbm3-2026-11-25-1207/oom.csv.gz \
        --counts archive/uvm-sim-structure-2026-11-27/counts_*.csv --archive archive \
        --judged archive/uvm-validation3-h100-2026-11-27 --out P.json

Why (archive/uvm-validation3-analysis-2026-11-27/README.md): with validation 3's one shape, the thread-per-list
cells' measured over simulated migration falls with the fault entries per serviced 2 MiB region (r = -0.65 over
the archived naive cells, -0.70 over validation 3's) while the warp-per-list cells' does not (0.02): the driver
spends its time differently on the two fault streams, so one set of four costs cannot fit both.

The fit is model.uvm_session_fit's (the warp-faults form, least absolute relative deviation of the total time,
alternating with one factor per session normalised to a median session of 1) on the same archived cells, with the
four costs fitted per access pattern and the session factor shared: the factor is the median, over all of a
session's cells of both patterns, of measured over simulated migration. Chunked (8 lists per warp) and Afforest
belong to neither pattern and are left out. A judged validation folder (`--judged`, model.uvm_validation3's
output: validation3_cells.csv and session/uvm3/micro/link.csv; model.uvm_validation4's: validation4_cells.csv
and session/uvm4/...) joins the fit as one more session, named by its folder. The pageable rule is refitted on
these factors.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_text
from emogi.cli import exit_status
from model.uvm_calibrate import _lad
from model.uvm_session_fit import archived_cells, fit_pageable_rule, pageable_gbps, session_pageable
from model.uvm_sim import UvmParams
from model.uvm_warp_faults import features

ACCESSES = ("thread", "warp")
THREAD_VARIANTS = ("naive",)  # a thread per list, 32 lists per warp (model/uvm_sim.py LISTS_PER_WARP)
NEITHER = ("chunked", "afforest")  # 8 lists per warp; Afforest's sampling: neither pattern


def access_of(variant) -> np.ndarray | str:
    """'thread', 'warp' or '' (neither) for a variant name or a column of them."""
    v = pd.Series(variant) if np.ndim(variant) else pd.Series([variant])
    out = np.where(v.isin(THREAD_VARIANTS), "thread", np.where(v.isin(NEITHER), "", "warp"))
    return out if np.ndim(variant) else str(out[0])


def _params(coef: np.ndarray) -> UvmParams:
    a, tb, ts, te = coef
    return UvmParams(
        throughput_gbps=1e3 / a if a > 0 else float("inf"),
        batch_us=tb * 1e3,
        service_us=ts * 1e3,
        warp_fault_us=te * 1e3,
    )


def migration_ms(cells: pd.DataFrame, shapes: dict) -> np.ndarray:
    """Each cell's simulated migration time by its access pattern's shape (NaN for neither)."""
    acc = access_of(cells["variant"])
    out = np.full(len(cells), np.nan)
    for k, shape in shapes.items():
        m = acc == k
        part = cells[m]
        out[m] = shape.migration_ms(
            part["migrated_bytes"].to_numpy(float),
            part["batches"].to_numpy(float),
            part["serviced_chunks"].to_numpy(float),
            part["list_faults"].to_numpy(float),
        )
    return out


def fit_access_shapes(cells: pd.DataFrame, rounds: int = 8) -> tuple[dict, dict]:
    """({access: the shape at the median session}, {session: factor}) on the cells of either pattern."""
    cells = cells[access_of(cells["variant"]) != ""].reset_index(drop=True)
    acc = access_of(cells["variant"])
    uvm, device = cells["uvm_ms"].to_numpy(float), cells["device_ms"].to_numpy(float)
    target, x, session = np.maximum(uvm - device, 0.0), features(cells), cells["session"]
    factors = pd.Series(1.0, index=session.unique())
    shapes = {}
    for _ in range(rounds):
        f = session.map(factors).to_numpy(float)
        sim = np.zeros(len(cells))
        for k in ACCESSES:
            m = acc == k
            if not m.any():
                raise ValueError(f"no archived cell of the {k}-per-list pattern")
            coef = _lad(x[m] * f[m, None], target[m], 1 / uvm[m])
            shapes[k] = _params(coef)
            sim[m] = x[m] @ coef
        ratio = pd.Series(target / np.maximum(sim, 1e-12), index=cells.index)
        factors = ratio.groupby(session).median()
        factors = factors / factors.median()
    return shapes, {str(k): float(v) for k, v in factors.items()}


def judged_cells(folder: Path) -> tuple[pd.DataFrame, dict]:
    """A judged validation folder's cells (its one validationN_cells.csv: validation 3's, 4's, ...) as one session
    of the fit, and its pageable bandwidth."""
    found = sorted(folder.glob("validation*_cells.csv"))
    if len(found) != 1:
        raise ValueError(f"{folder}: {len(found)} validation*_cells.csv files, need one")
    cells = pd.read_csv(found[0]).assign(session=folder.name)
    link = next(folder.glob("session/*/micro/link.csv"), None)
    gbps = {folder.name: pageable_gbps(pd.read_csv(link))} if link else {}
    return cells, gbps


def load_shapes(d: dict) -> dict:
    return {k: UvmParams(**v) for k, v in d["shapes"].items()}


def fit_all(cells: pd.DataFrame, archive: Path, judged=()) -> dict:
    pageable = {}
    for folder in judged:
        more, gbps = judged_cells(Path(folder))
        cells = pd.concat([cells, more[cells.columns]], ignore_index=True)
        pageable |= gbps
    shapes, factors = fit_access_shapes(cells)
    rule = fit_pageable_rule(factors, session_pageable(archive, factors) | pageable)
    n = {k: int((access_of(cells["variant"]) == k).sum()) for k in ACCESSES}
    return {
        "shapes": {k: asdict(s) for k, s in shapes.items()},
        "session_factors": factors,
        "pageable_rule": rule,
        "cells": n,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.uvm_access_shape", description=__doc__.split("\n\n")[0])
    p.add_argument("--cells", required=True, type=Path, help="archive/uvm-sim-validation-2026-11-25/cells.csv")
    p.add_argument("--oom-table", required=True, type=Path)
    p.add_argument("--counts", required=True, nargs="+", type=Path, help="model.uvm_warp_faults counts outputs")
    p.add_argument("--archive", required=True, type=Path, help="where the sessions' directories are (link tables)")
    p.add_argument("--judged", nargs="*", type=Path, default=[], help="judged validation folders joining the fit")
    p.add_argument("--out", required=True, type=Path)
    a = p.parse_args(argv)

    def go():
        counts = pd.concat([pd.read_csv(f) for f in a.counts], ignore_index=True)
        cells = archived_cells(pd.read_csv(a.cells), pd.read_csv(a.oom_table), counts)
        out = fit_all(cells, a.archive, a.judged)
        write_text(json.dumps(out, indent=2) + "\n", a.out)
        print(json.dumps({k: out[k] for k in ("shapes", "session_factors", "cells")}, indent=2))
        print(json.dumps({k: v for k, v in out["pageable_rule"].items() if k != "sessions"}))

    return exit_status(go, (OSError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
