# Exploratory (in sample, archived files only, CPU): why v8's term misses at edge factor 3 in the held-out
# validation v9 (archive/holdout-v9-h100-2026-11-27). v9's held-out graphs are judged now, so every refit here uses
# graphs already seen: it selects, it does not validate. Three parts, all on the v9 session (14 graphs):
#  qa  leave one graph out (model.holdout's judge, split v9 with split_of and check_fit_set patched, v8's term,
#      each cell the min of its runs): "v9 train" fits on v9's 10 train graphs only (the held-out four never in a
#      fit), "v10 train" on all 14 (v10's training); per graph, per edge-factor set and algorithm.
#  qb  the per-vertex vs per-edge costs: per group, the device train cells' summed columns (launch, grid,
#      non-isolated grid, entries, mu*entries, walk, lists, steps) and how collinear they are over v9's train graphs
#      (each column's correlation with entries, the scaled design's condition number); the costs fitted on v9's
#      train and on all 14; each cost term's share of the floor of the edge-factor-3 graphs' cells.
#  qc  PageRank's rounds: the trace's rounds (launches, Gauss-Seidel's mixed) against the runs' iterations (min,
#      max); leave one graph out with each PageRank workload's launches and bytes scaled by the runs' rounds over
#      the trace's (an oracle: the rounds known), to see what predicting the rounds would buy.
# Usage (repository root): python archive/gpu-work-v10-exploration-2026-11-27/explore.py > .../explore.txt
import glob
import json
import sys

import numpy as np
import pandas as pd

sys.path[:0] = ["."]
from model import gpu_work_v4 as g4  # noqa: E402
from model import gpu_work_v6 as t6  # noqa: E402
from model import gpu_work_v8 as t8  # noqa: E402
from model import holdout as ho  # noqa: E402
from model import holdout_split_v9 as hs9  # noqa: E402
from model.l2_capacity import read_capacity  # noqa: E402
from model.presets import MEASURED, get_preset  # noqa: E402

D = "archive/holdout-v9-h100-2026-11-27"
HELD9 = ("kron21ef3", "urand21ef3", "kron20ef7", "urand20ef7")
EF3 = ("kron21ef3", "urand21ef3")
COLS = ["launch", "grid", "grid_ni", "entries", "mu_entries", "walk", "lists_ni", "steps"]
ALGS = ("bfs", "sssp", "cc", "pagerank")
pd.set_option("display.width", 220, "display.max_rows", 500, "display.max_columns", 30)
_expected = g4.expected


def session() -> dict:
    cells = ho.cells_of(ho.read_runs(f"{D}/session"), log=lambda *_: None, sp=hs9, stat="min")
    wl, la = ho.read_workloads(*sorted(glob.glob(f"{D}/workloads/*")))
    metas = {g: json.load(open(f"{D}/session/graphs/{g}.w8.json")) for g in set(cells["graph"])}
    cap = json.load(open(f"{D}/source.json")).get("l2_bytes") or read_capacity(f"{D}/session/micro/l2.csv")
    params = get_preset(MEASURED, f"{D}/session/parameters.json")
    return {"cells": cells, "wl": wl, "la": la, "cap": cap, "params": params,
            "vertices": {g: m["num_vertices"] for g, m in metas.items()},
            "nonisolated": {g: m["num_vertices"] - m.get("isolated_vertices", 0) for g, m in metas.items()},
            "classes": {g: t8.degree_class(m) for g, m in metas.items()}}  # fmt: skip


class patched:
    """split v9's split_of and check_fit_set (and, with `rounds`, gpu_work_v4.expected) patched; restored after."""

    def __init__(self, split_of, rounds=None):
        self.split_of, self.rounds = split_of, rounds

    def __enter__(self):
        self.saved = hs9.split_of, hs9.check_fit_set
        hs9.split_of, hs9.check_fit_set = self.split_of, (lambda names: None)
        if self.rounds is not None:
            ho.gpu_work_v4.expected = lambda w, la, v: scaled(*_expected(w, la, v), self.rounds)

    def __exit__(self, *exc):
        hs9.split_of, hs9.check_fit_set = self.saved
        ho.gpu_work_v4.expected = _expected


