"""Validation 7's miss analysed in sample (issue 21; CPU only, archived files only): R-MAT BFS over validations 3-7
under the shapes fitted on all five, candidate terms for it judged leave-one-validation-out on validations 4-7, and
how much interleaving a step's runs (`emogi run --run-order rounds`) could help, from the archived runs' time order.
Writes the CSVs beside it and prints the tables.

    python archive/uvm-validation7-analysis-2026-11-27/explore.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from model import uvm_run_spread  # noqa: E402
from model.uvm_access_shape import fit_all, load_shapes, migration_ms  # noqa: E402
from model.uvm_session_fit import archived_cells  # noqa: E402

HERE = Path(__file__).resolve().parent
A = ROOT / "archive"
N = (3, 4, 5, 6, 7)
CALLS = {f"v{n}": A / f"uvm-validation{n}-h100-2026-11-27" for n in N}
HELD = ("v4", "v5", "v6", "v7")
REPS = {"v5": 5, "v6": 7, "v7": 9}
REG7 = json.loads((A / "uvm-validation7-registration-2026-11-27/registered_params.json").read_text())
pd.set_option("display.width", 220)
pd.set_option("display.max_columns", 30)


def base_cells() -> pd.DataFrame:
    return archived_cells(
        pd.read_csv(A / "uvm-sim-validation-2026-11-25/cells.csv"),
        pd.read_csv(A / "oom-h100-80gb-hbm3-2026-11-25-1207/oom.csv.gz"),
        pd.concat([pd.read_csv(f) for f in sorted((A / "uvm-sim-structure-2026-11-27").glob("counts_*.csv"))]),
    )


def mids() -> dict:
    """Each session's pageable copy median (start and end): validation 7's registered 10, validation 7's own."""
    m = {s: v["pageable_mid"] for s, v in REG7["pageable_rule"]["sessions"].items()}
    return m | {"v7": json.loads((CALLS["v7"] / "validation7_factors.json").read_text())["pageable_gbps"]}


def judged() -> pd.DataFrame:
    out = []
    for call, folder in CALLS.items():
        c = pd.read_csv(next(folder.glob("validation*_cells.csv")))
        out.append(c.assign(call=call, kind=c["graph"].str.extract(r"^(kron|urand|rmat)")[0]))
    return pd.concat(out, ignore_index=True).assign(root=lambda d: d["root"].fillna(-1).astype(int))


GROUP = ["kind", "algorithm", "variant"]


def terms(train: pd.DataFrame, how: str) -> pd.Series:
    """A multiplier on the migration time per group, fitted on the training cells' implied ratio (`ratio`: cold -
    device over the session factor x simulated migration): the median per group, 1 elsewhere."""
    if how == "rmat_bfs":
        t = train[(train["kind"] == "rmat") & (train["algorithm"] == "bfs")]
        return pd.Series({("rmat", "bfs", v): float(t["ratio"].median()) for v in ("merged-aligned", "naive")})
    if how == "rmat_bfs_variant":
        t = train[(train["kind"] == "rmat") & (train["algorithm"] == "bfs")]
        return t.groupby(GROUP)["ratio"].median()
    if how == "every_group":
        return train.groupby(GROUP)["ratio"].median()
    return pd.Series(dtype=float)


