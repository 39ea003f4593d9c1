# Exploratory (in sample, archived files only, CPU): v8's steady misses (archive/holdout-v8-h100-2026-11-27) and the
# run order. v8's held-out graphs are judged now, so every refit here uses graphs already seen: it selects, it does
# not validate. Three parts:
#  qa  the GPU-work term v8 and candidates (which (algorithm, variant) groups are fitted apart per degree class;
#      the edge width pooled), each graph of the v7 and v8 sessions predicted from the session's other 13 (leave one
#      graph out, model.holdout's judge with split v8's split_of and check_fit_set patched, each cell the min of
#      its runs), per algorithm and for the three steady misses' groups.
#  qb  leave one session out, device floors only: costs fitted on every graph of one session (v7 or v8), the other
#      session's device cells predicted with their own L2 capacity (the zero-copy link terms need one session's
#      link parameters, so zero-copy is left out here).
#  qc  the run order: each table's runs in their time order (blocks: the rows' order), each run's slowdown over
#      the fastest run of the same cell in any session v3-v8, and the same slowdowns re-assigned to the cells in
#      the order `--run-order rounds` would have run them; each cell's min's excess under both orders.
# Usage (repository root): python archive/gpu-work-v9-exploration-2026-11-27/explore.py > .../explore.txt
import glob
import json
import sys

import numpy as np
import pandas as pd

sys.path[:0] = ["."]
from model import gpu_work_v8 as t8  # noqa: E402
from model import holdout as ho  # noqa: E402
from model import holdout_split_v8 as hs8  # noqa: E402
from model.gpu_work_v4 import expected  # noqa: E402
from model.l2_capacity import read_capacity  # noqa: E402
from model.presets import MEASURED, get_preset  # noqa: E402

A = {s: f"archive/holdout-{s}-h100-2026-11-27" for s in ("v3", "v4", "v5", "v6", "v7", "v8")}
KEY = ["graph", "algorithm", "variant", "mode", "edge_bytes", "root"]
EPISODE, TARGET = 0.20, 0.15
DO, GS, CCMA = ("bfs", "direction-optimizing"), ("pagerank", "gauss-seidel"), ("cc", "merged-aligned")
CANDIDATES = {  # name -> the (algorithm, variant) groups fitted per degree class (v8: DO BFS only)
    "v8": (DO,),
    "v8 + GS apart": (DO, GS),
    "v8 + CC-MA apart": (DO, CCMA),
    "v8 + GS + CC-MA apart": (DO, GS, CCMA),
    "all groups apart": tuple((a, v) for a, vs in hs8.VARIANTS.items() for v in vs),
    "none apart (v7)": (),
}
MISSES = {"DO BFS kron": (DO, "kron"), "GS PageRank": (GS, None), "CC-MA 4-byte urand": (CCMA, "urand")}
pd.set_option("display.width", 200, "display.max_rows", 500, "display.max_columns", 30)


def session(s: str) -> dict:
    d = A[s]
    cells = ho.cells_of(ho.read_runs(f"{d}/session"), log=lambda *_: None, sp=hs8, stat="min")
    wl, la = ho.read_workloads(*sorted(glob.glob(f"{d}/workloads/*")))
    metas = {g: json.load(open(f"{d}/session/graphs/{g}.w8.json")) for g in set(cells["graph"])}
    cap = json.load(open(f"{d}/source.json")).get("l2_bytes") or read_capacity(f"{d}/session/micro/l2.csv")
    params = get_preset(MEASURED, f"{d}/session/parameters.json")
    return {"cells": cells, "wl": wl, "la": la, "cap": cap, "params": params,
            "vertices": {g: m["num_vertices"] for g, m in metas.items()},
            "nonisolated": {g: m["num_vertices"] - m.get("isolated_vertices", 0) for g, m in metas.items()},
            "classes": {g: t8.degree_class(m) for g, m in metas.items()}}  # fmt: skip


def patched(apart: tuple, split_of):
    """Run with split v8's split_of, check_fit_set and v8's SPLIT_APART patched; restore after."""
    saved = hs8.split_of, hs8.check_fit_set, t8.SPLIT_APART

    class Ctx:
        def __enter__(self):
            hs8.split_of, hs8.check_fit_set, t8.SPLIT_APART = split_of, (lambda names: None), apart

        def __exit__(self, *exc):
            hs8.split_of, hs8.check_fit_set, t8.SPLIT_APART = saved

    return Ctx()


def logo(x: dict, apart: tuple) -> pd.DataFrame:
    out = []
    for g in sorted(set(x["cells"]["graph"])):
        with patched(apart, lambda name, source=None, g=g: hs8.HELD_OUT if name == g else hs8.TRAIN):
            t, _ = ho.judge(x["cells"], x["wl"], x["la"], x["params"], log=lambda *_: None, sp=hs8,
                            vertices=x["vertices"], capacity=x["cap"], nonisolated=x["nonisolated"],
                            classes=x["classes"])  # fmt: skip
        out.append(t[t["graph"] == g])
    return pd.concat(out).assign(root=lambda f: f["root"].fillna(-1).astype(int))


