"""A validation judged over several device calls (capped validation 8, cold validation 13): each call judged as one
call is, then each cell by the median over the calls of its error. What the two judges share: the calls named by
their tarballs, the table across the calls, and the `judge --tarballs ...` command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from emogi.cli import exit_status


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
