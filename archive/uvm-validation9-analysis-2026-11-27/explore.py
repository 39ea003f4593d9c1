"""Validation 9's worst cell analysed in sample (issue 21; CPU only, archived files only): validations 3-9 pooled;
(a) the session-factor rules leave-one-validation-out on validations 4-9; (b) what R-MAT's SSSP and CC
Merged+Aligned cells have in common across calls and whether a per-algorithm correction fitted on the other calls
removes their error, judged leave one call out; (c) the R-MAT BFS term on the same record. Writes the CSVs beside
it and prints the tables.

    python archive/uvm-validation9-analysis-2026-11-27/explore.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from model.uvm_access_shape import fit_all, load_shapes, migration_ms  # noqa: E402
from model.uvm_session_fit import archived_cells, pageable_gbps  # noqa: E402

HERE = Path(__file__).resolve().parent
A = ROOT / "archive"
N = (3, 4, 5, 6, 7, 8, 9)
CALLS = {f"v{n}": A / f"uvm-validation{n}-h100-2026-11-27" for n in N}
HELD = ("v4", "v5", "v6", "v7", "v8", "v9")
REG9 = json.loads((A / "uvm-validation9-registration-2026-11-27/registered_params.json").read_text())
RULES = ("pooled", "pooled_mean", "none", "pageable_mid", "micro_start", "floor")
# corrections on the simulated migration, each a multiplier per group fitted on the other calls' cells (the median
# of (cold - device) / (session factor x migration) over the group); 1 outside the groups
TERMS = {
    "none": None,
    "rmat_bfs": ("rmat_bfs",),  # validations 8-9's registered term
    "rmat_alg": ("rmat", "algorithm"),  # one per algorithm on R-MAT graphs
    "rmat_alg_var": ("rmat", "algorithm", "variant"),  # one per algorithm and variant on R-MAT graphs
    "alg_var": ("algorithm", "variant"),  # one per algorithm and variant on every graph
    "kind_alg_var": ("kind", "algorithm", "variant"),  # one per graph kind, algorithm and variant
    "alg_var_rmat_bfs": ("is_rmat_bfs", "algorithm", "variant"),  # alg_var with R-MAT BFS's own two
}
pd.set_option("display.width", 220)
pd.set_option("display.max_columns", 30)


def base_cells() -> pd.DataFrame:
    return archived_cells(
        pd.read_csv(A / "uvm-sim-validation-2026-11-25/cells.csv"),
        pd.read_csv(A / "oom-h100-80gb-hbm3-2026-11-25-1207/oom.csv.gz"),
        pd.concat([pd.read_csv(f) for f in sorted((A / "uvm-sim-structure-2026-11-27").glob("counts_*.csv"))]),
    )


def copies() -> pd.Series:
    """Each session's median pageable copy (GB/s): the six study sessions' registered one; the calls' start/end."""
    p = {s: v["pageable_mid"] for s, v in REG9["pageable_rule"]["sessions"].items() if not s.startswith("v")}
    for call, folder in CALLS.items():
        micro = next(folder.glob("session/*/micro"))
        start = pageable_gbps(pd.read_csv(micro / "link.csv"))
        end = pageable_gbps(pd.read_csv(micro / "link_end.csv")) if (micro / "link_end.csv").exists() else start
        p[call] = float(np.median([start, end]))
    return pd.Series(p)


def micro_start() -> dict:
    out = {}
    for n in N:
        f = json.loads((CALLS[f"v{n}"] / f"validation{n}_factors.json").read_text())
        out[f"v{n}"] = float(f.get("micro_start", f.get("micro")))
    return out


def judged() -> pd.DataFrame:
    out = []
    for call, folder in CALLS.items():
        c = pd.read_csv(next(folder.glob("validation*_cells.csv")))
        out.append(c.assign(call=call, kind=c["graph"].str.extract(r"^(kron|urand|rmat)")[0]))
    d = pd.concat(out, ignore_index=True).assign(root=lambda d: d["root"].fillna(-1).astype(int))
    rb = (d["kind"] == "rmat") & (d["algorithm"] == "bfs")
    return d.assign(rmat=d["kind"] == "rmat", rmat_bfs=rb, is_rmat_bfs=rb.map({True: "rmat_bfs", False: "other"}))


