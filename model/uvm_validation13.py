"""Validation 13 of the UVM simulator: validation 10's registered cold-UVM rule, unchanged, each cell measured in three
device calls and judged by the median over the calls of its error (docs/uvm-validation13.md; capped validation 8's
design for cold UVM; tools/device/uvm_validation13.sh makes each call).

    python -m model.uvm_validation13 judge --tarballs uvm13a.tgz uvm13b.tgz uvm13c.tgz --graph-dir /tmp/uvm13g \
        --out D [--jobs 2]

Each call is judged as validation 12 judged its one call (model.uvm_validation10.judge under this number and seed,
with validation 12's spread tables and GPU column), into calls/<call>/. A cell's judged error under each rule is then
the median over the calls that measured it of predicted / measured - 1; a cell measured in fewer than MIN_CALLS calls
is not judged and is listed as missing. The primary rule is validation 10's `none` (f = 1 x the registered
multiplier); `pooled` and `pageable` are judged beside it as validation 10 registered; each call judged alone is
reported (per_call.csv).
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pandas as pd

from model import uvm_validation10, uvm_validation12
from model.over_calls import calls_of, judge_main, source_over_calls, write_judgement
from model.uvm_validation3 import missing_cells

SEED = 38
SET = {name.replace("s36", "s38"): how for name, how in uvm_validation12.SET.items()}
RULES, JUDGED, REPS = uvm_validation10.RULES, uvm_validation10.JUDGED, uvm_validation10.REPS
PRIMARY = "none"
REGISTERED = uvm_validation10.REGISTERED  # validation 10's registration, unchanged
EARLIER_SETS = (*uvm_validation12.EARLIER_SETS, uvm_validation12.SET)
CALLS = ("13a", "13b", "13c")  # three device calls (folders uvm13a, ...), each on a fresh lease
MIN_CALLS = 2
NAME = "validation13"
KEYS = ["graph", "algorithm", "variant", "edge_bytes", "root"]


def judge(tarballs: list, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    calls = calls_of(tarballs, {c: f"uvm{c}.tgz" for c in CALLS}, MIN_CALLS, "validation 13")
    cells, summaries, sources, first = {}, {}, {}, None
    for call, tarball in calls.items():
        where = out / "calls" / f"uvm{call}"
        note = f"issue 21 UVM simulator, validation {call} (model.uvm_validation13): one of validation 13's calls"
        one = replace(uvm_validation12.CALL, n=call, seed=SEED, note=note)
        summaries[call] = uvm_validation10.judge(tarball, graph_dir, where, jobs, registered, how, call=one,
                                                 more=uvm_validation12.spread_and_gpu,
                                                 describe=uvm_validation12.name_the_gpu)  # fmt: skip
        cells[call] = pd.read_csv(where / f"validation{call}_cells.csv")
        sources[call] = json.loads((where / "source.json").read_text())
        first = first or where / "session" / f"uvm{call}"
    note = "issue 21 UVM simulator, validation 13 (model.uvm_validation13): the median over 3 calls"
    source = source_over_calls(out, sources, note) | {"gpus": sorted({s["gpu"] for s in sources.values()})}
    by = (KEYS, (*RULES, "floor"), "uvm_ms", MIN_CALLS, lambda judged: missing_cells(judged, first, how))
    return write_judgement(out, NAME, cells, summaries, by, {}, source)


def main(argv=None) -> int:
    return judge_main(argv, "model.uvm_validation13", __doc__.split("\n\n")[0], judge,
                      tuple(f"uvm{c}.tgz" for c in CALLS), REGISTERED, f"{NAME}_missing.csv")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
