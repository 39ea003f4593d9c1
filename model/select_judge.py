"""The mode selector judged on measured fixed-mode runs (issue 22's target: never more than 5% behind the best).

    python -m model.select_judge --runs R.csv [R2.csv ...] --select S.csv [S2.csv ...] --out judge.csv

RUNS are rows of the OOM schema (emogi/schema.py OOM_RUN_COLUMNS; model.select_run writes them): graph,
algorithm, variant, edge_bytes, mode, gpu_memory_bytes (empty: no budget), time_ms, verified. SELECT are
model.select's tables (one row per budget and candidate; `chosen` marks the selector's mode). Per graph,
algorithm, variant, edge width and budget: the chosen mode, its measured median, the fixed mode of least median
among those measured at that budget, and how far the choice is behind it (behind_pct = 100 × (chosen / best − 1)).
Zero-copy keeps only vertex data in GPU memory, so where a budget has no zero-copy rows of its own, those measured
without a budget stand for it (`zerocopy (fits)` in modes_measured), as in the OOM study. Only verified runs count.
A chosen mode that was not measured at its budget leaves chosen_ms empty and the cell outside the target.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi import schema
from emogi.atomic import write_bytes, write_csv
from emogi.cli import exit_status

TARGET_PCT = 5.0
KEY = ["graph", "algorithm", "variant", "edge_bytes"]


def _memory_key(frame: pd.DataFrame) -> pd.Series:
    return frame["gpu_memory_bytes"].fillna(-1).astype(float).astype(np.int64)  # -1: no budget


def medians(runs: pd.DataFrame) -> pd.DataFrame:
    """Median time_ms of each verified (KEY, budget, mode)."""
    runs = runs.reset_index(drop=True)
    ok = runs.assign(memory=_memory_key(runs))[runs["verified"].astype(str).str.lower() == "true"]
    return ok.groupby([*KEY, "memory", "mode"], as_index=False)["time_ms"].median()


def judge(runs: pd.DataFrame, selected: pd.DataFrame, target_pct: float = TARGET_PCT) -> pd.DataFrame:
    med = medians(runs)
    selected = selected.reset_index(drop=True)
    chosen = selected.assign(memory=_memory_key(selected))[selected["chosen"].astype(str) == "True"]
    rows = []
    for _, c in chosen.iterrows():
        same = med[(med[KEY] == c[KEY]).all(axis=1)]
        here = same[same["memory"] == c["memory"]]
        times = dict(zip(here["mode"], here["time_ms"], strict=True))
        names = list(here["mode"])
        fits = same[(same["memory"] == -1) & (same["mode"] == "zerocopy")]
        if "zerocopy" not in times and len(fits):
            times["zerocopy"] = float(fits["time_ms"].iloc[0])
            names.append("zerocopy (fits)")
        best = min(times, key=times.get) if times else ""
        got = times.get(c["mode"], np.nan)
        behind = 100 * (got / times[best] - 1) if best and np.isfinite(got) else np.nan
        rows.append(
            {**{k: c[k] for k in KEY}, "budget": c["budget"], "budget_fraction": c["budget_fraction"],
             "chosen": c["mode"], "predicted_ms": c["predicted_ms"], "chosen_ms": got, "best_mode": best,
             "best_ms": times.get(best, np.nan), "behind_pct": behind,
             "within_target": bool(np.isfinite(behind) and behind <= target_pct), "modes_measured": ",".join(names)}
        )  # fmt: skip
    return pd.DataFrame(rows, columns=schema.SELECT_JUDGE_COLUMNS)


def summary(table: pd.DataFrame, target_pct: float = TARGET_PCT) -> str:
    n, met = len(table), int(table["within_target"].sum())
    worst = table["behind_pct"].max() if n else np.nan
    return f"within {target_pct:g}% of the best fixed mode: {met} of {n} cells; worst {worst:.1f}% behind"


def _read(paths: list[str], **kw) -> pd.DataFrame:
    return pd.concat([pd.read_csv(p, **kw) for p in paths], ignore_index=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.select_judge", description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", nargs="+", required=True, help="measured fixed-mode rows (OOM schema)")
    p.add_argument("--select", nargs="+", required=True, help="model.select's tables")
    p.add_argument("--out", help="the judged table (emogi/schema.py SELECT_JUDGE_COLUMNS)")
    p.add_argument("--target-pct", type=float, default=TARGET_PCT)
    p.add_argument(
        "--archive", type=Path, help="the archive folder the runs come from (its source.json: GPU, date, commit)"
    )
    p.add_argument("--source-out", type=Path, help="with --archive: the judged table's source record (source: archive)")
    a = p.parse_args(argv)

    def go():
        runs = schema.check_columns(_read(a.runs), "oom")
        selected = schema.check_columns(_read(a.select, dtype={"budget": str}), "select")
        table = judge(runs, selected, a.target_pct)
        show = table.drop(columns=["budget_fraction", "modes_measured"])
        print(show.to_string(index=False, float_format=lambda x: f"{x:.3g}"))
        print(summary(table, a.target_pct))
        if a.out:
            write_csv(table, a.out)
        if a.source_out:
            if a.archive is None:
                raise ValueError("--source-out needs --archive: the folder the runs were archived in")
            made = json.loads((a.archive / "source.json").read_text())
            record = {"source": "archive", "archive_id": a.archive.name}
            record |= {k: made.get(k, "") for k in ("gpu", "date", "commit")}
            write_bytes(json.dumps(record, indent=1).encode(), a.source_out)

    return exit_status(go, (ValueError, KeyError, OSError))


if __name__ == "__main__":
    sys.exit(main())
