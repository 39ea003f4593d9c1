"""In-sample analysis of capped validation 3 (archived data only, CPU). (a) The session factor f of uvm-capped's
prediction: the pageable rule against a pooled f and f = 1, leave-one-call-out over the four capped calls (e and
e_naive refitted without the held-out call). (b) The 1/4-faster-than-1/2 cells at K = 4: what the kernel evicted
(its logs) against the simulator's counts, and how often the pattern shows in capped validations 2 and 3.

    python archive/uvm-capped-validation3-analysis-2026-11-27/analysis.py > analysis_output.txt

Prediction of a cell (model/uvm_capped.py, capped validation 3's form): device-mode median + f x the capped
simulation's migration time (mig) + e x evicted chunks + e_naive x a Naive cell's evicted chunks + the tail (no
coefficient). mig comes from each archive: capped validation 3's `simulated_migration_ms`; validation 2's and the
archived cells' from their `base` (device + f_used x mig) in archive/uvm-capped-validation2-analysis-2026-11-27.
"""

import re
from pathlib import Path

import numpy as np
import pandas as pd

from model.uvm_calibrate import _lad

HERE = Path(__file__).resolve().parent
A = HERE.parent
V2 = A / "uvm-capped-validation2-h100-2026-11-27"
V3 = A / "uvm-capped-validation3-h100-2026-11-27"
KEYS = ["graph", "algorithm", "variant", "root", "budget_fraction", "sublaunches"]
# f the archived cells were fitted at (archive/uvm-capped-analysis-2026-11-27: the OOM session's factor in the
# shape fit; kron20's call had no copies measured) and capped validation 2's pageable f
F_USED = {"oom 2026-11-25": 1.056, "kron20 2026-11-25": 1.0}


def cells() -> pd.DataFrame:
    old = pd.read_csv(A / "uvm-capped-validation2-analysis-2026-11-27/cells.csv")
    v2f = float(pd.read_csv(V2 / "capped_validation2_cells.csv")["factor_pageable"].iloc[0])
    old["call"] = np.where(
        old["source"] == "capped validation 2",
        "capped validation 2",
        np.where(old["graph"] == "kron20", "kron20 2026-11-25", "oom 2026-11-25"),
    )
    old["f_pageable"] = old["call"].map(F_USED | {"capped validation 2": v2f})
    old["mig"] = (old["base"] - old["device_ms"]) / old["f_pageable"]
    old = old.drop(columns="tail").rename(columns={"tail_device": "tail"})
    v3 = pd.read_csv(V3 / "capped_validation3_cells.csv")
    v3 = v3.assign(
        call="capped validation 3",
        f_pageable=v3["factor_pageable"],
        mig=v3["simulated_migration_ms"],
        tail=v3["tail_ms"],
        naive_evicted=v3["thread_evicted_chunks"],
    )
    keep = ["call", *KEYS, "capped_ms", "device_ms", "mig", "evicted_chunks", "naive_evicted", "tail", "f_pageable"]
    return pd.concat([old[keep], v3[keep]], ignore_index=True)


def fit_terms(c: pd.DataFrame, f) -> np.ndarray:
    """(e, e_naive) by least absolute relative deviation at the given f per cell."""
    m = c["capped_ms"].to_numpy(float)
    rest = m - c["device_ms"].to_numpy(float) - np.asarray(f, float) * c["mig"].to_numpy(float) - c["tail"]
    return _lad(c[["evicted_chunks", "naive_evicted"]].to_numpy(float), rest.to_numpy(float), 1 / m)


def fit_joint(c: pd.DataFrame) -> np.ndarray:
    """(f, e, e_naive) together, one f for all the cells."""
    m = c["capped_ms"].to_numpy(float)
    x = c[["mig", "evicted_chunks", "naive_evicted"]].to_numpy(float)
    return _lad(x, (m - c["device_ms"] - c["tail"]).to_numpy(float), 1 / m)


