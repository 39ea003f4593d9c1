"""The session-calibrated simulator's registered parameters (docs/uvm-validations.md, "Session-calibrated simulator and
validation 3"), fitted on archived cold-UVM runs only, before the session that judges them:

    python -m model.uvm_session_fit --cells archive/uvm-sim-validation-2026-11-25/cells.csv \
        --oom-table archive/oom-h100-80gb-hbm3-2026-11-25-1207/oom.csv.gz \
        --counts archive/uvm-sim-structure-2026-11-27/counts_*.csv --archive archive --out P.json

- **Shape**: the warp-faults cost form (ms per GB, per fault batch, per serviced 2 MiB region, per (warp, cold
  page) fault; model/uvm_warp_faults.py) with one factor per session on all four costs, fitted alternately (least
  absolute relative deviation of the total time, model.uvm_calibrate's linear program; factors: the median ratio
  of measured over predicted migration per session, normalised to a median session of 1). Cells: every cell of
  the validation archive but Afforest, and the OOM archive's cold runs (their counts re-derived on the CPU).
- **Pageable rule**: log factor = c + k log(P_REF / P), P a session's pageable host-to-device copy bandwidth (the
  median of `linkbw`'s pageable h2d copies of 256 MiB and 1 GiB), c and k by least squares over the sessions whose
  archives hold a link table beside their cold runs (the six 2026-11-21 study sessions).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_text
from emogi.cli import exit_status
from model.uvm_calibrate import _lad
from model.uvm_sim import UvmParams
from model.uvm_warp_faults import KEYS, cold_runs, features

P_REF = 10.0  # GB/s: the pageable rule's reference bandwidth (a constant, not fitted)
PAGEABLE_SIZES = (256 << 20, 1 << 30)
OOM_SESSION = "oom-h100-80gb-hbm3-2026-11-25-1207"


def archived_cells(cells: pd.DataFrame, oom: pd.DataFrame, oom_counts: pd.DataFrame) -> pd.DataFrame:
    """The fit's cells: the validation archive's (Afforest left out) and the OOM archive's cold runs, each with
    its session (archive directory), measured cold and device medians and simulated counts."""
    c = cells[cells["variant"] != "afforest"].assign(root=cells["root"].fillna(-1).astype(int))
    c = c.assign(session=c["source"].str.split("/").str[0])
    o = cold_runs(oom).merge(oom_counts, on=KEYS).assign(session=OOM_SESSION)
    cols = [*KEYS, "session", "uvm_ms", "device_ms", "migrated_bytes", "batches", "serviced_chunks", "list_faults"]
    return pd.concat([c[cols], o[cols]], ignore_index=True)


def fit_shape(cells: pd.DataFrame, rounds: int = 8) -> tuple[UvmParams, dict]:
    """(the shape's four costs at the median session, factor per session)."""
    uvm, device = cells["uvm_ms"].to_numpy(float), cells["device_ms"].to_numpy(float)
    target, x, session = np.maximum(uvm - device, 0.0), features(cells), cells["session"]
    factors = pd.Series(1.0, index=session.unique())
    coef = np.zeros(4)
    for _ in range(rounds):
        f = session.map(factors).to_numpy(float)
        coef = _lad(x * f[:, None], target, 1 / uvm)
        ratio = pd.Series(target / np.maximum(x @ coef, 1e-12), index=cells.index)
        factors = ratio.groupby(session).median()
        factors = factors / factors.median()
    a, tb, ts, te = coef
    params = UvmParams(
        throughput_gbps=1e3 / a if a > 0 else float("inf"),
        batch_us=tb * 1e3,
        service_us=ts * 1e3,
        warp_fault_us=te * 1e3,
    )
    return params, {str(k): float(v) for k, v in factors.items()}


def pageable_gbps(link: pd.DataFrame) -> float:
    """A session's pageable host-to-device bandwidth: the median of its pageable h2d copies of 256 MiB and 1 GiB."""
    rows = link[(link["direction"] == "h2d") & (link["host_memory"] == "pageable")]
    rows = rows[rows["size_bytes"].isin(PAGEABLE_SIZES)]
    if rows.empty:
        raise ValueError("the link table has no pageable h2d copy of 256 MiB or 1 GiB")
    return float(rows["gbps"].median())


def session_pageable(archive: Path, sessions) -> dict:
    """session -> pageable bandwidth, for the sessions whose archive directory holds link.csv(.gz)."""
    out = {}
    for s in sessions:
        for name in ("link.csv.gz", "link.csv"):
            if (archive / s / name).exists():
                out[s] = pageable_gbps(pd.read_csv(archive / s / name))
                break
    return out


def fit_pageable_rule(factors: dict, pageable: dict) -> dict:
    """log factor = c + k log(P_REF / P) by least squares over the sessions with both."""
    both = sorted(set(factors) & set(pageable))
    if len(both) < 3:
        raise ValueError(f"the pageable rule needs 3 or more sessions with a link table, got {both}")
    x = np.log(P_REF / np.array([pageable[s] for s in both]))
    y = np.log(np.array([factors[s] for s in both]))
    k, c = np.polyfit(x, y, 1)
    fitted = np.exp(c + k * x)
    return {
        "c": float(c),
        "k": float(k),
        "p_ref_gbps": P_REF,
        "sessions": {
            s: {"pageable_gbps": pageable[s], "factor": factors[s], "rule": float(f)} for s, f in zip(both, fitted)
        },
    }


def pageable_factor(rule: dict, gbps: float) -> float:
    return float(np.exp(rule["c"] + rule["k"] * np.log(rule["p_ref_gbps"] / gbps)))


def fit_all(cells: pd.DataFrame, archive: Path) -> dict:
    params, factors = fit_shape(cells)
    rule = fit_pageable_rule(factors, session_pageable(archive, factors))
    return {"shape": asdict(params), "session_factors": factors, "pageable_rule": rule, "cells": len(cells)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.uvm_session_fit", description=__doc__.split("\n\n")[0])
    p.add_argument("--cells", required=True, type=Path, help="archive/uvm-sim-validation-2026-11-25/cells.csv")
    p.add_argument("--oom-table", required=True, type=Path)
    p.add_argument("--counts", required=True, nargs="+", type=Path, help="model.uvm_warp_faults counts outputs")
    p.add_argument("--archive", required=True, type=Path, help="where the sessions' directories are (link tables)")
    p.add_argument("--out", required=True, type=Path)
    a = p.parse_args(argv)

    def go():
        counts = pd.concat([pd.read_csv(f) for f in a.counts], ignore_index=True)
        cells = archived_cells(pd.read_csv(a.cells), pd.read_csv(a.oom_table), counts)
        out = fit_all(cells, a.archive)
        write_text(json.dumps(out, indent=2) + "\n", a.out)
        print(json.dumps({k: out[k] for k in ("shape", "session_factors")}, indent=2))
        print(json.dumps({k: v for k, v in out["pageable_rule"].items() if k != "sessions"}))

    return exit_status(go, (OSError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
