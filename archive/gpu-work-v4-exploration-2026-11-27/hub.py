# Exploratory (in sample, every graph left out in turn) on archive/holdout-v3-h100-2026-11-27's device cells: does
# a launch cost that adds to the max form, proportional to the launch's longest list (the hub: its degree's worth
# of same-address atomics at the hub's neighbours, or of updates the hub's warp serialises), explain what the max
# form misses? Forms, per algorithm, variant and width (least squares on the relative error, bounds >= 0):
#   max (v3):   t = sum_l [a + max(b V_l + (c + m mu) N_l, s K_l)]
#   sum:        t = sum_l [a + b V_l + (c + m mu) N_l + s K_l]
#   max+h:      t = sum_l [a + max(b V_l + (c + m mu) N_l, s K_l) + h K_l]
# With the argument hub_in: Gauss-Seidel's device cells of the graphs in hub_in.csv.gz only, K_l replaced by hub_in
# (the most entries of the launch's lists that name one vertex: its same-address updates; features.py).
# Usage (repository root): python archive/gpu-work-v4-exploration-2026-11-27/hub.py [hub_in]
import glob
import json
import sys

import numpy as np
import pandas as pd
from scipy.optimize import least_squares, nnls

from model.gpu_work_v3 import mu_of
from model.l2_capacity import read_capacity

A = "archive/holdout-v3-h100-2026-11-27"
C = read_capacity(f"{A}/session/micro/l2.csv")
meta = {p.split("/")[-1].split(".")[0]: json.load(open(p)) for p in glob.glob(f"{A}/session/graphs/*.w8.json")}
K = ["graph", "algorithm", "variant", "edge_bytes", "root"]
cells = pd.read_csv(f"{A}/holdout_cells.csv")
cells = cells[cells["mode"] == "device"].reset_index(drop=True)
la = pd.concat([pd.read_csv(p) for p in glob.glob(f"{A}/workloads/*/launches.csv.gz")], ignore_index=True)
if sys.argv[1:] == ["hub_in"]:
    hub = pd.read_csv("archive/gpu-work-v4-exploration-2026-11-27/hub_in.csv.gz")
    cells = cells[(cells["variant"] == "gauss-seidel") & cells["graph"].isin(set(hub["graph"]))].reset_index(drop=True)
    on = ["graph", "algorithm", "variant", "launch"]
    la = la.merge(hub[[*on, "hub_in"]], on=on, how="left")
    la["walk"] = la["hub_in"].fillna(0)


def design(keys):
    idx = keys[K].reset_index(drop=True).assign(cell=lambda f: np.arange(len(f)))
    r = la.merge(idx, on=K)
    mu = np.array([mu_of(meta[g]["num_vertices"], a, C) for g, a in zip(r["graph"], r["algorithm"])])
    x = np.stack([np.ones(len(r)), r["grid"], r["entries"], mu * r["entries"], r["walk"]], 1).astype(float)
    return x, r["cell"].to_numpy(), len(idx)


def predict(p, x, cell, n, form):
    a, b, c, m, s, h = p
    work = b * x[:, 1] + c * x[:, 2] + m * x[:, 3]
    if form == "sum":
        per = a + work + s * x[:, 4]
    else:
        per = a + np.maximum(work, s * x[:, 4]) + (h * x[:, 4] if form == "max+h" else 0)
    return np.bincount(cell, weights=per, minlength=n)


def fit(x, cell, n, y, form):
    tot = np.stack([np.bincount(cell, weights=x[:, j], minlength=n) for j in range(5)], 1) / y[:, None]
    tot = np.concatenate([tot, tot[:, 4:5]], 1)
    use = tot.max(0) > 0
    if form != "max+h":
        use[5] = False
    unit = np.where(use, 1 / np.maximum(tot.max(0), 1e-300), 0)
    z = np.zeros(6)
    z[use], _ = nnls((tot * unit)[:, use], np.ones(n))
    if form == "sum":
        return z * unit

    def res(q):
        p = np.zeros(6)
        p[use] = q * unit[use]
        return predict(p, x, cell, n, form) / y - 1

    starts = [z[use]]
    for j in np.flatnonzero(use):
        solo = z.copy()
        solo[j] = min(float(np.median(1 / np.maximum(tot[:, j] * unit[j], 1e-9))), 1e3)
        starts.append(solo[use])
    best = min((least_squares(res, np.maximum(q, 0), bounds=(0, np.inf)) for q in starts), key=lambda r: r.cost)
    p = np.zeros(6)
    p[use] = best.x * unit[use]
    return p


out = []
for form in ("max", "sum", "max+h"):
    for key, grp in cells.groupby(["algorithm", "variant", "edge_bytes"]):
        for held in [*grp["graph"].unique(), None]:
            tr = grp[grp["graph"] != held]
            te = grp[grp["graph"] == held] if held else grp
            p = fit(*design(tr), tr["measured_ms"].to_numpy(float), form)
            e = predict(p, *design(te), form) / te["measured_ms"].to_numpy(float) - 1
            out += [{"form": form, "how": "left out" if held else "in sample", "algorithm": key[0], "variant": key[1],
                     "w": key[2], "graph": g, "err": v} for g, v in zip(te["graph"], e, strict=True)]  # fmt: skip
o = pd.DataFrame(out)
o["abs"] = o["err"].abs()
pd.set_option("display.width", 250)
print(f"C = {C:.0f} bytes; {len(cells)} device cells")
print(o.groupby(["how", "form"])["abs"].agg(["median", "max", lambda s: (s <= 0.15).mean()]).round(3).to_string())
print(o.groupby(["how", "form", "algorithm"])["abs"].agg(["median", "max"]).unstack().round(3).to_string())
print(o.groupby(["how", "form", "variant"])["abs"].median().unstack().round(3).to_string())
print(o.groupby(["how", "form", "graph"])["err"].median().unstack().round(2).to_string())
