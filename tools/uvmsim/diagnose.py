"""One experiment's diagnostics (archive/uvm-sim-structure-2026-11-27): what the cold-UVM misses follow.

    python -m tools.uvmsim.diagnose --out DIR

Per (algorithm, variant) and archive group: the measured migration part (cold uvm - device) per migrated GB, the
registered model's signed error, and warp faults per distinct fault entry (duplicates per cold page); the OOM
archive's repetitions (max / min per cell) and its Gauss-Seidel rounds per mode.
"""

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from model.uvm_warp_faults import cold_runs

VAL = Path("archive/uvm-sim-validation-2026-11-25")
OOM = Path("archive/oom-h100-80gb-hbm3-2026-11-25-1207")


def variant_rates() -> pd.DataFrame:
    c = pd.read_csv(VAL / "cells.csv")
    c = c.assign(group="2026-11-21 sessions", mig=c["uvm_ms"] - c["device_ms"], err=c["error_registered"])
    c["dup"] = c["list_faults"] / c["fault_entries"]
    o = cold_runs(pd.read_csv(OOM / "oom.csv.gz"))
    s = pd.read_csv(OOM / "oom_simulated.csv.gz")
    s = s[s["sim_mode"] == "cold"].assign(root=lambda f: f["root"].fillna(-1).astype(int))
    o = o.merge(s[["graph", "algorithm", "variant", "edge_bytes", "root", "migrated_bytes", "time_ms"]])
    o = o.assign(group="2026-11-25 oom", mig=o["uvm_ms"] - o["device_ms"], err=o["time_ms"] / o["uvm_ms"] - 1)
    o["dup"] = np.nan
    both = pd.concat([c, o], ignore_index=True)
    both["gb_per_s"] = both["migrated_bytes"] / both["mig"] / 1e6
    return (
        both.groupby(["group", "algorithm", "variant"])
        .agg(
            cells=("mig", "size"),
            migration_gb_per_s=("gb_per_s", "median"),
            gb_per_s_min=("gb_per_s", "min"),
            gb_per_s_max=("gb_per_s", "max"),
            registered_signed_error=("err", "median"),
            warp_faults_per_entry=("dup", "median"),
        )
        .reset_index()
    )


def oom_reps() -> pd.DataFrame:
    o = pd.read_csv(OOM / "oom.csv.gz")
    o = o[o["mode"].isin(["uvm", "device"])].assign(root=lambda f: f["root"].fillna(-1).astype(int))
    g = o.groupby(["graph", "algorithm", "variant", "root", "mode"])
    return (
        g.agg(
            reps=("time_ms", "size"),
            min_ms=("time_ms", "min"),
            max_ms=("time_ms", "max"),
            iterations=("iterations", lambda s: "/".join(map(str, s))),
        )
        .assign(spread=lambda f: f["max_ms"] / f["min_ms"])
        .reset_index()
    )


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", type=Path, required=True)
    a = p.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    r = variant_rates().round(4)
    r.to_csv(a.out / "variant_rates.csv", index=False)
    reps = oom_reps().round(4)
    reps.to_csv(a.out / "oom_reps.csv", index=False)
    pd.set_option("display.width", 200)
    print(r.to_string(index=False))
    u = reps[reps["mode"] == "uvm"]["spread"]
    print(f"oom cold uvm reps: max/min median {u.median():.3f}, max {u.max():.3f} over {len(u)} cells")
    print(reps[reps["variant"] == "gauss-seidel"].to_string(index=False))


if __name__ == "__main__":
    main()