def family(g: str) -> str:
    return "urand" if g.startswith("urand") else "kron"


def miss_rows(t: pd.DataFrame, group: tuple, fam) -> pd.DataFrame:
    m = (t["algorithm"] == group[0]) & (t["variant"] == group[1])
    if fam:
        m &= t["graph"].map(family) == fam
    if group == CCMA:
        m &= t["edge_bytes"] == 4
    return t[m]


def summarise(t: pd.DataFrame) -> dict:
    a = t["error"].abs()
    row = {"all med": a.median(), "all worst": a.max()}
    for alg in ("bfs", "sssp", "cc", "pagerank"):
        x = a[t["algorithm"] == alg]
        row |= {f"{alg} med": x.median(), f"{alg} worst": x.max()}
    for name, (group, fam) in MISSES.items():
        x = miss_rows(t, group, fam)
        row |= {f"{name} worst": x["error"].abs().max(), f"{name} >15%": int((x["error"].abs() > TARGET).sum())}
    steady = t[t["spread"] <= EPISODE]["error"].abs()
    return row | {"steady worst": steady.max(), "steady >15%": int((steady > TARGET).sum()), "cells": len(t)}


def qa(xs: dict) -> dict:
    print("## qa: leave one graph out, each cell the min of its runs (v7: 14 graphs, v8: 14 graphs)\n")
    rows, keep = [], {}
    for s, x in xs.items():
        for name, apart in CANDIDATES.items():
            t = logo(x, apart)
            keep[s, name] = t
            rows.append({"session": s, "candidate": name} | summarise(t))
    x = xs["v8"]
    for cap in (2.034e7, 3.0e7):  # v8's L2 capacity C (9.4 MiB) was half of v5-v7's: v8's term with another C
        rows.append({"session": "v8", "candidate": f"v8, C {cap / 2**20:.1f} MiB"}
                    | summarise(logo(dict(x, cap=cap), CANDIDATES["v8"])))  # fmt: skip
    r = pd.DataFrame(rows).set_index(["session", "candidate"])
    print(r.T.round(3).to_string())
    for s in xs:
        t = keep[s, "v8"]
        print(f"\n{s}, v8's term: the steady misses' cells (|error| > 10%), leave one graph out:")
        for name, (group, fam) in MISSES.items():
            y = miss_rows(t, group, fam)
            y = y[y["error"].abs() > 0.10]
            cols = [*KEY, "measured_ms", "predicted_ms", "error", "spread"]
            print(f"  {name}:")
            print(y[cols].round(3).to_string(index=False) if len(y) else "  none")
        pr = t[t["algorithm"] == "pagerank"]
        print(f"{s} PageRank |error| median per variant and mode:")
        print(pr.assign(a=pr["error"].abs()).pivot_table(index="variant", columns="mode", values="a",
                                                         aggfunc="median").round(3).to_string())  # fmt: skip
    return keep


def device_table(x: dict) -> pd.DataFrame:
    w, la = expected(x["wl"], x["la"], x["vertices"])
    t = x["cells"].merge(w, on=ho.WORK, how="left")
    t = t[(t["refused"].fillna("").astype(str) == "") & t["launches"].notna() & (t["mode"] == "device")]
    return t.assign(split=hs8.TRAIN).reset_index(drop=True), la


def qb(xs: dict) -> None:
    print("\n## qb: leave one session out, device floors (costs from every graph of one session, the other's cells)")
    rows = []
    for fit_s, pred_s in (("v7", "v8"), ("v8", "v7")):
        f, p = xs[fit_s], xs[pred_s]
        ft, fla = device_table(f)
        pt, pla = device_table(p)
        for name, apart in CANDIDATES.items():
            with patched(apart, hs8.split_of):
                mu = t8.mu_table(ft, f["vertices"], f["cap"])
                costs = t8.fit_costs(ft, fla, mu, f["nonisolated"], f["classes"], hs8.TRAIN, lambda n: None)
                pmu = t8.mu_table(pt, p["vertices"], p["cap"])
                fl = t8.floor_ms(pt, pla, costs, pmu, p["nonisolated"], p["classes"])
            t = pt.assign(error=fl / pt["measured_ms"] - 1).dropna(subset=["error"])
            new = t[~t["graph"].isin(f["cells"]["graph"])]  # the graphs the fit session did not measure
            unseen = {"unseen graphs": ",".join(sorted(set(new["graph"]))), "unseen med": new["error"].abs().median(),
                      "unseen worst": new["error"].abs().max()}  # fmt: skip
            rows.append({"fit": fit_s, "predicted": pred_s, "candidate": name} | summarise(t) | unseen)
    r = pd.DataFrame(rows).set_index(["fit", "predicted", "candidate"])
    for fit_s, y in r.groupby(level="fit", sort=False):
        print(f"\nfit on {fit_s}; the graphs it did not measure: {y['unseen graphs'].iloc[0]}")
        print(y.drop(columns="unseen graphs").droplevel(["fit", "predicted"]).astype(float).T.round(3).to_string())