def predict(c: pd.DataFrame, f, e) -> np.ndarray:
    return (c["device_ms"] + np.asarray(f, float) * c["mig"] + e[0] * c["evicted_chunks"] + e[1] * c["naive_evicted"]
            + c["tail"]).to_numpy(float)  # fmt: skip


def rule_fit(rule: str, train: pd.DataFrame):
    """(f for the held-out call given its pageable f, (e, e_naive)) fitted on `train`."""
    if rule == "pageable":
        return None, fit_terms(train, train["f_pageable"])
    if rule == "none":
        return 1.0, fit_terms(train, 1.0)
    if rule == "pooled (joint fit)":
        f, *e = fit_joint(train)
        return float(f), np.array(e)
    # the median of the training calls' own factors (each call's joint fit), e and e_naive refitted at it
    f = float(np.median([fit_joint(g)[0] for _, g in train.groupby("call")]))
    return f, fit_terms(train, f)


RULES = ("pageable", "none", "pooled (joint fit)", "pooled (median of calls)")


def leave_one_call_out(c: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows, out = [], c.copy()
    for rule in RULES:
        out[f"loco_{rule}"] = np.nan
        for call in c["call"].unique():
            held = c["call"] == call
            f, e = rule_fit(rule, c[~held])
            f = c.loc[held, "f_pageable"] if f is None else f
            out.loc[held, f"loco_{rule}"] = predict(c[held], f, e) / c.loc[held, "capped_ms"] - 1
            rows.append({"rule": rule, "held_out": call, "f": float(np.median(f)), "e": e[0], "e_naive": e[1]})
    return out, pd.DataFrame(rows)


def summary(out: pd.DataFrame) -> pd.DataFrame:
    rows = []
    groups = [("all 156 + 96", out), *out.groupby("call", sort=False)]
    groups.append(("validations 2 + 3", out[out["call"].str.startswith("capped validation")]))
    for name, g in groups:
        for rule in RULES:
            err = g[f"loco_{rule}"]
            rows.append({"cells": name, "rule": rule, "n": len(g), "median_abs": err.abs().median(),
                         "worst_abs": err.abs().max(), "past_25": int((err.abs() > 0.25).sum()),
                         "signed_median": err.median()})  # fmt: skip
    return pd.DataFrame(rows)


LOG = re.compile(
    r"uvm-capped\s+(\S+)\s+median\s+([\d.]+) ms over (\d+) runs.*\n\s+uvm-capped, (\d+) sub-launches: capacity (\d+) "
    r"of (\d+) chunks: per run ([\d.]+) \(sub-\)launches, ([\d.]+) chunks .* in ([\d.]+) ms"
)


def kernel_evictions(session: Path) -> pd.DataFrame:
    """Per capped log (algorithm, graph, fraction, K) and variant: the kernel's own per-run counts."""
    rows = []
    for p in sorted(session.glob("logs/run_capped.*.log")):
        alg, graph, frac = re.fullmatch(r"run_capped\.(\w+)\.(\w+)\.f([\d.]+)\.k\d+", p.stem).groups()
        frac = float(frac)
        for m in LOG.finditer(p.read_text()):
            rows.append({"algorithm": alg, "graph": graph, "budget_fraction": frac, "sublaunches": int(m[4]),
                         "variant": m[1], "kernel_median_ms": float(m[2]), "capacity_chunks": int(m[5]),
                         "chunks": int(m[6]), "kernel_steps": float(m[7]), "kernel_evicted": float(m[8]),
                         "kernel_evict_ms": float(m[9])})  # fmt: skip
    return pd.DataFrame(rows)


def quarter_vs_half(name: str, cells_csv: Path, session: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    c = pd.read_csv(cells_csv)
    g = ["graph", "algorithm", "variant", "root", "sublaunches"]
    cols = ["capped_ms", "migrated_bytes", "batches", "evicted_chunks"]
    q = c[c["budget_fraction"] == 0.25].set_index(g)[cols]
    h = c[c["budget_fraction"] == 0.5].set_index(g)[cols]
    pair = q.add_suffix("_q").join(h.add_suffix("_h")).reset_index()
    pair["measured_q_over_h"] = pair["capped_ms_q"] / pair["capped_ms_h"]
    pair["sim_migrated_q_over_h"] = pair["migrated_bytes_q"] / pair["migrated_bytes_h"]
    pair.insert(0, "validation", name)
    sim = c.groupby(["graph", "algorithm", "variant", "budget_fraction", "sublaunches"], as_index=False)[
        "evicted_chunks"
    ].mean()
    k = kernel_evictions(session).merge(sim, on=["graph", "algorithm", "variant", "budget_fraction", "sublaunches"])
    k.insert(0, "validation", name)
    return pair, k


def main():
    c = cells()
    out, fits = leave_one_call_out(c)
    s = summary(out)
    pd.set_option("display.width", 200)
    print("cells per call:", c.groupby("call", sort=False).size().to_dict())
    print("pageable f per call:", c.groupby("call", sort=False)["f_pageable"].first().round(3).to_dict())
    print("each call's own f (joint fit on the call alone; in sample):",
          {k: round(float(fit_joint(g)[0]), 3) for k, g in c.groupby("call", sort=False)})  # fmt: skip
    print("\n(a) leave-one-call-out fits\n", fits.round(4).to_string(index=False))
    print("\n(a) leave-one-call-out |error| (in sample)\n", s.round(3).to_string(index=False))
    v3 = out[out["call"] == "capped validation 3"]
    print("\n(a) capped validation 3 by variant and K, held out (median |err| / worst / signed median)")
    for rule in RULES:
        col = f"loco_{rule}"
        by = v3.groupby(["graph", "variant", "sublaunches"])[col].agg(
            med=lambda x: x.abs().median(), worst=lambda x: x.abs().max(), signed="median"
        )
        print(rule, "\n", by.round(3).to_string())  # fmt: skip
    pairs, kern = zip(
        quarter_vs_half("capped validation 2", V2 / "capped_validation2_cells.csv", next(V2.glob("session/uvmc2"))),
        quarter_vs_half("capped validation 3", V3 / "capped_validation3_cells.csv", next(V3.glob("session/uvmc3"))),
        strict=True,
    )
    pairs, kern = pd.concat(pairs, ignore_index=True), pd.concat(kern, ignore_index=True)
    print("\n(b) groups where 1/4 ran faster than 1/2 (measured medians), by validation and K")
    pairs["quarter_faster"] = pairs["measured_q_over_h"] < 1
    print(pairs.groupby(["validation", "sublaunches"])["quarter_faster"].agg(["sum", "count"]).to_string())
    print(
        "\n(b) K = 4, by validation, algorithm, variant: measured 1/4 over 1/2 (median), simulated migrated "
        "1/4 over 1/2"
    )
    k4 = pairs[pairs["sublaunches"] == 4]
    print(k4.groupby(["validation", "graph", "algorithm", "variant"])[["measured_q_over_h", "sim_migrated_q_over_h"]]
          .median().round(3).to_string())  # fmt: skip
    kern["evicted_diff"] = kern["kernel_evicted"] - kern["evicted_chunks"]
    print("\n(b) the kernel's evictions per run (its log, mean over the two roots' runs) minus the simulator's (mean "
          "over the roots):", kern["evicted_diff"].describe().round(2).to_dict())  # fmt: skip
    print("    relative |diff| max:", float((kern["evicted_diff"].abs() / kern["evicted_chunks"]).max().round(4)))
    out.to_csv(HERE / "cells.csv", index=False)
    fits.to_csv(HERE / "fits.csv", index=False)
    s.to_csv(HERE / "summary.csv", index=False)
    pairs.to_csv(HERE / "quarter_vs_half.csv", index=False)
    kern.to_csv(HERE / "kernel_evictions.csv", index=False)


if __name__ == "__main__":
    main()
