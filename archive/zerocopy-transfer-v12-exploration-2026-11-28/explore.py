# Exploratory (in sample, archived files only, CPU): why v8's zero-copy transfer term (v4's eta * D / T(d),
# T(d) = min(N_max d / L, W), model/gpu_work_v4.py) misses across graphs, on the v11 combined session
# (archive/holdout-v11-h100-2026-11-28/session: the v10 session's 17 graphs and the v11 call's 4, 21 graphs) and on
# the v10 session alone (its 17 graphs, one session). Every number is in sample: all 21 graphs were judged already,
# so each refit selects, it does not validate. Parts:
#  qa  per zero-copy cell the link rate it implies: D / (zero-copy min - device min), against T(d); by graph and
#      algorithm, with the graph's vertices, entries and d (rates.csv).
#  qb  candidate transfer columns, each fitted as v4's eta (and g) per algorithm, variant and width on the train
#      zero-copy cells, judged leaving one graph out (model.holdout's judge, split v11 with split_of and
#      check_fit_set patched, v8's floor unchanged): per algorithm median / worst |error| of device and zero-copy
#      cells (logo.csv, logo_by_graph.csv). "+ per list (v12)" is model/gpu_work_v12.py itself, judged by split
#      v12's judge with split_of patched (the others are stand-ins for model/gpu_work_v4.predict_table).
# Usage (repository root): python archive/zerocopy-transfer-v12-exploration-2026-11-28/explore.py > \
#   archive/zerocopy-transfer-v12-exploration-2026-11-28/explore.txt
import glob
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import nnls

sys.path[:0] = ["."]
from model import gpu_work_v4 as g4  # noqa: E402
from model import gpu_work_v8 as t8  # noqa: E402
from model import holdout as ho  # noqa: E402
from model import holdout_split_v11 as hs11  # noqa: E402
from model import holdout_split_v12 as hs12  # noqa: E402
from model.fit import params_for  # noqa: E402
from model.littles_law import throughput_gbps  # noqa: E402
from model.presets import MEASURED, get_preset  # noqa: E402

D = "archive/holdout-v11-h100-2026-11-28"
HERE = Path(__file__).resolve().parent
CALL = ("kron19ef6", "kron20ef3", "urand19ef6", "urand19ef14")  # measured by the v11 call, not the v10 session
ALGS = ("bfs", "sssp", "cc", "pagerank")
pd.set_option("display.width", 220, "display.max_rows", 500, "display.max_columns", 30)


def session() -> dict:
    cells = ho.cells_of(ho.read_runs(f"{D}/session"), log=lambda *_: None, sp=hs11, stat="min")
    wl, la = ho.read_workloads(*sorted(glob.glob(f"{D}/workloads/*")))
    metas = {g: json.load(open(f"{D}/session/graphs/{g}.w8.json")) for g in set(cells["graph"])}
    pjson = json.load(open(f"{D}/session/parameters.json"))
    return {"cells": cells, "wl": wl, "la": la, "cap": json.load(open(f"{D}/source.json"))["l2_bytes"],
            "params": get_preset(MEASURED, f"{D}/session/parameters.json"), "pjson": pjson, "metas": metas,
            "vertices": {g: m["num_vertices"] for g, m in metas.items()},
            "entries": {g: m["num_edges"] for g, m in metas.items()},
            "nonisolated": {g: m["num_vertices"] - m.get("isolated_vertices", 0) for g, m in metas.items()},
            "classes": {g: t8.degree_class(m) for g, m in metas.items()}}  # fmt: skip


# ------------------------------------------------------------------------------ candidate transfer columns
# Each returns, per row of the judged table, the columns (ms) whose non-negative weights are fitted per group; the
# chain column (g * sum w sigma L) is always added, as v4.


def col_v8(t, x):  # v4/v8: D / min(N_max d / L, W), L at the smallest footprint
    tr, _ = g4.link_features(t, x["lla"], x["params"], x["vertices"])
    return [tr]


def col_w(t, x):  # the W ceiling alone: D / W
    zc = _zc(t)
    return [np.where(zc, t["D_bytes"].to_numpy(float) / (x["params"].W_gbps * 1e9) * 1e3, 0.0)]


def col_footprint(t, x):  # T(d) with L and S at the edge store's footprint (entries x width), model.fit.params_for
    zc, out = _zc(t), np.zeros(len(t))
    for i in np.flatnonzero(zc):
        r = t.iloc[i]
        p = params_for(x["pjson"], "zerocopy", float(x["entries"][r["graph"]]) * float(r["edge_bytes"]))
        out[i] = r["D_bytes"] / (throughput_gbps(r["d_bytes"], p) * 1e9) * 1e3
    return [out]


