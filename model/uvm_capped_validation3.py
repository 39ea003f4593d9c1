"""Capped validation 3: uvm-capped predicted as capped validation 2 did plus what sub-launching adds to a
thread-per-list kernel and a cost per evicted chunk of its own, registered before the session
(docs/uvm-capped-validations.md, "Capped validation 3"; the analysis is
archive/uvm-capped-validation2-analysis-2026-11-27; tools/device/uvm_capped_validation3.sh makes it).

    python -m model.uvm_capped_validation3 judge --tarball uvmc3.tgz --graph-dir /tmp/ucap3g --out D [--jobs 2]
    python -m model.uvm_capped_validation3 register --out registered_params.json   (the registered input)

Per judged cell (the design of validation 2: uvm-capped at 1/4 and 1/2 of the edge list, K = 1 and 4, the median of
5 runs) the prediction is the same call's device-mode median + f x the capped simulation's migration time by the
cell's shape (validation 2's shapes and pageable rule) + e x the simulated evicted chunks + e_thread x those of a
thread-per-list (naive) cell + the tail: for naive at K > 1, its device-mode median x (the summed longest list read
in each sub-launch's vertex range / the summed longest list of each launch - 1), from the recorded trace and the
graph's degrees (model.uvm_capped.tail_ms; no coefficient). f by each rule:
  pageable  (primary) exp(c + k log(P_ref / P)), P the median of the call's pageable h2d copies at its start and end
  none      1
and reported beside them, not judged: `floor` (f fitted on the judged capped cells, the terms as registered) and
`validation2` (capped validation 2's registered rule: the pageable f, e = its 0.0208 ms, no tail, no e_thread).
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
from model.uvm_calibrate import _lad
from model.uvm_validation3 import judge_cli

SEED = 31
SET = {
    "kron20s31": "--kind kron --scale 20 --edge-factor 16",
    "urand20s31": "--kind urand --scale 20 --edge-factor 16",
}
ALGORITHMS, VARIANTS, FRACTIONS, SUBLAUNCHES, REPS = v2.ALGORITHMS, v2.VARIANTS, v2.FRACTIONS, v2.SUBLAUNCHES, v2.REPS
RULES = ("pageable", "none")
REPORTED = ("floor", "validation2")
HERE = Path(__file__).resolve().parents[1] / "archive/uvm-capped-validation2-analysis-2026-11-27"
REGISTERED = HERE / "registered_params.json"
# the cells the terms are fitted on: validation 2's and the archived capped runs (the analysis's cells.csv)
FIT_GRAPHS = (*v2.FIT_GRAPHS, *v2.SET)
TERMS = ("evicted", "thread_evicted")
NAME = "capped_validation3"


def fit_rule(cells: pd.DataFrame) -> dict:
    """e and e_thread (ms per evicted chunk) on the analysis's cells (base and tail as there); refuses held-out
    graphs."""
    held = sorted(set(cells["graph"]) - set(FIT_GRAPHS))
    if held:
        raise uvm_capped.CappedError(f"the fit sees only the archived capped runs {FIT_GRAPHS}, not {held}")
    m = cells["capped_ms"].to_numpy(float)
    x = cells[["evicted_chunks", "naive_evicted"]].to_numpy(float)
    coef = _lad(x, m - cells["base"].to_numpy(float) - cells["tail_device"].to_numpy(float), 1 / m)
    return {t: float(c) for t, c in zip(TERMS, coef, strict=True)}


def register(cells: pd.DataFrame, v2_registered: dict) -> dict:
    """Validation 2's shapes and pageable rule, its e kept as `validation2_terms`, the new terms fitted."""
    reg = dict(v2_registered)
    reg["validation2_terms"] = v2_registered["capped_terms"]
    reg["capped_terms"] = fit_rule(cells)
    reg["capped_fit"] = {"graphs": sorted(set(cells["graph"])), "cells": len(cells), "tail": "no coefficient"}
    return reg


def _simulate(graph_path: str, trace_path: str, capacities: list) -> list[dict]:
    """Validation 2's capped and cold counts of one trace, each row with the trace's tails at its K."""
    from emogi.csr import read_csr
    from emogi.trace_recording import load_recorded

    rows = v2._simulate(graph_path, trace_path, capacities)
    g = read_csr(graph_path)
    t = load_recorded(trace_path, g)
    degree = np.diff(np.asarray(g.offsets, dtype=np.int64))
    tails = {k: uvm_capped.sublaunch_tails(t, degree, k) for k in {r["sublaunches"] for r in rows}}
    return [r | dict(zip(("tail_whole", "tail_split"), tails[r["sublaunches"]], strict=True)) for r in rows]


def predict(cells: pd.DataFrame, shapes: dict, factors: dict, reg: dict) -> pd.DataFrame:
    out = cells.copy()
    mig = uvm_capped.base_ms(out, shapes, 1.0) - out["device_ms"].to_numpy(float)
    extra = uvm_capped.predict(out, np.zeros(len(out)), reg["capped_terms"])
    tail = uvm_capped.tail_ms(out)
    out["simulated_migration_ms"], out["eviction_cost_ms"], out["tail_ms"] = mig, extra, tail
    need = out["capped_ms"] - out["device_ms"] - extra - tail
    floor = float(np.median(need / mig)) if len(out) else np.nan
    v2_extra = uvm_capped.predict(out, np.zeros(len(out)), reg["validation2_terms"])
    rules = [
        *((r, factors[r], extra + tail) for r in RULES),
        ("floor", floor, extra + tail),
        ("validation2", factors["pageable"], v2_extra),
    ]
    for rule, f, e in rules:
        out[f"factor_{rule}"] = f
        out[f"predicted_ms_{rule}"] = out["device_ms"] + f * mig + e
        out[f"error_{rule}"] = out[f"predicted_ms_{rule}"] / out["capped_ms"] - 1
    return out


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    session, reg, shapes, factors, runs = v2.open_call(tarball, out, "uvmc3", registered)
    counts = v2.trace_counts(session, graph_dir, how, jobs, SEED, _simulate)
    if counts.empty:
        raise ValueError(f"{session}: no device-mode trace to simulate")
    cells = predict(v2.measured_cells(runs, counts), shapes, factors, reg)
    fit, terms = (shapes, factors, reg), ("capped_terms", "validation2_terms")
    return v2.finish(out, 3, session, how, runs, cells, counts, fit, (*RULES, *REPORTED), RULES, terms)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] != ["register"]:
        return judge_cli(argv, "python -m model.uvm_capped_validation3", __doc__.split("\n\n")[0], judge,
                         "uvmc3.tgz", REGISTERED, f"{NAME}_missing.csv")  # fmt: skip
    p = argparse.ArgumentParser(prog="python -m model.uvm_capped_validation3 register")
    p.add_argument("--cells", type=Path, default=HERE / "cells.csv", help="the analysis's 156 cells")
    p.add_argument("--validation2", type=Path, default=v2.REGISTERED, help="capped validation 2's registered input")
    p.add_argument("--out", required=True, type=Path)
    a = p.parse_args(argv[1:])

    def go():
        reg = register(pd.read_csv(a.cells), json.loads(a.validation2.read_text()))
        write_text(json.dumps(reg, indent=2) + "\n", a.out)
        print(json.dumps({k: reg[k] for k in ("capped_terms", "validation2_terms", "capped_fit")}))

    return exit_status(go, (OSError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
