"""Capped validation 8: capped validation 7's rule (micro_end) unchanged, each cell measured in three separate device
calls and judged by the median over the calls of its error, registered before the session
(docs/uvm-capped-validation8.md; tools/device/uvm_capped_validation8.sh makes each call).

    python -m model.uvm_capped_validation8 judge --tarballs uvmc8a.tgz uvmc8b.tgz uvmc8c.tgz --graph-dir /tmp/ucap8g \
        --out D [--jobs 2]

Why: the worst-cell target lies at the noise floor of one call (archive/uvm-capped-noise-floor-analysis-2026-11-28:
the spread is between calls, the processes within a call agree). Each call is judged as capped validation 7 judges its
one call (model.uvm_capped_validation7.judge: the call's own device-mode medians, its own uvmfault at its end, its
own recorded traces), into calls/<call>/. A cell's judged error is then the median over the calls that measured it of
predicted / measured - 1; a cell measured in fewer than MIN_CALLS calls is not judged and is listed as missing.
Reported beside, not judged: capped validation 6's rule (`h200`) by the same median, each call alone (per_call.csv)
and the calls' cold `uvm` cells by the median of their errors (cold.csv).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from emogi.atomic import write_csv, write_text
from emogi.cli import exit_status
from model import uvm_capped_validation2 as v2
from model import uvm_capped_validation7 as v7
from model.uvm_validation3 import source_of, summarise

SEED = 38
SET = {
    "kron20s38": "--kind kron --scale 20 --edge-factor 16",
    "urand20s38": "--kind urand --scale 20 --edge-factor 16",
}
ALGORITHMS, VARIANTS, FRACTIONS, SUBLAUNCHES = v7.ALGORITHMS, v7.VARIANTS, v7.FRACTIONS, v7.SUBLAUNCHES
PASSES, REPS, ORDERS = v7.PASSES, v7.REPS, v7.ORDERS  # capped validation 5's design in each call, unchanged
CALLS = ("uvmc8a", "uvmc8b", "uvmc8c")  # three device calls, each on a fresh lease
MIN_CALLS = 2  # a cell judged from fewer calls is missing
RULES, REPORTED = v7.RULES, ("h200",)
REGISTERED = v7.REGISTERED  # capped validation 7's registered input, unchanged
NAME = "capped_validation8"
COLD_RULES = ("h200", "pageable")


def call_of(tarball: Path) -> str:
    """The call a tarball holds, by its name (uvmc8a.tgz -> uvmc8a)."""
    call = Path(tarball).name.removesuffix(".tgz")
    if call not in CALLS:
        raise ValueError(f"{tarball}: not one of capped validation 8's calls ({', '.join(c + '.tgz' for c in CALLS)})")
    return call


def across_calls(frames: dict, keys: list, rules: tuple, measured: str) -> pd.DataFrame:
    """One row per cell: how many calls measured it, the median over them of `measured`, of each rule's prediction
    and of each rule's error (the judged statistic), and each call's error of the first rule beside."""
    long = pd.concat([f.assign(call=c) for c, f in frames.items()], ignore_index=True)
    agg = {"calls": ("call", "nunique")} | {c: (c, "median") for c in (measured, "device_ms", "uvm_ms") if c in long}
    for rule in rules:
        for col in (f"factor_{rule}", f"predicted_ms_{rule}", f"error_{rule}"):
            agg[col] = (col, "median")
    cells = long.groupby(keys, dropna=False).agg(**agg).reset_index()
    each = long.pivot_table(index=keys, columns="call", values=f"error_{rules[0]}", dropna=False)
    each.columns = [f"error_{rules[0]}_{c}" for c in each.columns]
    return cells.merge(each.reset_index(), on=keys, how="left")


def per_call(summaries: dict) -> pd.DataFrame:
    """Each call judged alone, as capped validation 7 judged its one call: the overall rows."""
    rows = [s[s["group"] == "all"].assign(call=c) for c, s in summaries.items()]
    return pd.concat(rows, ignore_index=True)


def judge(tarballs: list, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    calls = {call_of(t): Path(t) for t in tarballs}
    if len(calls) != len(tarballs):
        raise ValueError("a call's tarball is given twice")
    if len(calls) < MIN_CALLS:
        raise ValueError(f"capped validation 8 judges a cell over at least {MIN_CALLS} calls; {len(calls)} given")
    cells, cold, summaries, factors, runs, first = {}, {}, {}, {}, [], None
    for call, tarball in sorted(calls.items()):
        where = out / "calls" / call
        name = f"{NAME}_{call}"
        summaries[call] = v7.judge(tarball, graph_dir, where, jobs, registered, how, (call, SEED, 8, name))
        cells[call] = pd.read_csv(where / f"{name}_cells.csv")
        cold[call] = pd.read_csv(where / f"{name}_cold.csv")
        factors[call] = json.loads((where / f"{name}_factors.json").read_text())
        runs.append(v2.load_runs(where / "session" / call))
        first = first or where / "session" / call
    rules = (*RULES, *REPORTED)
    judged = across_calls(cells, v2.CELL, rules, "capped_ms")
    few = judged[judged["calls"] < MIN_CALLS]
    judged = judged[judged["calls"] >= MIN_CALLS].reset_index(drop=True)
    cold_keys = ["graph", "algorithm", "variant", "edge_bytes", "root"]
    tables = {
        "cells": judged,
        "summary": summarise(judged, rules=rules),
        "per_call": per_call(summaries),
        "cold": across_calls(cold, cold_keys, COLD_RULES, "uvm_ms"),
        "missing": pd.concat([v2.missing_cells(judged, first, how), few[v2.CELL]], ignore_index=True),
    }
    for table, frame in tables.items():
        write_csv(frame, out / f"{NAME}_{table}.csv")
    write_text(json.dumps({"calls": factors}, indent=2) + "\n", out / f"{NAME}_factors.json")  # each call's own
    note = "issue 21 uvm-capped, capped validation 8 (model.uvm_capped_validation8): the median over 3 calls"
    source = source_of(pd.concat(runs, ignore_index=True), out) | {"note": note, "calls": sorted(calls)}
    write_text(json.dumps(source, indent=2) + "\n", out / "source.json")
    return tables["summary"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.uvm_capped_validation8", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    j = sub.add_parser("judge", help="judge each call by capped validation 7's rule, then each cell over the calls")
    j.add_argument("--tarballs", required=True, nargs="+", type=Path, help="the calls' uvmc8a.tgz, uvmc8b.tgz, ...")
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
