# Exploratory: two per-launch features of the Gauss-Seidel PageRank traces of archive/holdout-v3-h100-2026-11-27's
# graphs, for floor.py and hub.py's variants (neither kept in v4):
#   warp_walk: the most merged-aligned steps one warp of 32 consecutive vertices takes walking its active lists one
#              after another (8- and 4-byte edges)                                      -> warp_walk.csv.gz
#   hub_in:    the most entries of the launch's active lists that name one vertex (its same-address updates)
#                                                                                        -> hub_in.csv.gz
# The graphs regenerated with the session's commands into GDIR (checksums as the archive's metadata), e.g.
#   python -m emogi.datasets.generators --kind kron --scale 17 --edge-factor 16 --seed 25 --weights-seed 25 \
#     --out GDIR/kron17.w8.csr --meta GDIR/kron17.w8.json
# Usage (repository root): python archive/gpu-work-v4-exploration-2026-11-27/features.py GDIR OUTDIR NAME ...
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.csr import read_csr
from emogi.traces import launch_entries
from model.gpu_features import WARP, walk_steps
from model.graph_predict import derive_trace

gdir, outdir, names = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
ww, hub = [], []
for name in names:
    g = read_csr(gdir / f"{name}.w8.csr", verify_checksum=False)
    off, nb = np.asarray(g.offsets), np.asarray(g.edges)
    tr = derive_trace(g, "pagerank", "gauss-seidel")
    key = {"graph": name, "algorithm": "pagerank", "variant": "gauss-seidel", "root": -1}
    for i in range(tr.num_launches):
        sel, begin, end = launch_entries(tr, off, i)
        deg = (end - begin).astype(np.int64)
        for w in (8, 4):
            steps = walk_steps("gauss-seidel", begin, deg, w)
            warp = np.bincount(sel // WARP, weights=steps) if len(sel) else steps
            ww.append(key | {"edge_bytes": w, "launch": i, "warp_walk": float(warp.max()) if len(warp) else 0.0})
        idx = np.repeat(begin.astype(np.int64) - np.cumsum(np.r_[0, deg[:-1]]), deg) + np.arange(deg.sum())
        hub.append(key | {"launch": i, "hub_in": int(np.bincount(nb[idx].astype(np.int64)).max()) if len(idx) else 0})
    print(name, tr.num_launches, "launches", flush=True)
pd.DataFrame(ww).to_csv(outdir / "warp_walk.csv.gz", index=False)
pd.DataFrame(hub).to_csv(outdir / "hub_in.csv.gz", index=False)
