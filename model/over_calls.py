"""A validation judged over several device calls (capped validation 8, cold validation 13): each call judged as one
call is, then each cell by the median over the calls of its error. What the two judges share: the calls named by
their tarballs, the table across the calls, the judgement written, and the `judge --tarballs ...` command."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from emogi.atomic import write_csv, write_text
from emogi.cli import exit_status
from model.uvm_validation3 import summarise


def calls_of(tarballs: list, names: dict, least: int, validation: str) -> dict:
    """{call: tarball} for the given tarballs, each named as `names` (call -> its tarball's file name) has it; refused:
    a name not in `names`, a call given twice, fewer than `least` calls."""
    by_name = {tarball: call for call, tarball in names.items()}
    calls = {}
    for t in map(Path, tarballs):
        if t.name not in by_name:
            raise ValueError(f"{t}: not one of {validation}'s calls ({', '.join(names.values())})")
        if by_name[t.name] in calls:
            raise ValueError(f"{t}: a call's tarball is given twice")
        calls[by_name[t.name]] = t
    if len(calls) < least:
        raise ValueError(f"{validation} judges a cell over at least {least} calls; {len(calls)} given")
    return dict(sorted(calls.items()))


def across_calls(frames: dict, keys: list, rules: tuple, measured: str) -> pd.DataFrame:
    """One row per cell: how many calls measured it, the median over them of `measured` (and of the device and cold
    times where present), of each rule's factor, prediction and error (the judged statistic), and each call's error
    of the first rule beside (error_<rule>_<call>)."""
    long = pd.concat([f.assign(call=c) for c, f in frames.items()], ignore_index=True)
    agg = {"calls": ("call", "nunique")} | {c: (c, "median") for c in (measured, "device_ms", "uvm_ms") if c in long}
    for rule in rules:
        for col in (f"factor_{rule}", f"predicted_ms_{rule}", f"error_{rule}"):
            agg[col] = (col, "median")
    cells = long.groupby(keys, dropna=False).agg(**agg).reset_index()
    each = long.pivot_table(index=keys, columns="call", values=f"error_{rules[0]}", dropna=False)
    each.columns = [f"error_{rules[0]}_{c}" for c in each.columns]
    return cells.merge(each.reset_index(), on=keys, how="left")


def judged_and_few(table: pd.DataFrame, least: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """across_calls' cells split into those measured in at least `least` calls (judged) and the rest (missing)."""
    enough = table["calls"] >= least
    return table[enough].reset_index(drop=True), table[~enough]


def per_call(summaries: dict) -> pd.DataFrame:
    """Each call judged alone, as one call is judged: the summaries' overall rows, with the call."""
    return pd.concat([s[s["group"] == "all"].assign(call=c) for c, s in summaries.items()], ignore_index=True)


def source_over_calls(out: Path, sources: dict, note: str) -> dict:
    """source.json of the judgement over the calls: the first call's (its GPU, date and commit; each call's own stays
    in calls/<call>/source.json), named after `out`, with `note` and the calls."""
    return sources[min(sources)] | {"archive_id": out.name, "note": note, "calls": sorted(sources)}


def write_judgement(out: Path, name: str, cells: dict, summaries: dict, by: tuple, more: dict, source: dict):
    """The judgement over the calls into `out` as <name>_<table>.csv and source.json; returns the summary.
    `cells` and `summaries`: each call's judged cells and summary; `by` is (keys, rules, measured, least, missing)
    with `missing(judged)` the registered cells no call measured; `more`: further tables as they are."""
    keys, rules, measured, least, missing = by
    judged, few = judged_and_few(across_calls(cells, keys, rules, measured), least)
    tables = {
        "cells": judged,
        "summary": summarise(judged, rules=rules),
        "per_call": per_call(summaries),
        **more,
        "missing": pd.concat([missing(judged), few[keys]], ignore_index=True),
    }
    for table, frame in tables.items():
        write_csv(frame, out / f"{name}_{table}.csv")
    write_text(json.dumps(source, indent=2) + "\n", out / "source.json")
    return tables["summary"]


def judge_main(argv, module: str, description: str, judge, names: tuple, registered: Path, missing: str) -> int:
    """`python -m <module> judge --tarballs ... --graph-dir G --out D [--jobs N] [--registered F]`: prints the
    summary's overall rows and how many registered cells were not judged (the `missing` CSV)."""
    p = argparse.ArgumentParser(prog=f"python -m {module}", description=description)
    sub = p.add_subparsers(dest="command", required=True)
    j = sub.add_parser("judge", help="judge each call as one call is judged, then each cell over the calls")
    j.add_argument("--tarballs", required=True, nargs="+", type=Path, help=f"the calls' {', '.join(names)}")
    j.add_argument("--graph-dir", required=True, type=Path, help="where the graphs are (re)generated")
    j.add_argument("--out", required=True, type=Path)
    j.add_argument("--jobs", type=int, default=1)
    j.add_argument("--registered", type=Path, default=registered)
    a = p.parse_args(sys.argv[1:] if argv is None else argv)

    def go():
        summary = judge(a.tarballs, a.graph_dir, a.out, a.jobs, a.registered)
        print(summary[summary["group"] == "all"].to_string(index=False))
        print(f"{len(pd.read_csv(a.out / missing))} registered cells not judged ({missing})")

    return exit_status(go, (OSError, KeyError, ValueError))
