"""Capped validation 6: capped validation 4's rule form with one cost per evicted chunk fitted on the H200, measured
with capped validation 5's design (three processes a cell), registered before the session
(docs/uvm-capped-validations.md, "Capped validation 6"; the in-sample exploration that chose the rule is
archive/uvm-capped-h200-exploration-2026-11-28; tools/device/uvm_capped_validation6.sh makes it).

    python -m model.uvm_capped_validation6 judge --tarball uvmc6.tgz --graph-dir /tmp/ucap6g --out D [--jobs 2]
    python -m model.uvm_capped_validation6 register --cells CELLS --out registered_params.json   (the registered input)

Per judged cell (the median over its 3 passes of each pass's median, as capped validation 5) the prediction is the
same call's device-mode median + f = 1 x the capped simulation's migration time (validation 2's shapes) + e x the
simulated evicted chunks + the tail (model.uvm_capped.tail_ms, no coefficient); no separate Naive cost. Rules:
  h200        (primary, judged) e fitted on the graph-or-machine check's 144 H200 cells (capped_terms)
and reported beside, not judged: `h200_naive` (e and e_naive refitted on the same cells: the registered form),
`h100` (capped validation 4's unit rule as registered, H100 costs) and `pass1` (h200 against pass 1 alone). The
costs are the H200's, so the judge refuses a call whose runs name another GPU.
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
from model import uvm_capped_graph_check as gc
from model import uvm_capped_validation2 as v2
from model import uvm_capped_validation4 as v4
from model import uvm_capped_validation5 as v5
from model.uvm_calibrate import _lad
from model.uvm_validation3 import judge_cli

SEED = 36
SET = {
    "kron20s36": "--kind kron --scale 20 --edge-factor 16",
    "urand20s36": "--kind urand --scale 20 --edge-factor 16",
}
ALGORITHMS, VARIANTS, FRACTIONS, SUBLAUNCHES = v2.ALGORITHMS, v2.VARIANTS, v2.FRACTIONS, v2.SUBLAUNCHES
PASSES, REPS, ORDERS = v5.PASSES, v5.REPS, v5.ORDERS  # capped validation 5's design, unchanged
GPU = "NVIDIA H200"  # the fit call's GPU, as its runs name it; the only one judged
RULES = ("h200",)
REPORTED = ("h200_naive", "h100", "pass1")
TERM_KEYS = {"h200": "capped_terms", "h200_naive": "h200_naive_terms", "h100": "h100_terms"}
ARCHIVE = Path(__file__).resolve().parents[1] / "archive"
HERE = ARCHIVE / "uvm-capped-h200-exploration-2026-11-28"
REGISTERED = HERE / "registered_params.json"
FIT_CALL = ARCHIVE / "uvm-capped-graph-check-h200-2026-11-28"
FIT_GRAPHS = tuple(gc.SET)  # the graph-or-machine check's three graphs
NAME = "capped_validation6"


def _lad_terms(cells: pd.DataFrame, terms: tuple[str, ...]) -> dict:
    """{term: ms per count} at f = 1 with the tail: least absolute relative deviation over the check's judged cells
    (columns capped_ms, device_ms, simulated_migration_ms, tail_ms and the terms' counts); refuses other graphs."""
    held = sorted(set(cells["graph"]) - set(FIT_GRAPHS))
    if held:
        raise uvm_capped.CappedError(f"the fit sees only the graph-or-machine check's {FIT_GRAPHS}, not {held}")
    m = cells["capped_ms"].to_numpy(float)
    rest = m - (cells["device_ms"] + cells["simulated_migration_ms"] + cells["tail_ms"]).to_numpy(float)
    coef = _lad(uvm_capped.term_matrix(cells, terms), rest, 1 / m)
    return {t: float(c) for t, c in zip(terms, coef, strict=True)}


def register(cells: pd.DataFrame, v4_registered: dict) -> dict:
    """Capped validation 4's shapes and pageable rule (the migration's shapes and the reported pageable f), its unit
    terms kept as `h100_terms`; e alone (`capped_terms`) and e with e_naive (`h200_naive_terms`) fitted at f = 1."""
    reg = {k: v4_registered[k] for k in ("shapes", "pageable_rule", "cells")}
    reg["h100_terms"] = v4_registered["capped_terms"]
    reg["capped_terms"] = _lad_terms(cells, ("evicted",))
    reg["h200_naive_terms"] = _lad_terms(cells, ("evicted", "thread_evicted"))
    reg["capped_fit"] = {"graphs": sorted(set(cells["graph"])), "cells": len(cells), "gpu": GPU, "factor": 1.0,
                         "tail": "no coefficient", "call": FIT_CALL.name}  # fmt: skip
    return reg


def predict(cells: pd.DataFrame, shapes: dict, reg: dict) -> pd.DataFrame:
    """Each rule's prediction (f = 1) and error; `pass1` the primary prediction against pass 1's median."""
    out = cells.copy()
    mig = uvm_capped.base_ms(out, shapes, 1.0) - out["device_ms"].to_numpy(float)
    tail = uvm_capped.tail_ms(out)
    out["simulated_migration_ms"], out["tail_ms"] = mig, tail
    for rule, key in TERM_KEYS.items():
        extra = uvm_capped.predict(out, np.zeros(len(out)), reg[key])
        if rule == RULES[0]:
            out["eviction_cost_ms"] = extra
        out[f"factor_{rule}"] = 1.0
        out[f"predicted_ms_{rule}"] = out["device_ms"] + mig + extra + tail
        out[f"error_{rule}"] = out[f"predicted_ms_{rule}"] / out["capped_ms"] - 1
    out["factor_pass1"], out["predicted_ms_pass1"] = 1.0, out[f"predicted_ms_{RULES[0]}"]
    out["error_pass1"] = out["predicted_ms_pass1"] / out.get("capped_ms_pass1", np.nan) - 1
    return out


def check_gpu(runs: pd.DataFrame, gpu: str = GPU) -> None:
    """The registered costs are `gpu`'s: every run of the call must name it."""
    found = sorted(set(runs["gpu"].astype(str)))
    if found != [gpu]:
        raise ValueError(f"capped validation 6's costs were fitted on an {gpu}; this call ran on {found}: not judged")


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET,
          gpu: str = GPU) -> pd.DataFrame:  # fmt: skip
    session, reg, shapes, factors, _ = v2.open_call(tarball, out, "uvmc6", registered)
    runs = v5.load_runs(session)
    check_gpu(runs, gpu)
    factors |= dict.fromkeys(TERM_KEYS, 1.0)
    cells, counts = v5.pass_cells(session, runs, graph_dir, how, jobs, SEED)
    cells = predict(cells, shapes, reg)
    rules, cold = (*RULES, *REPORTED), (*RULES, "pageable")
    return v2.finish(out, 6, session, how, runs, cells, counts, (shapes, factors, reg), rules, cold,
                     list(TERM_KEYS.values()))  # fmt: skip


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] != ["register"]:
        return judge_cli(argv, "python -m model.uvm_capped_validation6", __doc__.split("\n\n")[0], judge,
                         "uvmc6.tgz", REGISTERED, f"{NAME}_missing.csv")  # fmt: skip
    p = argparse.ArgumentParser(prog="python -m model.uvm_capped_validation6 register")
    p.add_argument("--cells", type=Path, default=FIT_CALL / "capped_graph_check_cells.csv",
                   help="the graph-or-machine check's judged cells (the H200 fit set)")  # fmt: skip
    p.add_argument("--validation4", type=Path, default=v4.REGISTERED, help="capped validation 4's registered input")
    p.add_argument("--out", required=True, type=Path)
    a = p.parse_args(argv[1:])

    def go():
        reg = register(pd.read_csv(a.cells), json.loads(a.validation4.read_text()))
        write_text(json.dumps(reg, indent=2) + "\n", a.out)
        print(json.dumps({k: reg[k] for k in ("capped_terms", "h200_naive_terms", "h100_terms", "capped_fit")}))

    return exit_status(go, (OSError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
