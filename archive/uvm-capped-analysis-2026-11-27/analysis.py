"""uvm-capped predicted in sample from the validation-7 cold model plus emulation terms (issue 21 item 4; CPU only,
archived files only). Writes cells.csv (every capped cell, its counts and each rule's prediction), fits.csv (each
rule fitted on one graph and judged on the others) and prints the tables.

    python archive/uvm-capped-analysis-2026-11-27/analysis.py [--kron20-graph /tmp/g/kron20.w8.csr]

With --kron20-graph (the regenerated kron20 of archive/uvm-capped-kron20-h100-2026-11-25) kron20's traces are derived
and simulated (cold, capped at 64 MiB with K = 1 and 4) into kron20_counts.csv; without it that file is read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from model import uvm_capped as uc  # noqa: E402
from model.uvm_access_shape import load_shapes, migration_ms  # noqa: E402

HERE = Path(__file__).resolve().parent
A = ROOT / "archive"
OOM = A / "oom-h100-80gb-hbm3-2026-11-25-1207"
K20 = A / "uvm-capped-kron20-h100-2026-11-25"
OOM_SESSION = OOM.name
RULES = {  # name -> (the terms fitted, a fixed cost per evicted chunk in units of the shape's region service cost)
    "shape": ((), 0.0),
    "shape+steps": (("steps",), 0.0),
    "shape+evicted": (("evicted",), 0.0),
    "shape+steps+evicted": (("steps", "evicted"), 0.0),
    "shape+refault": (("refault",), 0.0),
    "shape+evicted at the region cost": ((), 1.0),
}
GRAPHS = ("kron24", "urand24", "kron20")


def kron20_counts(graph_path: Path) -> pd.DataFrame:
    from emogi.csr import read_csr
    from emogi.trace_derive import derive
    from model.uvm_sim import lists_per_warp_of, simulate

    g = read_csr(graph_path)
    root = int(np.argmax(np.diff(g.offsets)))  # as tools/device/capped_check.sh chose it
    rows = []
    for a, variants in (
        ("bfs", ("merged-aligned", "direction-optimizing")),
        ("pagerank", ("merged-aligned", "gauss-seidel")),
    ):
        for v in variants:
            t = derive(g, a, v, root if a == "bfs" else None, "kron20")
            for mode, k in (("cold", 1), ("capped", 1), ("capped", 4)):
                cap = None if mode == "cold" else 64 << 20
                r = simulate(t, g, mode=mode, capacity_bytes=cap, sub_launches=k, lists_per_warp=lists_per_warp_of(t))
                keep = ("launches", "migrated_bytes", "list_faults", "batches", "serviced_chunks", "evicted_chunks")
                key = {"algorithm": a, "variant": v, "root": root if a == "bfs" else -1, "sim_mode": mode}
                rows.append({**key, "sublaunches": k, "trace_source": t.source, **{c: r.totals()[c] for c in keep}})
    return pd.DataFrame(rows).assign(graph="kron20", checksum=f"{g.header.checksum:016x}")


def kron20_cells(counts: pd.DataFrame, shapes: dict) -> pd.DataFrame:
    """kron20's capped cells: measured medians of 2 runs; no device-mode run was made, so the device time is
    inferred as the measured cold median less the cold counts' shape migration (f = 1, that call had no link table)."""
    runs = pd.read_csv(K20 / "runs.csv").assign(root=lambda f: f["root"].fillna(-1).astype(int))
    med = runs.groupby(["algorithm", "variant", "root", "mode", "sub_launches"], as_index=False)["time_ms"].median()
    cap = med[med["mode"] == "uvm-capped"].rename(columns={"time_ms": "capped_ms", "sub_launches": "sublaunches"})
    cold = med[med["mode"] == "uvm"].groupby(["algorithm", "variant", "root"], as_index=False)["time_ms"].median()
    c0 = counts[counts["sim_mode"] == "cold"].drop(columns=["sim_mode", "sublaunches"])
    c0 = c0.assign(uvm_mig=migration_ms(c0, shapes))[["algorithm", "variant", "root", "uvm_mig", "migrated_bytes"]]
    c0 = c0.rename(columns={"migrated_bytes": "cold_migrated_bytes"})
    c1 = counts[counts["sim_mode"] == "capped"]
    cells = cap.drop(columns="mode").merge(c1, on=["algorithm", "variant", "root", "sublaunches"]).merge(
        cold.rename(columns={"time_ms": "uvm_ms"}), on=["algorithm", "variant", "root"]).merge(
        c0, on=["algorithm", "variant", "root"])  # fmt: skip
    cells = cells.assign(device_ms=np.maximum(cells["uvm_ms"] - cells["uvm_mig"], 0.0), budget_fraction=0.25,
                         edge_bytes=8, cold_list_faults=np.nan)  # fmt: skip
    return uc.with_counts(cells)