def multipliers(d: pd.DataFrame, fit_on: pd.Series, key) -> pd.Series:
    """Each cell's multiplier: its group's median ratio over the `fit_on` cells (1 if the group is off or empty)."""
    if key is None:
        return pd.Series(1.0, index=d.index)
    keys = list(key)
    on = d[keys[0]].astype(bool) if keys[0] in ("rmat", "rmat_bfs") else pd.Series(True, index=d.index)
    groups = [k for k in keys if k not in ("rmat", "rmat_bfs")]
    if not groups:
        g = float(d.loc[fit_on & on, "ratio"].median())
        return pd.Series(np.where(on, g, 1.0), index=d.index)
    med = d[fit_on & on].groupby(groups)["ratio"].median()
    idx = pd.MultiIndex.from_frame(d[groups]) if len(groups) > 1 else pd.Index(d[groups[0]])
    m = pd.Series(med.reindex(idx).to_numpy(float), index=d.index).fillna(1.0)
    return m.where(on, 1.0)


def loco(cells: pd.DataFrame, base: pd.DataFrame, cp: pd.Series, micro: dict):
    """Per held call (and nothing held): shapes fitted on the base cells + the other judged calls; the factor by each
    rule; each correction fitted on the other calls' cells; errors on the held call's 36 cells."""
    rows, cell_rows = [], []
    name = {CALLS[c].name: c for c in CALLS}
    for held in (None, *HELD):
        others = [c for c in CALLS if c != held]
        fit = fit_all(base, A, [CALLS[c] for c in others])
        fac = {name.get(s, s): f for s, f in fit["session_factors"].items()}
        d = cells.assign(mig=migration_ms(cells, load_shapes(fit)))
        d["ratio"] = (d["uvm_ms"] - d["device_ms"]) / (d["call"].map(fac) * d["mig"])
        both = [s for s in fac if s in cp.index and s != held]
        k, c = np.polyfit(np.log(10.0 / cp[both].to_numpy(float)), np.log([fac[s] for s in both]), 1)
        fit_on = d["call"].isin(others)
        for tname, key in TERMS.items():
            term = multipliers(d, fit_on, key)
            for call in HELD if held is None else (held,):
                h = d[d["call"] == call]
                mig = h["mig"] * term[h.index]
                f = {"pooled": float(np.median([fac[o] for o in others])),
                     "pooled_mean": float(np.mean([fac[o] for o in others])), "none": 1.0,
                     "pageable_mid": float(np.exp(c + k * np.log(10.0 / cp[call]))), "micro_start": micro[call],
                     "floor": float(np.median((h["uvm_ms"] - h["device_ms"]) / mig))}  # fmt: skip
                for rule in RULES:
                    err = (h["device_ms"] + f[rule] * mig) / h["uvm_ms"] - 1
                    i = err.abs().idxmax()
                    rows.append({
                        "held_out": held or "nothing", "judged": call, "term": tname, "rule": rule, "f": f[rule],
                        "median": err.abs().median(), "worst": err.abs().max(), "signed_median": err.median(),
                        "over_25": int((err.abs() > 0.25).sum()),
                        "worst_cell": " ".join(str(h.at[i, x]) for x in ("graph", "algorithm", "variant", "root")),
                    })  # fmt: skip
                    if held is not None and rule in ("pooled", "none", "floor"):
                        keys = h[["call", "graph", "kind", "algorithm", "variant", "root"]]
                        more = {"multiplier": term[h.index].to_numpy(), "error": err.to_numpy()}
                        cell_rows.append(keys.assign(term=tname, rule=rule, **more))
    t = pd.DataFrame(rows)
    t.to_csv(HERE / "loco.csv", index=False)
    lc = pd.concat(cell_rows, ignore_index=True)
    lc.to_csv(HERE / "loco_cells.csv", index=False)
    return t, lc


def summary(t: pd.DataFrame) -> pd.DataFrame:
    """Per (term, rule): each held-out call's median / worst (cells past 25%) and their counts."""
    h = t[t["held_out"] != "nothing"]
    rows = []
    for (term, rule), d in h.groupby(["term", "rule"], sort=False):
        row = {"term": term, "rule": rule}
        for _, r in d.iterrows():
            row[r["judged"]] = f"{r['median']:.1%} / {r['worst']:.1%} ({r['over_25']})"
        rows.append(row | {"median_of_medians": d["median"].median(), "median_of_worsts": d["worst"].median(),
                           "calls_median_met": int((d["median"] <= 0.10).sum()),
                           "calls_worst_met": int((d["worst"] <= 0.25).sum()),
                           "cells_over_25": int(d["over_25"].sum())})  # fmt: skip
    s = pd.DataFrame(rows)
    s.to_csv(HERE / "loco_summary.csv", index=False)
    return s


