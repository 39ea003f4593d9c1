# Exploratory (in sample): split v5's misses (archive/holdout-v5-h100-2026-11-27) and candidate terms v6, on the
# cells of the day's three H100 sessions (holdout-v3, -v4, -v5; every graph seen). Loads the device cells and their
# weighted launches with the v5 exploration's loader (its data.py, imported), the zero-copy cells with v4's link
# features (model.gpu_work_v4). Three parts:
#  q1  CC on graphs with isolated vertices: per launch the trace's lists and grid against the non-isolated
#      vertices, and v5's registered costs (holdout_costs.csv) split into their terms, with the counts restricted
#      to non-isolated vertices at the same costs.
#  q2  Gauss-Seidel PageRank in device memory: the runs' rounds (iterations) and edges traversed against the CPU
#      Gauss-Seidel trace, the Jacobi trace and v4's mix φ.
#  q3  candidates, every graph name left out in turn over the three sessions (a graph in several sessions is left
#      out in all): device floor by NNLS on the relative error per algorithm, variant and width (v5's fit), then
#      v4's zero-copy link terms η, g refitted on the fold's zero-copy cells with that fold's floor.
# Usage (repository root): python archive/gpu-work-v6-exploration-2026-11-27/explore.py > .../explore.txt
import glob
import json
import sys

import numpy as np
import pandas as pd

sys.path[:0] = ["archive/gpu-work-v5-exploration-2026-11-27", "."]
import data  # noqa: E402  (the v5 exploration's loader)
import floor  # noqa: E402  (its NNLS fit on the relative error)

from model import gpu_work_v4 as v4  # noqa: E402
from model.presets import MEASURED, get_preset  # noqa: E402

data.SESSIONS["v5"] = "archive/holdout-v5-h100-2026-11-27"
SHIFT = {"v3": 0, "v4": 0, "v5": 10**5}  # data.load numbers v4's and v5's cells from the same 10**5
GROUP = ["algorithm", "variant", "edge_bytes"]
WORK = data.WORK
BASE = ["one", "grid", "entries", "mu_entries", "walk"]
PHI = {"v4": v4.concurrent_share, "0": lambda v, *_: 0.0, "1": lambda v, *_: 1.0}
BEST = "NI + steps_gs"  # chosen after reading explore.txt
NI = ["one", "grid", "grid_ni", "entries", "mu_entries", "walk", "lists_ni"]
CANDIDATES = {  # name: (columns, φ of Gauss-Seidel's mix in the floor, φ in the zero-copy link features)
    "v4": (BASE, "v4", "v4"),
    "v5 (registered)": ([*BASE, "lists"], "v4", "v4"),
    "lists_ni": (["one", "grid", "entries", "mu_entries", "walk", "lists_ni"], "v4", "v4"),
    "grid_ni + lists_ni": (["one", "grid_ni", "entries", "mu_entries", "walk", "lists_ni"], "v4", "v4"),
    "NI = grid + grid_ni + lists_ni": (NI, "v4", "v4"),
    "v5, phi=0": ([*BASE, "lists"], "0", "0"),
    "v5, phi=1": ([*BASE, "lists"], "1", "1"),
    "v5, phi=1 in the floor only": ([*BASE, "lists"], "1", "v4"),
    "NI + steps_gs": ([*NI, "steps_gs"], "v4", "v4"),
    "NI, phi=1 in the floor only": (NI, "1", "v4"),
    "NI + steps_gs, phi=1 in the floor only": ([*NI, "steps_gs"], "1", "v4"),
}


def meta(session: str) -> dict:
    a = data.SESSIONS[session]
    return {p.split("/")[-1].split(".")[0]: json.load(open(p)) for p in glob.glob(f"{a}/session/graphs/*.w8.json")}


