"""The order check's capped medians beside capped validation 3's, per variant, root, K and capacity (writes
summary.csv here). Run from the repository root: python archive/uvm-capped-order-check-h100-2026-11-27/summary.py"""

import re
import tarfile
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
V3 = Path("archive/uvm-capped-validation3-h100-2026-11-27/capped_validation3_cells.csv")

rows = []
with tarfile.open(HERE / "uvmc3d.tgz") as tar:
    for member in tar.getmembers():
        m = re.search(r"runs/capped\.bfs\.urand20s31\.f([\d.]+)\.k(\d+)\.csv$", member.name)
        if m:
            runs = pd.read_csv(tar.extractfile(member))
            assert runs["verified"].all(), member.name
            runs["budget_fraction"], runs["sublaunches"] = float(m[1]), int(m[2])
            rows.append(runs)
runs = pd.concat(rows)
key = ["variant", "root", "sublaunches", "budget_fraction"]
check = runs.groupby(key)["time_ms"].agg(check_ms="median", check_min_ms="min", check_max_ms="max").reset_index()
v3 = pd.read_csv(V3)
v3 = v3[(v3["graph"] == "urand20s31") & (v3["algorithm"] == "bfs")][key + ["capped_ms"]]
out = check.merge(v3.rename(columns={"capped_ms": "validation3_ms"}), on=key, how="left")
out.round(3).to_csv(HERE / "summary.csv", index=False)
print(out.round(1).to_string(index=False))
