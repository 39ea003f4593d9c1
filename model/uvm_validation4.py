"""Validation 4 of the UVM simulator: validation 3's judge with the cost shape per access pattern
(model/uvm_access_shape.py), new graphs (seed 26) and uvmfault run between the graphs (docs/uvm-validations.md,
"Validation 4 of the UVM simulator: registered before the session"; tools/device/uvm_validation4.sh makes it).

    python -m model.uvm_validation4 judge --tarball uvm4.tgz --graph-dir /tmp/uvm4g --out archive/<dir> [--jobs 2]

Per judged cell (cold `uvm`, the median over reps) the prediction is the session's device-mode median + f x the
migration time of the cell's CPU-derived trace by its access pattern's shape (naive: thread; merged-aligned:
warp), with f by each registered rule:
  pageable        (primary) exp(c + k log(P_ref / P)), P the call's pageable h2d copy bandwidth at its start
                  (validation 3's measure), c and k refitted on the per-access fit's session factors
  micro_start     validation 3's micro rule on the per-access shapes: the median over uvmfault's four
                  back-to-back patterns at the call's start of (measured median) / (the pattern simulated with its
                  own access pattern's shape)
  micro_instances the median, over the call's uvmfault instances (start, after each graph, end), of each
                  instance's factor as micro_start computes it
  none            1
and, reported beside them, not predictions of this validation: `floor` (f fitted on the judged runs) and `v3`
(validation 3's registered shape and micro rule) on the same cells.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv, write_text
from model.uvm_access_shape import access_of, load_shapes, migration_ms
from model.uvm_micro_sim import counts as micro_counts
from model.uvm_session_fit import pageable_factor, pageable_gbps
from model.uvm_validation3 import (
    MICRO_PATTERNS,
    counted_cells,
    judge_cli,
    load_registered,
    micro_factor,
    missing_cells,
    source_of,
    unpack,
)
from model.uvm_validation3 import summarise as summarise3

SEED = 26
SET = {
    "kron23s26": "--kind kron --scale 23 --edge-factor 16",
    "urand23s26": "--kind urand --scale 23 --edge-factor 16",
    "rmat22ef32s26": "--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20",
    "urand24s26": "--kind urand --scale 24 --edge-factor 16",  # last, if the call's time guard lets it
}
RULES = ("pageable", "micro_start", "micro_instances", "none")
REGISTERED = Path(__file__).resolve().parents[1] / "archive/uvm-validation3-analysis-2026-11-27/registered_params.json"


@lru_cache(maxsize=16)
def _pattern_counts(buffer: int, size: int, access: str) -> dict:
    return micro_counts(buffer, size, 0, access)


def access_micro_factor(micro: pd.DataFrame, shapes: dict) -> pd.DataFrame:
    """Per back-to-back uvmfault pattern: the median of every timed run in `micro` and the pattern simulated with
    its own access pattern's shape (access, list_bytes, runs, measured_ms, simulated_ms, ratio)."""
    rows = []
    for access, size in MICRO_PATTERNS:
        part = micro[(micro["access"] == access) & (micro["list_bytes"] == size) & (micro["stride_bytes"] == size)]
        if part.empty:
            continue
        c = _pattern_counts(int(part["buffer_bytes"].iloc[0]), size, access)
        shape = shapes[access]
        sim = float(shape.migration_ms(c["migrated_bytes"], c["batches"], c["serviced_chunks"], c["list_faults"]))
        rows.append(
            {
                "access": access,
                "list_bytes": size,
                "runs": len(part),
                "measured_ms": float(part["time_ms"].median()),
                "simulated_ms": sim,
            }
        )
    if len(rows) != len(MICRO_PATTERNS):
        raise ValueError("the uvmfault tables lack a back-to-back pattern of validation 3's four")
    return pd.DataFrame(rows).assign(ratio=lambda t: t["measured_ms"] / t["simulated_ms"])


def call_micro(session: Path) -> pd.DataFrame:
    """Every back-to-back uvmfault run of the call (micro/uvmfault_*.csv but the stride tables), tagged by file."""
    files = sorted(f for f in (session / "micro").glob("uvmfault_*.csv") if "stride" not in f.name)
    if not files:
        raise ValueError(f"{session / 'micro'} holds no uvmfault table")
    return pd.concat([pd.read_csv(f).assign(when=f.stem.removeprefix("uvmfault_")) for f in files], ignore_index=True)


def load_access(path=REGISTERED) -> tuple[dict, dict]:
    d = json.loads(Path(path).read_text())
    return load_shapes(d), d["pageable_rule"]


def instance_factors(micro: pd.DataFrame, shapes: dict) -> pd.DataFrame:
    """Per uvmfault instance (`when`) and pattern: measured, simulated and their ratio; `factor` the instance's
    median ratio over its four patterns."""
    tables = []
    for when, part in micro.groupby("when", sort=False):
        t = access_micro_factor(part, shapes)
        tables.append(t.assign(when=when, factor=float(t["ratio"].median())))
    return pd.concat(tables, ignore_index=True)