def loco(cells: pd.DataFrame, base: pd.DataFrame) -> pd.DataFrame:
    """Per held call (and none): shapes fitted on the base cells + the other judged calls, the pageable-median
    rule refitted on the fit's session factors, each candidate term fitted on the other judged calls' cells."""
    m, rows, pred_rows = mids(), [], []
    for held in (None, *HELD):
        others = [c for c in CALLS if c != held]
        fit = fit_all(base, A, [CALLS[c] for c in others])
        shapes = load_shapes(fit)
        name = {CALLS[c].name: c for c in CALLS}
        fac = {name.get(s, s): f for s, f in fit["session_factors"].items()}
        both = [s for s in fac if s in m]
        k, c = np.polyfit(np.log(10.0 / np.array([m[s] for s in both])), np.log([fac[s] for s in both]), 1)
        d = cells.assign(mig=migration_ms(cells, shapes))
        d["session_f"] = d["call"].map(fac)
        d["ratio"] = (d["uvm_ms"] - d["device_ms"]) / (d["session_f"] * d["mig"])
        train = d[d["call"].isin(others)]
        for call in HELD if held is None else (held,):
            h = d[d["call"] == call]
            f_rule = float(np.exp(c + k * np.log(10.0 / m[call])))
            for cand in ("base", "rmat_bfs", "rmat_bfs_variant", "every_group"):
                g = terms(train, cand)
                mult = pd.MultiIndex.from_frame(h[GROUP]).map(lambda key: g.get(key, 1.0)).to_numpy(float)
                mig = h["mig"].to_numpy(float) * mult
                floor = float(np.median((h["uvm_ms"] - h["device_ms"]) / mig))
                for rule, f in (("pageable", f_rule), ("none", 1.0), ("floor", floor)):
                    err = (h["device_ms"] + f * mig) / h["uvm_ms"] - 1
                    i = err.abs().idxmax()
                    rows.append({
                        "held_out": held or "nothing", "judged": call, "candidate": cand, "rule": rule, "f": f,
                        "c": c, "k": k, "median": err.abs().median(), "worst": err.abs().max(),
                        "over_25": int((err.abs() > 0.25).sum()),
                        "worst_cell": " ".join(str(h.at[i, x]) for x in ("graph", "algorithm", "variant", "root")),
                        "rmat_bfs_terms": ";".join(f"{v}={g.get(('rmat', 'bfs', v), 1.0):.3f}"
                                                   for v in ("merged-aligned", "naive")),
                    })  # fmt: skip
                    if held is not None and rule == "pageable":
                        pred_rows.append(h[[*GROUP, "call", "graph", "root"]].assign(candidate=cand, error=err))
    t = pd.DataFrame(rows)
    t.to_csv(HERE / "loco.csv", index=False)
    p = pd.concat(pred_rows, ignore_index=True)
    p.to_csv(HERE / "loco_cells.csv", index=False)
    return t, p


def pooled_loco(t: pd.DataFrame) -> pd.DataFrame:
    h = t[t["held_out"] != "nothing"]
    rows = []
    for (cand, rule), d in h.groupby(["candidate", "rule"]):
        row = {"candidate": cand, "rule": rule}
        for _, r in d.iterrows():
            row[r["judged"]] = f"{r['median']:.1%} / {r['worst']:.1%} ({r['over_25']})"
        rows.append(row | {"calls_median_met": int((d["median"] <= 0.10).sum()),
                           "calls_worst_met": int((d["worst"] <= 0.25).sum()),
                           "cells_over_25": int(d["over_25"].sum())})  # fmt: skip
    return pd.DataFrame(rows)