def rounds_order(tab: pd.DataFrame) -> np.ndarray:
    """The rows of one runs table (blocks order: mode, variant, root, rep) in rounds order: per mode, for rep, for
    variant, for root."""
    vorder = {v: i for i, v in enumerate(dict.fromkeys(tab["variant"]))}
    morder = {m: i for i, m in enumerate(dict.fromkeys(tab["mode"]))}
    rorder = {r: i for i, r in enumerate(dict.fromkeys(tab["root"]))}
    k = pd.DataFrame({"m": tab["mode"].map(morder), "rep": tab["rep"], "v": tab["variant"].map(vorder),
                      "r": tab["root"].map(rorder)})  # fmt: skip
    return k.sort_values(["m", "rep", "v", "r"], kind="stable").index.to_numpy()


def qc() -> None:
    print("\n## qc: the run order (each run's slowdown over its cell's fastest run in any session v3-v8)\n")
    tabs = {}
    for s in A:
        for p in sorted(glob.glob(f"{A[s]}/session/runs/*.csv")):
            r = pd.read_csv(p)
            r = r[r["verified"].astype(str).str.lower().isin(["true", "1"])]
            if "max_warps" in r:
                r = r[r["max_warps"].fillna(0) == 0]
            if len(r):
                tabs[s, p] = r.assign(root=r["root"].fillna(-1).astype(int)).reset_index(drop=True)
    allr = pd.concat(tabs.values(), ignore_index=True)
    best = allr.groupby(KEY)["time_ms"].min()
    seen = allr.groupby(KEY)["commit"].size()
    rows = []
    for (s, p), r in tabs.items():
        factor = r["time_ms"].to_numpy() / best.loc[pd.MultiIndex.from_frame(r[KEY])].to_numpy()
        cell = r.groupby(KEY, sort=False).ngroup().to_numpy()
        blocks = pd.Series(factor).groupby(cell).min()
        order = rounds_order(r)  # slot i of the rounds order runs the row order[i]; it gets the i-th slowdown
        rounds = pd.Series(factor[np.argsort(order)]).groupby(cell).min()
        n = r.groupby(KEY, sort=False).size().to_numpy()
        key = r.drop_duplicates(KEY)[KEY].reset_index(drop=True)
        sessions = seen.loc[pd.MultiIndex.from_frame(key)].to_numpy() > n
        rows.append(key.assign(session=s, blocks=blocks.to_numpy() - 1, rounds=rounds.to_numpy() - 1,
                               other_session=sessions))  # fmt: skip
    c = pd.DataFrame(pd.concat(rows, ignore_index=True))
    c = c[c["session"].isin(["v6", "v7", "v8"])]
    print("cells of v6-v8 (3, 5, 5 runs), the excess of a cell's min over its fastest run in any session,")
    print("as measured (blocks) and with the same slowdowns in rounds order; cells also measured in another session:")
    o = c[c["other_session"]]
    for name, y in (("those cells", o), ("all cells (single-session cells: their own min, excess 0 as measured)", c)):
        print(f"\n{name}: {len(y)}")
        for m in ("device", "zerocopy"):
            z = y[y["mode"] == m]
            q = {h: [z[h].median(), z[h].quantile(0.9), z[h].max(), int((z[h] > 0.05).sum()),
                     int((z[h] > 0.10).sum()), int((z[h] > TARGET).sum())] for h in ("blocks", "rounds")}  # fmt: skip
            print(f"  {m} ({len(z)}):", pd.DataFrame(q, index=["median", "p90", "max", ">5%", ">10%", ">15%"]).T
                  .round(3).to_string().replace("\n", "\n    "))  # fmt: skip
    print("\nthe 12 largest excesses as measured (cells seen in another session), and under rounds:")
    print(o.nlargest(12, "blocks")[[*KEY, "session", "blocks", "rounds"]].round(3).to_string(index=False))
    w = pd.read_csv(f"{A['v8']}/session/runs/sssp.urand19ef10.w8.csv")
    w = w[w["mode"] == "zerocopy"].reset_index(drop=True)
    print("\nv8's worst cell's table (urand19ef10 SSSP 8-byte, zero-copy), blocks order (time, ms):")
    print(w[["variant", "root", "rep", "time_ms"]].round(2).to_string())
    print("rounds order would run, per rep, MA 55425, MA 123626, frontier 55425, frontier 123626 (4 slots a rep):")
    print("the slow stretch above (rows 4-12, 9 slots) would cover at most 3 of a cell's 5 runs.")


def main() -> None:
    xs = {s: session(s) for s in ("v7", "v8")}
    qa(xs)
    qb(xs)
    qc()


if __name__ == "__main__":
    main()
