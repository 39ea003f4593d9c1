# Exploratory (in sample, archived files only, CPU): where v8's term misses once every graph of the v10 session
# (archive/holdout-v10-h100-2026-11-27, 17 graphs, its three held-out graphs among them) is in the pool. Every number
# is in sample: v10's held-out graphs are judged, so each refit here selects, it does not validate. Three parts:
#  qa  leave one graph out over the 17 graphs (model.holdout's judge, split v10 with split_of and check_fit_set
#      patched, v8's term, each cell the min of its runs): which cells stay past 15%, by algorithm, variant, mode.
#  qb  Gauss-Seidel PageRank: per graph its cells' measured / predicted (leave one graph out) and graph-derived
#      candidates (the trace's rounds, entries per round over the edges, entries per non-isolated vertex, the skew,
#      the isolated share); each candidate as a one-slope correction of log(measured / predicted), fitted on the
#      other 16 graphs' ratios and applied to the left-out graph's cells; the runs' own rounds beside them (oracle).
#  qc  CC Merged+Aligned and Afforest: the cells past 10% leaving one graph out, with the graph's isolated share,
#      edge factor, skew and the trace's launches; per group the device columns' correlation with the entries over
#      the 17 graphs.
# Usage (repository root): python archive/gpu-work-v11-exploration-2026-11-27/explore.py (writes explore.txt and
# the CSVs beside itself).
import glob
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path[:0] = ["."]
from model import gpu_work_v4 as g4  # noqa: E402
from model import gpu_work_v6 as t6  # noqa: E402
from model import gpu_work_v8 as t8  # noqa: E402
from model import holdout as ho  # noqa: E402
from model import holdout_split_v10 as hs10  # noqa: E402
from model.l2_capacity import read_capacity  # noqa: E402
from model.presets import MEASURED, get_preset  # noqa: E402

D = "archive/holdout-v10-h100-2026-11-27"
HERE = Path(__file__).resolve().parent
HELD10 = ("kron19ef3", "urand20ef3", "kron19ef14")
SMALLEST = ("kron17", "urand17")
COLS = ["launch", "grid", "grid_ni", "entries", "mu_entries", "walk", "lists_ni", "steps"]
ALGS = ("bfs", "sssp", "cc", "pagerank")
OUT = ["graph", "algorithm", "variant", "mode", "edge_bytes", "root", "measured_ms", "predicted_ms", "error",
       "spread", "iterations_min", "iterations_max"]  # fmt: skip
pd.set_option("display.width", 220, "display.max_rows", 500, "display.max_columns", 30)


def session() -> dict:
    cells = ho.cells_of(ho.read_runs(f"{D}/session"), log=lambda *_: None, sp=hs10, stat="min")
    wl, la = ho.read_workloads(*sorted(glob.glob(f"{D}/workloads/*")))
    metas = {g: json.load(open(f"{D}/session/graphs/{g}.w8.json")) for g in set(cells["graph"])}
    cap = json.load(open(f"{D}/source.json")).get("l2_bytes") or read_capacity(f"{D}/session/micro/l2.csv")
    params = get_preset(MEASURED, f"{D}/session/parameters.json")
    return {"cells": cells, "wl": wl, "la": la, "cap": cap, "params": params, "metas": metas,
            "vertices": {g: m["num_vertices"] for g, m in metas.items()},
            "nonisolated": {g: m["num_vertices"] - m.get("isolated_vertices", 0) for g, m in metas.items()},
            "classes": {g: t8.degree_class(m) for g, m in metas.items()}}  # fmt: skip


class patched:
    """split v10's split_of and check_fit_set patched; restored after."""

    def __init__(self, split_of):
        self.split_of = split_of

    def __enter__(self):
        self.saved = hs10.split_of, hs10.check_fit_set
        hs10.split_of, hs10.check_fit_set = self.split_of, (lambda names: None)

    def __exit__(self, *exc):
        hs10.split_of, hs10.check_fit_set = self.saved


