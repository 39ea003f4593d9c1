"""Validation 7 of the UVM simulator: validation 6's judge (model/uvm_validation6.py) with the shapes refitted on
validations 3-6's judged cells, the pageable rule on the median of the call's start and end copies refitted under
them, new graphs (seed 29) and 9 timed runs a cell (docs/uvm-validations.md, "Validation 7 of the UVM simulator:
registered before the session"; the plan is archive/uvm-validation6-analysis-2026-11-27, "Validation 7 should register";
tools/device/uvm_validation7.sh makes it).

    python -m model.uvm_validation7 judge --tarball uvm7.tgz --graph-dir /tmp/uvm7g --out archive/<dir> [--jobs 2]
    python -m model.uvm_validation7 register --shape-fit F --out registered_params.json   (the registered input)

Per judged cell (cold `uvm`, the median of its 9 timed runs; `device` the median too) the prediction is the
session's device-mode median + f x the migration time of the cell's CPU-derived trace by its access pattern's shape
(naive: thread; merged-aligned: warp), with f by each rule:
  pageable        (primary) exp(c + k log(P_ref / P)), P the median of the call's pageable h2d copy bandwidths at
                  its start and its end (the start alone if link_end.csv is missing, `pageable_from` says which)
  none            1
and reported beside them, not judged: `pageable_start` (the same c and k on the start copies alone), `micro_start`
(uvmfault's factor at the start) and `floor` (f fitted on the judged runs); each cell's spread, every rule against
each run and the perfect predictor at the call's reps, its runs drawn independently and in blocks of 3
(model/uvm_run_spread.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path

import numpy as np

from emogi.atomic import write_text
from emogi.cli import exit_status
from model import uvm_run_spread, uvm_validation5, uvm_validation6
from model.uvm_session_fit import pageable_factor
from model.uvm_validation3 import judge_cli
from model.uvm_validation4 import Call, judge_call

SEED = 29
SET = {
    "kron23s29": "--kind kron --scale 23 --edge-factor 16",
    "urand23s29": "--kind urand --scale 23 --edge-factor 16",
    "rmat22ef32s29": "--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20",
}
RULES = uvm_validation6.RULES  # pageable, none judged; pageable_start, micro_start reported
JUDGED = uvm_validation6.JUDGED
REPS = 9  # timed runs per cell (tools/device/uvm_validation7.sh REPS)
BLOCK = 3  # the perfect predictor's runs also drawn in blocks of 3 consecutive runs
ARCHIVE = Path(__file__).resolve().parents[1] / "archive"
REGISTERED = ARCHIVE / "uvm-validation7-registration-2026-11-27/registered_params.json"
CALLS = {f"v{n}": f"uvm-validation{n}-h100-2026-11-27" for n in (3, 4, 5, 6)}  # judged calls in the shape fit


def session_factors(session: Path, shapes: dict, rule: dict):
    """Validation 6's factors, pageable_start with this call's own c and k (`rule`) on the start copies alone."""
    factors, table = uvm_validation6.session_factors(session, shapes, rule)
    return factors | {"pageable_start": pageable_factor(rule, factors["pageable_start_gbps"])}, table


def spread(judged, runs, rules=RULES, reps=REPS):
    """Validation 5's spread tables, the noise table with the perfect predictor's worst in blocks of 3 beside."""
    cells, tables = uvm_validation5.spread(judged, runs, rules=rules, reps=reps)
    n = int(tables["noise"]["reps"].iloc[0])
    blocks = uvm_run_spread.perfect_in_blocks(runs, cells, n, BLOCK)
    tables["noise"] = tables["noise"].assign(**blocks)
    return cells, tables


CALL = Call(7, SEED, RULES, False, "issue 21 UVM simulator, validation 7 (model.uvm_validation7)", session_factors)


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    return judge_call(CALL, tarball, graph_dir, out, jobs, registered, how, more=partial(spread, reps=REPS))


def register(shape_fit: dict, mids: dict, archive: Path = ARCHIVE, calls: dict = CALLS) -> dict:
    """The registered input: `shape_fit`'s shapes (model.uvm_access_shape's output with validations 3-6 judged) and
    the pageable rule log f = c + k log(P_ref / P) least-squares fitted over the sessions with both a floor (the
    fit's session factor) and a median of start and end pageable copies (`mids`, GB/s, by short name; `calls`
    names the judged folders by short name)."""
    names = {folder: short for short, folder in calls.items()}
    floors = {names.get(s, s): f for s, f in shape_fit["session_factors"].items()}
    both = sorted(s for s in floors if s in mids)
    p_ref = 10.0
    k, c = np.polyfit(np.log(p_ref / np.array([mids[s] for s in both])), np.log([floors[s] for s in both]), 1)
    return {
        "shapes": shape_fit["shapes"],
        "pageable_rule": {
            "c": float(c),
            "k": float(k),
            "p_ref_gbps": p_ref,
            "measure": "median of the call's pageable h2d copies (256 MiB, 1 GiB) at its start and at its end",
            "sessions": {s: {"floor": floors[s], "pageable_mid": mids[s]} for s in both},
        },
        "cells": shape_fit["cells"],
    }


def session_mids(archive: Path = ARCHIVE, registered: Path = uvm_validation6.REGISTERED, last: int = 6) -> dict:
    """Each fitted session's median pageable copy: those of the `registered` rule (validation 6's: 9 sessions)
    and validation `last`'s call's own (its validation{last}_factors.json)."""
    rule = json.loads(Path(registered).read_text())["pageable_rule"]
    mids = {s: v["pageable_mid"] for s, v in rule["sessions"].items()}
    own = json.loads((archive / f"uvm-validation{last}-h100-2026-11-27" / f"validation{last}_factors.json").read_text())
    return mids | {f"v{last}": float(own["pageable_gbps"])}


def validation_main(argv, n: int, doc: str, judge, registered: Path, register_fn, mids_fn, fitted: str) -> int:
    """A validation module's command line: `judge` (model.uvm_validation3.judge_cli) or `register --shape-fit F
    --out P` (register_fn(the shape fit, mids_fn()) written to P; `fitted` names the judged calls in the fit)."""
    argv = sys.argv[1:] if argv is None else argv
    prog = f"python -m model.uvm_validation{n}"
    if argv[:1] != ["register"]:
        return judge_cli(
            argv, prog, doc.split("\n\n")[0], judge, f"uvm{n}.tgz", registered, f"validation{n}_missing.csv"
        )
    p = argparse.ArgumentParser(prog=f"{prog} register")
    p.add_argument("--shape-fit", required=True, type=Path, help=f"model.uvm_access_shape's output, {fitted} judged")
    p.add_argument("--out", required=True, type=Path)
    a = p.parse_args(argv[1:])

    def go():
        reg = register_fn(json.loads(a.shape_fit.read_text()), mids_fn())
        write_text(json.dumps(reg, indent=2) + "\n", a.out)
        print(json.dumps({k: v for k, v in reg["pageable_rule"].items() if k != "sessions"}))
        for key in sorted(reg.keys() - {"shapes", "pageable_rule", "cells"}):
            print(json.dumps({key: reg[key]}))

    return exit_status(go, (OSError, KeyError, ValueError))


def main(argv=None) -> int:
    return validation_main(argv, 7, __doc__, judge, REGISTERED, register, session_mids, "v3-6")


if __name__ == "__main__":
    sys.exit(main())
