# Exploratory (in sample, every graph left out in turn) on archive/holdout-v3-h100-2026-11-27's device cells:
# v3's floor form with the longest walk K_l as v2/v3 count it, or (v4 candidate) gauss-seidel's per-warp walk (the
# most steps one warp of 32 consecutive vertices takes walking its lists one after another; warp_walk.csv.gz here,
# from warp_walk.py). Usage (repository root): python archive/gpu-work-v4-exploration-2026-11-27/floor.py [all]
import glob
import json
import sys

import numpy as np
import pandas as pd

from model.gpu_work_v3 import Launches, fit_group, mu_of
from model.l2_capacity import read_capacity

A = "archive/holdout-v3-h100-2026-11-27"
E = "archive/gpu-work-v4-exploration-2026-11-27"
C = read_capacity(f"{A}/session/micro/l2.csv")
meta = {p.split("/")[-1].split(".")[0]: json.load(open(p)) for p in glob.glob(f"{A}/session/graphs/*.w8.json")}
K = ["graph", "algorithm", "variant", "edge_bytes", "root"]
cells = pd.read_csv(f"{A}/holdout_cells.csv")
cells = cells[cells["mode"] == "device"].reset_index(drop=True)
la = pd.concat([pd.read_csv(p) for p in glob.glob(f"{A}/workloads/*/launches.csv.gz")], ignore_index=True)
ww = pd.read_csv(f"{E}/warp_walk.csv.gz")
la = la.merge(ww[K + ["launch", "warp_walk"]], on=K + ["launch"], how="left")
only = sys.argv[1:] != ["all"]
if only:  # the algorithms and variants whose cells all have warp_walk
    cells = cells[cells["variant"] == "gauss-seidel"]
    cells = cells[cells["graph"].isin(set(ww["graph"]))].reset_index(drop=True)
la["warp_walk"] = la["warp_walk"].fillna(la["walk"])


def launches_of(keys, walk_col):
    idx = keys[K].reset_index(drop=True).assign(cell=lambda f: np.arange(len(f)))
    rows = la.merge(idx, on=K)
    rows["mu"] = [mu_of(meta[g]["num_vertices"], a, C) for g, a in zip(rows["graph"], rows["algorithm"])]
    return Launches(rows.assign(walk=rows[walk_col]), len(idx))


out = []
for walk_col in ("walk", "warp_walk"):
    for key, grp in cells.groupby(["algorithm", "variant", "edge_bytes"]):
        for held in [*grp["graph"].unique(), None]:
            tr = grp[grp["graph"] != held]
            te = grp[grp["graph"] == held] if held else grp
            p = fit_group(launches_of(tr, walk_col), tr["measured_ms"].to_numpy(float))["max"]
            e = launches_of(te, walk_col).predict(p, "max") / te["measured_ms"].to_numpy(float) - 1
            how = "left out" if held else "in sample"
            out += [{"walk": walk_col, "how": how, "variant": key[1], "w": key[2], "graph": g, "err": x}
                    for g, x in zip(te["graph"], e, strict=True)]  # fmt: skip
o = pd.DataFrame(out)
o["abs"] = o["err"].abs()
pd.set_option("display.width", 250)
print(f"C = {C:.0f} bytes; cells: {'gauss-seidel with warp_walk' if only else 'all device cells'}")
print(o.groupby(["how", "walk"])["abs"].agg(["median", "max", "count"]).round(3).to_string())
print(o.groupby(["how", "walk", "variant"])["abs"].agg(["median", "max"]).unstack().round(3).to_string())
print(o.groupby(["how", "walk", "graph"])["err"].median().unstack().round(2).to_string())
