# Exploratory (in sample, archived files only, CPU): split v6's misses (archive/holdout-v6-h100-2026-11-27) on the
# runs and cells of the day's four H100 held-out sessions (holdout-v3 .. -v6). Every number it prints is in sample:
# the v6 predictions are the session's judged ones (its costs fitted on its train graphs); the one fit made here
# (qc's round scale) is fitted on v6's train graphs and judged on its held-out graphs. Four parts:
#  qa  noise: per (algorithm, mode) the runs' deviations about their cell's mean (model/uvm_run_spread.py's method),
#      a perfect predictor's median and worst |error| at 3 and 5 reps with the median and the min of the reps as the
#      cell statistic (each judged against its own expectation), and the same cell (graph, algorithm, variant, mode,
#      width, root) measured in two or more sessions: how far its median and its min move between sessions.
#  qb  direction-optimizing BFS in device memory: per held-out cell v6's floor split into its terms (a per launch,
#      b per grid thread, c per entry, s per walk step, q per non-isolated list) with holdout_costs.csv's costs.
#  qc  Gauss-Seidel PageRank: the prediction scaled by the runs' measured rounds over the trace's (an upper bound on
#      a round model), one scale per mode and width fitted on the train graphs.
#  qd  zero-copy: the measured zero-copy minus device time against v6's predicted transfer part, per algorithm,
#      variant and graph (how much of a zero-copy miss is the link terms, how much the floor).
# Usage (repository root): python archive/gpu-work-v7-exploration-2026-11-27/explore.py > .../explore.txt
import glob
import json
import sys

import numpy as np
import pandas as pd

sys.path[:0] = ["."]
A = {s: f"archive/holdout-{s}-h100-2026-11-27" for s in ("v3", "v4", "v5", "v6")}
V6 = A["v6"]
KEY = ["graph", "algorithm", "variant", "mode", "edge_bytes", "root"]
SEED, DRAWS = 29, 4000
pd.set_option("display.width", 200, "display.max_rows", 400, "display.max_columns", 30)


def runs(s: str) -> pd.DataFrame:
    r = pd.concat(pd.read_csv(f) for f in sorted(glob.glob(f"{A[s]}/session/runs/*.csv")))
    return r.assign(session=s, root=r["root"].fillna(-1).astype(int), time_ms=r["time_ms"].astype(float))


def cells(s: str) -> pd.DataFrame:
    c = pd.read_csv(f"{A[s]}/holdout_cells.csv")
    return c.assign(session=s, root=c["root"].fillna(-1).astype(int))


def pct(x) -> str:
    return f"{100 * x:+.1f}%"


def qa(r: pd.DataFrame, counts: pd.Series) -> None:
    print("## qa: run-to-run noise (all four sessions' timed runs, 3 reps each)\n")
    g = r.groupby(["session", *KEY])["time_ms"]
    n = g.transform("size")
    r = r.assign(dev=(r["time_ms"] / g.transform("mean") - 1) * np.sqrt(n / (n - 1)))
    spread = (g.max() / g.min() - 1).astype(float).reset_index(name="spread")
    print("cells' spread max/min - 1 per algorithm and mode (median, 90th pct, max), all sessions:")
    q90 = ("spread", lambda x: x.quantile(0.9))
    print(
        spread.groupby(["algorithm", "mode"])
        .agg(cells=("spread", "size"), median=("spread", "median"), p90=q90, max=("spread", "max"))
        .round(3)
    )
    print("\nthe widest cells:")
    print(spread.nlargest(8, "spread").to_string(index=False))
    rng = np.random.default_rng(SEED)
    rows = []
    for (alg, mode), p in r.groupby(["algorithm", "mode"]):
        pool, m = p["dev"].to_numpy(), int(counts.get((alg, mode), 16))
        for reps in (3, 5):
            x = 1 + rng.choice(pool, (DRAWS, m, reps))
            for stat, f in (("median", np.median), ("min", np.min)):
                v = f(x, axis=2)
                e = np.abs(v / v.mean() - 1)  # the perfect predictor knows the statistic's expectation
                rows.append({"algorithm": alg, "mode": mode, "held-out cells": m, "reps": reps, "stat": stat,
                             "median": np.median(np.median(e, axis=1)), "worst": np.median(e.max(axis=1)),
                             "worst_p90": np.quantile(e.max(axis=1), 0.9)})  # fmt: skip
    t = pd.DataFrame(rows)
    print("\na perfect predictor's |error| on v6's held-out cell counts, resampled from the runs' deviations")
    print("(median over draws of the median and the worst; worst_p90 the 90th percentile of the worst):")
    print(t.round(3).to_string(index=False))
    med = g.median().unstack("session")
    mn = g.min().unstack("session")

    def between(w):  # noqa: E306
        k = w.notna().sum(axis=1) >= 2
        return w[k].max(axis=1) / w[k].min(axis=1) - 1

    b = pd.DataFrame({"median": between(med), "min": between(mn)}).dropna()
    print(f"\nthe same cell in 2+ sessions ({len(b)} cells): max/min - 1 of its statistic across sessions")
    print(b.groupby(level=["algorithm", "mode"]).agg(["median", "max"]).round(3))
    print("all:", b.median().round(4).to_dict(), "worst:", b.max().round(3).to_dict())


