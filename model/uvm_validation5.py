"""Validation 5 of the UVM simulator: validation 4's judge (model/uvm_validation4.py) with the per-access shapes and
the pageable rule refitted on the archived cells + validations 3 and 4, new graphs (seed 27), 5 timed runs a cell
and the call's own spread reported beside the verdict (docs/uvm-validations.md, "Validation 5 of the UVM simulator:
registered before the session"; tools/device/uvm_validation5.sh makes it).

    python -m model.uvm_validation5 judge --tarball uvm5.tgz --graph-dir /tmp/uvm5g --out archive/<dir> [--jobs 2]

Per judged cell (cold `uvm`, the median of its timed runs; `device` the median too) the prediction is the session's
device-mode median + f x the migration time of the cell's CPU-derived trace by its access pattern's shape (naive:
thread; merged-aligned: warp), with f by each registered rule:
  pageable  (primary) exp(c + k log(P_ref / P)), P the call's pageable h2d copy bandwidth at its start, c and k
            refitted on the session factors of the registered shapes' fit
  none      1
and, beside them, not a prediction: `floor` (f fitted on the judged runs). Reported, not judged (model/uvm_run_
spread.py): each cell's spread over its runs (validation5_cells.csv: uvm_runs, uvm_min_ms, uvm_max_ms, uvm_spread),
every rule against each run (validation5_runs.csv) and summarised per statistic (validation5_by_run.csv), and the
worst |error| of a perfect predictor resampled from the call's own deviations (validation5_noise.csv); uvmfault's
factors at the start and end (validation5_micro.csv, validation5_factors.json), no rule uses them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from model import uvm_run_spread
from model.uvm_validation3 import judge_cli
from model.uvm_validation4 import Call, judge_call
from model.uvm_warp_faults import KEYS

SEED = 27
SET = {
    "kron23s27": "--kind kron --scale 23 --edge-factor 16",
    "urand23s27": "--kind urand --scale 23 --edge-factor 16",
    "rmat22ef32s27": "--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20",
}
RULES = ("pageable", "none")
REPS = 5  # timed runs per cell (tools/device/uvm_validation5.sh REPS); the perfect predictor draws the call's own
REGISTERED = (
    Path(__file__).resolve().parents[1] / "archive/uvm-validation5-registration-2026-11-27/registered_params.json"
)
CALL = Call(5, SEED, RULES, False, "issue 21 UVM simulator, validation 5 (model.uvm_validation5)")


def spread(
    judged: pd.DataFrame, runs: pd.DataFrame, rules: tuple = RULES, reps: int = REPS
) -> tuple[pd.DataFrame, dict]:
    """The cells with their spread, and the reported tables: each rule's errors per run, per statistic, the perfect
    predictor at the call's number of runs per cell (the most common; `reps` where no cell was measured)."""
    rules = (*rules, "floor")
    cells = judged.merge(uvm_run_spread.cell_spread(runs), on=KEYS, how="left")
    reps = int(cells["uvm_runs"].mode().iloc[0]) if len(cells) else reps
    tables = {
        "runs": uvm_run_spread.run_errors(cells, runs, rules),
        "by_run": uvm_run_spread.by_run(cells, runs, rules),
        "noise": uvm_run_spread.perfect_predictor(runs, cells["algorithm"], reps),
    }
    return cells, tables


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    return judge_call(CALL, tarball, graph_dir, out, jobs, registered, how, more=spread)


def main(argv=None) -> int:
    return judge_cli(
        argv, "python -m model.uvm_validation5", __doc__.split("\n\n")[0], judge, "uvm5.tgz", REGISTERED,
        "validation5_missing.csv",
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
