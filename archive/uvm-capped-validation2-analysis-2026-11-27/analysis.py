"""In-sample analysis of capped validation 2 (archived data only): which term for the GPU work added by sub-launching
(and for Naive's thread-per-list re-faults) carries from graph to graph? Leave-one-graph-out over the 96 cells of
capped validation 2 and the 68 archived capped cells (archive/uvm-capped-analysis-2026-11-27/cells.csv).

    python archive/uvm-capped-validation2-analysis-2026-11-27/analysis.py > analysis_output.txt

Per cell: base = device-mode median + f x the capped simulation's migration by the shape (validation 2's pageable f;
the analysis's f for the archived cells), then terms (ms per count, non-negative, LAD on |pred / measured - 1|):
  evicted      2 MiB chunks evicted (validation 2's e)
  tail         thread-per-list kernels (naive): sum over launches of the longest list read in each sub-launch range
               minus the longest in the whole launch (edges; tails.csv, from the recorded traces and the degrees) x c
  tail_device  parameter-free: naive's device-mode median x (tail at K / tail at 1 - 1): the device time, taken as
               the longest thread's, grows as the summed per-range longest lists do
  naive_evicted  evicted chunks of naive cells (a thread-per-list re-fault, priced apart)
The archived naive cells (kron24 and urand24 BFS at K = 4) have no tail count (no trace or graph here): they are
left out of every rule's fit and judgement and listed apart.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from model.uvm_calibrate import _lad

HERE = Path(__file__).resolve().parent
V2 = HERE.parent / "uvm-capped-validation2-h100-2026-11-27"
OLD = HERE.parent / "uvm-capped-analysis-2026-11-27"


def cells() -> pd.DataFrame:
    v2 = pd.read_csv(V2 / "capped_validation2_cells.csv")
    t = pd.read_csv(HERE / "tails.csv").drop(columns="launches")
    v2 = v2.merge(t, on=["graph", "algorithm", "variant", "root"], how="left")
    v2["base"] = v2["device_ms"] + v2["factor_pageable"] * v2["simulated_migration_ms"]
    v2["source"] = "capped validation 2"
    old = pd.read_csv(OLD / "cells.csv")
    old["base"] = old["shape"]
    old["source"] = "archived"
    old["tail_edges_k1"] = np.where(old["variant"] == "naive", np.nan, 0.0)
    old["tail_edges_k4"] = old["tail_edges_k1"]
    keep = ["source", "graph", "algorithm", "variant", "root", "budget_fraction", "sublaunches", "capped_ms",
            "device_ms", "base", "evicted_chunks", "tail_edges_k1", "tail_edges_k4"]  # fmt: skip
    c = pd.concat([v2[keep], old[keep]], ignore_index=True)
    naive = c["variant"] == "naive"
    k4 = c["sublaunches"] == 4
    c["evicted"] = c["evicted_chunks"]
    c["tail"] = np.where(naive & k4, c["tail_edges_k4"] - c["tail_edges_k1"], 0.0)
    c["tail_device"] = np.where(naive & k4, c["device_ms"] * (c["tail_edges_k4"] / c["tail_edges_k1"] - 1), 0.0)
    c["naive_evicted"] = np.where(naive, c["evicted_chunks"], 0.0)
    return c


RULES = {
    "registered (e = 0.0208, validation 2)": ([], {"evicted": 0.0208}, None),
    "e refitted": (["evicted"], {}, None),
    "e + tail (c fitted)": (["evicted", "tail"], {}, None),
    "e + tail_device (no coefficient)": (["evicted"], {}, "tail_device"),
    "e (0.0208) + tail_device": ([], {"evicted": 0.0208}, "tail_device"),
    "e + naive_evicted + tail_device": (["evicted", "naive_evicted"], {}, "tail_device"),
    "e + naive_evicted + tail (c fitted)": (["evicted", "naive_evicted", "tail"], {}, None),
}


def fit(c: pd.DataFrame, fitted, fixed, free) -> dict:
    m = c["capped_ms"].to_numpy(float)
    base = c["base"].to_numpy(float) + (c[free].to_numpy(float) if free else 0)
    base = base + sum(v * c[k].to_numpy(float) for k, v in fixed.items())
    coef = dict(fixed)
    if fitted:
        x = np.column_stack([c[k].to_numpy(float) for k in fitted])
        coef |= dict(zip(fitted, map(float, _lad(x, m - base, 1 / m)), strict=True))
    return coef


def predict(c: pd.DataFrame, coef: dict, free) -> np.ndarray:
    p = c["base"].to_numpy(float) + (c[free].to_numpy(float) if free else 0)
    return p + sum(v * c[k].to_numpy(float) for k, v in coef.items())


def stats(err) -> str:
    a = np.abs(err)
    return f"{100 * np.median(a):5.1f} / {100 * a.max():5.1f} ({int((a > 0.25).sum())} > 25%, n {len(a)})"


def main():
    c = cells()
    out = c[c["tail"].isna() | c["tail_device"].isna()]
    c = c.drop(out.index)
    n2 = (c.source == "capped validation 2").sum()
    print(f"cells: {len(c)} judged ({n2} of validation 2); left out (no tail count):")
    show = ["graph", "algorithm", "variant", "root", "budget_fraction", "capped_ms", "device_ms", "base"]
    print(out[show].to_string())
    graphs = list(dict.fromkeys(c["graph"]))
    rows, errs = [], {}
    for name, (fitted, fixed, free) in RULES.items():
        coef_all = fit(c, fitted, fixed, free)
        loo = np.full(len(c), np.nan)
        for g in graphs:
            held = (c["graph"] == g).to_numpy()
            coef = fit(c[~held], fitted, fixed, free)
            loo[held] = predict(c[held], coef, free)[0:] / c.loc[held, "capped_ms"].to_numpy() - 1
        ins = predict(c, coef_all, free) / c["capped_ms"].to_numpy() - 1
        errs[name] = loo
        v2 = (c["source"] == "capped validation 2").to_numpy()
        print(f"\n{name}: coefficients on all {json.dumps({k: round(v, 6) for k, v in coef_all.items()})}")
        print(f"  in sample, all     {stats(ins)}")
        print(f"  leave-one-graph-out: all {stats(loo)}; validation 2 {stats(loo[v2])}; archived {stats(loo[~v2])}")
        for g in graphs:
            h = (c["graph"] == g).to_numpy()
            print(f"    {g:11s} {stats(loo[h])}")
        for v in ("naive", "merged-aligned"):
            for k in (1, 4):
                h = v2 & (c["variant"] == v).to_numpy() & (c["sublaunches"] == k).to_numpy()
                s = np.median(loo[h])
                print(f"    v2 {v:14s} K = {k}: {stats(loo[h])}, signed median {100 * s:+.1f}%")
        rows.append({"rule": name, **{f"coef_{k}": v for k, v in coef_all.items()},
                     "loo_median": float(np.median(np.abs(loo))), "loo_worst": float(np.abs(loo).max()),
                     "loo_v2_median": float(np.median(np.abs(loo[v2]))), "loo_v2_worst": float(np.abs(loo[v2]).max()),
                     "in_median": float(np.median(np.abs(ins))), "in_worst": float(np.abs(ins).max())})  # fmt: skip
    pd.DataFrame(rows).to_csv(HERE / "fits.csv", index=False)
    c.assign(**{f"loo_error: {k}": v for k, v in errs.items()}).to_csv(HERE / "cells.csv", index=False)


if __name__ == "__main__":
    main()