def floor_terms(c: pd.DataFrame) -> pd.DataFrame:
    costs = pd.read_csv(f"{V6}/holdout_costs.csv")
    out = []
    for (g, w), part in c.groupby(["graph", "edge_bytes"]):
        meta = json.load(open(f"{V6}/session/graphs/{g}.w8.json"))
        ni = meta["num_vertices"] - meta["isolated_vertices"]
        la = pd.read_csv(f"{V6}/workloads/{g}/launches.csv.gz")
        la = la[(la["algorithm"] == "bfs") & (la["variant"] == "direction-optimizing") & (la["edge_bytes"] == w)]
        k = costs[(costs["algorithm"] == "bfs") & (costs["variant"] == "direction-optimizing")
                  & (costs["edge_bytes"] == w)].iloc[0]  # fmt: skip
        for root, lg in la.groupby("root"):
            t = {"a": k.a_ms * len(lg), "b": k.b_ms * lg["grid"].sum(), "c": k.c_ms * lg["entries"].sum(),
                 "s": k.s_ms * lg["walk"].sum(), "q": k.q_ms * np.minimum(lg["lists"], ni).sum()}  # fmt: skip
            bu = int((lg["grid"] >= 0.99 * meta["num_vertices"]).sum())
            out.append({"graph": g, "edge_bytes": w, "root": root, "launches": len(lg), "bottom_up_like": bu,
                        "walk_sum": lg["walk"].sum(), **{f"{x}_ms": v for x, v in t.items()}})  # fmt: skip
    return pd.DataFrame(out)