def judged(x: dict, split_of) -> pd.DataFrame:
    with patched(split_of):
        t, _ = ho.judge(x["cells"], x["wl"], x["la"], x["params"], log=lambda *_: None, sp=hs10,
                        vertices=x["vertices"], capacity=x["cap"], nonisolated=x["nonisolated"],
                        classes=x["classes"])  # fmt: skip
    return t


def logo(x: dict) -> pd.DataFrame:
    """Each graph predicted from the other 16 (v8's term fitted on them)."""
    out = []
    for g in sorted(set(x["cells"]["graph"])):
        t = judged(x, lambda n, source=None, g=g: hs10.TRAIN if n != g else hs10.HELD_OUT)
        out.append(t[t["graph"] == g])
    return pd.concat(out, ignore_index=True)


def stats(e: pd.Series) -> dict:
    a = e.abs()
    return {"cells": len(a), "median": a.median(), "worst": a.max(), "past15": int((a > 0.15).sum()),
            "signed_median": e.median()}  # fmt: skip


def graph_facts(x: dict) -> pd.DataFrame:
    rows = []
    for g, m in sorted(x["metas"].items()):
        s = m["source"]
        rows.append({"graph": g, "family": s["kind"], "scale": s["scale"], "edge_factor": s.get("edge_factor", 16),
                     "isolated_share": m.get("isolated_vertices", 0) / m["num_vertices"],
                     "deg_ni": m["avg_degree_nonisolated"], "skew": m["max_degree"] / m["avg_degree_nonisolated"],
                     "entries": m["num_edges"], "v10": "held out" if g in HELD10 else "train"})  # fmt: skip
    return pd.DataFrame(rows)


def qa(x: dict, reg: pd.DataFrame, lo: pd.DataFrame) -> None:
    print("## qa: v8's term, leave one graph out over the 17 graphs of the v10 session (min of 5 runs)\n")
    rows = []
    for name, t in (("registered v10 (train rows in sample)", reg), ("LOGO 17", lo)):
        for alg in (*ALGS, "all"):
            y = t[(t["algorithm"] == alg) | (alg == "all")]
            rows.append({"fit": name, "app": alg, **stats(y["error"])})
    print(pd.DataFrame(rows).round(3).to_string(index=False))
    print("\nLOGO 17 by algorithm, variant and mode:")
    rows = [{"algorithm": a, "variant": v, "mode": m, **stats(y["error"])}
            for (a, v, m), y in lo.groupby(["algorithm", "variant", "mode"])]  # fmt: skip
    by = pd.DataFrame(rows)
    print(by.round(3).to_string(index=False))
    by.to_csv(HERE / "logo_by_variant.csv", index=False, float_format="%.4f")
    inner = lo[~lo["graph"].isin(SMALLEST)]
    rows = [
        {"app": alg, **stats(inner[(inner["algorithm"] == alg) | (alg == "all")]["error"])} for alg in (*ALGS, "all")
    ]
    print("\nLOGO 17 without the scale-17 graphs (left out, each is the only graph of its family at its scale):")
    print(pd.DataFrame(rows).round(3).to_string(index=False))
    print("\nLOGO 17 by graph:")
    rows = [{"graph": g, **stats(y["error"])} for g, y in lo.groupby("graph")]
    print(pd.DataFrame(rows).round(3).to_string(index=False))
    past = lo[lo["error"].abs() > 0.15].sort_values("error")
    print(f"\nLOGO 17, the {len(past)} cells past 15%:")
    print(past[OUT].round(3).to_string(index=False))
    past[OUT].to_csv(HERE / "logo_past15.csv", index=False, float_format="%.4f")


