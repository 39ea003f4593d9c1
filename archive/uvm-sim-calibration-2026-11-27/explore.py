"""Exploratory, CPU only: does a session-level microbenchmark track a session's cold-UVM factor? Writes the
tables of archive/uvm-sim-calibration-2026-11-27/README.md from archived tables (run from the repository root:
`python archive/uvm-sim-calibration-2026-11-27/explore.py`)."""

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from model.uvm_session_fit import (  # noqa: E402
    archived_cells,
    fit_pageable_rule,
    fit_shape,
    pageable_factor,
    session_pageable,
)

A, OUT = Path("archive"), Path("archive/uvm-sim-calibration-2026-11-27")
STUDY = ["0121", "0328", "0336", "0419", "0455", "0732"]


def session_micro(cells_csv: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for s in STUDY:
        d = A / f"h100-80gb-hbm3-2026-11-21-{s}"
        cc = cells_csv[cells_csv["source"] == f"{d.name}/runs.csv.gz"]
        mig = (cc.uvm_ms - cc.device_ms) / (cc.predicted_ms_registered - cc.device_ms)
        link, toy, lat = (pd.read_csv(d / f"{t}.csv.gz") for t in ("link", "toy", "latency"))

        def g(direction, host, size):
            sel = (link.direction == direction) & (link.host_memory == host) & (link.size_bytes == size)
            return link[sel].gbps.median()

        toy_sel = (toy.pattern == "merged-aligned") & (toy["mode"] == "zerocopy") & (toy.element_bytes == 8)
        lat_sel = (lat["mode"] == "zerocopy") & (lat.footprint_bytes == 8 << 30)
        rows.append(
            {
                "session": d.name,
                "cells": len(cc),
                "uvm_ms_sum": cc.uvm_ms.sum(),
                "migration_over_registered": mig.median(),
                "h2d_pageable_256m_gbps": g("h2d", "pageable", 1 << 28),
                "h2d_pageable_1g_gbps": g("h2d", "pageable", 1 << 30),
                "d2h_pageable_1g_gbps": g("d2h", "pageable", 1 << 30),
                "h2d_pinned_1g_gbps": g("h2d", "pinned", 1 << 30),
                "toy_zerocopy_merged_aligned_8_gbps": toy[toy_sel].gbps.median(),
                "chase_zerocopy_8g_ns": lat[lat_sel].latency_ns.median(),
            }
        )
    t = pd.DataFrame(rows)
    t.insert(3, "uvm_vs_mean", t.uvm_ms_sum / t.uvm_ms_sum.mean())
    return t


def main():
    cells_csv = pd.read_csv(A / "uvm-sim-validation-2026-11-25/cells.csv")
    micro = session_micro(cells_csv)
    micro.to_csv(OUT / "session_micro.csv", index=False)
    print(micro.round(3).to_string(index=False))
    print(micro.drop(columns="session").corr()["uvm_vs_mean"].round(2).to_string())

    counts = pd.concat([pd.read_csv(f) for f in sorted(A.glob("uvm-sim-structure-2026-11-27/counts_*.csv"))])
    oom = pd.read_csv(A / "oom-h100-80gb-hbm3-2026-11-25-1207/oom.csv.gz")
    cells = archived_cells(cells_csv, oom, counts)
    shape, factors = fit_shape(cells)
    mig = shape.migration_ms(cells.migrated_bytes, cells.batches, cells.serviced_chunks, cells.list_faults)

    def err(f):
        return ((cells.device_ms + f * mig) / cells.uvm_ms - 1).abs()

    e_none, e_own = err(1.0), err(cells.session.map(factors))
    per = [
        {
            "session": s,
            "n": len(p),
            "factor": factors[s],
            "none_median": e_none[p.index].median(),
            "none_worst": e_none[p.index].max(),
            "own_median": e_own[p.index].median(),
            "own_worst": e_own[p.index].max(),
        }
        for s, p in cells.groupby("session")
    ]
    pd.DataFrame(per).to_csv(OUT / "session_factors.csv", index=False)

    pg = session_pageable(A, factors)
    loso = []
    for s in sorted(pg):
        sh, fa = fit_shape(cells[cells.session != s])
        f = pageable_factor(fit_pageable_rule(fa, {k: v for k, v in pg.items() if k != s}), pg[s])
        p = cells[cells.session == s]
        m = sh.migration_ms(p.migrated_bytes, p.batches, p.serviced_chunks, p.list_faults)
        own = np.median((p.uvm_ms - p.device_ms) / m)
        e, e0 = ((p.device_ms + f * m) / p.uvm_ms - 1).abs(), ((p.device_ms + own * m) / p.uvm_ms - 1).abs()
        loso.append(
            {
                "session": s,
                "pageable_gbps": pg[s],
                "predicted_factor": f,
                "own_factor": own,
                "n": len(p),
                "median": e.median(),
                "worst": e.max(),
                "own_median": e0.median(),
                "own_worst": e0.max(),
            }
        )
    loso = pd.DataFrame(loso)
    loso.to_csv(OUT / "pageable_loso.csv", index=False)
    print(loso.round(3).to_string(index=False))

    sub = cells["variant"].isin(["naive", "merged-aligned"]) & ~cells["graph"].str.contains("21")
    floor = pd.DataFrame(
        {
            "subset": ["all cells", "naive and merged-aligned, scale >= 23"],
            "n": [len(e_own), int(sub.sum())],
            "median": [e_own.median(), e_own[sub].median()],
            "worst": [e_own.max(), e_own[sub].max()],
            "over_25pct": [int((e_own > 0.25).sum()), int((e_own[sub] > 0.25).sum())],
        }
    )
    floor.to_csv(OUT / "own_factor_floor.csv", index=False)
    print(floor.round(3).to_string(index=False))


if __name__ == "__main__":
    main()
