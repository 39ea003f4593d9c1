"""`emogi run` at the budgets of a mode selector's table (model/select.py): the chosen mode of each budget
(`select --run`), or every feasible candidate (the fixed modes the selector is judged against).

    python -m model.select_run --table select.csv --graph G.csv --binary build/emogi --out runs.csv \\
        [--modes chosen|all] [--zerocopy-once] -- --reps 3 --warmup 1

One `emogi run` per budget (emogi.oom_measure.run: under the GPU lock, its log echoed), with the modes of that
budget, `--gpu-memory-budget` M where there is one, `--auto-reserve 0 --auto-order prefix` for auto (what the
selector's prediction assumed), `--stream-block-bytes` (the table's block) and 2 buffers for streamed, and the
table's root for BFS and SSSP unless the arguments after `--` give roots. With --zerocopy-once, zero-copy runs only
at the table's first budget: its managed memory stays on the host and the budget counts only its vertex data
(docs/out-of-memory.md), so one run stands for every budget, as in the OOM study. Every run is verified by the
binary. The rows are the binary's with the OOM columns first (emogi/schema.py OOM_RUN_COLUMNS: regime fits or
budget, budget_fraction, gpu_memory_bytes, list_bytes, auto_order) and provenance; written once, at the end.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi import provenance, schema
from emogi.atomic import write_csv
from emogi.cli import exit_status
from emogi.oom_measure import OomMeasureError, run


def budget_args(rows: pd.DataFrame, graph: str, modes: list[str], extra: list[str]) -> list[str]:
    """The `emogi run` arguments of one budget's `rows` (a select table's) running `modes`."""
    r = rows.iloc[0]
    args = ["--algorithm", r["algorithm"], "--graph", graph, "--name", str(r["graph"]), "--variants", r["variant"]]
    args += ["--modes", ",".join(modes)]
    if r["algorithm"] in schema.ROOTED_ALGORITHMS and not {"--roots", "--roots-file"} & set(extra):
        args += ["--roots", str(int(r["root"]))]
    if pd.notna(r["gpu_memory_bytes"]):
        args += ["--gpu-memory-budget", str(int(r["gpu_memory_bytes"]))]
    if "auto" in modes:
        args += ["--auto-reserve", "0", "--auto-order", str(r["auto_order"])]
    if "streamed" in modes:
        block = rows.loc[rows["mode"] == "streamed", "block_bytes"].iloc[0]
        args += ["--stream-block-bytes", str(int(block)), "--stream-buffers", "2"]
    return [*args, *extra]


def plan(table: pd.DataFrame, modes: str = "chosen", zerocopy_once: bool = False) -> list[tuple[str, list[str]]]:
    """(budget, modes) of each `emogi run` the table asks for."""
    if modes not in ("chosen", "all"):
        raise OomMeasureError(f"--modes {modes}: chosen or all")
    out, zerocopy_done = [], False
    for budget, rows in table.groupby("budget", sort=False):
        pick = rows[rows["chosen" if modes == "chosen" else "feasible"].astype(str) == "True"]
        names = list(pick["mode"])
        if zerocopy_once and "zerocopy" in names:
            if zerocopy_done:
                names.remove("zerocopy")
            zerocopy_done = True
        if names:
            out.append((budget, names))
    return out


def run_table(table, graph, binary, out, extra, modes="chosen", zerocopy_once=False, device=0) -> pd.DataFrame:
    """Run what plan() asks for; write and return the rows."""
    if len(table.groupby(["graph", "algorithm", "variant"])) != 1:
        raise OomMeasureError("a table of one graph, algorithm and variant is run at a time")
    where = Path(out).resolve().parent
    frames = []
    for budget, names in plan(table, modes, zerocopy_once):
        rows = table[table["budget"] == budget]
        got, _ = run(binary, budget_args(rows, str(graph), names, list(extra)), device, f"{budget}: {names}", where)
        r = rows.iloc[0]
        front = {
            "regime": "fits" if pd.isna(r["gpu_memory_bytes"]) else "budget",
            "budget_fraction": r["budget_fraction"],
            "gpu_memory_bytes": r["gpu_memory_bytes"],
            "list_bytes": r["list_bytes"],
            "list_capacity_bytes": np.nan,
            "auto_order": np.where(got["mode"] == "auto", r["auto_order"], ""),
            "uvm_sublaunches": np.nan,
        }
        for i, (k, v) in enumerate(front.items()):
            got.insert(i, k, v)
        frames.append(got)
    rows = pd.concat(frames, ignore_index=True)
    rows = provenance.stamp(rows, provenance.collect(binary, device))
    write_csv(schema.check_columns(rows, "oom"), out)
    print(f"wrote {len(rows)} rows to {out}", file=sys.stderr)
    return rows


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    split = argv.index("--") if "--" in argv else len(argv)
    p = argparse.ArgumentParser(prog="python -m model.select_run", description=__doc__.split("\n\n")[0])
    p.add_argument("--table", required=True, help="model.select's table (--out)")
    p.add_argument("--graph", required=True, help="the graph file the table was predicted for")
    p.add_argument("--binary", default="build/emogi")
    p.add_argument("--out", required=True)
    p.add_argument("--modes", default="chosen", help="chosen: the selector's; all: every feasible candidate")
    p.add_argument("--zerocopy-once", action="store_true", help="zero-copy at the first budget only")
    p.add_argument("--device", type=int, default=0)
    a = p.parse_args(argv[:split])

    def go():
        table = pd.read_csv(a.table, dtype={"budget": str})
        schema.check_columns(table, "select")
        run_table(table, a.graph, a.binary, a.out, argv[split + 1 :], a.modes, a.zerocopy_once, a.device)

    return exit_status(go, (OomMeasureError, ValueError, OSError))


if __name__ == "__main__":
    sys.exit(main())