def gs_rounds(x: dict) -> pd.DataFrame:
    """Gauss-Seidel's trace rounds (expected launches) and the runs' rounds per (graph, width, mode)."""
    w, _ = g4.expected(x["wl"], x["la"], x["vertices"])
    w = w[(w["algorithm"] == "pagerank") & (w["variant"] == "gauss-seidel")]
    r = ho.read_runs(f"{D}/session")
    r = r[(r["algorithm"] == "pagerank") & (r["variant"] == "gauss-seidel")]
    it = r.groupby(["graph", "edge_bytes", "mode"])["iterations"].agg(["min", "median", "max"]).reset_index()
    return it.merge(w[["graph", "edge_bytes", "launches", "bytes_needed"]], on=["graph", "edge_bytes"])


def qb(x: dict, lo: pd.DataFrame) -> None:
    print("\n## qb: Gauss-Seidel PageRank, leave one graph out\n")
    facts = graph_facts(x).set_index("graph")
    it = gs_rounds(x)
    gs = lo[(lo["algorithm"] == "pagerank") & (lo["variant"] == "gauss-seidel")].copy()
    gs = gs.merge(it, on=["graph", "edge_bytes", "mode"], how="left", suffixes=("", "_trace"))
    gs["ratio"] = gs["measured_ms"] / gs["predicted_ms"]
    per = gs.groupby("graph").agg(ratio_med=("ratio", "median"), ratio_min=("ratio", "min"),
                                  ratio_max=("ratio", "max"), trace_rounds=("launches_trace", "first"),
                                  runs_rounds=("median", "median")).join(facts)  # fmt: skip
    print(per.round(3).to_string())
    q = per["ratio_med"]
    print(f"\nmeasured / predicted per graph (median of its 4 cells): median {q.median():.3f}, min {q.min():.3f} "
          f"({q.idxmin()}), max {q.max():.3f} ({q.idxmax()}), max/min {q.max() / q.min():.3f}; over all "
          f"{len(gs)} cells {gs['ratio'].min():.3f}-{gs['ratio'].max():.3f}")  # fmt: skip
    m = facts["entries"]
    feats = {
        "trace rounds": gs["launches_trace"],
        "entries per round / E": gs["bytes_needed"] / gs["edge_bytes"] / gs["launches_trace"] / gs["graph"].map(m),
        "entries per non-isolated vertex": gs["graph"].map(facts["deg_ni"]),
        "skew (max / mean degree)": gs["graph"].map(facts["skew"]),
        "isolated share": gs["graph"].map(facts["isolated_share"]) + 0.01,
        "runs' median rounds / trace's (oracle)": gs["median"] / gs["launches_trace"],
    }
    rows = [{"candidate": "none (v8's term)", **stats(gs["error"])}]
    for name, f in feats.items():
        lf, lr = np.log(f.to_numpy(float)), np.log(gs["ratio"].to_numpy())
        pred = np.empty(len(gs))
        for g in set(gs["graph"]):
            o = (gs["graph"] != g).to_numpy()
            slope, icpt = np.polyfit(lf[o], lr[o], 1)
            pred[~o] = gs["predicted_ms"].to_numpy()[~o] * np.exp(icpt + slope * lf[~o])
        slope_all = np.polyfit(lf, lr, 1)[0]
        corr = np.corrcoef(lf, lr)[0, 1]
        rows.append({"candidate": name, **stats(pd.Series(pred / gs["measured_ms"].to_numpy() - 1)),
                     "corr_log": corr, "slope_all": slope_all})  # fmt: skip
    res = pd.DataFrame(rows)
    print("\nGauss-Seidel cells (68: 17 graphs x 2 widths x 2 modes), a one-slope correction of log(measured /"
          " predicted) on each candidate, fitted on the other 16 graphs' cells:")  # fmt: skip
    print(res.round(3).to_string(index=False))
    res.to_csv(HERE / "gauss_seidel_candidates.csv", index=False, float_format="%.4f")
    per.reset_index().to_csv(HERE / "gauss_seidel_per_graph.csv", index=False, float_format="%.4f")
    print("\nGauss-Seidel cells, LOGO 17:")
    print(gs[["graph", "mode", "edge_bytes", "measured_ms", "predicted_ms", "error", "spread", "min", "max",
              "launches_trace"]].round(3).to_string(index=False))  # fmt: skip


