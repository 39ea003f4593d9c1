"""Validation 8 of the UVM simulator: validation 7's judge (model/uvm_validation7.py) with the shapes refitted on
validations 3-7's judged cells, the pageable rule on the median of the call's start and end copies refitted under
them, one registered multiplier on the simulated migration of BFS on R-MAT graphs, new graphs (seed 30) and 9 timed
runs a cell interleaved across the step's cells (`--run-order rounds`) (docs/uvm-validations.md, "Validation 8 of the
UVM simulator: registered before the session"; the plan is archive/uvm-validation7-analysis-2026-11-27, "Validation 8
should register"; tools/device/uvm_validation8.sh makes it).

    python -m model.uvm_validation8 judge --tarball uvm8.tgz --graph-dir /tmp/uvm8g --out archive/<dir> [--jobs 2]
    python -m model.uvm_validation8 register --shape-fit F --out registered_params.json   (the registered input)

Per judged cell (cold `uvm`, the median of its 9 timed runs; `device` the median too) the prediction is the
session's device-mode median + f x the migration time of the cell's CPU-derived trace by its access pattern's shape
(naive: thread; merged-aligned: warp) x the R-MAT BFS term (the registered `rmat_bfs_term` for BFS on a graph made
by the R-MAT generator, `--rmat-abc` in its SET entry; 1 elsewhere; column `migration_term`), with f by each rule:
  pageable        (primary) exp(c + k log(P_ref / P)), P the median of the call's pageable h2d copy bandwidths at
                  its start and its end (the start alone if link_end.csv is missing, `pageable_from` says which)
  none            1
and reported beside them, not judged, as validation 7 reports them: `pageable_start`, `micro_start`, `floor`, each
cell's spread, every rule against each run and the perfect predictor at the call's reps, its runs drawn
independently and in blocks of 3 (model/uvm_run_spread.py).
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from model import uvm_validation3, uvm_validation4, uvm_validation5, uvm_validation6, uvm_validation7
from model.uvm_access_shape import load_shapes, migration_ms
from model.uvm_validation4 import Call, judge_call

SEED = 30
SET = {
    "kron23s30": "--kind kron --scale 23 --edge-factor 16",
    "urand23s30": "--kind urand --scale 23 --edge-factor 16",
    "rmat22ef32s30": "--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20",
}
RULES = uvm_validation7.RULES  # pageable, none judged; pageable_start, micro_start reported
JUDGED = uvm_validation7.JUDGED
REPS = 9  # timed runs per cell (tools/device/uvm_validation8.sh REPS), interleaved: --run-order rounds
RUN_ORDER = "rounds"
ARCHIVE = uvm_validation7.ARCHIVE
REGISTERED = ARCHIVE / "uvm-validation8-registration-2026-11-27/registered_params.json"
CALLS = {f"v{n}": f"uvm-validation{n}-h100-2026-11-27" for n in (3, 4, 5, 6, 7)}  # judged calls in the fit
EARLIER_SETS = (uvm_validation3.SET, uvm_validation4.SET, uvm_validation5.SET, uvm_validation6.SET, uvm_validation7.SET)
TERM_ALGORITHM = "bfs"


def rmat_bfs(cells: pd.DataFrame, how: dict) -> np.ndarray:
    """True for each BFS cell on a graph that `how` (name -> generator arguments) makes with the R-MAT generator."""
    rmat = cells["graph"].map(lambda g: "--rmat-abc" in how.get(g, ""))
    return (rmat & (cells["algorithm"] == TERM_ALGORITHM)).to_numpy(bool)


def term_of(how: dict):
    """The judge's term: the registered multiplier on R-MAT BFS cells (graphs of `how`), 1 elsewhere."""

    def term(cells: pd.DataFrame, registered) -> np.ndarray:
        g = float(json.loads(Path(registered).read_text())["rmat_bfs_term"]["multiplier"])
        return np.where(rmat_bfs(cells, how), g, 1.0)

    return term


def fit_term(shape_fit: dict, archive: Path = ARCHIVE, calls: dict = CALLS, sets: tuple = EARLIER_SETS) -> dict:
    """The R-MAT BFS multiplier: the median, over the judged calls' R-MAT BFS cells (their graphs in `sets`), of
    (cold - device) / (the call's session factor in `shape_fit` x the cell's simulated migration under its shapes)."""
    shapes, factors = load_shapes(shape_fit), shape_fit["session_factors"]
    how = {k: v for s in sets for k, v in s.items()}
    parts = []
    for folder in calls.values():
        c = pd.read_csv(next((archive / folder).glob("validation*_cells.csv")))
        c = c[rmat_bfs(c, how)]
        parts.append((c["uvm_ms"] - c["device_ms"]) / (factors[folder] * migration_ms(c, shapes)))
    ratios = pd.concat(parts)
    if ratios.empty:
        raise ValueError("no judged R-MAT BFS cell to fit the term on")
    return {
        "multiplier": float(ratios.median()),
        "cells": int(len(ratios)),
        "applies_to": "BFS (both variants) on graphs made by the R-MAT generator (--rmat-abc)",
        "fit": "median over the judged calls' R-MAT BFS cells of (cold - device) / (session factor x migration)",
    }


def register(shape_fit: dict, mids: dict, archive: Path = ARCHIVE) -> dict:
    """Validation 7's registered input (shapes, pageable rule over the sessions with a start and end median) over
    validations 3-7, and the R-MAT BFS term; refused if validation 8's own call is in the fit (it is held out)."""
    if any("uvm-validation8" in s for s in shape_fit["session_factors"]):
        raise ValueError("the shape fit holds validation 8's judged cells: they are held out")
    reg = uvm_validation7.register(shape_fit, mids, archive, CALLS)
    return reg | {"rmat_bfs_term": fit_term(shape_fit, archive)}


def session_mids(archive: Path = ARCHIVE) -> dict:
    """Each fitted session's median pageable copy: validation 7's registered 10 and validation 7's call's own."""
    return uvm_validation7.session_mids(archive, uvm_validation7.REGISTERED, 7)


CALL = Call(
    8, SEED, RULES, False, "issue 21 UVM simulator, validation 8 (model.uvm_validation8)",
    uvm_validation7.session_factors, term_of(SET),
)  # fmt: skip


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    call = CALL if how is SET else replace(CALL, term=term_of(how))  # another set (tests): its R-MAT graphs
    more = partial(uvm_validation7.spread, reps=REPS)
    return judge_call(call, tarball, graph_dir, out, jobs, registered, how, more=more)


def main(argv=None) -> int:
    return uvm_validation7.validation_main(argv, 8, __doc__, judge, REGISTERED, register, session_mids, "v3-7")


if __name__ == "__main__":
    sys.exit(main())
