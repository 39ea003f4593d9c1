# Exploratory (in sample, archived files only, CPU): candidate changes of term v12's device floor for Merged+Aligned
# CC and Gauss-Seidel PageRank, each a multiplicative factor exp(f(features)) on the group's device prediction, f
# fitted by least squares on the log(measured / predicted) of the fold's TRAIN cells (in-sample residuals of the
# floor fitted without the held-out graphs) and judged on its held-out cells. Every feature is known before the
# run: the graph file's statistics (metadata), the CPU traces (launches, BFS levels), training-graph fits.
# Folds from folds.py (LOGO over the 25 graphs; by call: v10 -> v11 call, v10 + v11 call -> v12 call).
# Usage (repository root, seconds): python archive/gpu-work-v14-exploration-2026-11-28/corrections.py /tmp/v14folds.pkl
import glob
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path[:0] = ["."]
from model import gpu_work_v4 as g4  # noqa: E402
from model import gpu_work_v8 as t8  # noqa: E402
from model import holdout as ho  # noqa: E402

D = "archive/holdout-v12-h100-2026-11-28"
HERE = Path(__file__).resolve().parent
GS, MA_CC = ("pagerank", "gauss-seidel"), ("cc", "merged-aligned")
GROUPS = (GS, MA_CC)


def graph_features() -> pd.DataFrame:
    """Per graph, from its file's metadata and the CPU traces (the archived workloads)."""
    metas = {Path(p).name.split(".")[0]: json.load(open(p)) for p in glob.glob(f"{D}/session/graphs/*.w8.json")}
    wl, la = ho.read_workloads(*sorted(glob.glob(f"{D}/workloads/*")))
    vertices = {g: m["num_vertices"] for g, m in metas.items()}
    _, lx = g4.expected(wl, la, vertices)  # Gauss-Seidel's expected launches (the phi-mix)
    rows = []
    for g, m in metas.items():
        w, lg = wl[(wl["graph"] == g) & (wl["edge_bytes"] == 8)], lx[(lx["graph"] == g) & (lx["edge_bytes"] == 8)]
        ccl = lg[(lg["algorithm"] == "cc") & (lg["variant"] == "merged-aligned")].sort_values("launch")
        gs = lg[(lg["algorithm"] == "pagerank") & (lg["variant"] == "gauss-seidel")]
        ja = lg[(lg["algorithm"] == "pagerank") & (lg["variant"] == "merged-aligned")]
        bfs = w[(w["algorithm"] == "bfs") & (w["variant"] == "merged-aligned")]
        rows.append({
            "graph": g, "skewed": float(t8.degree_class(m) == "skewed"),
            "log_v": np.log(m["num_vertices"]), "log_e": np.log(m["num_edges"]),
            "iso": m.get("isolated_vertices", 0) / m["num_vertices"],
            "log_deg": np.log(m["avg_degree_nonisolated"]),
            "log_skew": np.log(m["max_degree"] / m["avg_degree_nonisolated"]),
            "log_depth": np.log(bfs["launches"].mean()),  # BFS levels from the CPU reference (diameter proxy)
            "log_cc_rounds": np.log(len(ccl)),
            "cc_active": ccl["entries"].iloc[1:].sum() / ccl["entries"].sum(),  # share of entries after round 1
            "log_gs_rounds": np.log(gs["weight"].sum()), "log_ja_rounds": np.log(ja["weight"].sum()),
            "gs_over_ja": np.log(gs["weight"].sum() / ja["weight"].sum()),
            "gs_sweeps": (gs["entries"] * gs["weight"]).sum() / m["num_edges"],
        })  # fmt: skip
    return pd.DataFrame(rows)