def device(x: dict) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    w, la = g4.expected(x["wl"], x["la"], x["vertices"])
    t = x["cells"].merge(w, on=ho.WORK, how="left")
    t = t[(t["refused"].fillna("").astype(str) == "") & t["launches"].notna() & (t["mode"] == "device")]
    t = t.reset_index(drop=True)
    return t, la, t8.mu_table(t, x["vertices"], x["cap"])


def qc(x: dict, lo: pd.DataFrame) -> None:
    print("\n## qc: CC Merged+Aligned and Afforest\n")
    facts = graph_facts(x).set_index("graph")
    cc = lo[lo["algorithm"] == "cc"].merge(facts.reset_index(), on="graph")
    out = []
    for v, y in cc.groupby("variant"):
        for fam, z in y.groupby("family"):
            out.append({"variant": v, "family": fam, **stats(z["error"])})
    print(pd.DataFrame(out).round(3).to_string(index=False))
    cc = cc.assign(ns_per_entry=cc["measured_ms"] * 1e6 / cc["entries"])
    bad = cc[cc["error"].abs() > 0.10].sort_values(["variant", "graph", "mode", "edge_bytes"])
    cols = ["graph", "variant", "mode", "edge_bytes", "error", "spread", "launches", "ns_per_entry", "isolated_share",
            "edge_factor", "skew", "deg_ni"]  # fmt: skip
    print("\nCC cells past 10%, leaving one graph out:")
    print(bad[cols].round(3).to_string(index=False))
    bad[cols].to_csv(HERE / "cc_past10.csv", index=False, float_format="%.4f")
    print("\nCC device cells, the LOGO signed error against the graph's facts (correlation over graphs):")
    for v, y in cc[cc["mode"] == "device"].groupby("variant"):
        g = y.groupby("graph").agg(
            err=("error", "mean"),
            launches=("launches", "mean"),
            measured_ms=("measured_ms", "mean"),
            predicted_ms=("predicted_ms", "mean"),
        )
        g = g.join(facts)
        for f in ("isolated_share", "edge_factor", "skew", "deg_ni", "launches"):
            if g[f].nunique() < 2:
                print(f"  {v}: {f} the same on every graph ({g[f].iloc[0]})")
                continue
            print(f"  {v}: corr(signed error, {f}) {np.corrcoef(g['err'], g[f].astype(float))[0, 1]:+.3f}")
        cols = ["err", "measured_ms", "predicted_ms", "launches", "isolated_share", "edge_factor", "skew", "family"]
        print(g.sort_values(["scale", "entries"])[cols].round(3).to_string())
    t, la, mu = device(x)
    print("\nCC device groups: each summed column's correlation with the entries over the 17 graphs' cells:")
    for (a, v, w), grp in t[t["algorithm"] == "cc"].groupby(t8.GROUP):
        tot = t6.totals(la, grp, mu, x["nonisolated"])
        with np.errstate(invalid="ignore"):
            corr = {c: np.corrcoef(tot[:, i], tot[:, 3])[0, 1] for i, c in enumerate(COLS) if i != 3}
        print(f"  {v} {w}B: " + ", ".join(f"{c} {r:.3f}" for c, r in corr.items()))


def main() -> None:
    x = session()
    reg = judged(x, hs10.split_of)
    lo = logo(x)
    lo.to_csv(HERE / "logo_cells.csv", index=False, float_format="%.6g")
    graph_facts(x).to_csv(HERE / "graphs.csv", index=False, float_format="%.4f")
    qa(x, reg, lo)
    qb(x, lo)
    qc(x, lo)


if __name__ == "__main__":
    main()
