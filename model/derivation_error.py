"""How far a CPU-derived trace is from the GPU's recorded one, measured on what the simulator makes of each (issue
21: derivation is exact for level-synchronous BFS only; for SSSP, CC and PageRank the GPU's update order changes
which lists a launch reads, so the derived trace is an approximation whose error is measured).

    python -m model.derivation_error --recorded P.simulated.csv --derived D.simulated.csv \
        --recorded-in "oom call 9 (b9cfe50)" --out recorded_vs_derived.csv [--append]

Both inputs are `model.oom_simulate` tables of the same part: one from the recorded traces, one from
`--derive`. Per run and simulator mode, each quantity's derived value, recorded value and their ratio.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from emogi.atomic import write_csv
from emogi.cli import exit_status

KEYS = ["graph", "algorithm", "variant", "root", "sim_mode", "budget_fraction"]
QUANTITIES = ["launches", "bytes_needed", "migrated_bytes", "evicted_chunks", "migration_ms"]


class DerivationError(ValueError):
    """Tables that do not describe the same runs."""


def compare(recorded: pd.DataFrame, derived: pd.DataFrame, recorded_in: str) -> pd.DataFrame:
    """One row per run and simulator mode that both tables hold (the registered cost set only)."""
    for name, frame in (("recorded", recorded), ("derived", derived)):
        if "trace_source" in frame and (frame["trace_source"] != name).any():
            raise DerivationError(f"the {name} table holds rows with another trace_source")

    def pick(frame):
        frame = frame[frame["params"] == "registered"] if "params" in frame else frame
        return frame[KEYS + QUANTITIES].assign(root=lambda f: f["root"].fillna(-1))

    both = pick(derived).merge(pick(recorded), on=KEYS, suffixes=("_derived", "_recorded"))
    if both.empty:
        raise DerivationError("the two tables share no run (graph, algorithm, variant, root, mode, budget)")
    out = both[KEYS].assign(recorded_in=recorded_in)
    for q in QUANTITIES:
        d, r = both[f"{q}_derived"], both[f"{q}_recorded"]
        out[f"{q}_derived"], out[f"{q}_recorded"] = d, r
        out[f"{q}_ratio"] = (d / r).where(r != 0)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.derivation_error", description=__doc__.split("\n\n")[0])
    p.add_argument("--recorded", required=True, type=Path)
    p.add_argument("--derived", required=True, type=Path)
    p.add_argument("--recorded-in", required=True, help="where the recorded traces come from (a device call)")
    p.add_argument("--out", required=True, type=Path)
    p.add_argument("--append", action="store_true", help="add to an existing table instead of replacing it")
    a = p.parse_args(argv)

    def go():
        rows = compare(pd.read_csv(a.recorded), pd.read_csv(a.derived), a.recorded_in)
        if a.append and a.out.exists():
            rows = pd.concat([pd.read_csv(a.out), rows], ignore_index=True)
        write_csv(rows, a.out)

    return exit_status(go, (DerivationError, OSError, KeyError))


if __name__ == "__main__":
    raise SystemExit(main())
