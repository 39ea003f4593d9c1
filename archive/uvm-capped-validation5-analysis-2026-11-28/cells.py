"""The judged capped cells of validations 2-5 in one table, with each cell's cold counts beside (in sample, CPU only).

Reads only the archived cells and cold tables (capped_validation{2..5}_{cells,cold}.csv) and, for validation 2's
tail (its table predates the tail columns), archive/uvm-capped-validation4-analysis-2026-11-28/cells.csv.
Every quantity here is known before a capped run: the simulation's capped and cold counts, the device and cold `uvm`
medians of the same call, the tail. `capped_ms` is each call's registered statistic (validation 5: the median of its
3 process medians; validations 2-4: the median of 5 runs).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
A = ROOT / "archive"
CALLS = {2: "2026-11-27", 3: "2026-11-27", 4: "2026-11-28", 5: "2026-11-28"}
REG = json.loads((A / "uvm-capped-validation3-analysis-2026-11-27/registered_params.json").read_text())
KEY = ["graph", "algorithm", "variant", "root", "budget_fraction", "sublaunches"]
CKEY = ["graph", "algorithm", "variant", "root"]
COUNTS = ["migrated_bytes", "batches", "serviced_chunks", "list_faults"]


def shape_ms(t: pd.DataFrame, prefix: str = "") -> np.ndarray:
    """The registered shapes' migration time (f = 1) of the counts `prefix`+COUNTS (merged-aligned: warp, naive:
    thread)."""
    out = np.zeros(len(t))
    for access, variant in (("warp", "merged-aligned"), ("thread", "naive")):
        s, on = REG["shapes"][access], (t["variant"] == variant).to_numpy()
        b, n, sv, lf = (t[prefix + c].to_numpy(float) for c in COUNTS)
        ms = b / (s["throughput_gbps"] * 1e6) + n * s["batch_us"] / 1e3 + sv * s["service_us"] / 1e3
        out = np.where(on, ms + lf * s["warp_fault_us"] / 1e3, out)
    return out


def load() -> pd.DataFrame:
    frames = []
    v4a = pd.read_csv(A / "uvm-capped-validation4-analysis-2026-11-28/cells.csv")
    v4a["root"] = v4a["root"].fillna(-1).astype(int)
    for n, date in CALLS.items():
        d = A / f"uvm-capped-validation{n}-h100-{date}"
        c = pd.read_csv(d / f"capped_validation{n}_cells.csv")
        cold = pd.read_csv(d / f"capped_validation{n}_cold.csv")
        for t in (c, cold):
            t["root"] = t["root"].fillna(-1).astype(int)
        cold = cold[[*CKEY, *COUNTS]].rename(columns={x: "cold_" + x for x in COUNTS})
        c = c.drop(columns=[x for x in c.columns if x.startswith("cold_")]).merge(cold, on=CKEY, how="left")
        if "tail_ms" not in c:
            t = v4a[v4a["call"] == f"capped validation {n}"][[*KEY, "tail"]].rename(columns={"tail": "tail_ms"})
            c = c.merge(t, on=KEY, how="left")
        c["call"] = n
        keep = [*KEY, "call", "capped_ms", "device_ms", "uvm_ms", "tail_ms", "evicted_chunks", "steps", *COUNTS]
        frames.append(c[keep + [x for x in c.columns if x.startswith("cold_")]])
    c = pd.concat(frames, ignore_index=True)
    c["kind"] = np.where(c["graph"].str.startswith("urand"), "urand", "kron")
    c["naive"] = (c["variant"] == "naive").astype(float)
    c["mig"] = shape_ms(c)
    c["mig_cold"] = shape_ms(c, "cold_")
    c["mig_re"] = c["mig"] - c["mig_cold"]
    c["naive_evicted"] = c["evicted_chunks"] * c["naive"]
    return c


if __name__ == "__main__":
    c = load()
    print(c.groupby("call").size().to_dict(), c.isna().sum()[c.isna().sum() > 0].to_dict())
