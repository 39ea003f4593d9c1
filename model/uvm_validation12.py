"""Validation 12 of the UVM simulator, on the H200: validation 10's registered rule, unchanged and not refitted, judged
on a second GPU (docs/uvm-validations-10-12.md, "Validation 12 of the UVM simulator, on the H200: registered before the
session"; tools/device/uvm_validation12.sh makes it). The registered input is validation 10's own file: its shapes,
f = 1 as the primary rule, its multiplier per algorithm and variant, its pooled and pageable rules beside, all fitted
on H100 calls; 9 timed runs a cell in rounds. New are the graphs (seed 36) and the GPU. Nothing is refused for the
GPU (the rule is meant to transfer); the judged cells, the summary and source.json name it.

    python -m model.uvm_validation12 judge --tarball uvm12.tgz --graph-dir /tmp/uvm12g --out archive/<dir> [--jobs 2]
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from model import uvm_validation7, uvm_validation10, uvm_validation11
from model.uvm_access_shape import load_shapes, migration_ms
from model.uvm_validation3 import source_of

SEED = 36
SET = {name.replace("s33", "s36"): how for name, how in uvm_validation10.SET.items()}
RULES, JUDGED, REPS, RUN_ORDER = uvm_validation10.RULES, uvm_validation10.JUDGED, uvm_validation10.REPS, "rounds"
REGISTERED = uvm_validation10.REGISTERED  # validation 10's registration, unchanged (validations 10-11 not in it)
EARLIER_SETS = (*uvm_validation11.EARLIER_SETS, uvm_validation11.SET)
FITTED_ON = "NVIDIA H100 80GB HBM3"  # the GPU of all 18 sessions in the registered fit
CALL = replace(uvm_validation10.CALL, n=12, seed=SEED,
               note="issue 21 UVM simulator, validation 12 (model.uvm_validation12): validation 10's rule, fitted "
                    "on an H100, judged on the call's GPU")  # fmt: skip
# the only H200 cold-UVM cells before this registration: the graph-or-machine check's, beside its capped cells
GRAPH_CHECK = uvm_validation10.ARCHIVE / "uvm-capped-graph-check-h200-2026-11-28/capped_graph_check_cold.csv"


def judge(tarball, graph_dir, out, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    return uvm_validation10.judge(
        tarball, graph_dir, out, jobs, registered, how, call=CALL, more=spread_and_gpu, describe=name_the_gpu
    )


def spread_and_gpu(judged: pd.DataFrame, runs: pd.DataFrame):
    """Validation 10's spread tables, and the call's GPU (its runs', as source.json has it) a column of the cells."""
    cells, tables = uvm_validation7.spread(judged, runs, rules=RULES, reps=REPS)
    return cells.assign(gpu=source_of(runs, Path())["gpu"]), tables


def name_the_gpu(summary: pd.DataFrame, source: dict) -> tuple[pd.DataFrame, dict]:
    """The summary with the call's GPU a column, and source.json with the GPU the rule was fitted on beside it: a
    statement, never a reason to refuse."""
    fitted = {"rule_fitted_on": FITTED_ON, "same_gpu_as_the_fit": source["gpu"] == FITTED_ON}
    return summary.assign(gpu=source["gpu"]), source | fitted


def graph_check_basis(cold: Path = GRAPH_CHECK, registered=REGISTERED) -> dict:
    """The expectation's basis (seen before this registration, so in sample for it): validation 10's primary rule
    (f = 1 x the registered multiplier) on the graph-or-machine check's cold `uvm` cells, measured on an H200
    (scale 20, 5 runs in one process, counts from the call's device-mode traces); `floor` is the single f these cells
    would want."""
    cells = pd.read_csv(cold)
    mig = migration_ms(cells, load_shapes(json.loads(Path(registered).read_text()))) * uvm_validation10.term(
        cells, registered
    )
    error = (cells["device_ms"] + mig) / cells["uvm_ms"] - 1
    return {
        "cells": len(cells),
        "median": float(error.abs().median()),
        "worst": float(error.abs().max()),
        "signed_median": float(error.median()),
        "past_25": int((error.abs() > 0.25).sum()),
        "floor": float(np.median((cells["uvm_ms"] - cells["device_ms"]) / mig)),
    }


def register(shape_fit: dict, mids: dict) -> dict:
    raise ValueError("validation 12 registers nothing: its input is validation 10's registration, unchanged")


def main(argv=None) -> int:
    return uvm_validation7.validation_main(argv, 12, __doc__, judge, REGISTERED, register, dict, "none")


if __name__ == "__main__":
    sys.exit(main())
