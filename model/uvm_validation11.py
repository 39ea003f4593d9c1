"""Validation 11 of the UVM simulator: validation 10 repeated unchanged on new graphs, to see whether its met targets
hold (docs/uvm-validations-10-12.md, "Validation 11 of the UVM simulator: registered before the session";
tools/device/uvm_validation11.sh makes it). The registered input is validation 10's own file, not refitted: the
same shapes, f = 1 as the primary rule, the same multiplier per algorithm and variant, the same pooled and pageable
rules beside it, 9 timed runs a cell in rounds. Only the graphs are new (seed 34).

    python -m model.uvm_validation11 judge --tarball uvm11.tgz --graph-dir /tmp/uvm11g --out archive/<dir> [--jobs 2]
"""

from __future__ import annotations

import sys
from dataclasses import replace

from model import uvm_validation7, uvm_validation10

SEED = 34
SET = {name.replace("s33", "s34"): how for name, how in uvm_validation10.SET.items()}
RULES, JUDGED, REPS, RUN_ORDER = uvm_validation10.RULES, uvm_validation10.JUDGED, uvm_validation10.REPS, "rounds"
REGISTERED = uvm_validation10.REGISTERED  # validation 10's registration, unchanged (validation 10 is not in it)
EARLIER_SETS = (*uvm_validation10.EARLIER_SETS, uvm_validation10.SET)
CALL = replace(uvm_validation10.CALL, n=11, seed=SEED,
               note="issue 21 UVM simulator, validation 11 (model.uvm_validation11)")  # fmt: skip


def judge(tarball, graph_dir, out, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    return uvm_validation10.judge(tarball, graph_dir, out, jobs, registered, how, call=CALL)


def register(shape_fit: dict, mids: dict) -> dict:
    raise ValueError("validation 11 registers nothing: its input is validation 10's registration, unchanged")


def main(argv=None) -> int:
    return uvm_validation7.validation_main(argv, 11, __doc__, judge, REGISTERED, register, dict, "none")


if __name__ == "__main__":
    sys.exit(main())