def rmat_bfs(cells: pd.DataFrame, base: pd.DataFrame) -> pd.DataFrame:
    """R-MAT BFS (and every group) under the shapes fitted on validations 3-7: each call's floor error per cell,
    with the trace's counts (fault entries per serviced 2 MiB region: how dense the frontier's faults are)."""
    fit = fit_all(base, A, list(CALLS.values()))
    d = cells.assign(mig=migration_ms(cells, load_shapes(fit)))
    fl = d.groupby("call").apply(lambda x: np.median((x["uvm_ms"] - x["device_ms"]) / x["mig"]))
    d["floor_error"] = (d["device_ms"] + d["call"].map(fl) * d["mig"]) / d["uvm_ms"] - 1
    d["entries_per_region"] = d["fault_entries"] / d["serviced_chunks"]
    d["device_share"] = d["device_ms"] / d["uvm_ms"]
    g = d.groupby(GROUP)["floor_error"]
    by = pd.DataFrame({"cells": g.size(), "positive": g.apply(lambda s: int((s > 0).sum())),
                       "signed_median": g.median(), "min": g.min(), "max": g.max()}).reset_index()  # fmt: skip
    by.to_csv(HERE / "by_group.csv", index=False)
    print(by.to_string(index=False, float_format=lambda v: f"{v:+.3f}"))
    r = d[(d["kind"] == "rmat") & (d["algorithm"] == "bfs")]
    cols = [
        "call",
        "graph",
        "variant",
        "root",
        "uvm_ms",
        "device_ms",
        "mig",
        "fault_entries",
        "list_faults",
        "batches",
        "serviced_chunks",
        "entries_per_region",
        "device_share",
        "uvm_spread",
        "floor_error",
    ]
    r = r[cols].sort_values(["variant", "call", "root"])
    r.to_csv(HERE / "rmat_bfs_cells.csv", index=False)
    print("\nR-MAT BFS cells (floor = each call's own f under the v3-7 shapes):")
    print(r.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    for var, x in r.groupby("variant"):
        rho = x[["floor_error", "entries_per_region", "device_share", "fault_entries"]].corr("spearman")
        print(f"{var}: Spearman of the floor error with entries/region {rho.iloc[0, 1]:+.2f}, "
              f"device share {rho.iloc[0, 2]:+.2f}, fault entries {rho.iloc[0, 3]:+.2f} (n {len(x)})")  # fmt: skip
    return d


def step_sequences(call: str, cells: pd.DataFrame):
    """Per step (graph x algorithm: one `emogi run`), its cold runs in time order as log(time / the cell's floor
    prediction) centred on the step's median, the cells' order and the reps per cell."""
    pred = cells[cells["call"] == call].set_index(["graph", "algorithm", "variant", "root"])["floor_pred"]
    for f in sorted((CALLS[call] / "session" / f"uvm{call[1]}" / "runs").glob("*.csv")):
        s = pd.read_csv(f)
        s = s[s["mode"] == "uvm"].assign(root=lambda x: x["root"].fillna(-1).astype(int))
        keys = list(zip(s["graph"], s["algorithm"], s["variant"], s["root"]))
        x = np.log(s["time_ms"].to_numpy(float) / pred.reindex(keys).to_numpy(float))
        yield s["algorithm"].iloc[0], x - np.median(x), len(dict.fromkeys(keys))


def interleave(d: pd.DataFrame) -> pd.DataFrame:
    """Blocks against rounds on each archived step's time-ordered runs: a cell's statistic the median of n
    consecutive runs (`blocks`, every window) or of n runs at the step's stride K = its cells (`rounds`, every
    offset), as |exp(.) - 1| from the step's level; and the perfect predictor resampled independently (a proxy for
    rounds) and in blocks of 3 (model/uvm_run_spread.py) at the call's reps and at 9."""
    fl = d.groupby("call").apply(lambda x: np.median((x["uvm_ms"] - x["device_ms"]) / x["mig"]))
    d = d.assign(floor_pred=d["device_ms"] + d["call"].map(fl) * d["mig"])
    rows = []
    for call, n in REPS.items():
        for alg, x, k in step_sequences(call, d):
            for order, idx in (("blocks", [range(i, i + n) for i in range(len(x) - n + 1)]),
                               ("rounds", [range(j, len(x), k) for j in range(k)])):  # fmt: skip
                e = [abs(np.exp(np.median(x[list(i)])) - 1) for i in idx if len(i) >= n]
                rows.append({"call": call, "algorithm": alg, "cells": k, "runs": len(x), "reps": n, "order": order,
                             "median": float(np.median(e)), "max": float(np.max(e))})  # fmt: skip
    t = pd.DataFrame(rows)
    t.to_csv(HERE / "interleave_steps.csv", index=False)
    s = t.groupby(["call", "order"])[["median", "max"]].agg(["median", "max"])
    print("\nper step, |median of a cell's runs - the step's level| (median / max over windows; then over steps):")
    print(s.to_string(float_format=lambda v: f"{v:.3f}"))
    res = []
    for call, n in REPS.items():
        runs = pd.concat([pd.read_csv(f) for f in sorted((CALLS[call] / "session" / f"uvm{call[1]}" / "runs")
                                                              .glob("*.csv"))], ignore_index=True)  # fmt: skip
        c = d[d["call"] == call].assign(predicted_ms_floor=lambda x: x["floor_pred"])
        for reps in sorted({n, 9}):
            ind = uvm_run_spread.perfect_predictor(runs, c["algorithm"], reps).iloc[0]
            blk = uvm_run_spread.perfect_in_blocks(runs, c, reps, 3)
            res.append({"pool": call, "reps": reps, "independent_p50": ind["worst_p50"],
                        "independent_p90": ind["worst_p90"], "independent_p_over_25": ind["p_worst_over_25"],
                        "block3_p50": blk["block3_worst_p50"], "block3_p90": blk["block3_worst_p90"],
                        "block3_p_over_25": blk["block3_p_worst_over_25"]})  # fmt: skip
    r = pd.DataFrame(res)
    r.to_csv(HERE / "interleave_resampled.csv", index=False)
    print("\nperfect predictor's worst over 36 cells, runs drawn independently (~rounds) or in blocks of 3:")
    print(r.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    return t


def main() -> None:
    cells, base = judged(), base_cells()
    print("## (a) every group under the shapes fitted on validations 3-7, each call's floor (signed error)")
    d = rmat_bfs(cells, base)
    print("\n## (b) candidate terms, leave one validation out (shapes, rule and terms fitted without it)")
    t, _ = loco(cells, base)
    print(t.drop(columns=["c", "k"]).to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    p = pooled_loco(t)
    p.to_csv(HERE / "loco_pooled.csv", index=False)
    print("\nheld-out per call, median / worst (cells past 25%):")
    print(p.to_string(index=False))
    print("\n## (c) interleaving: blocks against rounds on the archived runs' time order")
    interleave(d)


if __name__ == "__main__":
    main()
