"""Capped validation 5: capped validation 4's rule unchanged, each capped cell measured in three separate processes
and judged on the median of their medians, registered before the session (docs/uvm-capped-validations.md, "Capped
validation 5"; the analysis is archive/uvm-capped-validation4-analysis-2026-11-28;
tools/device/uvm_capped_validation5.sh makes it).

    python -m model.uvm_capped_validation5 judge --tarball uvmc5.tgz --graph-dir /tmp/ucap5g --out D [--jobs 2]

The design change: every uvm-capped (capacity, K) invocation runs in PASSES = 3 separate `emogi run` processes of
REPS = 2 timed runs each (no warm-up), the passes in three capacity orders (ORDERS), their files
runs/capped.<algorithm>.<graph>.f<fraction>.k<K>.p<pass>.csv. A cell's measured time is the median over its passes of
each pass's median. The prediction is capped validation 4's (model.uvm_capped_validation4.predict with its registered
input, archive/uvm-capped-validation3-analysis-2026-11-27/registered_params.json): `unit` (primary) and `pooled`
judged, `floor` and `validation3` reported. Reported beside, not judged: `pass1`, the unit prediction against pass 1
alone (capped validation 4's order, one process a cell).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.tables import read_measured_csv
from model import uvm_capped_validation2 as v2
from model import uvm_capped_validation3 as v3
from model import uvm_capped_validation4 as v4
from model.uvm_validation3 import judge_cli

SEED = 35
SET = {
    "kron20s35": "--kind kron --scale 20 --edge-factor 16",
    "urand20s35": "--kind urand --scale 20 --edge-factor 16",
}
ALGORITHMS, VARIANTS, FRACTIONS, SUBLAUNCHES = v2.ALGORITHMS, v2.VARIANTS, v2.FRACTIONS, v2.SUBLAUNCHES
PASSES, REPS = 3, 2  # separate processes a cell, timed runs each
# each pass's order of (capacity, K): validation 4's, its reverse, and one interleaved
ORDERS = (
    ((0.25, 1), (0.25, 4), (0.5, 1), (0.5, 4)),
    ((0.5, 4), (0.5, 1), (0.25, 4), (0.25, 1)),
    ((0.5, 1), (0.25, 1), (0.5, 4), (0.25, 4)),
)
RULES = v4.RULES
REPORTED = (*v4.REPORTED, "pass1")
REGISTERED = v4.REGISTERED  # the rule is capped validation 4's, unchanged
NAME = "capped_validation5"
PASS_FILE = re.compile(
    r"capped\.(?P<algorithm>\w+)\.(?P<graph>\w+)\.f(?P<fraction>[\d.]+)\.k(?P<k>\d+)\.p(?P<p>\d+)\.csv"
)


def load_runs(session: Path) -> pd.DataFrame:
    """Every run of the call: device and cold `uvm` as validation 2 reads them; uvm-capped rows from the pass files,
    tagged with fraction, K and pass."""
    frames = []
    for f in sorted((session / "runs").glob("*.csv")):
        t, m = read_measured_csv(f), PASS_FILE.fullmatch(f.name)
        if m:
            t = t.assign(budget_fraction=float(m["fraction"]), sublaunches=int(m["k"]), process=int(m["p"]))
        elif f.name.startswith("capped."):
            raise ValueError(f"{f.name}: a capped table outside the registered passes")
        else:
            t = t.assign(budget_fraction=np.nan, sublaunches=1, process=0)
        frames.append(t)
    if not frames:
        raise ValueError(f"{session / 'runs'} holds no run table")
    return pd.concat(frames, ignore_index=True).assign(root=lambda t: t["root"].fillna(-1).astype(int))


def judged_runs(runs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The runs with each capped cell's runs replaced by one row: the median over its passes of each pass's median
    (what validation 2's measured_cells then takes the median of); and per cell its pass medians and run count."""
    capped = runs["mode"] == "uvm-capped"
    keys = [*v2.CELL, "mode"]
    per = runs[capped].groupby([*keys, "process"], dropna=False)["time_ms"].median().reset_index()
    wide = per.pivot_table(index=keys, columns="process", values="time_ms").reset_index()
    wide.columns = [c if isinstance(c, str) else f"capped_ms_pass{int(c)}" for c in wide.columns]
    passes = [c for c in wide.columns if c.startswith("capped_ms_pass")]
    wide["capped_passes"] = wide[passes].notna().sum(axis=1)
    judged = per.groupby(keys, dropna=False)["time_ms"].median().reset_index()
    first = runs[capped].drop_duplicates(keys).drop(columns=["time_ms", "process"])
    one = first.merge(judged, on=keys)
    n = runs[capped].groupby(keys, dropna=False).size().rename("runs").reset_index()
    return pd.concat([runs[~capped].drop(columns="process"), one], ignore_index=True), wide.merge(n, on=keys)


def pass_cells(session: Path, runs: pd.DataFrame, graph_dir: Path, how: dict, jobs: int, seed: int = SEED):
    """(the call's capped cells, each the median of its pass medians with those beside, and their simulated counts;
    the counts): what a judge of this design predicts (capped validations 5 and 6)."""
    counts = v2.trace_counts(session, graph_dir, how, jobs, seed, v3._simulate)
    if counts.empty:
        raise ValueError(f"{session}: no device-mode trace to simulate")
    one, wide = judged_runs(runs)
    cells = v2.measured_cells(one, counts).drop(columns="capped_runs")
    cells = cells.merge(wide.drop(columns="mode").rename(columns={"runs": "capped_runs"}), on=v2.CELL, how="left")
    return cells, counts


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    session, reg, shapes, factors, _ = v2.open_call(tarball, out, "uvmc5", registered)
    runs = load_runs(session)
    factors |= {"unit": 1.0, "pooled": reg["pooled"]["factor"]}
    cells, counts = pass_cells(session, runs, graph_dir, how, jobs)
    cells = v4.predict(cells, shapes, factors, reg)
    cells["factor_pass1"], cells["predicted_ms_pass1"] = 1.0, cells["predicted_ms_unit"]
    cells["error_pass1"] = cells["predicted_ms_pass1"] / cells.get("capped_ms_pass1", np.nan) - 1
    return v4.write_out(out, 5, session, how, runs, cells, counts, (shapes, factors, reg), REPORTED)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    return judge_cli(argv, "python -m model.uvm_capped_validation5", __doc__.split("\n\n")[0], judge,
                     "uvmc5.tgz", REGISTERED, f"{NAME}_missing.csv")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