# candidate -> the design columns (an intercept unless "nointercept"); "w4" is 1 for 4-byte cells
CANDIDATES = {
    "v12 (registered)": None,
    "offset": [],
    "class offset": ["skewed"],
    "class x width offset": ["skewed", "w4", "skewed_w4"],
    "log skew": ["log_skew"],
    "BFS depth": ["log_depth"],
    "BFS depth + class": ["log_depth", "skewed"],
    "mean degree x class": ["skewed", "log_deg", "skewed_log_deg"],
    "isolated share": ["iso"],
    "entries (size)": ["log_e"],
    "CC active share": ["cc_active"],
    "CC trace rounds": ["log_cc_rounds"],
    "GS trace rounds": ["log_gs_rounds"],
    "GS / Jacobi trace rounds": ["gs_over_ja"],
    "GS sweeps": ["gs_sweeps"],
    "skew + degree + size": ["log_skew", "log_deg", "log_e"],
    # not a fit of f: the mean train residual of the k nearest train graphs of the same degree class in (log V,
    # log mean degree), per width (a training-graph fit, nonlinear; "neighbours" below)
    "2 nearest graphs": ("knn", 2),
    "3 nearest graphs": ("knn", 3),
}
NEAR = ["log_v", "log_deg"]


def neighbours(t: pd.DataFrame, grp, k: int) -> np.ndarray:
    """Per held-out cell of `grp` the mean log(measured / predicted) of the same width's train cells of the k
    nearest train graphs of its degree class."""
    tr, he = t[grp & (t["split"] == "train")], t[grp & (t["split"] == "held-out")]
    res = np.log(tr["measured_ms"] / tr["predicted_ms"]).groupby([tr["graph"], tr["edge_bytes"]]).mean()
    feat = t.drop_duplicates("graph").set_index("graph")
    out = []
    for c in he.itertuples():
        same = [h for h in tr["graph"].unique() if feat.loc[h, "skewed"] == feat.loc[c.graph, "skewed"]]
        dist = {h: np.linalg.norm(feat.loc[h, NEAR].to_numpy(float) - feat.loc[c.graph, NEAR].to_numpy(float))
                for h in same}  # fmt: skip
        out.append(np.mean([res[(h, c.edge_bytes)] for h in sorted(same, key=dist.get)[:k]]))
    return np.array(out)


def design(c: pd.DataFrame, cols: list) -> np.ndarray:
    c = c.assign(w4=(c["edge_bytes"] == 4).astype(float))
    c = c.assign(skewed_w4=c["skewed"] * c["w4"], skewed_log_deg=c["skewed"] * c["log_deg"])
    return np.column_stack([np.ones(len(c)), *[c[k].to_numpy(float) for k in cols]])


def corrected(t: pd.DataFrame, cols) -> pd.DataFrame:
    """One fold's table with each GROUPS device prediction times exp(f), f fitted on its train cells."""
    t = t.copy()
    if cols is None:
        return t
    for a, v in GROUPS:
        grp = (t["algorithm"] == a) & (t["variant"] == v) & (t["mode"] == "device")
        tr, he = grp & (t["split"] == "train"), grp & (t["split"] == "held-out")
        if isinstance(cols, tuple):
            t.loc[he, "predicted_ms"] = t.loc[he, "predicted_ms"] * np.exp(neighbours(t, grp, cols[1]))
            continue
        y = np.log(t.loc[tr, "measured_ms"] / t.loc[tr, "predicted_ms"]).to_numpy()
        x = design(t[tr], cols)
        beta = np.linalg.lstsq(x, y, rcond=None)[0]
        t.loc[he, "predicted_ms"] = t.loc[he, "predicted_ms"] * np.exp(design(t[he], cols) @ beta)
    t["error"] = t["predicted_ms"] / t["measured_ms"] - 1
    return t


def stats(e: pd.Series, label: str) -> dict:
    a = e.abs() * 100
    return {f"{label} median": a.median(), f"{label} worst": a.max(), f"{label} past15": int((a > 15).sum())}


def upper_bound(f: pd.DataFrame) -> pd.DataFrame:
    """Optimistic bound, not a predictor: each candidate's f fitted on ALL 25 graphs' v12 LOGO held-out residuals
    of the group (the judged cells themselves) and applied to them. A candidate that misses 15% here cannot meet it
    leaving one graph out."""
    h = f[(f["kind"] == "logo") & (f["split"] == "held-out") & (f["mode"] == "device")]
    rows = []
    for name, cols in CANDIDATES.items():
        if isinstance(cols, tuple):
            continue  # a neighbour correction has no single fit to bound
        r = {"candidate": name}
        for a, v in GROUPS:
            g = h[(h["algorithm"] == a) & (h["variant"] == v)]
            y = np.log(g["measured_ms"] / g["predicted_ms"]).to_numpy()
            fit = 0.0 if cols is None else design(g, cols) @ np.linalg.lstsq(design(g, cols), y, rcond=None)[0]
            e = pd.Series(np.expm1(fit - y))  # predicted·exp(fit) / measured − 1
            for sub, m in (("25", np.ones(len(g), bool)), ("no scale 17", ~g["graph"].str.endswith("17").to_numpy())):
                r |= stats(e[m], f"{a} {v} ({sub})")
        rows.append(r)
    return pd.DataFrame(rows)


