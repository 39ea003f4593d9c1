# Exploratory (in sample for the form's choice, every graph left out in turn) on
# archive/holdout-v3-h100-2026-11-27: the whole prediction of each graph's cells (device and zero-copy) by
# model.holdout's judge with the term v3 (split v3's code path) and with the term v4 (split v4's), every other graph
# of that session its train set. Usage (repository root): python archive/gpu-work-v4-exploration-2026-11-27/logo.py
import glob
import json

import pandas as pd

from model import holdout as ho
from model import holdout_split as hs
from model import holdout_split_v3 as hs3
from model import holdout_split_v4 as hs4
from model.l2_capacity import read_capacity
from model.presets import MEASURED, get_preset

A = "archive/holdout-v3-h100-2026-11-27"
params = get_preset(MEASURED, f"{A}/session/parameters.json")
C = read_capacity(f"{A}/session/micro/l2.csv")
meta = {p.split("/")[-1].split(".")[0]: json.load(open(p)) for p in glob.glob(f"{A}/session/graphs/*.w8.json")}
vertices = {g: m["num_vertices"] for g, m in meta.items()}
workloads, launches = ho.read_workloads(*sorted(glob.glob(f"{A}/workloads/*")))
cells = ho.cells_of(ho.read_runs(f"{A}/session"), log=lambda m: None, sp=hs3)
out = []
for name, sp in (("v3", hs3), ("v4", hs4)):
    saved = sp.GRAPHS
    for held in sorted(set(cells["graph"])):
        sp.GRAPHS = {g: {"split": hs.HELD_OUT if g == held else hs.TRAIN, "source": {}} for g in saved | hs3.GRAPHS}
        try:
            table, _ = ho.judge(cells, workloads, launches, params, log=lambda m: None, sp=sp, vertices=vertices,
                                capacity=C)  # fmt: skip
        finally:
            sp.GRAPHS = saved
        out.append(table[table["split"] == hs.HELD_OUT].assign(term=name))
o = pd.concat(out, ignore_index=True)
o["abs"] = o["error"].abs()
pd.set_option("display.width", 250)
print(f"C = {C:.0f} bytes; left-out cells per term: {o.groupby('term').size().to_dict()}")
print(o.groupby(["term", "mode"])["abs"].agg(["median", "max", lambda s: (s <= 0.05).mean(),
                                              lambda s: (s <= 0.15).mean()]).round(3).to_string())  # fmt: skip
print(o.groupby(["term", "algorithm"])["abs"].agg(["median", "max"]).unstack().round(3).to_string())
print(o.groupby(["term", "algorithm", "variant", "mode"])["abs"].median().unstack().round(3).to_string())
print(o.groupby(["term", "mode", "graph"])["error"].median().unstack().round(2).to_string())
print(o[o.term == "v4"].sort_values("abs").tail(15)[["graph", "algorithm", "variant", "mode", "edge_bytes", "measured_ms",
                                                     "predicted_ms", "error"]].to_string())  # fmt: skip