def nnls_rel(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    from scipy.optimize import nnls

    return nnls(x / y[:, None], np.ones(len(y)))[0]


def refit(t: pd.DataFrame) -> None:
    """DO BFS, 4-byte ids: v6's fit (NNLS on the relative error of the train cells, terms a b c s q) redone on the
    counts behind qb's terms, with every train cell, and trimmed: cells whose first-fit |error| > 30% dropped."""
    k = pd.read_csv(f"{V6}/holdout_costs.csv").set_index(["algorithm", "variant", "edge_bytes"])
    k = k.loc[("bfs", "direction-optimizing", 4)]
    d = t[t["edge_bytes"] == 4].copy()
    terms = ["a", "b", "c", "s", "q"]
    x = np.stack([d[f"{v}_ms"] / k[f"{v}_ms"] for v in terms], axis=1)  # the counts (every cost is > 0 here)
    y, tr = d["measured_ms"].to_numpy(), (d["split"] == "train").to_numpy()
    th = nnls_rel(x[tr], y[tr])
    e0 = x @ th / y - 1
    keep = tr & (np.abs(e0) <= 0.30)
    th2 = nnls_rel(x[keep], y[keep])
    e1 = x @ th2 / y - 1
    print(
        "\nDO BFS 4-byte refit (in sample): costs",
        {v: float(f"{c:.3g}") for v, c in zip(terms, th, strict=True)},
        "\n  trimmed",
        {v: float(f"{c:.3g}") for v, c in zip(terms, th2, strict=True)},
        f"({tr.sum() - keep.sum()} train cells dropped)",
    )
    for name, e in (("all train cells", e0), ("trimmed > 30%", e1)):
        ho = np.abs(e[~tr])
        print(
            f"  {name}: held-out median {np.median(ho):.3f} worst {ho.max():.3f};"
            f" train median {np.median(np.abs(e[tr])):.3f}"
        )


def qb(c: pd.DataFrame) -> None:
    print("\n## qb: direction-optimizing BFS in device memory (v6, held-out and train)\n")
    d = c[(c["algorithm"] == "bfs") & (c["variant"] == "direction-optimizing") & (c["mode"] == "device")]
    t = floor_terms(d).merge(d[["graph", "edge_bytes", "root", "split", "measured_ms", "predicted_ms", "error"]])
    print("bottom_up_like: launches whose grid is every vertex; terms in ms with v6's costs (holdout_costs.csv)")
    print(t.sort_values(["split", "graph", "edge_bytes"]).round(4).to_string(index=False))
    print("\nv6's DO BFS costs per width (holdout_costs.csv):")
    k = pd.read_csv(f"{V6}/holdout_costs.csv")
    k = k[(k["algorithm"] == "bfs") & (k["variant"] == "direction-optimizing")].set_index("edge_bytes")
    print(k[["a_ms", "b_ms", "c_ms", "s_ms", "q_ms"]].to_string(float_format=lambda v: f"{v:.3g}"))
    w4 = t[t["edge_bytes"] == 4].copy()  # the 4-byte cells priced with the 8-byte costs, each term by its count
    num = ["a_ms", "b_ms", "c_ms", "s_ms", "q_ms"]
    r = k.loc[8, num].astype(float) / k.loc[4, num].astype(float)
    w4["with_w8_costs"] = sum(w4[f"{x}_ms"] * (r[f"{x}_ms"] if k.loc[4, f"{x}_ms"] else 0) for x in "abcq")
    w4["err_w8_costs"] = w4["with_w8_costs"] / w4["measured_ms"] - 1
    print("\n4-byte cells priced with the 8-byte costs (counts of the 4-byte trace; s dropped as w8 has none):")
    print(w4[["split", "graph", "root", "measured_ms", "error", "err_w8_costs"]].round(3).to_string(index=False))
    for s, x in w4.groupby("split"):
        print(
            f"{s}: v6 w4 median {x['error'].abs().median():.3f} worst {x['error'].abs().max():.3f};"
            f" with w8 costs median {x['err_w8_costs'].abs().median():.3f} worst {x['err_w8_costs'].abs().max():.3f}"
        )
    refit(t)
    r6 = runs("v6")
    o = r6[(r6["variant"] == "direction-optimizing") & (r6["mode"] == "device") & (r6["edge_bytes"] == 4)
           & r6["root"].isin([365814, 365788])]  # fmt: skip
    print("\nthe two 4-byte train cells at -41% / -49% (their runs, ms):")
    print(o[["graph", "root", "rep", "time_ms"]].to_string(index=False))
    rall = pd.concat(runs(x) for x in A)
    o = rall[
        (rall["variant"] == "direction-optimizing") & (rall["mode"] == "device") & rall["root"].isin([365814, 365788])
    ]
    print("the same cells in every session (median ms by session and width):")
    print(o.groupby(["graph", "root", "edge_bytes", "session"])["time_ms"].median().unstack("session").round(3))
    tr = t[t["split"] == "train"]
    for w in (4, 8):
        x = tr[tr["edge_bytes"] == w]
        print(
            f"train w{w}: s·walk share of the floor median {(x['s_ms'] / x['predicted_ms']).median():.2f},"
            f" error median {pct(x['error'].median())}, worst {pct(x['error'].abs().max())}"
        )


def qc(c: pd.DataFrame) -> None:
    print("\n## qc: Gauss-Seidel PageRank from the runs' measured rounds (an upper bound on a round model)\n")
    r = runs("v6")
    r = r[r["variant"] == "gauss-seidel"]
    rounds = r.groupby(KEY)["iterations"].median().rename("rounds_median").reset_index()
    per = r.assign(ms_per_round=r["time_ms"] / r["iterations"]).groupby(KEY)
    sp = (per["ms_per_round"].max() / per["ms_per_round"].min() - 1).rename("per_round_spread").reset_index()
    tsp = (per["time_ms"].max() / per["time_ms"].min() - 1).rename("time_spread").reset_index()
    d = c[c["variant"] == "gauss-seidel"].merge(rounds).merge(sp).merge(tsp)
    d["scaled"] = d["predicted_ms"] * d["rounds_median"] / d["launches"]
    k = (
        d[d["split"] == "train"]
        .groupby(["mode", "edge_bytes"])
        .apply(lambda x: np.median(x["measured_ms"] / x["scaled"]), include_groups=False)
        .rename("k")
    )
    d = d.merge(k.reset_index())
    d["error_rounds"] = d["k"] * d["scaled"] / d["measured_ms"] - 1
    cols = [
        "split",
        "graph",
        "mode",
        "edge_bytes",
        "launches",
        "iterations_min",
        "iterations_max",
        "rounds_median",
        "time_spread",
        "per_round_spread",
        "error",
        "error_rounds",
    ]
    print(d[cols].sort_values(["split", "graph", "mode", "edge_bytes"]).round(3).to_string(index=False))
    print("\nthe scale k (train median of measured / scaled):", k.round(3).to_dict())
    for s, x in d.groupby("split"):
        print(
            f"{s}: v6 median {x['error'].abs().median():.3f} worst {x['error'].abs().max():.3f}; from measured rounds"
            f" median {x['error_rounds'].abs().median():.3f} worst {x['error_rounds'].abs().max():.3f}"
        )


def qd(c: pd.DataFrame) -> None:
    print("\n## qd: zero-copy link terms (v4's) at edge factors 4-24 (v6's cells)\n")
    k = ["split", "graph", "algorithm", "variant", "edge_bytes", "root"]
    dv = c[c["mode"] == "device"].set_index(k)
    zc = c[c["mode"] == "zerocopy"].set_index(k)
    j = pd.DataFrame({"dev_error": dv["error"], "zc_error": zc["error"],
                      "link_measured": zc["measured_ms"] - dv["measured_ms"], "link_predicted": zc["transfer_ms"],
                      "zc_ms": zc["measured_ms"]}).reset_index()  # fmt: skip
    j["link_ratio"] = j["link_predicted"] / j["link_measured"]
    j["ef"] = j["graph"].str.extract(r"ef(\d+)$")[0].fillna("16").astype(int)
    s = j.groupby(["algorithm", "variant", "split", "ef"]).agg(
        cells=("zc_error", "size"),
        dev_err=("dev_error", "median"),
        zc_err=("zc_error", "median"),
        zc_worst=("zc_error", lambda e: e.abs().max()),
        link_ratio=("link_ratio", "median"),
    )
    print("medians (signed) per algorithm, variant, split and edge factor; link_ratio predicted/measured zc-dev time:")
    print(s.round(3).to_string())
    z = c[c["mode"] == "zerocopy"][[*k, "d_bytes"]].rename(columns={"d_bytes": "d"})
    j = j.merge(z)
    j["d_bin"] = pd.cut(j["d"], [0, 40, 60, 100, 200, 1e9])
    print("\nlink_ratio by the mean request d (bytes), all algorithms, both splits:")
    print(j.groupby("d_bin", observed=True)["link_ratio"].describe()[["count", "25%", "50%", "75%"]].round(3))
    ho = j[j["split"] == "held-out"].assign(a=lambda x: x["zc_error"].abs()).nlargest(12, "a")
    print("\nthe worst held-out zero-copy cells:")
    print(
        ho[[*k[1:], "zc_ms", "dev_error", "zc_error", "link_measured", "link_predicted"]]
        .round(3)
        .to_string(index=False)
    )


def main() -> None:
    r = pd.concat(runs(s) for s in A)
    c6 = cells("v6")
    counts = c6[c6["split"] == "held-out"].groupby(["algorithm", "mode"]).size()
    qa(r, counts)
    qb(c6)
    qc(c6)
    qd(c6)


if __name__ == "__main__":
    main()
