"""The probe's judgement (README.md): each cell's min of 5 verified runs (model.holdout.cells_of with split v13's
rule, as its train cells) against term v16's prediction made before the call (predictions.json).

    PYTHONPATH=. python archive/probe-kron23-h200-2026-11-29/judge.py SESSION   (SESSION: probe23.tgz unpacked)
"""

import sys
from pathlib import Path

import pandas as pd

from emogi.atomic import write_csv
from model import holdout_split_v13 as hs13
from model.holdout import cells_of, read_runs

HERE = Path(__file__).resolve().parent
KEY = ["algorithm", "variant", "mode"]


def main(session: Path) -> None:
    measured = cells_of(read_runs(session), sp=hs13)
    predicted = pd.read_json(HERE / "predictions.json")[[*KEY, "predicted_ms"]]
    t = predicted.merge(measured[[*KEY, "root", "measured_ms", "slowest_ms", "reps"]], on=KEY, how="left")
    t["error"] = t["predicted_ms"] / t["measured_ms"] - 1
    write_csv(t, HERE / "probe_cells.csv")
    rows = []
    for a, cells in t.groupby("algorithm"):
        for mode, g in [*cells.groupby("mode"), ("both", cells)]:
            e = g["error"].abs()
            rows.append({"algorithm": a, "mode": mode, "cells": int(e.notna().sum()), "median_abs": e.median(),
                         "worst_abs": e.max(), "signed_median": g["error"].median()})  # fmt: skip
    summary = pd.DataFrame(rows).sort_values(["algorithm", "mode"])
    write_csv(summary, HERE / "probe_summary.csv")
    print(t.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    print(summary.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
