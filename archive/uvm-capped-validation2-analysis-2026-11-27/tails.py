"""Per recorded device-mode trace: the longest list each launch reads, unsplit and per sub-launch range (K = 4, the
GPU's split: bounds = arange(K + 1) * n // K), summed over launches. Writes tails.csv.

    python archive/uvm-capped-validation2-analysis-2026-11-27/tails.py --traces DIR --graph-dir /tmp/ucap2g \
        --out tails.csv
"""

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.csr import read_csr
from emogi.trace_recording import load_recorded

K = 4


def tails(trace, degree: np.ndarray, k: int = K) -> dict:
    n = trace.num_vertices
    bounds = np.arange(k + 1, dtype=np.int64) * n // k
    whole = split = 0
    blocks_whole = blocks_split = 0
    for i in range(trace.num_launches):
        d = np.where(trace.mask(i), degree, 0)
        per = [int(d[a:b].max()) if b > a else 0 for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
        whole += max(per)
        split += sum(per)
        blocks_whole += -(-max(per) * trace.edge_bytes // 65536)
        blocks_split += sum(-(-p * trace.edge_bytes // 65536) for p in per)
    return {"launches": trace.num_launches, "tail_edges_k1": whole, "tail_edges_k4": split,
            "tail_blocks_k1": blocks_whole, "tail_blocks_k4": blocks_split}  # fmt: skip


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--traces", type=Path, required=True)
    p.add_argument("--graph-dir", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    a = p.parse_args()
    rows, graphs = [], {}
    for f in sorted(a.traces.glob("*.device.w8*.trace")):
        name = f.name.split(".")[0]
        if name not in graphs:
            graphs[name] = read_csr(a.graph_dir / f"{name}.w8.csr")
        g = graphs[name]
        t = load_recorded(f, g)
        deg = np.diff(np.asarray(g.offsets, dtype=np.int64))
        rows.append({"graph": name, "algorithm": t.algorithm, "variant": t.variant, "root": int(t.root),
                     "max_degree": int(deg.max()), **tails(t, deg)})  # fmt: skip
        print(rows[-1], flush=True)
    pd.DataFrame(rows).to_csv(a.out, index=False)


if __name__ == "__main__":
    main()
