"""Exploratory, CPU only, IN SAMPLE: where do validation 3's residuals come from, the simulator's shape or the
session factor? Writes the tables of this folder's README from archived tables (run from the repository root):

    python archive/uvm-validation3-analysis-2026-11-27/explore.py [--v3 archive/uvm-validation3-h100-2026-11-27]
        [--supplement DIR]   # a judged second call (validation3_cells.csv, session/uvm3/micro/), if there is one

Every number here is chosen after seeing validation 3's judged runs: none is a validation.
"""

import argparse
import glob
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from model.uvm_access_shape import access_of, fit_access_shapes, load_shapes, migration_ms  # noqa: E402
from model.uvm_session_fit import archived_cells, fit_pageable_rule, pageable_factor, session_pageable  # noqa: E402
from model.uvm_validation3 import load_registered  # noqa: E402
from model.uvm_validation4 import access_micro_factor  # noqa: E402

A = Path("archive")
OUT = A / "uvm-validation3-analysis-2026-11-27"
VALIDATION = A / "uvm-sim-validation-2026-11-25/cells.csv"
OOM = A / "oom-h100-80gb-hbm3-2026-11-25-1207/oom.csv.gz"
COUNTS = "archive/uvm-sim-structure-2026-11-27/counts_*.csv"


def score(cells: pd.DataFrame, factor, mig: np.ndarray, label: dict, extra=0.0) -> dict:
    """median and worst |error| of device + extra + factor x mig, over all cells and per access pattern."""
    f = np.broadcast_to(np.asarray(factor, float), (len(cells),))
    e = ((cells["device_ms"] + extra + f * mig) / cells["uvm_ms"] - 1).abs()
    acc = access_of(cells["variant"])
    row = {**label, "n": len(e), "median": e.median(), "worst": e.max(), "over_25": int((e > 0.25).sum())}
    for k in ("thread", "warp"):
        row[f"{k}_median"], row[f"{k}_worst"] = e[acc == k].median(), e[acc == k].max()
    return row


def micro_tables(v3: Path) -> dict:
    m = v3 / "session/uvm3/micro"
    s, e = pd.read_csv(m / "uvmfault_start.csv"), pd.read_csv(m / "uvmfault_end.csv")
    return {"start": s, "end": e, "pooled": pd.concat([s, e], ignore_index=True)}


def candidates(cells: pd.DataFrame, micro: dict, shape_sets: dict, gbps: float) -> pd.DataFrame:
    """Every factor rule on each shape set ({name: ({access: shape}, pageable rule)})."""
    rows = []
    meas = (cells["uvm_ms"] - cells["device_ms"]).to_numpy(float)
    acc = access_of(cells["variant"])
    launches = cells["launches"].to_numpy(float)
    for shape_name, (shapes, rule) in shape_sets.items():
        mig, lab = migration_ms(cells, shapes), {"shape": shape_name}
        for when, table in micro.items():
            t = access_micro_factor(table, shapes)
            rows.append(score(cells, t["ratio"].median(), mig, {**lab, "rule": f"micro {when} (4 patterns)"}))
            per = t.groupby("access")["ratio"].median()
            f = np.where(acc == "thread", per["thread"], per["warp"])
            rows.append(score(cells, f, mig, {**lab, "rule": f"micro {when} per variant (own 2 patterns)"}))
        med = np.median([access_micro_factor(micro[w], shapes)["ratio"].median() for w in ("start", "end")])
        rows.append(score(cells, med, mig, {**lab, "rule": "micro median over instances (start, end)"}))
        rows.append(score(cells, pageable_factor(rule, gbps), mig, {**lab, "rule": "pageable"}))
        rows.append(score(cells, 1.0, mig, {**lab, "rule": "none"}))
        rows.append(score(cells, np.median(meas / mig), mig, {**lab, "rule": "floor (fitted on the judged)"}))
        fv = {k: np.median((meas / mig)[acc == k]) for k in ("thread", "warp")}
        f = np.where(acc == "thread", fv["thread"], fv["warp"])
        rows.append(score(cells, f, mig, {**lab, "rule": "floor per variant (fitted on the judged)"}))
        # BFS/SSSP's many small launches: the best in-sample cost per launch beside the floor factor
        grid = np.linspace(0, 5, 101)
        errs = [np.median(np.abs(_launch_err(cells, mig, c * launches))) for c in grid]
        c = grid[int(np.argmin(errs))]
        f = np.median((meas - c * launches) / mig)
        rows.append(score(cells, f, mig, {**lab, "rule": f"floor + {c:.2f} ms per launch (fitted)"}, c * launches))
    return pd.DataFrame(rows)


