"""Gauss-Seidel PageRank's pass logs (this folder's call): rounds against the Jacobi schedule's (merged-aligned),
where the time goes (bulk rounds, tail rounds, and the tail rounds a hub's list holds up), and the log's overhead.

    python archive/gs-pass-logs-h200-2026-11-28/analyze.py     (seconds; writes runs.csv, summary.csv here)
"""

import json
import tarfile
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
TAIL = 0.05  # a tail round activates less than this share of the graph's list entries
HUB_FLOOR = 0.5  # ... and is held up by a hub when its launch takes at least this share of the graph's hub walk


def load():
    with tarfile.open(HERE / "call/gspass.tgz") as tar:
        members = {m.name: m for m in tar.getmembers() if m.isfile()}
        read = lambda name: tar.extractfile(members[name])  # noqa: E731
        passes = pd.concat(pd.read_csv(read(n)).assign(process=n.split(".")[-2]) for n in members
                           if n.startswith("gspass/passes/"))  # fmt: skip
        runs = pd.concat(pd.read_csv(read(n)).assign(process=n.split(".")[-2]) for n in members
                         if n.startswith("gspass/runs/"))  # fmt: skip
        meta = {n.split("/")[-1][: -len(".json")]: json.load(read(n)) for n in members if n.endswith(".json")}
    return passes, runs, meta


def per_run(passes, meta):
    """One row per logged run: its rounds, time, and the tail's rounds and time."""
    keys = ["graph", "entry_bytes", "mode", "variant", "process", "rep"]
    rows = []
    for key, r in passes.groupby(keys):
        m = meta[f"{key[0]}.w8"]
        longest_launch = r.launch_ms[r.active_entries > 0].max()  # the run's longest launch, bulk rounds included
        tail = r[r.active_entries < TAIL * m["num_edges"]]
        # the launch of the round's longest list: what one warp walking the top hub's list takes in a tail round
        floor = tail.launch_ms.quantile(0.9) if len(tail) else 0.0
        total, tail_ms = r.span_ms.sum(), tail.span_ms.sum()
        rows.append(
            dict(zip(keys, key))
            | {
                "rounds": int((r.active_entries > 0).sum()),
                "time_ms": total,
                "bulk_ms": total - tail_ms,
                "tail_rounds": len(tail),
                "tail_ms": tail_ms,
                "tail_hub_rounds": int((tail.launch_ms >= HUB_FLOOR * floor).sum()),
                "tail_floor_ms": floor,
                "max_launch_ms": longest_launch,
                "entries": r.active_entries.sum(),
                "max_degree": m["max_degree"],
                "num_edges": m["num_edges"],
            }
        )
    return pd.DataFrame(rows)


def summary(runs_table, logged):
    g = logged.groupby(["graph", "entry_bytes", "mode", "variant"])
    s = g.agg(runs=("rounds", "size"), rounds_min=("rounds", "min"), rounds_med=("rounds", "median"),
              rounds_max=("rounds", "max"), time_med=("time_ms", "median"), tail_rounds=("tail_rounds", "median"),
              tail_ms=("tail_ms", "median"), tail_hub_rounds=("tail_hub_rounds", "median"),
              tail_floor_ms=("tail_floor_ms", "median"), entries=("entries", "median"))  # fmt: skip
    t = runs_table.rename(columns={"edge_bytes": "entry_bytes"})
    t = t.assign(logged=t.process != "nolog").groupby(["graph", "entry_bytes", "mode", "variant", "logged"])
    best = t.time_ms.min().unstack("logged")
    s["min_ms_logged"], s["min_ms_unlogged"] = best[True], best[False]
    # the held-out statistic's parts: each logged process's min of its timed runs, and how far they spread
    mins = runs_table[runs_table.process != "nolog"].groupby(["graph", "edge_bytes", "mode", "variant", "process"])
    mins = mins.time_ms.min().unstack("process")
    s["process_min_spread"] = (mins.max(axis=1) / mins.min(axis=1) - 1).to_numpy()
    return s.reset_index()


def main():
    passes, runs, meta = load()
    logged = per_run(passes, meta)
    logged.to_csv(HERE / "runs.csv", index=False)
    s = summary(runs, logged)
    s.to_csv(HERE / "summary.csv", index=False)
    pd.set_option("display.width", 250)
    show = ["graph", "entry_bytes", "mode", "variant", "rounds_min", "rounds_med", "rounds_max", "time_med"]
    show += ["tail_rounds", "tail_ms", "tail_hub_rounds", "min_ms_logged", "min_ms_unlogged", "process_min_spread"]
    print(s[show].round(3).to_string(index=False))
    checks = {g: m["checksum"] for g, m in meta.items() if g.endswith(".w8")}
    print("checksums (8-byte):", checks)


if __name__ == "__main__":
    main()