def session_factors(session: Path, shapes: dict, rule: dict) -> tuple[dict, pd.DataFrame]:
    table = instance_factors(call_micro(session), shapes)
    per_instance = table.drop_duplicates("when").set_index("when")["factor"]
    if "start" not in per_instance:
        raise ValueError("the call has no uvmfault_start.csv")
    gbps = pageable_gbps(pd.read_csv(session / "micro/link.csv"))
    factors = {
        "pageable": pageable_factor(rule, gbps),
        "micro_start": float(per_instance["start"]),
        "micro_instances": float(per_instance.median()),
        "none": 1.0,
    }
    return {**factors, "pageable_gbps": gbps, "uvmfault_instances": len(per_instance)}, table


def predict(
    cells: pd.DataFrame, shapes: dict, factors: dict, v3_factor=None, rules: tuple = RULES, term=None
) -> pd.DataFrame:
    """Each rule's prediction and error; `floor` fitted on these cells; `v3` validation 3's primary rule (where
    `v3_factor` is given); `term`, where given, each cell's multiplier on its simulated migration (column
    `migration_term`; every rule uses the product)."""
    if (access_of(cells["variant"]) == "").any():
        raise ValueError("validation 4 judges thread-per-list and warp-per-list variants only")
    out = cells.copy()
    mig = migration_ms(out, shapes)
    if term is not None:
        out["migration_term"] = np.asarray(term, float)
        mig = mig * out["migration_term"].to_numpy()
    out["simulated_migration_ms"] = mig
    floor = float(np.median((out["uvm_ms"] - out["device_ms"]) / mig))
    for rule, f in [*((r, factors[r]) for r in rules), ("floor", floor)]:
        out[f"factor_{rule}"] = f
        out[f"predicted_ms_{rule}"] = out["device_ms"] + f * mig
        out[f"error_{rule}"] = out[f"predicted_ms_{rule}"] / out["uvm_ms"] - 1
    if v3_factor is None:
        return out
    shape3, _ = load_registered()
    mig3 = shape3.migration_ms(out["migrated_bytes"], out["batches"], out["serviced_chunks"], out["list_faults"])
    out["factor_v3"] = v3_factor
    out["predicted_ms_v3"] = out["device_ms"] + v3_factor * np.asarray(mig3, float)
    out["error_v3"] = out["predicted_ms_v3"] / out["uvm_ms"] - 1
    return out


def summarise(cells: pd.DataFrame) -> pd.DataFrame:
    """validation 3's summary table (per rule: all, per graph, per algorithm) for this judge's rules."""
    return summarise3(cells, rules=(*RULES, "floor", "v3"))


@dataclass(frozen=True)
class Call:
    """One validation's judge on the per-access shapes: its number (the tarball's folder uvmN, the files
    validationN_*), the graphs' seed, its rules (`floor` is always added), whether validation 3's rule is judged
    beside them (`v3`), source.json's note, how the call's factors are measured (`factors`) and a multiplier on
    each cell's simulated migration (`term`, (cells, registered path) -> array; None: 1)."""

    n: int | str  # validation 13's calls are "13a", "13b", "13c"
    seed: int
    rules: tuple
    v3: bool
    note: str
    factors: object = None  # (session, shapes, rule) -> (factors, uvmfault table); None: session_factors here
    term: object = None  # (cells, registered) -> each cell's migration multiplier; None: no term


CALL = Call(4, SEED, RULES, True, "issue 21 UVM simulator, validation 4 (model.uvm_validation4)")


def judge_call(
    call: Call, tarball: Path, graph_dir: Path, out: Path, jobs: int, registered, how: dict, more=None, describe=None
):
    """Judge a validation call's tarball; `more(judged, runs)` -> (judged, {name: table}) adds columns to the cells
    and tables written as validationN_name.csv; `describe(summary, source)` -> (summary, source) adds to the summary
    and source.json before they are written. Returns the summary."""
    session = unpack(tarball, out, f"uvm{call.n}")
    shapes, rule = load_access(registered)
    factors, table = (call.factors or session_factors)(session, shapes, rule)
    if call.v3:
        factors["v3"], _ = micro_factor(pd.read_csv(session / "micro/uvmfault_start.csv"), load_registered()[0])
    runs, cells = counted_cells(session, graph_dir, how, call.seed, jobs)
    name = f"validation{call.n}"
    write_csv(missing_cells(cells, session, how), out / f"{name}_missing.csv")
    term = call.term(cells, registered) if call.term else None
    judged = predict(cells, shapes, factors, factors.get("v3"), call.rules, term)
    summary = summarise3(judged, rules=(*call.rules, "floor", *(("v3",) if call.v3 else ())))
    judged, tables = more(judged, runs) if more else (judged, {})
    source = source_of(runs, out) | {"note": call.note}
    summary, source = describe(summary, source) if describe else (summary, source)
    write_csv(judged, out / f"{name}_cells.csv")
    write_csv(summary, out / f"{name}_summary.csv")
    write_csv(table, out / f"{name}_micro.csv")
    for key, t in tables.items():
        write_csv(t, out / f"{name}_{key}.csv")
    write_text(json.dumps(factors, indent=2) + "\n", out / f"{name}_factors.json")
    write_text(json.dumps(source, indent=2) + "\n", out / "source.json")
    return summary


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    return judge_call(CALL, tarball, graph_dir, out, jobs, registered, how)


def main(argv=None) -> int:
    return judge_cli(
        argv, "python -m model.uvm_validation4", __doc__.split("\n\n")[0], judge, "uvm4.tgz", REGISTERED,
        "validation4_missing.csv",
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