def col_split(t, x):  # requests and bytes apart: requests * L / N_max and D / W, each its own weight
    zc, p = _zc(t), x["params"]
    req = np.where(zc, t["requests"].to_numpy(float), 0.0)
    return [req * p.L_us / p.N_max / 1e3, np.where(zc, t["D_bytes"].to_numpy(float) / (p.W_gbps * 1e9) * 1e3, 0.0)]


def col_l2(t, x):  # L2 hits reduce D: D * fp / (fp + C), fp the edge store's bytes, C the L2's capacity
    tr = col_v8(t, x)[0]
    fp = np.array([x["entries"][g] for g in t["graph"]], float) * t["edge_bytes"].to_numpy(float)
    return [tr * fp / (fp + x["cap"])]


def col_lists(t, x):  # v8's column plus a cost per list walked over the link: sum_l w_l lists_l * L / N_max
    return None  # judged by model/gpu_work_v12.py itself (split v12's judge, split_of patched), not a stand-in


def col_vertices(t, x):  # v8's column plus a cost per vertex per launch over the link: launches * V * L / N_max
    zc, p = _zc(t), x["params"]
    v = np.array([x["vertices"][g] for g in t["graph"]], float) * t["launches"].to_numpy(float)
    return [col_v8(t, x)[0], np.where(zc, v * p.L_us / p.N_max / 1e3, 0.0)]


CANDIDATES = {"v8 (registered)": col_v8, "W only": col_w, "L,S at footprint": col_footprint,
              "requests and bytes apart": col_split, "L2 hits cut D": col_l2, "+ per list (v12)": col_lists,
              "+ per vertex-round": col_vertices}  # fmt: skip


def _zc(t):
    return ((t["mode"] == "zerocopy") & (t["requests"] > 0)).to_numpy()


def make_predict_table(cols, x):
    """A stand-in for model.gpu_work_v4.predict_table: the candidate's columns and v4's chain column, NNLS on the
    relative error per group over the train zero-copy cells, as v4's fit_link_group."""

    def predict_table(table, launches, params, vertices, train, check_fit_set):
        x["lla"] = launches
        _, serial = g4.link_features(table, launches, params, vertices)
        xs = np.stack([*cols(table, x), serial], axis=1)
        t = table.copy()
        zc = (t["mode"] == "zerocopy").to_numpy()
        w = np.full((len(t), xs.shape[1]), np.nan)
        for key, grp in t.groupby(g4.GROUP):
            fit = grp[(grp["mode"] == "zerocopy") & (grp["split"] == train)]
            check_fit_set(fit["graph"])
            if len(fit) < 2:
                continue
            i, m = fit.index.to_numpy(), fit["measured_ms"].to_numpy(float)
            a, y = xs[i] / m[:, None], 1.0 - fit["floor_ms"].to_numpy(float) / m
            use, p = a.max(axis=0) > 0, np.zeros(xs.shape[1])
            if use.any():
                p[use], _ = nnls(a[:, use], y)
            w[grp.index] = p
        link = np.where(zc[:, None], w * xs, 0.0).sum(axis=1)
        t["transfer_ms"] = np.where(zc, (w[:, :-1] * xs[:, :-1]).sum(axis=1), 0.0)
        t["chain_ms"] = np.where(zc, w[:, -1] * xs[:, -1], 0.0)
        t["predicted_ms"] = t["floor_ms"] + np.where(zc, link, 0.0)
        t.loc[zc & np.isnan(w[:, 0]), "predicted_ms"] = np.nan
        return t, pd.DataFrame(columns=g4.GROUP)

    return predict_table


def judged(x, split_of, cols):
    """v8's term (split v11's judge) or a stand-in's columns; `col_lists`: the v12 term, split v12's judge."""
    sp = hs12 if cols is col_lists else hs11
    saved = sp.split_of, sp.check_fit_set, g4.predict_table
    sp.split_of, sp.check_fit_set = split_of, (lambda names: None)
    if cols not in (col_v8, col_lists):
        g4.predict_table = make_predict_table(cols, x)
    try:
        t, _ = ho.judge(x["cells"], x["wl"], x["la"], x["params"], log=lambda *_: None, sp=sp,
                        vertices=x["vertices"], capacity=x["cap"], nonisolated=x["nonisolated"],
                        classes=x["classes"])  # fmt: skip
    finally:
        sp.split_of, sp.check_fit_set, g4.predict_table = saved
    return t


