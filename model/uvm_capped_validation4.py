"""Capped validation 4: uvm-capped predicted as capped validation 3 did, with the session factor pooled instead of
read from the call's pageable copies, registered before the session (docs/uvm-capped-validations.md, "Capped
validation 4"; the analysis is archive/uvm-capped-validation3-analysis-2026-11-27;
tools/device/uvm_capped_validation4.sh makes it).

    python -m model.uvm_capped_validation4 judge --tarball uvmc4.tgz --graph-dir /tmp/ucap4g --out D [--jobs 2]
    python -m model.uvm_capped_validation4 register --out registered_params.json   (the registered input)

Per judged cell (capped validation 2's design: uvm-capped at 1/4 and 1/2 of the edge list, K = 1 and 4, the median
of 5 runs) the prediction is the same call's device-mode median + f x the capped simulation's migration time by the
cell's shape (validation 2's shapes) + e x the simulated evicted chunks + e_thread x those of a thread-per-list
(naive) cell + the tail (model.uvm_capped.tail_ms; no coefficient), as capped validation 3. f and the terms by rule:
  unit    (primary) f = 1; e and e_thread fitted at f = 1 on the four archived capped calls (252 cells)
  pooled  f, e and e_thread fitted together on the same cells (one f for every call)
and reported beside them, not judged: `floor` (f fitted on the judged capped cells, unit's terms) and `validation3`
(capped validation 3's registered rule: the call's pageable f and validation 3's terms).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_text
from emogi.cli import exit_status
from model import uvm_capped
from model import uvm_capped_validation2 as v2
from model import uvm_capped_validation3 as v3
from model.uvm_calibrate import _lad
from model.uvm_validation3 import judge_cli

SEED = 33
SET = {
    "kron20s33": "--kind kron --scale 20 --edge-factor 16",
    "urand20s33": "--kind urand --scale 20 --edge-factor 16",
}
ALGORITHMS, VARIANTS, FRACTIONS, SUBLAUNCHES, REPS = v2.ALGORITHMS, v2.VARIANTS, v2.FRACTIONS, v2.SUBLAUNCHES, v2.REPS
RULES = ("unit", "pooled")
REPORTED = ("floor", "validation3")
HERE = Path(__file__).resolve().parents[1] / "archive/uvm-capped-validation3-analysis-2026-11-27"
REGISTERED = HERE / "registered_params.json"
# the cells the rule is fitted on: the archived capped runs, capped validations 2 and 3 (the analysis's cells.csv)
FIT_GRAPHS = (*v3.FIT_GRAPHS, *v3.SET)
TERMS = v3.TERMS
NAME = "capped_validation4"


def _check(cells: pd.DataFrame) -> None:
    held = sorted(set(cells["graph"]) - set(FIT_GRAPHS))
    if held:
        raise uvm_capped.CappedError(f"the fit sees only the archived capped runs {FIT_GRAPHS}, not {held}")


def fit_unit(cells: pd.DataFrame) -> dict:
    """e and e_thread (ms per evicted chunk) at f = 1: least absolute relative deviation over the analysis's cells
    (columns capped_ms, device_ms, mig, tail, evicted_chunks, naive_evicted); refuses held-out graphs."""
    _check(cells)
    m = cells["capped_ms"].to_numpy(float)
    rest = m - (cells["device_ms"] + cells["mig"] + cells["tail"]).to_numpy(float)
    coef = _lad(cells[["evicted_chunks", "naive_evicted"]].to_numpy(float), rest, 1 / m)
    return {t: float(c) for t, c in zip(TERMS, coef, strict=True)}


def fit_pooled(cells: pd.DataFrame) -> dict:
    """One f for every call with e and e_thread, fitted together as fit_unit's terms are."""
    _check(cells)
    m = cells["capped_ms"].to_numpy(float)
    x = cells[["mig", "evicted_chunks", "naive_evicted"]].to_numpy(float)
    f, *coef = _lad(x, (m - cells["device_ms"] - cells["tail"]).to_numpy(float), 1 / m)
    return {"factor": float(f), "terms": {t: float(c) for t, c in zip(TERMS, coef, strict=True)}}