def main(path):
    f = pd.read_pickle(path).merge(graph_features(), on="graph")
    rows, cells = [], []
    for name, cols in CANDIDATES.items():
        for kind, ff in f.groupby("kind"):
            held = pd.concat([corrected(t, cols)[lambda z: z["split"] == "held-out"] for _, t in ff.groupby("fold")])
            cells.append(held.assign(candidate=name))
            r = {"candidate": name, "folds": "LOGO 25 graphs" if kind == "logo" else "by call (8 graphs)"}
            for a, v in GROUPS:
                r |= stats(held[(held.algorithm == a) & (held.variant == v) & (held["mode"] == "device")]["error"],
                           f"{a} {v} device")  # fmt: skip
            for a in ("bfs", "sssp", "cc", "pagerank"):
                r |= stats(held[held.algorithm == a]["error"], a)
            rows.append(r)
    r = pd.DataFrame(rows)
    r.to_csv(HERE / "candidates.csv", index=False, float_format="%.1f")
    c = pd.concat(cells)
    key = ["graph", "algorithm", "variant", "mode", "edge_bytes", "root"]
    c = c[c["mode"].eq("device") & c["algorithm"].isin(["cc", "pagerank"])]
    c["kind"] = c["kind"].map({"logo": "LOGO", "call": "by call"})
    c.pivot_table(index=[*key, "kind"], columns="candidate", values="error", sort=False).to_csv(
        HERE / "cells_device_cc_pagerank.csv", float_format="%.4f")  # fmt: skip
    pd.set_option("display.width", 250, "display.max_columns", 40, "display.max_colwidth", 30)
    inner = []  # LOGO without the scale-17 graphs (the held-out graphs lie inside the covered range)
    for name in CANDIDATES:
        d = c[(c["kind"] == "LOGO") & ~c["graph"].str.endswith("17") & (c["candidate"] == name)]
        r17 = {"candidate": name}
        for a, v in GROUPS:
            r17 |= stats(d[(d["algorithm"] == a) & (d["variant"] == v)]["error"], f"{a} {v} device")
        inner.append(r17)
    inner = pd.DataFrame(inner)
    inner.to_csv(HERE / "logo_without_scale17.csv", index=False, float_format="%.1f")
    print("## LOGO without the scale-17 graphs (23 graphs), device\n")
    print(inner.round(1).to_string(index=False), "\n")
    # what would still miss by call if both groups were predicted perfectly: the other CC and PageRank cells past 15%
    h = f[(f["kind"] == "call") & (f["split"] == "held-out") & f["algorithm"].isin(["cc", "pagerank"])]
    mine = np.any([(h["algorithm"] == a) & (h["variant"] == v) & (h["mode"] == "device") for a, v in GROUPS], axis=0)
    rest = h[~mine & (h["error"].abs() > 0.15)][
        ["fold", "graph", "algorithm", "variant", "mode", "edge_bytes", "error"]
    ]
    rest.to_csv(HERE / "by_call_other_cells_past15.csv", index=False, float_format="%.4f")
    print("## by call: CC and PageRank cells past 15% outside the two groups (term v12)\n")
    print(rest.round(3).to_string(index=False), "\n")
    u = upper_bound(f)
    u.to_csv(HERE / "upper_bound.csv", index=False, float_format="%.1f")
    print("## optimistic bound: fitted on the judged LOGO residuals themselves (in sample)\n")
    print(u.round(1).to_string(index=False))
    for kind in r["folds"].unique():
        print(f"\n## {kind}\n")
        print(r[r["folds"] == kind].drop(columns="folds").round(1).to_string(index=False))


if __name__ == "__main__":
    main(sys.argv[1])
