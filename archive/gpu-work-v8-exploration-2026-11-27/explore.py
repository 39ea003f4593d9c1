# Exploratory (in sample, archived files only, CPU): v7's misses (archive/holdout-v7-h100-2026-11-27) on the runs
# and cells of the day's H100 held-out sessions (holdout-v3 .. -v7). Every number it prints is in sample: the v6/v7
# predictions are the sessions' judged ones; every refit here (qb's leave-one-graph-out) is fitted on graphs whose
# cells were already seen, so it selects, it does not validate. Three parts:
#  qa  the cell statistic: v6's and v7's registered predictions judged against the median, the min and the median
#      of the fastest half of each cell's runs; cells whose runs spread > 20% (episodes); a perfect predictor's
#      median and worst |error| with whole cells' runs resampled as blocks (episodes kept together) and, for
#      comparison, with the runs drawn independently.
#  qb  the model's errors without episodes: per (algorithm, variant, mode, width) the cells past 15% in v5, v6, v7
#      (cells whose runs spread > 20% left out), and v7's term refitted leaving one graph out over the 14 graphs of
#      v7's and of v6's sessions (model.holdout's judge, its split patched), with each cell statistic.
#  qc  zero-copy: the measured zero-copy minus device time against the predicted link part (v4's link terms) per
#      algorithm, variant and edge factor in v5, v6, v7, episode cells left out.
# Usage (repository root): python archive/gpu-work-v8-exploration-2026-11-27/explore.py > .../explore.txt
import glob
import json
import sys

import numpy as np
import pandas as pd

sys.path[:0] = ["."]
from model import holdout as ho  # noqa: E402
from model import holdout_split_v7 as hs7  # noqa: E402
from model.l2_capacity import read_capacity  # noqa: E402
from model.presets import MEASURED, get_preset  # noqa: E402

A = {s: f"archive/holdout-{s}-h100-2026-11-27" for s in ("v3", "v4", "v5", "v6", "v7")}
KEY = ["graph", "algorithm", "variant", "mode", "edge_bytes", "root"]
SEED, DRAWS, EPISODE, TARGET = 30, 4000, 0.20, 0.15
STATS = ("median", "min", "fasthalf")
pd.set_option("display.width", 200, "display.max_rows", 500, "display.max_columns", 30)