def shape_features(cells: pd.DataFrame, base: pd.DataFrame) -> pd.DataFrame:
    """(b) In sample: shapes fitted on every call (3-9); per kind x algorithm x variant the median over calls of the
    cells' per-access trace features and their measured over simulated migration (the residual a factor leaves)."""
    fit = fit_all(base, A, list(CALLS.values()))
    name = {CALLS[c].name: c for c in CALLS}
    fac = {name.get(s, s): f for s, f in fit["session_factors"].items()}
    d = cells.assign(mig=migration_ms(cells, load_shapes(fit)))
    d["ratio"] = (d["uvm_ms"] - d["device_ms"]) / (d["call"].map(fac) * d["mig"])
    d = d.assign(
        mb_per_batch=d["migrated_bytes"] / d["batches"] / 2**20,
        regions_per_batch=d["serviced_chunks"] / d["batches"],
        faults_per_region=d["list_faults"] / d["serviced_chunks"],
        migrated_gb=d["migrated_bytes"] / 1e9,
        device_share=d["device_ms"] / d["uvm_ms"],
    )
    cols = ["launches", "migrated_gb", "batches", "serviced_chunks", "list_faults", "mb_per_batch",
            "regions_per_batch", "faults_per_region", "device_share", "ratio"]  # fmt: skip
    g = d.groupby(["kind", "algorithm", "variant"])
    out = g[cols].median().assign(ratio_min=g["ratio"].min(), ratio_max=g["ratio"].max(), cells=g.size())
    out.to_csv(HERE / "shape_features.csv")
    per_call = d[d["rmat"] & d["algorithm"].isin(["sssp", "cc"]) & (d["variant"] == "merged-aligned")]
    keep = ["call", "algorithm", "root", "device_share", *cols[:-2], "ratio"]
    per_call[keep].sort_values(["algorithm", "call"]).to_csv(HERE / "rmat_sssp_cc_cells.csv", index=False)
    per_call = per_call.groupby(["call", "algorithm"])["ratio"].median().unstack()
    per_call.to_csv(HERE / "rmat_sssp_cc_ratio_by_call.csv")
    by_graph = d.groupby(["call", "kind", "variant"])["ratio"].median().unstack(["kind", "variant"])
    by_graph.to_csv(HERE / "ratio_by_call_graph.csv")
    feats = [c for c in cols if c != "ratio"]
    corr = pd.DataFrame({v: g[feats].corrwith(g["ratio"], method="spearman") for v, g in d.groupby("variant")}).T
    corr.to_csv(HERE / "ratio_spearman.csv")
    return out, per_call, by_graph, corr


def main() -> None:
    cells, base, cp = judged(), base_cells(), copies()
    fmt = {"float_format": lambda v: f"{v:.3f}"}
    t, lc = loco(cells, base, cp, micro_start())
    s = summary(t)
    print("## (a, c) held-out per call, median / worst (cells past 25%), every rule x correction")
    print(s.to_string(index=False, **fmt))
    print("\n## worst cells held out, pooled rule")
    cols = ["judged", "term", "f", "median", "worst", "signed_median", "over_25", "worst_cell"]
    h = t[(t["held_out"] != "nothing") & (t["rule"] == "pooled")]
    print(h[cols].to_string(index=False, **fmt))
    print("\n## in sample (nothing held out), pooled rule")
    print(t[(t["held_out"] == "nothing") & (t["rule"] == "pooled")][cols].to_string(index=False, **fmt))
    print("\n## (b) R-MAT SSSP and CC Merged+Aligned held out, pooled rule: signed error per call and correction")
    m = lc[(lc["rule"] == "pooled") & (lc["kind"] == "rmat") & (lc["variant"] == "merged-aligned")]
    m = m[m["algorithm"].isin(["sssp", "cc"])]
    print(m.pivot_table(index=["call", "algorithm", "root"], columns="term", values="error").to_string(**fmt))
    out, per_call, by_graph, corr = shape_features(cells, base)
    print("\n## (b) in sample, shapes on 3-9: per kind x algorithm x variant, medians over the calls' cells")
    print(out.to_string(**fmt))
    print("\n## (b) in sample: R-MAT Merged+Aligned ratio (measured / simulated migration) by call")
    print(per_call.to_string(**fmt))
    c = pd.read_csv(HERE / "rmat_sssp_cc_cells.csv")
    print("\n## (b) in sample: every R-MAT SSSP and CC Merged+Aligned cell, features and ratio")
    print(c.to_string(index=False, **fmt))
    print("\n## (b) in sample: median ratio per call, graph kind and variant (every algorithm)")
    print(by_graph.to_string(**fmt))
    print("\n## (b) in sample: Spearman of the ratio with each feature, per variant")
    print(corr.to_string(**fmt))


if __name__ == "__main__":
    main()
