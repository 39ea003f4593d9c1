# Exploratory (in sample, no fit) on archive/holdout-v3-h100-2026-11-27: which zero-copy rule explains its zero-copy
# cells once the floor is exact? Each zero-copy cell is predicted with the measured device time of the same
# workload as its floor, so only the link terms are judged. Usage (repository root): python
# archive/gpu-work-v4-exploration-2026-11-27/zerocopy.py
import glob
import json

import numpy as np
import pandas as pd

A = "archive/holdout-v3-h100-2026-11-27"
P = json.load(open(f"{A}/session/parameters.json"))
L_US = float(np.median([x["L_us"] for x in P["latency"]]))
meta = {p.split("/")[-1].split(".")[0]: json.load(open(p)) for p in glob.glob(f"{A}/session/graphs/*.w8.json")}
c = pd.read_csv(f"{A}/holdout_cells.csv")
K = ["graph", "algorithm", "variant", "edge_bytes", "root"]
dev = c[c["mode"] == "device"][K + ["measured_ms"]].rename(columns={"measured_ms": "dev_ms"})
z = c[c["mode"] == "zerocopy"].merge(dev, on=K).reset_index(drop=True)
la = pd.concat([pd.read_csv(p) for p in glob.glob(f"{A}/workloads/*/launches.csv.gz")])
la = la.merge(z[K].assign(cell=np.arange(len(z))), on=K)
la["share"] = la["entries"] / la.groupby("cell")["entries"].transform("sum").clip(lower=1)
la["V"] = [meta[g]["num_vertices"] for g in la["graph"]]
la["warps"] = np.where(la["variant"] == "gauss-seidel", np.ceil(la["V"] / 32), la["lists"])
# gauss-seidel: a warp pushes its (up to 32) lists one after another: at least lists/warps serial steps a launch
la["serial"] = np.where(la["variant"] == "gauss-seidel", np.maximum(la["walk"], la["lists"] / la["warps"]), la["walk"])
n = len(z)
tr = z["transfer_ms"].to_numpy()
ms = L_US / 1e3


def per_cell(col):
    return np.bincount(la["cell"], weights=col, minlength=n)


rules = {
    "R0 v3: dev + D/T + max walk/4 L": z["dev_ms"] + tr + z["chain_ms"],
    "R1: dev + D/T + sum_l walk_l/4 L": z["dev_ms"] + tr + per_cell(np.ceil(la["walk"] / 4)) * ms,
    "R2: dev + sum_l max(D_l/T, walk_l L)": z["dev_ms"]
    + per_cell(np.maximum(la["share"] * tr[la["cell"]], la["walk"] * ms)),
    "R3: dev + sum_l max(D_l/T, walk_l/4 L)": z["dev_ms"]
    + per_cell(np.maximum(la["share"] * tr[la["cell"]], np.ceil(la["walk"] / 4) * ms)),
    "R4: dev + D/T + sum_l serial_l/4 L": z["dev_ms"] + tr + per_cell(np.ceil(la["serial"] / 4)) * ms,
    "R5: dev + D/T + sum_l serial_l L": z["dev_ms"] + tr + per_cell(la["serial"]) * ms,
    "R6: max(dev, D/T) + sum_l serial_l L": np.maximum(z["dev_ms"], tr) + per_cell(la["serial"]) * ms,
}
pd.set_option("display.width", 250)
out = []
for name, p in rules.items():
    e = np.asarray(p) / z["measured_ms"].to_numpy() - 1
    out.append(z[["graph", "algorithm", "variant", "edge_bytes"]].assign(rule=name, err=e))
o = pd.concat(out)
o["abs"] = o["err"].abs()
print(f"L = {L_US:.3f} us (median of the session's zero-copy chase)")
print(o.groupby("rule")["abs"].agg(["median", "max", lambda s: (s <= 0.05).mean(), lambda s: (s <= 0.15).mean()]).round(3))
print(o.groupby(["rule", "algorithm"])["abs"].agg(["median", "max"]).unstack().round(3).to_string())
print(o.groupby(["rule", "variant"])["err"].median().unstack().round(3).to_string())
print(o.groupby(["rule", "graph"])["err"].median().unstack().round(2).to_string())

# Fitted link terms, every graph left out in turn (per algorithm, variant and width; exact floor as above):
#   F1: dev + eta * D/T + chain            eta >= 0 (the share of the counted bytes the variant's pattern costs)
#   F2: dev + eta * D/T + g * sum_l serial_l * L      eta, g >= 0 (serial_l: walk_l, or gauss-seidel's lists a warp)
from scipy.optimize import nnls  # noqa: E402

z["chain_sum"] = per_cell(la["serial"]) * ms
rows = []
for key, grp in z.groupby(["algorithm", "variant", "edge_bytes"]):
    for held in grp["graph"].unique():
        tr_, te = grp[grp["graph"] != held], grp[grp["graph"] == held]
        y = (tr_["measured_ms"] - tr_["dev_ms"]).to_numpy()
        m = tr_["measured_ms"].to_numpy()
        e1, _ = nnls((tr_[["transfer_ms"]].to_numpy() / m[:, None]), y / m + 0 - tr_["chain_ms"].to_numpy() / m)
        p1 = te["dev_ms"] + e1[0] * te["transfer_ms"] + te["chain_ms"]
        x2 = tr_[["transfer_ms", "chain_sum"]].to_numpy() / m[:, None]
        e2, _ = nnls(x2, y / m)
        p2 = te["dev_ms"] + e2[0] * te["transfer_ms"] + e2[1] * te["chain_sum"]
        for name, p in (("F1 eta", p1), ("F2 eta+g", p2)):
            rows.append(te[["graph", "algorithm", "variant", "edge_bytes"]].assign(rule=name, err=p / te["measured_ms"] - 1))
f = pd.concat(rows)
f["abs"] = f["err"].abs()
print("\nleft-out fits (exact floor)")
print(f.groupby("rule")["abs"].agg(["median", "max", lambda s: (s <= 0.05).mean(), lambda s: (s <= 0.15).mean()]).round(3))
print(f.groupby(["rule", "algorithm"])["abs"].agg(["median", "max"]).unstack().round(3).to_string())
print(f.groupby(["rule", "graph"])["err"].median().unstack().round(2).to_string())
print(f[f.rule == "F2 eta+g"].sort_values("abs").tail(10).to_string())