def fasthalf(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """The median of the fastest ceil(n/2) runs (5 runs: the 2nd fastest; 3 runs: the mean of the fastest 2)."""
    x = np.sort(x, axis=axis)
    k = (x.shape[axis] + 1) // 2
    return np.median(np.take(x, range(k), axis=axis), axis=axis)


FUN = {"median": np.median, "min": np.min, "fasthalf": fasthalf}


def runs(s: str) -> pd.DataFrame:
    r = pd.concat(pd.read_csv(f) for f in sorted(glob.glob(f"{A[s]}/session/runs/*.csv")))
    r = r[r["verified"].astype(str).str.lower().isin(["true", "1"])]
    return r.assign(session=s, root=r["root"].fillna(-1).astype(int), time_ms=r["time_ms"].astype(float))


def cell_stats(r: pd.DataFrame) -> pd.DataFrame:
    g = r.groupby(KEY)["time_ms"]
    out = pd.DataFrame({s: g.apply(lambda x, f=FUN[s]: float(f(x.to_numpy()))) for s in STATS})
    out["spread"] = g.max() / g.min() - 1
    out["n"] = g.size()
    return out.reset_index()


def judged(s: str) -> pd.DataFrame:
    """The session's judged cells with each statistic of their runs and the error against each."""
    c = pd.read_csv(f"{A[s]}/holdout_cells.csv")
    c = c.assign(root=c["root"].fillna(-1).astype(int)).merge(cell_stats(runs(s)), on=KEY)
    for st in STATS:
        c[f"err_{st}"] = c["predicted_ms"] / c[st] - 1
    return c


def table(c: pd.DataFrame, by: list[str], errs=STATS) -> pd.DataFrame:
    rows = {}
    for st in errs:
        e = c[f"err_{st}"].abs()
        rows[f"{st}_med"] = e.groupby([c[b] for b in by]).median()
        rows[f"{st}_worst"] = e.groupby([c[b] for b in by]).max()
    return pd.DataFrame(rows)


def perfect(r: pd.DataFrame, counts: pd.Series, rng) -> pd.DataFrame:
    """A perfect predictor (it knows each statistic's expectation) on `counts` held-out cells per (algorithm,
    mode): cells drawn whole (block) from the session's cells, each run over its cell's mean, or runs drawn
    independently from the same pool."""
    rows = []
    for (alg, mode), p in r.groupby(["algorithm", "mode"]):
        blocks = [x.to_numpy() / x.mean() for _, x in p.groupby(KEY)["time_ms"]]
        n = min(len(b) for b in blocks)
        blocks = np.stack([b[:n] for b in blocks])  # (cells, reps)
        m = int(counts.get((alg, mode), 16))
        draws = {
            "block": blocks[rng.integers(0, len(blocks), (DRAWS, m))],
            "independent": rng.choice(blocks.ravel(), (DRAWS, m, n)),
        }
        for how, x in draws.items():
            for st in STATS:
                v = FUN[st](x, axis=2)
                e = np.abs(v / v.mean() - 1)
                rows.append({"algorithm": alg, "mode": mode, "reps": n, "cells": m, "draw": how, "stat": st,
                             "median": np.median(np.median(e, axis=1)), "worst": np.median(e.max(axis=1)),
                             "worst_p90": np.quantile(e.max(axis=1), 0.9)})  # fmt: skip
    return pd.DataFrame(rows)


def qa(cs: dict) -> None:
    print("## qa: the cell statistic (v6: 3 runs a cell, v7: 5; registered predictions, judged cells)\n")
    print(f"cells whose runs spread > {EPISODE:.0%}, per session (v3-v7) and mode:")
    ep = pd.concat(cell_stats(runs(s)).assign(session=s) for s in A)
    print(ep.assign(ep=ep["spread"] > EPISODE).groupby(["session", "mode"])["ep"].agg(["sum", "size"]).T.to_string())
    rng = np.random.default_rng(SEED)
    for s in ("v6", "v7"):
        c = cs[s]
        h = c[c["split"] == "held-out"]
        print(f"### {s}: held-out |error| against each statistic, per algorithm (median, worst)")
        print(table(h, ["algorithm"]).round(3).to_string())
        print(table(h.assign(all="all"), ["all"]).round(3).to_string(header=False))
        print(f"{s} held-out by mode:")
        print(table(h, ["mode"]).round(3).to_string())
        print(f"{s} train, all:")
        print(table(c[c["split"] == "train"].assign(all="all"), ["all"]).round(3).to_string())
        ep = c["spread"] > EPISODE
        print(f"\n{s}: cells whose runs spread > {EPISODE:.0%} (max/min - 1): {int(ep.sum())} of {len(c)}")
        print(c.assign(ep=ep).groupby(["split", "mode", "algorithm"])["ep"].agg(["sum", "size"]).T.to_string())
        print(f"{s}: held-out without them, against the median:")
        print(table(h[h["spread"] <= EPISODE].assign(all="all"), ["algorithm"], ("median",)).round(3).to_string())
        worst = h.assign(a=h["err_median"].abs()).nlargest(10, "a")
        print(f"\n{s}: the 10 worst held-out cells (against the median) and the other statistics:")
        cols = [*KEY, "spread", "median", "min", "fasthalf", "predicted_ms", *[f"err_{x}" for x in STATS]]
        print(worst[cols].round(3).to_string(index=False))
        counts = h.groupby(["algorithm", "mode"]).size()
        t = perfect(runs(s)[lambda x: x["graph"].isin(c["graph"])], counts, rng)
        print(f"\n{s}: a perfect predictor on its held-out cell counts ({DRAWS} draws, seed {SEED}); median over")
        print("draws of the median and of the worst |error|, worst_p90 the 90th percentile of the worst:")
        print(t.pivot_table(index=["algorithm", "mode", "cells"], columns=["draw", "stat"], values="worst")
              .round(3).to_string())  # fmt: skip
        print("its worst_p90:")
        print(t.pivot_table(index=["algorithm", "mode"], columns=["draw", "stat"], values="worst_p90")
              .round(3).to_string())  # fmt: skip
        print("its median |error| (max over algorithm and mode):")
        print(t.groupby(["draw", "stat"])["median"].max().round(4).to_string(), "\n")


def family(g: str) -> str:
    return "urand" if g.startswith("urand") else "kron"


def logo(s: str, stat: str, same_family: bool = False) -> pd.DataFrame:
    """v7's term (model.holdout's judge with split v7) on session `s`'s cells with `stat` as the measured time,
    each graph predicted from the costs fitted on the other 13 (hs7's split_of and check_fit_set patched); with
    `same_family`, on the other graphs of its generator family only (urand; kron and rmat)."""
    d = A[s]
    r = ho.read_runs(f"{d}/session")
    cells = ho.cells_of(r, log=lambda *_: None, sp=hs7)
    st = cell_stats(runs(s).assign(edge_bytes=lambda x: x["edge_bytes"].astype(int)))
    cells = cells.drop(columns="measured_ms").merge(st[[*KEY, stat]].rename(columns={stat: "measured_ms"}), on=KEY)
    wl, la = ho.read_workloads(*sorted(glob.glob(f"{d}/workloads/*")))
    metas = {(g, 8): json.load(open(f"{d}/session/graphs/{g}.w8.json")) for g in set(cells["graph"])}
    vertices = {g: m["num_vertices"] for (g, _), m in metas.items()}
    nonisolated = {g: m["num_vertices"] - m.get("isolated_vertices", 0) for (g, _), m in metas.items()}
    params = get_preset(MEASURED, f"{d}/session/parameters.json")
    cap = json.load(open(f"{d}/source.json")).get("l2_bytes") or read_capacity(f"{d}/session/micro/l2.csv")
    saved = hs7.split_of, hs7.check_fit_set
    out = []
    try:
        hs7.check_fit_set = lambda names: None
        for g in sorted(set(cells["graph"])):

            def split_of(name, source=None, g=g):
                if name == g or (same_family and family(name) != family(g)):
                    return hs7.HELD_OUT
                return hs7.TRAIN

            hs7.split_of = split_of
            t, _ = ho.judge(cells, wl, la, params, log=lambda *_: None, sp=hs7, vertices=vertices, capacity=cap,
                            nonisolated=nonisolated)  # fmt: skip
            out.append(t[t["graph"] == g])
    finally:
        hs7.split_of, hs7.check_fit_set = saved
    return pd.concat(out).assign(root=lambda x: x["root"].fillna(-1).astype(int))


def ef_of(g: pd.Series) -> pd.Series:
    return g.str.extract(r"ef(\d+)$")[0].fillna("16").astype(int)


def qb(cs: dict) -> dict:
    print("## qb: model errors without episodes (cells whose runs spread > 20% left out)\n")
    grp = ["algorithm", "variant", "mode", "edge_bytes"]
    rows = []
    for s in ("v5", "v6", "v7"):
        c = cs[s][cs[s]["spread"] <= EPISODE]
        for k, x in c.groupby(grp):
            for sp, y in x.groupby("split"):
                e = y["err_median"]
                rows.append(dict(zip(grp, k, strict=True)) | {"session": s, "split": sp, "cells": len(y),
                            "over15": int((e.abs() > TARGET).sum()), "signed_med": e.median(),
                            "worst": e.abs().max()})  # fmt: skip
    t = pd.DataFrame(rows)
    p = t.pivot_table(index=grp, columns=["session", "split"], values="over15", aggfunc="sum").fillna(0).astype(int)
    p[("sessions_with_miss", "")] = t[t["over15"] > 0].groupby(grp)["session"].nunique().reindex(p.index).fillna(0)
    print("registered predictions, cells past 15% against the median, per session and split (episodes out):")
    print(p.to_string())
    rep = p[p[("sessions_with_miss", "")] >= 2].index
    print("\ngroups missing in 2+ sessions: signed median error per session and split:")
    sm = t.pivot_table(index=grp, columns=["session", "split"], values="signed_med")
    print(sm.loc[sm.index.isin(rep)].round(3).to_string())
    print("\ntheir worst cells (v5-v7, episodes out, |error| > 15%):")
    allc = pd.concat(cs[s].assign(session=s) for s in ("v5", "v6", "v7"))
    allc = allc[(allc["spread"] <= EPISODE) & (allc["err_median"].abs() > TARGET)]
    allc = allc[allc.set_index(grp).index.isin(rep)]
    cols = ["session", "split", *KEY, "spread", "median", "predicted_ms", "err_median"]
    print(allc.sort_values([*grp, "session"])[cols].round(3).to_string(index=False))
    lo = {}
    for s in ("v6", "v7"):
        for stat in ("median", "fasthalf"):
            x = logo(s, stat).merge(cs[s][[*KEY, "spread"]], on=KEY)
            lo[s, stat] = x
    lo["v7", "min"] = logo("v7", "min").merge(cs["v7"][[*KEY, "spread"]], on=KEY)
    lo["v7", "median, same family"] = logo("v7", "median", True).merge(cs["v7"][[*KEY, "spread"]], on=KEY)
    print("\n### leave one graph out (v7's term and trim; each graph predicted from the session's other 13)")
    for (s, stat), x in lo.items():
        x = x.assign(a=x["error"].abs(), ep=x["spread"] > EPISODE)
        y = x[~x["ep"]]
        print(f"\n{s}, statistic {stat}: all cells median {x['a'].median():.3f} worst {x['a'].max():.3f};"
              f" without episodes median {y['a'].median():.3f} worst {y['a'].max():.3f}")  # fmt: skip
        print(y.groupby("algorithm")["a"].agg(["median", "max"]).round(3).T.to_string())
        held = y[y["graph"].isin(hs7.GRAPHS) & (y["graph"].map(lambda g: hs7.GRAPHS.get(g, {}).get("split"))
                                               == hs7.HELD_OUT)]  # fmt: skip
        if len(held):
            print(f"  v7's four held-out graphs (each from the others): median {held['a'].median():.3f}"
                  f" worst {held['a'].max():.3f}")  # fmt: skip
        g = y.groupby(grp)["error"]
        m = pd.DataFrame({"cells": g.size(), "over15": g.apply(lambda e: int((e.abs() > TARGET).sum())),
                          "signed_med": g.median(), "worst": g.apply(lambda e: e.abs().max())})  # fmt: skip
        print("  groups with a cell past 15%:")
        print(m[m["over15"] > 0].round(3).to_string())
    h = cs["v7"][cs["v7"]["split"] == "held-out"]
    w = h.assign(a=h["err_median"].abs()).nlargest(12, "a")[[*KEY, "spread", "err_median"]]
    for (s, stat), x in lo.items():
        if s == "v7" and stat != "fasthalf":
            w = w.merge(x[[*KEY, "error"]].rename(columns={"error": f"logo {stat}"}), on=KEY)
    print("\nv7's 12 worst held-out cells: registered error (median), leave-one-graph-out (each its statistic):")
    print(w.round(3).to_string(index=False))
    return lo


def qc(cs: dict) -> None:
    print("\n## qc: zero-copy link part, predicted (v4's eta*D/T(d) + g*sum w sigma L) over measured zc - device\n")
    k = ["split", "graph", "algorithm", "variant", "edge_bytes", "root"]
    rows = []
    for s in ("v5", "v6", "v7"):
        c = cs[s]
        dv, zc = c[c["mode"] == "device"].set_index(k), c[c["mode"] == "zerocopy"].set_index(k)
        for stat in ("median", "fasthalf"):
            j = pd.DataFrame({"measured": zc[stat] - dv[stat], "predicted": zc["transfer_ms"] + zc["chain_ms"],
                              "ep": (zc["spread"] > EPISODE) | (dv["spread"] > EPISODE),
                              "zc_err": zc["predicted_ms"] / zc[stat] - 1}).dropna().reset_index()  # fmt: skip
            rows.append(j.assign(session=s, stat=stat))
    j = pd.concat(rows, ignore_index=True)
    j = j[~j["ep"]].assign(ef=ef_of(j["graph"]), ratio=lambda x: x["predicted"] / x["measured"])
    m = j[j["stat"] == "median"]
    print("median ratio per algorithm, variant and edge factor (statistic median; all sessions v5-v7, both splits):")
    print(m.pivot_table(index=["algorithm", "variant"], columns="ef", values="ratio", aggfunc="median").round(2)
          .to_string())  # fmt: skip
    print("cells per column:")
    print(m.pivot_table(index=["algorithm", "variant"], columns="ef", values="ratio", aggfunc="size").to_string())
    print("\nthe same per session (all algorithms), median [25%, 75%]:")
    q = m.groupby(["session", "ef"])["ratio"].quantile([0.25, 0.5, 0.75]).unstack().round(2)
    print(q.to_string())
    print("\nstatistic fasthalf, all sessions: median ratio per edge factor:")
    print(j[j["stat"] == "fasthalf"].groupby("ef")["ratio"].median().round(2).to_string())
    print("\nby width, statistic median (all algorithms):")
    print(m.pivot_table(index="edge_bytes", columns="ef", values="ratio", aggfunc="median").round(2).to_string())
    lo = m[m["ef"] <= 12]
    print(f"\nef <= 12: {len(lo)} cells; zero-copy signed median error {lo['zc_err'].median():+.3f};"
          f" link measured {lo['measured'].sum():.1f} ms, predicted {lo['predicted'].sum():.1f} ms in all")  # fmt: skip


def main() -> None:
    cs = {s: judged(s) for s in ("v5", "v6", "v7")}
    qa(cs)
    qb(cs)
    qc(cs)


if __name__ == "__main__":
    main()