def logo(x, cols, graphs):
    out = []
    for g in graphs:
        t = judged(x, lambda n, source=None, g=g: hs11.TRAIN if n != g else hs11.HELD_OUT, cols)
        out.append(t[t["graph"] == g])
    return pd.concat(out, ignore_index=True)


def stats(e):
    a = e.abs()
    return {"cells": len(a), "median": a.median(), "worst": a.max(), "past15": int((a > 0.15).sum()),
            "signed": e.median()}  # fmt: skip


def qa(x):
    print("## qa: the link rate each zero-copy cell implies, D / (zero-copy min - device min), GB/s\n")
    c = x["cells"].merge(x["wl"], on=ho.WORK)
    dev = c[c["mode"] == "device"].set_index(ho.WORK)["measured_ms"]
    z = c[(c["mode"] == "zerocopy") & (c["requests"] > 0)].copy()
    z["device_ms"] = dev.reindex(pd.MultiIndex.from_frame(z[ho.WORK])).to_numpy()
    z["rate_gbps"] = z["D_bytes"] / (z["measured_ms"] - z["device_ms"]) / 1e6
    z["T_gbps"] = throughput_gbps(z["d_bytes"].to_numpy(float), x["params"])
    z["ratio"] = z["rate_gbps"] / z["T_gbps"]
    z["V"] = [x["vertices"][g] for g in z["graph"]]
    z["E"] = [x["entries"][g] for g in z["graph"]]
    z["session"] = np.where(z["graph"].isin(CALL), "v11 call", "v10")
    per = z.groupby(["graph", "session", "V", "E"]).agg(
        d=("d_bytes", "median"), rate=("rate_gbps", "median"), T=("T_gbps", "median"), ratio=("ratio", "median")
    )
    per = per.join(z.pivot_table(index="graph", columns="algorithm", values="ratio", aggfunc="median"), on="graph")
    print(per.round(2).sort_values(["V", "E"]).to_string())
    z[[*ho.CELL, "measured_ms", "device_ms", "D_bytes", "d_bytes", "rate_gbps", "T_gbps", "ratio", "V", "E",
       "session"]].to_csv(HERE / "rates.csv", index=False, float_format="%.4g")  # fmt: skip
    v10 = z[z["session"] == "v10"]
    lr = np.log(v10["ratio"].to_numpy(float))
    print("\nv10 session, log(rate / T(d)) correlated with (over its zero-copy cells):")
    for name, col in (("log d", np.log(v10["d_bytes"])), ("log V", np.log(v10["V"])), ("log E", np.log(v10["E"])),
                      ("log E/V", np.log(v10["E"] / v10["V"])),
                      ("log footprint", np.log(v10["E"] * v10["edge_bytes"]))):  # fmt: skip
        print(f"  {name:14s} {np.corrcoef(lr, col)[0, 1]:+.2f}")


def qb(x, graphs, label):
    print(f"\n## qb: leave one graph out over {label} (in sample): median / worst |error|, cells past 15%\n")
    rows, by_graph = [], []
    for name, cols in CANDIDATES.items():
        lo = logo(x, cols, graphs)
        for alg in (*ALGS, "all"):
            for mode in ("device", "zerocopy"):
                y = lo[((lo["algorithm"] == alg) | (alg == "all")) & (lo["mode"] == mode)]
                rows.append({"set": label, "candidate": name, "app": alg, "mode": mode, **stats(y["error"])})
        z = lo[lo["mode"] == "zerocopy"]
        by_graph += [{"set": label, "candidate": name, "graph": g, **stats(y["error"])} for g, y in z.groupby("graph")]
        print(f"{name}: zero-copy {stats(z['error'])}", file=sys.stderr)
    r = pd.DataFrame(rows)
    wide = r.pivot_table(index=["app", "mode"], columns="candidate", values=["median", "worst"], sort=False)
    print((wide * 100).round(1).to_string())
    return r, pd.DataFrame(by_graph)


def main():
    x = session()
    qa(x)
    all21 = sorted(x["vertices"])
    r21, g21 = qb(x, all21, "21 graphs (v11 combined session)")
    x17 = dict(x, cells=x["cells"][~x["cells"]["graph"].isin(CALL)])
    r17, g17 = qb(x17, [g for g in all21 if g not in CALL], "17 graphs (v10 session alone)")
    pd.concat([r21, r17]).to_csv(HERE / "logo.csv", index=False, float_format="%.4f")
    g = pd.concat([g21, g17])
    g.to_csv(HERE / "logo_by_graph.csv", index=False, float_format="%.4f")
    print("\nzero-copy signed median by graph, 21 graphs:")
    print((g21.pivot_table(index="graph", columns="candidate", values="signed") * 100).round(1).to_string())


if __name__ == "__main__":
    main()