def load_cells(counts20: pd.DataFrame, shapes: dict) -> pd.DataFrame:
    oom, sim = pd.read_csv(OOM / "oom.csv.gz"), pd.read_csv(OOM / "oom_simulated.csv.gz")
    counts = pd.concat([pd.read_csv(A / f"uvm-sim-structure-2026-11-27/counts_{g}.csv") for g in ("kron24", "urand24")])
    big = uc.oom_cells(oom, sim, counts)
    cells = pd.concat([big, kron20_cells(counts20, shapes)], ignore_index=True)
    return cells[cells["access"] != ""].reset_index(drop=True)  # Afforest: no shape


def with_simulated_faults(cells: pd.DataFrame) -> pd.DataFrame:
    """The scale-24 cells' warp faults from warp_faults.py's capped simulations (capped_counts_*.jsonl) where they
    exist; elsewhere oom_cells' estimate (the cold count scaled by the fault batches), flagged in list_faults_from."""
    found = [pd.read_json(f, lines=True) for f in sorted(HERE.glob("capped_counts_*.jsonl"))]
    cells = cells.assign(list_faults_from=np.where(cells["graph"] == "kron20", "simulated", "estimated"))
    if not found:
        return cells
    sim = pd.concat(found, ignore_index=True)[
        ["graph", "algorithm", "variant", "root", "budget_fraction", "list_faults"]
    ]
    cells = cells.merge(sim.rename(columns={"list_faults": "lf"}), how="left", on=list(sim.columns[:5]))
    have = cells["lf"].notna()
    cells.loc[have, "list_faults"] = cells.loc[have, "lf"]
    cells.loc[have, "list_faults_from"] = "simulated"
    return cells.drop(columns="lf")


def run(cells: pd.DataFrame, shapes: dict, factors: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    f = cells["graph"].map(lambda g: factors.get(g, 1.0)).to_numpy(float)
    service = np.where(cells["access"] == "thread", shapes["thread"].service_us, shapes["warp"].service_us) / 1e3
    rows, out = [], cells.copy()
    for name, (terms, fixed) in RULES.items():
        base = uc.base_ms(cells, shapes, f) + fixed * f * service * cells["evicted_chunks"].to_numpy(float)
        for fit_on in (*GRAPHS, "kron24+urand24", "all"):
            fm = cells["graph"].isin(GRAPHS if fit_on == "all" else fit_on.split("+")).to_numpy()
            coef = uc.fit_terms(cells[fm], base[fm], terms)
            p = uc.predict(cells, base, coef)
            if fit_on == "kron24+urand24":
                out[name] = p
            for g in GRAPHS:
                m = (cells["graph"] == g).to_numpy()
                e = uc.errors(p[m], cells["capped_ms"][m])
                rows.append({"rule": name, "fit_on": fit_on, "judged": g, "in_fit": bool((fm & m).any()),
                             **{f"ms_per_{t}": round(v, 5) for t, v in coef.items()}, **e})  # fmt: skip
    return out, pd.DataFrame(rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kron20-graph", type=Path)
    a = p.parse_args(argv)
    fit = json.loads((HERE / "shape_fit.json").read_text())
    shapes = load_shapes(fit)
    if a.kron20_graph:
        kron20_counts(a.kron20_graph).to_csv(HERE / "kron20_counts.csv", index=False)
    counts20 = pd.read_csv(HERE / "kron20_counts.csv")
    cells = with_simulated_faults(load_cells(counts20, shapes))
    f_oom = fit["session_factors"][OOM_SESSION]
    cells, fits = run(cells, shapes, {"kron24": f_oom, "urand24": f_oom})
    cells.to_csv(HERE / "cells.csv", index=False)
    fits.to_csv(HERE / "fits.csv", index=False)
    pd.set_option("display.width", 250)
    pd.set_option("display.max_rows", 500)
    print(f"OOM session factor (the shape fit's, in sample): {f_oom:.4f}; cells per graph:")
    print(cells.groupby(["graph", "list_faults_from"]).size().to_string())
    print("\nEach rule fitted on one graph (or both scale-24 graphs, or all), judged on every graph:")
    print(fits.round(4).to_string(index=False))
    cols = ["graph", "algorithm", "variant", "root", "budget_fraction", "sublaunches", "capped_ms", "device_ms",
            "steps", "evicted_chunks", "migrated_gb", "list_faults", "shape", "shape+steps", "shape+evicted",
            "shape+evicted at the region cost"]  # fmt: skip
    print("\nPredictions fitted on kron24+urand24 (ms):")
    print(cells[cols].round(2).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
