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

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import pandas as pd

from emogi.atomic import write_csv, write_text
from emogi.cli import exit_status
from model import uvm_validation10, uvm_validation12
from model.uvm_capped_validation8 import across_calls
from model.uvm_validation3 import missing_cells, summarise

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


def call_of(tarball: Path) -> str:
    """The call a tarball holds, by its name (uvm13a.tgz -> 13a)."""
    call = Path(tarball).name.removesuffix(".tgz").removeprefix("uvm")
    if call not in CALLS:
        raise ValueError(f"{tarball}: not one of validation 13's calls ({', '.join(f'uvm{c}.tgz' for c in CALLS)})")
    return call


def judge(tarballs: list, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    calls = {call_of(t): Path(t) for t in tarballs}
    if len(calls) != len(tarballs):
        raise ValueError("a call's tarball is given twice")
    if len(calls) < MIN_CALLS:
        raise ValueError(f"validation 13 judges a cell over at least {MIN_CALLS} calls; {len(calls)} given")
    cells, summaries, sources, first = {}, {}, {}, None
    for call, tarball in sorted(calls.items()):
        where = out / "calls" / f"uvm{call}"
        note = f"issue 21 UVM simulator, validation {call} (model.uvm_validation13): one of validation 13's calls"
        one = replace(uvm_validation12.CALL, n=call, seed=SEED, note=note)
        summaries[call] = uvm_validation10.judge(tarball, graph_dir, where, jobs, registered, how, call=one,
                                                 more=uvm_validation12.spread_and_gpu,
                                                 describe=uvm_validation12.name_the_gpu)  # fmt: skip
        cells[call] = pd.read_csv(where / f"validation{call}_cells.csv")
        sources[call] = json.loads((where / "source.json").read_text())
        first = first or where / "session" / f"uvm{call}"
    rules = (*RULES, "floor")
    judged = across_calls(cells, KEYS, rules, "uvm_ms")
    few = judged[judged["calls"] < MIN_CALLS]
    judged = judged[judged["calls"] >= MIN_CALLS].reset_index(drop=True)
    per_call = [s[s["group"] == "all"].assign(call=c) for c, s in summaries.items()]
    tables = {
        "cells": judged,
        "summary": summarise(judged, rules=rules),
        "per_call": pd.concat(per_call, ignore_index=True),
        "missing": pd.concat([missing_cells(judged, first, how), few[KEYS]], ignore_index=True),
    }
    for table, frame in tables.items():
        write_csv(frame, out / f"{NAME}_{table}.csv")
    note = "issue 21 UVM simulator, validation 13 (model.uvm_validation13): the median over 3 calls"
    one = sources[min(sources)]  # each call's GPU, date and commit stay in calls/<call>/source.json
    source = one | {"archive_id": out.name, "note": note, "calls": sorted(calls),
                    "gpus": sorted({s["gpu"] for s in sources.values()})}  # fmt: skip
    write_text(json.dumps(source, indent=2) + "\n", out / "source.json")
    return tables["summary"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.uvm_validation13", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    j = sub.add_parser("judge", help="judge each call by validation 10's rule, then each cell over the calls")
    j.add_argument("--tarballs", required=True, nargs="+", type=Path, help="the calls' uvm13a.tgz, uvm13b.tgz, ...")
    j.add_argument("--graph-dir", required=True, type=Path, help="where the graphs are (re)generated")
    j.add_argument("--out", required=True, type=Path)
    j.add_argument("--jobs", type=int, default=1)
    j.add_argument("--registered", type=Path, default=REGISTERED)
    a = p.parse_args(sys.argv[1:] if argv is None else argv)

    def go():
        summary = judge(a.tarballs, a.graph_dir, a.out, a.jobs, a.registered)
        print(summary[summary["group"] == "all"].to_string(index=False))
        print(f"{len(pd.read_csv(a.out / f'{NAME}_missing.csv'))} registered cells not judged ({NAME}_missing.csv)")

    return exit_status(go, (OSError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