def _launch_err(cells, mig, extra):
    meas = (cells["uvm_ms"] - cells["device_ms"]).to_numpy(float)
    f = np.median((meas - extra) / mig)
    return (cells["device_ms"] + extra + f * mig) / cells["uvm_ms"] - 1


def drift(micro: dict, shape, shapes: dict) -> pd.DataFrame:
    """uvmfault's patterns at the call's start and end: measured median, spread of reps, ratio to each shape."""
    rows = []
    for when in ("start", "end"):
        t = micro[when]
        r1 = access_micro_factor(t, {"thread": shape, "warp": shape}).set_index(["access", "list_bytes"])["ratio"]
        r2 = access_micro_factor(t, shapes).set_index(["access", "list_bytes"])["ratio"]
        for (access, size), g in t[t["stride_bytes"] == t["list_bytes"]].groupby(["access", "list_bytes"]):
            ms = g["time_ms"]
            rows.append(
                {
                    "when": when,
                    "access": access,
                    "list_bytes": size,
                    "median_ms": ms.median(),
                    "min_ms": ms.min(),
                    "max_ms": ms.max(),
                    "ratio_registered_shape": r1[(access, size)],
                    "ratio_access_shape": r2[(access, size)],
                }
            )
    return pd.DataFrame(rows)


def correlations(v3: pd.DataFrame, old: pd.DataFrame, shape, factors: dict) -> pd.DataFrame:
    """Pearson r of log(measured / simulated migration, own session factor) with log(cell features), per
    variant, validation 3 and the archived sessions (registered shape)."""
    rows = []
    for name, d in [("validation3", v3.assign(session="v3")), ("archived", old)]:
        f = d["session"].map(factors).fillna(1.0)
        mig = shape.migration_ms(d["migrated_bytes"], d["batches"], d["serviced_chunks"], d["list_faults"])
        ratio = np.log(((d["uvm_ms"] - d["device_ms"]) / mig / f).clip(lower=1e-3))
        feats = {
            "entries_per_region": d["fault_entries"] / d["serviced_chunks"],
            "warp_faults_per_entry": d["list_faults"] / d["fault_entries"],
            "batches_per_launch": d["batches"] / d["launches"],
            "device_over_migration": d["device_ms"] / mig,
        }
        for v in ("naive", "merged-aligned"):
            m = (d["variant"] == v).to_numpy()
            row = {"cells": name, "variant": v, "n": int(m.sum()), "median_ratio": float(np.exp(ratio[m].median()))}
            for k, x in feats.items():
                row[f"r_{k}"] = float(np.corrcoef(np.log(x[m]), ratio[m])[0, 1])
            rows.append(row)
    return pd.DataFrame(rows)


def archived_floor(old: pd.DataFrame, shape, shapes: dict) -> pd.DataFrame:
    """The archived naive and merged-aligned cells of scale >= 23, each session at its own best factor (the
    median ratio of its cells), by shape: the registration's 'expectation' line, per shape. In sample twice over:
    the shapes were fitted on these cells."""
    d = old[old["variant"].isin(["naive", "merged-aligned"]) & (old["scale"] >= 23)].reset_index(drop=True)
    rows = []
    for name, mig in [
        ("registered", shape.migration_ms(d["migrated_bytes"], d["batches"], d["serviced_chunks"], d["list_faults"])),
        ("access", migration_ms(d, shapes)),
    ]:
        mig = np.asarray(mig, float)
        f = pd.Series((d["uvm_ms"] - d["device_ms"]) / mig).groupby(d["session"]).transform("median")
        rows.append(score(d, f.to_numpy(), mig, {"shape": name, "rule": "own session factor"}))
    return pd.DataFrame(rows)