def device(session: str, phi: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """data.load's device cells and weighted launches, Gauss-Seidel mixed with `phi`, plus the non-isolated counts
    lists_ni = w·min(lists, V − isolated) and grid_ni = w·min(grid, V − isolated)."""
    keep = v4.concurrent_share
    v4.concurrent_share = PHI[phi]
    try:
        cells, la = data.load(session)
    finally:
        v4.concurrent_share = keep
    m = meta(session)
    ni = la["graph"].map(lambda g: m[g]["num_vertices"] - m[g]["isolated_vertices"]).to_numpy(float)
    w = la["weight"].to_numpy(float)
    la["lists_ni"] = np.minimum(la["lists"], ni * w)  # lists and grid are weighted already; w ≥ 0
    la["grid_ni"] = np.minimum(la["grid"], ni * w)
    gs = (la["variant"] == "gauss-seidel").to_numpy()  # its warp walks 32 lists one after another
    la["steps_gs"] = np.where(gs, np.maximum(la["lists"], la["entries"] / data.WARP), 0.0)  # ≥ Σ ceil(deg/32)
    cells["cell"] += SHIFT[session]
    la["cell"] += SHIFT[session]
    return cells, la


def zerocopy(session: str, phi: str) -> pd.DataFrame:
    """The session's zero-copy cells with v4's link features (D/T(d) and Σ w σ L, ms), Gauss-Seidel mixed by `phi`."""
    a, m = data.SESSIONS[session], meta(session)
    vertices = {g: x["num_vertices"] for g, x in m.items()}
    cells = pd.read_csv(f"{a}/holdout_cells.csv")
    cells = cells[cells["mode"] == "zerocopy"][[*WORK, "mode", "measured_ms"]]
    wl = pd.concat([pd.read_csv(p) for p in glob.glob(f"{a}/workloads/*/workloads.csv")], ignore_index=True)
    la = pd.concat([pd.read_csv(p) for p in glob.glob(f"{a}/workloads/*/launches.csv.gz")], ignore_index=True)
    keep = v4.concurrent_share
    v4.concurrent_share = PHI[phi]
    try:
        wl, la = v4.expected(wl, la, vertices)
    finally:
        v4.concurrent_share = keep
    t = cells.merge(wl, on=WORK).reset_index(drop=True)
    params = get_preset(MEASURED, f"{a}/session/parameters.json")
    transfer, serial = v4.link_features(t, la, params, vertices)
    return t[[*WORK, "measured_ms"]].assign(session=session, transfer=transfer, serial=serial)


def load_all(phi: str, phi_link: str) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    parts = [device(s, phi) for s in data.SESSIONS]
    cells = pd.concat([p[0] for p in parts], ignore_index=True)
    la = pd.concat([p[1] for p in parts], ignore_index=True)
    zc = pd.concat([zerocopy(s, phi_link) for s in data.SESSIONS], ignore_index=True)
    zc = zc.merge(cells[["session", *WORK, "cell"]], on=["session", *WORK])  # the workload's device cell
    return cells, la, zc


def logo(cells: pd.DataFrame, la: pd.DataFrame, zc: pd.DataFrame, cols: list[str]) -> pd.DataFrame:
    """Signed errors of every device and zero-copy cell, its graph name left out of the fit."""
    out = []
    for key, dev in cells.groupby(GROUP):
        z = zc.merge(pd.DataFrame([key], columns=GROUP), on=GROUP)
        xd, yd = floor.totals(la, cols, dev["cell"]), dev["measured_ms"].to_numpy(float)
        xz, yz = floor.totals(la, cols, z["cell"]), z["measured_ms"].to_numpy(float)
        for g in dev["graph"].unique():
            te, tz = (dev["graph"] == g).to_numpy(), (z["graph"] == g).to_numpy()
            if (~te).sum() < 2:
                continue
            p = floor.fit(xd[~te], yd[~te])
            fz = xz @ p
            tr_z = ~tz
            link = v4.fit_link_group(fz[tr_z], z["transfer"].to_numpy(float)[tr_z],
                                     z["serial"].to_numpy(float)[tr_z], yz[tr_z])  # fmt: skip
            pz = fz + link[0] * z["transfer"].to_numpy(float) + link[1] * z["serial"].to_numpy(float)
            out.append(dev[te].assign(mode="device", err=xd[te] @ p / yd[te] - 1))
            out.append(z[tz].assign(mode="zerocopy", err=pz[tz] / yz[tz] - 1))
    return pd.concat(out, ignore_index=True)


def q1() -> None:
    """CC on the v5 session's graphs with isolated vertices: v5's registered costs term by term."""
    s = "v5"
    cells, la = device(s, "v4")
    costs = pd.read_csv(f"{data.SESSIONS[s]}/holdout_costs.csv")
    m = meta(s)
    cc = cells[cells["algorithm"] == "cc"].merge(costs, on=GROUP)
    rows = []
    for _, c in cc.iterrows():
        t = la[la["cell"] == c["cell"]]
        terms = {"a": c["a_ms"] * t["one"].sum(), "b*grid": c["b_ms"] * t["grid"].sum(),
                 "c*N": c["c_ms"] * t["entries"].sum(), "s*K": c["s_ms"] * t["walk"].sum(),
                 "q*lists": c["q_ms"] * t["lists"].sum()}  # fmt: skip
        ni = terms | {"b*grid": c["b_ms"] * t["grid_ni"].sum(), "q*lists": c["q_ms"] * t["lists_ni"].sum()}
        rows.append({"graph": c["graph"], "variant": c["variant"], "w": c["edge_bytes"],
                     "isolated": m[c["graph"]]["isolated_vertices"] / m[c["graph"]]["num_vertices"],
                     "lists/ni": t["lists"].sum() / t["lists_ni"].sum(),
                     "grid/ni": t["grid"].sum() / t["grid_ni"].sum(),
                     "measured": c["measured_ms"], **terms, "v5 err": sum(terms.values()) / c["measured_ms"] - 1,
                     "ni err": sum(ni.values()) / c["measured_ms"] - 1})  # fmt: skip
    r = pd.DataFrame(rows).sort_values(["variant", "isolated", "w"])
    print("q1: CC device cells of the v5 session, v5's registered costs (holdout_costs.csv) term by term (ms);")
    print("    'ni err': the same costs with grid and lists counted over non-isolated vertices only")
    print(r.round(3).to_string(index=False))
    first = la[(la["algorithm"] == "cc") & (la["graph"] == "kron21ef4") & (la["edge_bytes"] == 8)]
    print("\nkron21ef4 CC launches (w8): trace lists / grid against the non-isolated counts")
    print(
        first[["variant", "launch", "lists", "lists_ni", "grid", "grid_ni", "entries", "walk"]].to_string(index=False)
    )


def q2() -> None:
    """Gauss-Seidel PageRank in device memory: the GPU's rounds and edges against the traces and v4's mix, and v5's
    registered floor (the v5 session's costs) at the trace's counts and at the GPU's rounds and edges."""
    rows = []
    for s, a in data.SESSIONS.items():
        m = meta(s)
        cells, la = device(s, "v4")
        la = la[la["algorithm"] == "pagerank"]
        cost = pd.read_csv(f"{a}/holdout_costs.csv").set_index(GROUP)
        runs = pd.concat([pd.read_csv(p) for p in glob.glob(f"{a}/session/runs/pagerank.*.csv")])
        runs = runs[runs["mode"] == "device"].groupby(["graph", "variant", "edge_bytes"])
        r = runs.agg(ms=("time_ms", "median"), edges=("edges_traversed", "median"), rounds=("iterations", "median"),
                     lo=("iterations", "min"), hi=("iterations", "max"))  # fmt: skip
        for c in cells[(cells["variant"] == "gauss-seidel")].itertuples():
            g, w = c.graph, c.edge_bytes
            t = la[la["cell"] == c.cell]
            gs, jac = t[t["launch"] < 10**6], t[t["launch"] >= 10**6]
            run = r.loc[(g, "gauss-seidel", w)]
            rounds, entries = t["one"].sum(), t["entries"].sum()
            k = cost.loc[("pagerank", "gauss-seidel", w)] if s == "v5" else None
            row = {"session": s, "graph": g, "w": w, "E/V": m[g]["num_edges"] / m[g]["num_vertices"],
                   "phi": v4.concurrent_share(m[g]["num_vertices"]), "rounds GPU": run["rounds"],
                   "GPU min-max": f"{run['lo']:.0f}-{run['hi']:.0f}", "trace GS": len(gs),
                   "trace Jacobi": len(jac), "mixed": rounds,
                   "edges GPU/mixed": run["edges"] / entries,
                   "GPU ms": c.measured_ms, "Jacobi ms": r.loc[(g, "merged-aligned", w), "ms"]}  # fmt: skip
            if k is not None:  # v5's registered floor: per-launch terms and the entries' term
                per = (
                    k["a_ms"] * t["one"] + k["b_ms"] * t["grid"] + k["s_ms"] * t["walk"] + k["q_ms"] * t["lists"]
                ).sum()
                ent = k["c_ms"] * entries + k["m_ms"] * t["mu_entries"].sum()
                row |= {"v5 err": (per + ent) / c.measured_ms - 1, "per-round share": per / (per + ent),
                        "at GPU rounds+edges": (per * run["rounds"] / rounds + ent * run["edges"] / entries)
                        / c.measured_ms - 1}  # fmt: skip
            rows.append(row)
    out = pd.DataFrame(rows).sort_values(["session", "graph", "w"])
    print("\nq2: Gauss-Seidel PageRank, device: the GPU's rounds (runs' iterations: median, min-max over reps) and")
    print("    edges traversed against the traces; v5 session: v5's registered floor at the trace's counts ('v5 err')")
    print("    and with its per-round terms scaled to the GPU's rounds and its entries to the GPU's edges")
    print(out.round(3).to_string(index=False))


def summary(errors: dict[str, pd.DataFrame]) -> None:
    rows = []
    for name, e in errors.items():
        e = e.assign(abs=e["err"].abs())
        for (mode, alg), g in [*e.groupby(["mode", "algorithm"]), *((("%s" % k, "all"), g) for k, g in
                                                                    e.groupby("mode"))]:  # fmt: skip
            rows.append({"candidate": name, "mode": mode, "algorithm": alg, "cells": len(g),
                         "median": 100 * g["abs"].median(), "worst": 100 * g["abs"].max()})  # fmt: skip
    r = pd.DataFrame(rows)
    t = r.pivot(index="candidate", columns=["mode", "algorithm"], values=["median", "worst"]).reindex(list(errors))
    print(f"\nq3: LOGO over the three sessions, |error| median and worst %, cells: {r.groupby('mode')['cells'].max()}")
    for mode in ("device", "zerocopy"):
        print(f"\n{mode}")
        print(t.xs(mode, axis=1, level=1).round(1).to_string())


def worst(errors: dict[str, pd.DataFrame], names: list[str]) -> None:
    """The five worst cells per algorithm and mode (all sessions, LOGO), signed %."""
    for n in names:
        e = errors[n].assign(abs=lambda f: f["err"].abs())
        top = e.sort_values("abs", ascending=False).groupby(["mode", "algorithm"]).head(5)
        top = top.sort_values(["mode", "algorithm", "abs"], ascending=[True, True, False])
        print(f"\n{n}: five worst cells per mode and algorithm (LOGO), signed error %")
        cols = ["mode", "algorithm", "session", "graph", "variant", "edge_bytes", "measured_ms"]
        print(top[cols].assign(err=100 * top["err"]).round(2).to_string(index=False))


def misses(errors: dict[str, pd.DataFrame], names: list[str]) -> None:
    """v5's worst split-v5 cells (the v5 session's held-out graphs) under each candidate, signed %."""
    held = {"kron19ef24", "kron20ef8", "kron21ef4", "urand19ef24", "urand19ef8", "urand20ef4"}
    keys = ["graph", "algorithm", "variant", "edge_bytes", "mode"]
    cols = []
    for n in names:
        e = errors[n]
        e = e[(e["session"] == "v5") & e["graph"].isin(held)]
        cols.append(e.groupby(keys)["err"].median().mul(100).rename(n))
    t = pd.concat(cols, axis=1)
    top = t[names[0]].abs().sort_values(ascending=False).index[:16]
    print("\nthe v5 session's held-out graphs: the 16 worst cells under v5 (LOGO), signed error % per candidate")
    print(t.loc[top].round(1).to_string())


def main() -> None:
    pd.set_option("display.width", 250)
    pd.set_option("display.max_columns", 40)
    q1()
    q2()
    loaded, errors = {}, {}
    for name, (cols, phi, phi_link) in CANDIDATES.items():
        if (phi, phi_link) not in loaded:
            loaded[phi, phi_link] = load_all(phi, phi_link)
        errors[name] = logo(*loaded[phi, phi_link], cols)
    summary(errors)
    misses(errors, list(CANDIDATES)[1:])
    worst(errors, ["v5 (registered)", BEST])


if __name__ == "__main__":
    main()
