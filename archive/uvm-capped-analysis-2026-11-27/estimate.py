"""The device call's time, estimated before it from the registered rule (issue 21; CPU only): capped validation 2's
graphs made here with the call's commands and seed, their CPU-derived traces simulated at each registered capacity
and K, each capped cell's time predicted by the registered rule at f = 1, the device-mode time taken as the
archived kron20 ratio of device to cold (none measured: 5% of the predicted cold time), and summed over the call's
runs. Writes estimate.csv (per cell) and prints the totals.

    python archive/uvm-capped-analysis-2026-11-27/estimate.py --graph-dir /tmp/ucap2g [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from emogi.csr import read_csr  # noqa: E402
from emogi.datasets.roots import pick_roots  # noqa: E402
from emogi.trace_derive import derive  # noqa: E402
from model import uvm_capped  # noqa: E402
from model import uvm_capped_validation2 as v2  # noqa: E402
from model.uvm_access_shape import load_shapes  # noqa: E402
from model.uvm_sim import lists_per_warp_of, simulate  # noqa: E402
from model.uvm_validation3 import regenerate  # noqa: E402

HERE = Path(__file__).resolve().parent
DEVICE_SHARE = 0.05  # device / cold time, none measured here (kron20's BFS and PageRank runs: a few percent)


def one(path: str, name: str, algorithm: str, variant: str, root: int, edge_list_bytes: int) -> list[dict]:
    g = read_csr(path, verify_checksum=False)
    t = derive(g, algorithm, variant, None if root < 0 else root, name)
    pw = lists_per_warp_of(t)
    keep = ("launches", "migrated_bytes", "batches", "serviced_chunks", "list_faults", "evicted_chunks")
    rows = [{"sim_mode": "cold", "budget_fraction": np.nan, "sublaunches": 1,
             **{k: v for k, v in simulate(t, g, lists_per_warp=pw).totals().items() if k in keep}}]  # fmt: skip
    for f in v2.FRACTIONS:
        for k in v2.SUBLAUNCHES:
            cap = v2.capacity_bytes(edge_list_bytes, f)
            r = simulate(t, g, "capped", cap, sub_launches=k, lists_per_warp=pw).totals()
            rows.append({"sim_mode": "capped", "budget_fraction": f, "sublaunches": k, **{c: r[c] for c in keep}})
    print(f"simulated {name} {algorithm} {variant} {root}", file=sys.stderr, flush=True)
    key = {"graph": name, "algorithm": algorithm, "variant": variant, "root": root}
    return [{**key, **r} for r in rows]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graph-dir", required=True, type=Path)
    p.add_argument("--jobs", type=int, default=1)
    a = p.parse_args(argv)
    reg = json.loads(v2.REGISTERED.read_text())
    shapes = load_shapes(reg)
    args = []
    for name in v2.SET:
        meta_path = a.graph_dir / f"{name}.w8.json"
        path = a.graph_dir / f"{name}.w8.csr"
        if not path.exists():
            import subprocess

            cmd = [sys.executable, "-m", "emogi.datasets.generators", *v2.SET[name].split(), "--seed", str(v2.SEED)]
            cmd += ["--weights-seed", str(v2.SEED), "--out", str(path), "--meta", str(meta_path)]
            subprocess.run(cmd, check=True)
        meta = json.loads(meta_path.read_text())
        regenerate(name, a.graph_dir, meta, v2.SET, v2.SEED)
        roots = [int(r) for r in pick_roots(read_csr(path, verify_checksum=False).offsets, 2, v2.SEED)]
        for alg in v2.ALGORITHMS:
            for var in v2.VARIANTS:
                for r in roots if alg in ("bfs", "sssp") else [-1]:
                    args.append((str(path), name, alg, var, r, meta["edge_list_bytes"]))
    with ProcessPoolExecutor(max(a.jobs, 1)) as pool:
        rows = pd.DataFrame([r for part in pool.map(one, *zip(*args)) for r in part])
    mig = uvm_capped.migration_ms(rows, shapes)
    cold = rows["sim_mode"] == "cold"
    keys = ["graph", "algorithm", "variant", "root"]
    cold_ms = rows[cold].assign(ms=mig[cold.to_numpy()])[[*keys, "ms"]].rename(columns={"ms": "cold_ms"})
    rows = rows.merge(cold_ms, on=keys)
    rows["device_ms"] = DEVICE_SHARE * rows["cold_ms"] / (1 - DEVICE_SHARE)
    rows["predicted_ms"] = rows["device_ms"] + mig + reg["capped_terms"]["evicted"] * rows["evicted_chunks"]
    rows.loc[rows["sim_mode"] == "cold", "predicted_ms"] = rows["cold_ms"] + rows["device_ms"]
    rows.to_csv(HERE / "estimate.csv", index=False)
    capped = rows[rows["sim_mode"] == "capped"]
    cold = rows[rows["sim_mode"] == "cold"]
    runs_s = v2.REPS * capped["predicted_ms"].sum() / 1e3  # no warm-up
    cold_s = (v2.REPS + 1) * (cold["predicted_ms"] + cold["device_ms"]).sum() / 1e3 * 1.5  # + a trace run each mode
    print(capped.groupby(["graph", "algorithm"])["predicted_ms"].sum().round(1).to_string())
    print(json.dumps({"capped_runs_s": round(runs_s, 1), "device_and_cold_runs_s": round(cold_s, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