def per_cell(v3: pd.DataFrame, start: pd.DataFrame, shape_set: tuple, gbps: float) -> pd.DataFrame:
    """Validation 3's cells: measured over simulated migration by each shape, and the error of validation 3's
    micro rule beside v4's registered shapes with the pageable and micro-start factors."""
    shapes, rule = shape_set
    mig = migration_ms(v3, shapes)
    meas = v3["uvm_ms"] - v3["device_ms"]
    f_start = access_micro_factor(start, shapes)["ratio"].median()
    out = v3[["graph", "algorithm", "variant", "root", "uvm_ms", "device_ms", "launches"]].assign(
        ratio_registered=meas / v3["simulated_migration_ms"],
        ratio_v4_shapes=meas / mig,
        error_v3_micro=v3["error_micro"],
    )
    for name, f in (("pageable", pageable_factor(rule, gbps)), ("micro_start", f_start)):
        out[f"error_v4_{name}"] = (v3["device_ms"] + f * mig) / v3["uvm_ms"] - 1
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--v3", type=Path, default=A / "uvm-validation3-h100-2026-11-27")
    p.add_argument("--supplement", type=Path, default=None)
    a = p.parse_args()
    shape, rule = load_registered()
    counts = pd.concat([pd.read_csv(f) for f in sorted(glob.glob(COUNTS))], ignore_index=True)
    fit_cells = archived_cells(pd.read_csv(VALIDATION), pd.read_csv(OOM), counts)
    shapes, factors = fit_access_shapes(fit_cells)
    v4 = json.loads((OUT / "registered_params.json").read_text())
    shape_sets = {
        "registered (v3)": ({"thread": shape, "warp": shape}, rule),
        "access (archives only)": (shapes, fit_pageable_rule(factors, session_pageable(A, factors))),
        "access (archives + v3: v4 registered)": (load_shapes(v4), v4["pageable_rule"]),
    }
    old = pd.read_csv(VALIDATION)
    old = old.assign(session=old["source"].str.split("/").str[0])
    reg_factors = json.loads((A / "uvm-sim-calibration-2026-11-27/registered_params.json").read_text())
    v3 = pd.read_csv(a.v3 / "validation3_cells.csv")
    gbps = json.loads((a.v3 / "validation3_factors.json").read_text())["pageable_gbps"]
    micro = micro_tables(a.v3)
    cand = candidates(v3, micro, shape_sets, gbps).assign(cells="validation3")
    if a.supplement and (a.supplement / "validation3_cells.csv").exists():
        sup = pd.read_csv(a.supplement / "validation3_cells.csv")
        sgbps = json.loads((a.supplement / "validation3_factors.json").read_text())["pageable_gbps"]
        c2 = candidates(sup, micro_tables(a.supplement), shape_sets, sgbps).assign(cells="supplement")
        cand = pd.concat([cand, c2], ignore_index=True)
    tables = {
        "candidates.csv": cand,
        "micro_drift.csv": drift(micro, shape, shapes),
        "correlations.csv": correlations(v3, old, shape, reg_factors["session_factors"]),
        "archived_floor.csv": archived_floor(old, shape, shapes),
        "cells.csv": per_cell(v3, micro["start"], shape_sets["access (archives + v3: v4 registered)"], gbps),
    }
    pd.set_option("display.width", 250)
    for name, t in tables.items():
        t.to_csv(OUT / name, index=False, float_format="%.4g")
        print(f"== {name}\n{t.round(3).to_string(index=False)}")
    print(json.dumps({k: {c: round(v, 4) for c, v in vars(s).items()} for k, s in shapes.items()}))


if __name__ == "__main__":
    main()