def scaled(w: pd.DataFrame, la: pd.DataFrame, rounds: pd.Series):
    """PageRank's workloads and launches scaled by the runs' rounds over the trace's (graph, variant, width)."""
    key = lambda f: list(zip(f["graph"], f["variant"], f["edge_bytes"].astype(int), strict=True))  # noqa: E731
    fw = np.array([rounds.get(k, 1.0) if a == "pagerank" else 1.0 for k, a in zip(key(w), w["algorithm"])])
    w = w.copy()
    for c in ("D_bytes", "requests", "bytes_needed", "launches"):
        w[c] = w[c].astype(float) * fw
    fl = np.array([rounds.get(k, 1.0) if a == "pagerank" else 1.0 for k, a in zip(key(la), la["algorithm"])])
    return w, la.assign(weight=la["weight"] * fl)


def judged(x: dict, split_of, rounds=None) -> pd.DataFrame:
    with patched(split_of, rounds):
        t, _ = ho.judge(x["cells"], x["wl"], x["la"], x["params"], log=lambda *_: None, sp=hs9,
                        vertices=x["vertices"], capacity=x["cap"], nonisolated=x["nonisolated"],
                        classes=x["classes"])  # fmt: skip
    return t


def logo(x: dict, pool: tuple, rounds=None) -> pd.DataFrame:
    """Each graph predicted from the graphs of `pool` other than itself (graphs outside the pool never fitted)."""
    out = []
    for g in sorted(set(x["cells"]["graph"])):
        t = judged(x, lambda n, source=None, g=g: hs9.TRAIN if n in pool and n != g else hs9.HELD_OUT, rounds)
        out.append(t[t["graph"] == g])
    return pd.concat(out, ignore_index=True)


def ef_set(g: str) -> str:
    return "ef3" if g in EF3 else ("ef7" if g in HELD9 else "train9")


def summary(ts: dict) -> pd.DataFrame:
    rows = []
    for name, t in ts.items():
        t = t.assign(a=t["error"].abs(), s=t["graph"].map(ef_set))
        for s in ("ef3", "ef7", "train9"):
            for alg in (*ALGS, "all"):
                y = t[(t["s"] == s) & ((t["algorithm"] == alg) | (alg == "all"))]
                rows.append({"fit": name, "graphs": s, "app": alg, "med": y["a"].median(), "worst": y["a"].max(),
                             ">15%": int((y["a"] > 0.15).sum()), "cells": len(y)})  # fmt: skip
    r = pd.DataFrame(rows)
    return r.pivot_table(index=["graphs", "app"], columns="fit", values=["med", "worst", ">15%"], sort=False)


def qa(x: dict) -> dict:
    print("## qa: v8's term, leave one graph out on the v9 session (each cell the min of its 5 runs)\n")
    everything = tuple(sorted(set(x["cells"]["graph"])))
    train9 = tuple(g for g in everything if g not in HELD9)
    ts = {"registered (v9 train)": judged(x, lambda n, source=None: hs9.TRAIN if n in train9 else hs9.HELD_OUT),
          "LOGO v9 train": logo(x, train9), "LOGO v10 train": logo(x, everything)}  # fmt: skip
    print(summary(ts).round(3).to_string())
    t = ts["LOGO v10 train"]
    print("\nLOGO v10 train, the edge-factor-3 cells past 10%:")
    y = t[t["graph"].isin(EF3) & (t["error"].abs() > 0.10)]
    cols = ["graph", "algorithm", "variant", "mode", "edge_bytes", "root", "measured_ms", "predicted_ms", "error",
            "spread"]  # fmt: skip
    print(y[cols].round(3).to_string(index=False))
    return ts


def device(x: dict) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    w, la = _expected(x["wl"], x["la"], x["vertices"])
    t = x["cells"].merge(w, on=ho.WORK, how="left")
    t = t[(t["refused"].fillna("").astype(str) == "") & t["launches"].notna() & (t["mode"] == "device")]
    t = t.reset_index(drop=True)
    return t, la, t8.mu_table(t, x["vertices"], x["cap"])


