"""The capped warp faults of the OOM archive's scale-24 capped cells (issue 21; CPU only): their traces derived on the
regenerated graph and simulated in the capped mode with the kernels' lists per warp, since oom_simulated.csv.gz
keeps no warp-fault count. Appends one JSON line per cell to capped_counts_GRAPH.jsonl (cells already there are
skipped).

    python archive/uvm-capped-analysis-2026-11-27/warp_faults.py --graph /tmp/g/kron24.w8.csr --name kron24
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from emogi.csr import read_csr  # noqa: E402
from emogi.trace_derive import derive  # noqa: E402
from model.uvm_sim import lists_per_warp_of, simulate  # noqa: E402

HERE = Path(__file__).resolve().parent
SIM = ROOT / "archive/oom-h100-80gb-hbm3-2026-11-25-1207/oom_simulated.csv.gz"
KEEP = ("launches", "steps", "migrated_bytes", "fault_entries", "list_faults", "batches", "serviced_chunks")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graph", required=True, type=Path)
    p.add_argument("--name", required=True)
    a = p.parse_args(argv)
    out = HERE / f"capped_counts_{a.name}.jsonl"
    done = (
        {(d["algorithm"], d["variant"], d["root"], d["budget_fraction"]) for d in map(json.loads, out.open())}
        if out.exists()
        else set()
    )
    sim = pd.read_csv(SIM)
    sim = sim[(sim["graph"] == a.name) & (sim["sim_mode"] == "capped") & (sim["params"] == "registered")]
    sim = sim[sim["variant"] != "afforest"].assign(root=lambda f: f["root"].fillna(-1).astype(int))
    g = read_csr(a.graph)
    checksum = f"{g.header.checksum:016x}"
    order = {"bfs": 0, "cc": 1, "sssp": 2, "pagerank": 3}  # the exact traces first, the slowest derivations last
    groups = sorted(sim.groupby(["algorithm", "variant", "root"]), key=lambda kv: order[kv[0][0]])
    for (alg, var, root), part in groups:
        t0 = time.time()
        trace = derive(g, alg, var, None if root < 0 else int(root), a.name)
        per_warp = lists_per_warp_of(trace)
        for row in part.itertuples():
            if (alg, var, int(root), float(row.budget_fraction)) in done:
                continue
            r = simulate(trace, g, mode="capped", capacity_bytes=int(row.capacity_bytes),
                         sub_launches=int(row.sublaunches), lists_per_warp=per_warp).totals()  # fmt: skip
            rec = {"graph": a.name, "checksum": checksum, "algorithm": alg, "variant": var, "root": int(root),
                   "budget_fraction": float(row.budget_fraction), "trace_source": trace.source,
                   "evicted_chunks": r["evicted_chunks"], **{k: r[k] for k in KEEP},
                   "seconds": round(time.time() - t0, 1)}  # fmt: skip
            with out.open("a") as fh:
                fh.write(json.dumps(rec) + "\n")
            print(json.dumps(rec), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
