# Exploratory (in sample): split v5's train set as the registered term v5 (model/gpu_work_v5.py: v4 and a cost
# per list) fits it, the whole prediction (device and zero-copy, v4's link terms), on the v4 session's cells
# (archive/holdout-v4-h100-2026-11-27, every graph seen): fitted on the
# eight graphs split v5 trains on (kron/urand 17, 18, 20, urand21ef8, rmat21ef24), the other four graphs of that
# session predicted (kron19, urand19 inside the train range; kron22, rmat22ef32 past it, 4 M vertices), against
# v4's term on the same train set. Does the train set carry v5's six costs per group, and v4's link terms?
# Usage (repository root): python archive/gpu-work-v5-exploration-2026-11-27/train_set.py > .../train_set.txt
import glob
import json
import sys

import pandas as pd

sys.path.insert(0, ".")
from model import gpu_work_v3 as v3  # noqa: E402
from model import gpu_work_v4 as v4  # noqa: E402
from model import gpu_work_v5 as v5  # noqa: E402
from model import holdout_split_v5 as hs5  # noqa: E402
from model.l2_capacity import read_capacity  # noqa: E402
from model.presets import MEASURED, get_preset  # noqa: E402

A = "archive/holdout-v4-h100-2026-11-27"
TRAIN = {g for g, e in hs5.GRAPHS.items() if e["split"] == hs5.TRAIN}
meta = {p.split("/")[-1].split(".")[0]: json.load(open(p)) for p in glob.glob(f"{A}/session/graphs/*.w8.json")}
vertices = {g: m["num_vertices"] for g, m in meta.items()}
cells = pd.read_csv(f"{A}/holdout_cells.csv")
work = pd.concat([pd.read_csv(p) for p in glob.glob(f"{A}/workloads/*/workloads.csv")], ignore_index=True)
launches = pd.concat([pd.read_csv(p) for p in glob.glob(f"{A}/workloads/*/launches.csv.gz")], ignore_index=True)
work, launches = v4.expected(work, launches, vertices)
cap = read_capacity(f"{A}/session/micro/l2.csv")
params = get_preset(MEASURED, f"{A}/session/parameters.json")
keep = ["split", "graph", "algorithm", "variant", "mode", "edge_bytes", "root", "measured_ms"]
table = cells[keep].merge(work, on=v4.WORK).assign(split=lambda f: f["graph"].map(lambda g: "train" if g in TRAIN
                                                                                    else "other"))  # fmt: skip


def allowed(names):
    bad = set(names) - TRAIN
    assert not bad, bad


rows = []
for term in ("v4", "v5"):
    t = table.copy()
    if term == "v5":
        mu = v5.mu_table(t, vertices, cap)
        costs = v5.fit_costs(t, launches, mu, "train", allowed)
        t["floor_ms"] = v5.floor_ms(t, launches, costs, mu)
    else:
        mu = v3.mu_table(t, vertices, cap)
        costs = v4.fit_costs(t, launches, mu, "train", allowed)
        t["floor_ms"] = v4.floor_ms(t, launches, costs, mu)
    t, _ = v4.predict_table(t, launches, params, vertices, "train", allowed)
    t["abs"] = (t["predicted_ms"] / t["measured_ms"] - 1).abs()
    for (split, mode, alg), g in t.groupby(["split", "mode", "algorithm"]):
        rows.append({"term": term, "split": split, "mode": mode, "algorithm": alg, "cells": len(g),
                     "median": 100 * g["abs"].median(), "worst": 100 * g["abs"].max()})  # fmt: skip
    for (split, mode), g in t.groupby(["split", "mode"]):
        rows.append({"term": term, "split": split, "mode": mode, "algorithm": "all", "cells": len(g),
                     "median": 100 * g["abs"].median(), "worst": 100 * g["abs"].max()})  # fmt: skip
    o = t[t["split"] == "other"]
    print(f"{term}: per graph of the others, |error| median / worst %:")
    print(o.groupby(["graph", "mode"])["abs"].agg(["median", "max"]).mul(100).round(1).unstack().to_string())
r = pd.DataFrame(rows).pivot(index=["split", "mode", "algorithm"], columns="term", values=["median", "worst"])
pd.set_option("display.width", 200)
print("\n|error| median / worst %, train = split v5's train graphs, others = kron19, urand19, kron22, rmat22ef32")
print(r.round(1).to_string())