def qb(x: dict) -> None:
    print("\n## qb: per-vertex against per-edge costs (device cells)\n")
    t, la, mu = device(x)
    train9 = [g for g in set(t["graph"]) if g not in HELD9]
    everything = sorted(set(t["graph"]))
    for (a, v, w), grp in t.groupby(t8.GROUP):
        tot = t6.totals(la, grp, mu, x["nonisolated"])
        tr = grp["graph"].isin(train9).to_numpy()
        m = grp["measured_ms"].to_numpy(float)
        r = tot[tr] / m[tr, None]
        use = r.max(axis=0) > 0
        z = r[:, use] / r[:, use].max(axis=0)
        with np.errstate(invalid="ignore"):  # a column constant over the train cells (one launch each): nan
            corr = {c: np.corrcoef(tot[tr, i], tot[tr, 3])[0, 1] for i, c in enumerate(COLS) if use[i] and i != 3}
        costs = {}
        for name, pool in (("v9 train", train9), ("v10 train", everything)):
            f = grp["graph"].isin(pool).to_numpy()
            costs[name] = t8.v7.trimmed_fit(tot[f], m[f])[0]
        e3 = grp["graph"].isin(EF3).to_numpy()
        share = {name: (tot[e3] * p).sum(axis=0) / (tot[e3] @ p).sum() for name, p in costs.items()}
        err = {name: np.median(tot[e3] @ p / m[e3] - 1) for name, p in costs.items()}
        print(f"{a} {v} {w}B: cond(scaled design, v9 train) {np.linalg.cond(z):.3g}; corr with entries over the"
              f" v9 train cells: " + ", ".join(f"{c} {r_:.3f}" for c, r_ in corr.items()))  # fmt: skip
        print(pd.DataFrame({**{f"cost {k}": p for k, p in costs.items()},
                            **{f"ef3 share {k}": s for k, s in share.items()}}, index=t6.PARAMS)
              .loc[lambda f: (f != 0).any(axis=1)].to_string(float_format=lambda q: f"{q:.3g}"))  # fmt: skip
        print("  ef3 device median signed error (in-sample costs): " + ", ".join(f"{k} {e:+.3f}" for k, e in
              err.items()) + "\n")  # fmt: skip


def rounds_of(x: dict) -> tuple[pd.DataFrame, pd.Series]:
    w, _ = _expected(x["wl"], x["la"], x["vertices"])
    pr = w[w["algorithm"] == "pagerank"][["graph", "variant", "edge_bytes", "launches"]]
    r = ho.read_runs(f"{D}/session")
    r = r[r["algorithm"] == "pagerank"]
    it = r.groupby(["graph", "variant", "edge_bytes", "mode"])["iterations"].agg(["min", "max", "median"])
    it = it.reset_index().merge(pr, on=["graph", "variant", "edge_bytes"])
    ratio = it.groupby(["graph", "variant", "edge_bytes"]).apply(lambda f: f["median"].mean() / f["launches"].iloc[0])
    return it, ratio


def qc(x: dict, ts: dict) -> None:
    print("\n## qc: PageRank's rounds, the trace's against the runs'\n")
    it, ratio = rounds_of(x)
    it = it.assign(runs_over_trace=it["median"] / it["launches"])
    print(it.round(3).to_string(index=False))
    for v in ("merged-aligned", "gauss-seidel"):
        y = it[it["variant"] == v]
        print(
            f"{v}: runs' median rounds over the trace's: median {y['runs_over_trace'].median():.3f}, "
            f"min {y['runs_over_trace'].min():.3f}, max {y['runs_over_trace'].max():.3f}; "
            f"cells whose runs' max/min rounds > 1.1: {int((y['max'] / y['min'] > 1.1).sum())} of {len(y)}"
        )
    everything = tuple(sorted(set(x["cells"]["graph"])))
    oracle = logo(x, everything, rounds=ratio)
    pr = {"LOGO v10 train": ts["LOGO v10 train"], "LOGO v10 train, rounds known": oracle}
    rows = []
    for name, t in pr.items():
        t = t[t["algorithm"] == "pagerank"].assign(a=lambda f: f["error"].abs(), s=lambda f: f["graph"].map(ef_set))
        for (s, v), y in t.groupby(["s", "variant"]):
            rows.append({"fit": name, "graphs": s, "variant": v, "med": y["a"].median(), "worst": y["a"].max(),
                         ">15%": int((y["a"] > 0.15).sum())})  # fmt: skip
    print("\nPageRank, leave one graph out on all 14 graphs, with and without the runs' rounds:")
    print(pd.DataFrame(rows).pivot_table(index=["graphs", "variant"], columns="fit", values=["med", "worst", ">15%"])
          .round(3).to_string())  # fmt: skip


def main() -> None:
    x = session()
    ts = qa(x)
    qb(x)
    qc(x, ts)


if __name__ == "__main__":
    main()
