# Exploratory: the device cells of archive/holdout-v3-h100-2026-11-27 and archive/holdout-v4-h100-2026-11-27 with
# their weighted launches (model.gpu_work_v4.expected: Gauss-Seidel as the GPU runs it) and per launch the candidate
# columns of floor.py. Every count comes from the archives' workloads/launches tables and the graphs' metadata;
# the measured medians only enter as the fitted target. Imported by floor.py (repository root on sys.path).
import glob
import json

import numpy as np
import pandas as pd

from model import gpu_work_v4
from model.gpu_work_v3 import STATE_BYTES
from model.l2_capacity import miss_share, read_capacity

SESSIONS = {"v3": "archive/holdout-v3-h100-2026-11-27", "v4": "archive/holdout-v4-h100-2026-11-27"}
WORK = ["graph", "algorithm", "variant", "edge_bytes", "root"]
WARP = 32


def load(session: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(device cells, weighted launches with candidate columns) of one session; a cell is keyed by `cell`."""
    a = SESSIONS[session]
    cells = pd.read_csv(f"{a}/holdout_cells.csv")
    cells = cells[cells["mode"] == "device"].reset_index(drop=True)
    meta = {p.split("/")[-1].split(".")[0]: json.load(open(p)) for p in glob.glob(f"{a}/session/graphs/*.w8.json")}
    vertices = {g: m["num_vertices"] for g, m in meta.items()}
    wl = pd.concat([pd.read_csv(p) for p in glob.glob(f"{a}/workloads/*/workloads.csv")], ignore_index=True)
    la = pd.concat([pd.read_csv(p) for p in glob.glob(f"{a}/workloads/*/launches.csv.gz")], ignore_index=True)
    _, la = gpu_work_v4.expected(wl, la, vertices)
    cap = read_capacity(f"{a}/session/micro/l2.csv")
    cells = cells.assign(session=session, cell=np.arange(len(cells)) + (0 if session == "v3" else 10**5))
    la = la.merge(cells[[*WORK, "cell"]], on=WORK)
    v = la["graph"].map(vertices).to_numpy(float)
    foot = v * la["algorithm"].map(STATE_BYTES).to_numpy(float)
    n, lists = la["entries"].to_numpy(float), la["lists"].to_numpy(float)
    w = la["weight"].to_numpy(float)
    cols = {
        "one": np.ones(len(la)),
        "grid": la["grid"].to_numpy(float),
        "entries": n,
        "mu_entries": miss_share(cap, foot) * n,  # v3/v4's μ·N
        "walk": la["walk"].to_numpy(float),
        "lists": lists,  # a cost per list walked
        "warp_steps": np.maximum(lists, n / WARP),  # lower bound of Σ ceil(deg/32), a warp per list
        "idle_lanes": np.maximum(0.0, WARP * lists - n) / WARP,  # lanes left idle if each list takes one step
        "mu2_entries": miss_share(cap / 2, foot) * n,  # a cache half as large for the random state reads
        "fill_entries": np.minimum(1.0, foot / cap) * n,  # the state's share of the L2 (a smooth miss rise)
    }
    for k, x in cols.items():
        la[k] = x * w
    return cells, la


def both() -> tuple[pd.DataFrame, pd.DataFrame]:
    parts = [load(s) for s in SESSIONS]
    return pd.concat([p[0] for p in parts], ignore_index=True), pd.concat([p[1] for p in parts], ignore_index=True)