def register(cells: pd.DataFrame, v3_registered: dict) -> dict:
    """Validation 2's shapes and pageable rule (kept for the reported `validation3` rule), capped validation 3's
    terms kept as `validation3_terms`, unit's terms as `capped_terms` and the pooled rule."""
    reg = {k: v for k, v in v3_registered.items() if k not in ("capped_fit", "validation2_terms")}
    reg["validation3_terms"] = v3_registered["capped_terms"]
    reg["capped_terms"] = fit_unit(cells)
    reg["pooled"] = fit_pooled(cells)
    reg["capped_fit"] = {"graphs": sorted(set(cells["graph"])), "cells": len(cells), "tail": "no coefficient",
                         "calls": sorted(set(cells["call"])) if "call" in cells else []}  # fmt: skip
    return reg


def predict(cells: pd.DataFrame, shapes: dict, factors: dict, reg: dict) -> pd.DataFrame:
    out = cells.copy()
    mig = uvm_capped.base_ms(out, shapes, 1.0) - out["device_ms"].to_numpy(float)
    extra = uvm_capped.predict(out, np.zeros(len(out)), reg["capped_terms"])
    tail = uvm_capped.tail_ms(out)
    out["simulated_migration_ms"], out["eviction_cost_ms"], out["tail_ms"] = mig, extra, tail
    need = out["capped_ms"] - out["device_ms"] - extra - tail
    floor = float(np.median(need / mig)) if len(out) else np.nan
    pooled = uvm_capped.predict(out, np.zeros(len(out)), reg["pooled"]["terms"])
    v3_extra = uvm_capped.predict(out, np.zeros(len(out)), reg["validation3_terms"])
    rules = [
        ("unit", 1.0, extra + tail),
        ("pooled", reg["pooled"]["factor"], pooled + tail),
        ("floor", floor, extra + tail),
        ("validation3", factors["pageable"], v3_extra + tail),
    ]
    for rule, f, e in rules:
        out[f"factor_{rule}"] = f
        out[f"predicted_ms_{rule}"] = out["device_ms"] + f * mig + e
        out[f"error_{rule}"] = out[f"predicted_ms_{rule}"] / out["capped_ms"] - 1
    return out


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    session, reg, shapes, factors, runs = v2.open_call(tarball, out, "uvmc4", registered)
    factors |= {"unit": 1.0, "pooled": reg["pooled"]["factor"]}
    counts = v2.trace_counts(session, graph_dir, how, jobs, SEED, v3._simulate)
    if counts.empty:
        raise ValueError(f"{session}: no device-mode trace to simulate")
    cells = predict(v2.measured_cells(runs, counts), shapes, factors, reg)
    return write_out(out, 4, session, how, runs, cells, counts, (shapes, factors, reg), REPORTED)


def write_out(out: Path, n, session, how, runs, cells, counts, fit, reported, name=None, note=None) -> pd.DataFrame:
    """Capped validations 4 and 5's end (v2.finish), and the graph-or-machine check's (its own `name` and `note`):
    RULES judged and `reported` beside, the cold cells by RULES and the pageable f, the terms of capped validation
    4's registration."""
    terms = ("capped_terms", "pooled", "validation3_terms")
    return v2.finish(out, n, session, how, runs, cells, counts, fit, (*RULES, *reported), (*RULES, "pageable"), terms,
                     name, note)  # fmt: skip


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] != ["register"]:
        return judge_cli(argv, "python -m model.uvm_capped_validation4", __doc__.split("\n\n")[0], judge,
                         "uvmc4.tgz", REGISTERED, f"{NAME}_missing.csv")  # fmt: skip
    p = argparse.ArgumentParser(prog="python -m model.uvm_capped_validation4 register")
    p.add_argument("--cells", type=Path, default=HERE / "cells.csv", help="the analysis's 252 cells")
    p.add_argument("--validation3", type=Path, default=v3.REGISTERED, help="capped validation 3's registered input")
    p.add_argument("--out", required=True, type=Path)
    a = p.parse_args(argv[1:])

    def go():
        reg = register(pd.read_csv(a.cells), json.loads(a.validation3.read_text()))
        write_text(json.dumps(reg, indent=2) + "\n", a.out)
        print(json.dumps({k: reg[k] for k in ("capped_terms", "pooled", "validation3_terms", "capped_fit")}))

    return exit_status(go, (OSError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
