# Run from the repository root: PYTHONPATH=. python archive/paper-predict-v100-2026-11-25/roots_check.py
# Root sensitivity at scale 22: the quantities of model.paper_predict from the largest-degree root and from 4
# random roots of nonzero degree (numpy seed 0), each on the graph's own statistics (no extrapolation).
import numpy as np
import pandas as pd

from model.graph_predict import default_root, load_graph, workload
from model.paper_predict import STATS, VARIANTS, quantities

rng = np.random.default_rng(0)
rows = []
for kind in ("kron", "urand"):
    g = load_graph(f"/tmp/v100g/{kind}22.csr")
    deg = np.diff(g.offsets.astype(np.int64))
    roots = [default_root(g), *rng.choice(np.flatnonzero(deg > 0), 4, replace=False)]
    for root in roots:
        st = pd.DataFrame(
            [{"kind": kind, "variant": v, **{k: float(workload(g, "bfs", v, int(root))[k]) for k in STATS}}
             for v in VARIANTS]
        )
        for q, k, value, *_ in quantities(st):
            rows.append({"kind": k, "root": int(root), "quantity": q, "predicted": value})
t = pd.DataFrame(rows).pivot_table(index=["kind", "quantity"], columns="root", values="predicted")
print(t.round(3).to_string())
