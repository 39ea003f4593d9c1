"""Validation 6 of the UVM simulator: validation 5's judge (model/uvm_validation5.py) with validation 5's shapes
unchanged, the factor from the call's pageable copies at its start AND end, new graphs (seed 28) and 7 timed runs a
cell (docs/uvm-validations.md, "Validation 6 of the UVM simulator: registered before the session"; the rule was chosen
leave-one-session-out in archive/uvm-validation5-analysis-2026-11-27; tools/device/uvm_validation6.sh makes it).

    python -m model.uvm_validation6 judge --tarball uvm6.tgz --graph-dir /tmp/uvm6g --out archive/<dir> [--jobs 2]

Per judged cell (cold `uvm`, the median of its timed runs; `device` the median too) the prediction is the session's
device-mode median + f x the migration time of the cell's CPU-derived trace by its access pattern's shape (naive:
thread; merged-aligned: warp), with f by each rule:
  pageable        (primary) exp(c + k log(P_ref / P)), P the median of the call's pageable h2d copy bandwidths at
                  its start (micro/link.csv) and its end (micro/link_end.csv; the start alone if that is missing,
                  `pageable_from` says which), c and k registered (the analysis's fit on 9 sessions' floors)
  none            1
and reported beside them, not judged: `pageable_start` (validation 5's registered rule on the start copies),
`micro_start` (uvmfault's factor at the start) and `floor` (f fitted on the judged runs); each cell's spread,
every rule against each run and the perfect predictor at the call's reps (model/uvm_run_spread.py).
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from model import uvm_validation4, uvm_validation5
from model.uvm_session_fit import pageable_factor, pageable_gbps
from model.uvm_validation3 import judge_cli
from model.uvm_validation4 import Call, judge_call, load_access

SEED = 28
SET = {
    "kron23s28": "--kind kron --scale 23 --edge-factor 16",
    "urand23s28": "--kind urand --scale 23 --edge-factor 16",
    "rmat22ef32s28": "--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20",
}
RULES = ("pageable", "none", "pageable_start", "micro_start")  # the first two judged, the rest reported
JUDGED = ("pageable", "none")
REPS = 7  # timed runs per cell (tools/device/uvm_validation6.sh REPS)
REGISTERED = Path(__file__).resolve().parents[1] / "archive/uvm-validation5-analysis-2026-11-27/registered_params.json"


def session_factors(session: Path, shapes: dict, rule: dict, start_rule_path: Path = uvm_validation5.REGISTERED):
    """Each rule's factor for the call: the primary from the median of the pageable copies at the start and end,
    the others as validation 4 computes them (pageable_start with validation 5's registered c and k)."""
    _, start_rule = load_access(start_rule_path)
    v4, table = uvm_validation4.session_factors(session, shapes, start_rule)
    start, end_file = v4["pageable_gbps"], session / "micro/link_end.csv"
    end = pageable_gbps(pd.read_csv(end_file)) if end_file.exists() else None
    mid = start if end is None else float(np.median([start, end]))
    factors = {
        "pageable": pageable_factor(rule, mid),
        "none": 1.0,
        "pageable_start": v4["pageable"],
        "micro_start": v4["micro_start"],
        "pageable_gbps": mid,
        "pageable_start_gbps": start,
        "pageable_end_gbps": end,
        "pageable_from": "start and end" if end is not None else "start only (no link_end.csv)",
        "uvmfault_instances": v4["uvmfault_instances"],
    }
    return factors, table


CALL = Call(6, SEED, RULES, False, "issue 21 UVM simulator, validation 6 (model.uvm_validation6)", session_factors)


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    more = partial(uvm_validation5.spread, rules=RULES, reps=REPS)
    return judge_call(CALL, tarball, graph_dir, out, jobs, registered, how, more=more)


def main(argv=None) -> int:
    return judge_cli(
        argv, "python -m model.uvm_validation6", __doc__.split("\n\n")[0], judge, "uvm6.tgz", REGISTERED,
        "validation6_missing.csv",
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
