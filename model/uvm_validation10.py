"""Validation 10 of the UVM simulator: validation 9's judge (model/uvm_validation9.py) with the shapes refitted on
validations 3-9's judged cells, f = 1 (the fit's median session) as the primary rule, one registered multiplier per
algorithm and variant on the simulated migration (in place of the R-MAT BFS term), new graphs (seed 33) and 9 timed
runs a cell interleaved across the step's cells (`--run-order rounds`) (docs/uvm-validations-10-12.md, "Validation 10 of
the UVM simulator: registered before the session"; the plan is archive/uvm-validation9-analysis-2026-11-27,
"Validation 10 should register"; tools/device/uvm_validation10.sh makes it).

    python -m model.uvm_validation10 judge --tarball uvm10.tgz --graph-dir /tmp/uvm10g --out archive/<dir> [--jobs 2]
    python -m model.uvm_validation10 register --shape-fit F --out registered_params.json   (the registered input)

Per judged cell (cold `uvm`, the median of its 9 timed runs; `device` the median too) the prediction is the
session's device-mode median + f x the migration time of the cell's CPU-derived trace by its access pattern's shape
x the cell's algorithm-and-variant term (the registered `algorithm_term` multiplier; 1 for a pair it lacks; column
`migration_term`), with f by each rule:
  none            (primary) 1: the shape fit's median session (no measurement of the call enters it)
  pooled          the registered constant `pooled_factor`, the median of validations 3-9's session factors
  pageable        exp(c + k log(P_ref / P)), P the median of the call's pageable h2d copies at its start and end
and reported beside them, not judged, as validation 9 reports them: `pageable_start`, `micro_start`, `floor`, each
cell's spread, every rule against each run and the perfect predictor at the call's reps (model/uvm_run_spread.py).
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from model import uvm_validation7, uvm_validation9
from model.uvm_access_shape import load_shapes, migration_ms
from model.uvm_validation4 import Call, judge_call

SEED = 33
SET = {
    "kron23s33": "--kind kron --scale 23 --edge-factor 16",
    "urand23s33": "--kind urand --scale 23 --edge-factor 16",
    "rmat22ef32s33": "--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20",
}
RULES = ("none", "pooled", "pageable", "pageable_start", "micro_start")  # none, pooled, pageable judged
JUDGED = ("none", "pooled", "pageable")
REPS = 9  # timed runs per cell (tools/device/uvm_validation10.sh REPS), interleaved: --run-order rounds
RUN_ORDER = "rounds"
ARCHIVE = uvm_validation9.ARCHIVE
REGISTERED = ARCHIVE / "uvm-validation10-registration-2026-11-27/registered_params.json"
CALLS = uvm_validation9.CALLS | {"v9": "uvm-validation9-h100-2026-11-27"}  # judged calls in the fit
EARLIER_SETS = (*uvm_validation9.EARLIER_SETS, uvm_validation9.SET)


def pair(cells: pd.DataFrame) -> pd.Series:
    """Each cell's term key, 'algorithm/variant'."""
    return cells["algorithm"].astype(str) + "/" + cells["variant"].astype(str)


def fit_algorithm_term(shape_fit: dict, archive: Path = ARCHIVE, calls: dict = CALLS) -> dict:
    """One multiplier per algorithm and variant: the median, over the judged calls' cells of that pair, of
    (cold - device) / (the call's session factor in `shape_fit` x the cell's simulated migration under its shapes)."""
    shapes, factors = load_shapes(shape_fit), shape_fit["session_factors"]
    parts = []
    for folder in calls.values():
        c = pd.read_csv(next((archive / folder).glob("validation*_cells.csv")))
        ratio = (c["uvm_ms"] - c["device_ms"]) / (factors[folder] * migration_ms(c, shapes))
        parts.append(pd.DataFrame({"pair": pair(c), "ratio": ratio}).dropna())
    ratios = pd.concat(parts, ignore_index=True)
    if ratios.empty:
        raise ValueError("no judged cell to fit the algorithm term on")
    g = ratios.groupby("pair")["ratio"]
    return {
        "multipliers": {k: float(v) for k, v in g.median().items()},
        "cells": {k: int(v) for k, v in g.size().items()},
        "applies_to": "every cell by its algorithm/variant (1 for a pair not listed)",
        "fit": "median over the judged calls' cells of the pair of (cold - device) / (session factor x migration)",
    }


def term(cells: pd.DataFrame, registered) -> np.ndarray:
    """The judge's term: the registered multiplier of each cell's algorithm/variant, 1 for a pair it lacks."""
    m = json.loads(Path(registered).read_text())["algorithm_term"]["multipliers"]
    return pair(cells).map(m).fillna(1.0).to_numpy(float)


def register(shape_fit: dict, mids: dict, archive: Path = ARCHIVE) -> dict:
    """Validation 9's registered input over validations 3-9 (shapes, pageable rule, pooled factor) with the
    algorithm term in place of the R-MAT BFS term; refused if validation 10's own call is in the fit."""
    if any("uvm-validation10" in s for s in shape_fit["session_factors"]):
        raise ValueError("the shape fit holds validation 10's judged cells: they are held out")
    reg = uvm_validation7.register(shape_fit, mids, archive, CALLS)
    pooled = uvm_validation9.pooled_factor(shape_fit, CALLS) | {
        "fit": "median of the judged calls' session factors (validations 3-9) under the registered shapes"
    }
    return reg | {"algorithm_term": fit_algorithm_term(shape_fit, archive), "pooled_factor": pooled}


def session_mids(archive: Path = ARCHIVE) -> dict:
    """Each fitted session's median pageable copy: validation 9's registered 12 and validation 9's call's own."""
    return uvm_validation7.session_mids(archive, uvm_validation9.REGISTERED, 9)


CALL = Call(
    10, SEED, RULES, False, "issue 21 UVM simulator, validation 10 (model.uvm_validation10)",
    partial(uvm_validation9.session_factors, registered=REGISTERED), term,
)  # fmt: skip


def judge(
    tarball: Path,
    graph_dir: Path,
    out: Path,
    jobs: int = 1,
    registered=REGISTERED,
    how: dict = SET,
    call=CALL,
    more=None,
    describe=None,
):
    """`call`: validation 10's, or a repeat of it under another number and seed (model/uvm_validation11.py); `more`
    and `describe`: judge_call's hooks, `more` validation 10's spread tables where None (model/uvm_validation12.py
    adds the GPU to the cells, the summary and source.json)."""
    call = replace(call, factors=partial(uvm_validation9.session_factors, registered=registered))
    more = more or partial(uvm_validation7.spread, rules=RULES, reps=REPS)
    return judge_call(call, tarball, graph_dir, out, jobs, registered, how, more=more, describe=describe)


def main(argv=None) -> int:
    return uvm_validation7.validation_main(argv, 10, __doc__, judge, REGISTERED, register, session_mids, "v3-9")


if __name__ == "__main__":
    sys.exit(main())
