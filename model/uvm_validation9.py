"""Validation 9 of the UVM simulator: validation 8's judge (model/uvm_validation8.py) with the shapes refitted on
validations 3-8's judged cells, a POOLED constant session factor as the primary rule (the median of validations
3-8's session factors under that fit), the R-MAT BFS term refitted on validations 3-8, new graphs (seed 31) and 9
timed runs a cell interleaved across the step's cells (`--run-order rounds`) (docs/uvm-validations.md, "Validation 9
of the UVM simulator: registered before the session"; the plan is archive/uvm-validation8-analysis-2026-11-27,
"Validation 9 should register"; tools/device/uvm_validation9.sh makes it).

    python -m model.uvm_validation9 judge --tarball uvm9.tgz --graph-dir /tmp/uvm9g --out archive/<dir> [--jobs 2]
    python -m model.uvm_validation9 register --shape-fit F --out registered_params.json   (the registered input)

Per judged cell (cold `uvm`, the median of its 9 timed runs; `device` the median too) the prediction is the
session's device-mode median + f x the migration time of the cell's CPU-derived trace by its access pattern's shape
x the R-MAT BFS term (the registered `rmat_bfs_term` on BFS cells of graphs made by the R-MAT generator; 1
elsewhere; column `migration_term`), with f by each rule:
  pooled          (primary) the registered constant `pooled_factor` (no measurement of the call enters it)
  pageable        exp(c + k log(P_ref / P)), P the median of the call's pageable h2d copy bandwidths at its start
                  and its end (c and k refitted over 12 sessions)
  none            1
and reported beside them, not judged, as validation 8 reports them: `pageable_start`, `micro_start`, `floor`, each
cell's spread, every rule against each run and the perfect predictor at the call's reps (model/uvm_run_spread.py).
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np

from model import uvm_validation7, uvm_validation8
from model.uvm_validation4 import Call, judge_call

SEED = 31
SET = {
    "kron23s31": "--kind kron --scale 23 --edge-factor 16",
    "urand23s31": "--kind urand --scale 23 --edge-factor 16",
    "rmat22ef32s31": "--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20",
}
RULES = ("pooled", *uvm_validation8.RULES)  # pooled, pageable, none judged; pageable_start, micro_start reported
JUDGED = ("pooled", *uvm_validation8.JUDGED)
REPS = 9  # timed runs per cell (tools/device/uvm_validation9.sh REPS), interleaved: --run-order rounds
RUN_ORDER = "rounds"
ARCHIVE = uvm_validation8.ARCHIVE
REGISTERED = ARCHIVE / "uvm-validation9-registration-2026-11-27/registered_params.json"
CALLS = uvm_validation8.CALLS | {"v8": "uvm-validation8-h100-2026-11-27"}  # judged calls in the fit
EARLIER_SETS = (*uvm_validation8.EARLIER_SETS, uvm_validation8.SET)


def pooled_factor(shape_fit: dict, calls: dict = CALLS) -> dict:
    """The primary rule's constant: the median of the judged calls' session factors in `shape_fit`."""
    fs = [shape_fit["session_factors"][folder] for folder in calls.values()]
    return {
        "f": float(np.median(fs)),
        "calls": len(fs),
        "fit": "median of the judged calls' session factors (validations 3-8) under the registered shapes",
    }


def register(shape_fit: dict, mids: dict, archive: Path = ARCHIVE) -> dict:
    """Validation 8's registered input (shapes, pageable rule over the sessions with a start and end median, the
    R-MAT BFS term) over validations 3-8, and the pooled factor; refused if validation 9's own call is in the fit."""
    if any("uvm-validation9" in s for s in shape_fit["session_factors"]):
        raise ValueError("the shape fit holds validation 9's judged cells: they are held out")
    reg = uvm_validation7.register(shape_fit, mids, archive, CALLS)
    term = uvm_validation8.fit_term(shape_fit, archive, CALLS, EARLIER_SETS)
    return reg | {"rmat_bfs_term": term, "pooled_factor": pooled_factor(shape_fit)}


def session_mids(archive: Path = ARCHIVE) -> dict:
    """Each fitted session's median pageable copy: validation 8's registered 11 and validation 8's call's own."""
    return uvm_validation7.session_mids(archive, uvm_validation8.REGISTERED, 8)


def session_factors(session: Path, shapes: dict, rule: dict, registered=REGISTERED):
    """Validation 8's factors (validation 7's) and the registered pooled constant, first."""
    factors, table = uvm_validation7.session_factors(session, shapes, rule)
    pooled = float(json.loads(Path(registered).read_text())["pooled_factor"]["f"])
    return {"pooled": pooled} | factors, table


CALL = Call(
    9, SEED, RULES, False, "issue 21 UVM simulator, validation 9 (model.uvm_validation9)",
    session_factors, uvm_validation8.term_of(SET),
)  # fmt: skip


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    call = replace(CALL, factors=partial(session_factors, registered=registered), term=uvm_validation8.term_of(how))
    more = partial(uvm_validation7.spread, rules=RULES, reps=REPS)
    return judge_call(call, tarball, graph_dir, out, jobs, registered, how, more=more)


def main(argv=None) -> int:
    return uvm_validation7.validation_main(argv, 9, __doc__, judge, REGISTERED, register, session_mids, "v3-8")


if __name__ == "__main__":
    sys.exit(main())
