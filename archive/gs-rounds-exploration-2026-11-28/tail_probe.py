"""Which vertices keep a simulated Gauss-Seidel run going: per round, the pushing vertices, their degrees and how
many have the largest degree among them (in sample; wave_sim.simulate with a log).

    python archive/gs-rounds-exploration-2026-11-28/tail_probe.py GRAPH.npz NAME WAVE ORDER SEED
"""

from __future__ import annotations

import sys

import numpy as np
from wave_sim import simulate


def main() -> None:
    path, name, wave, order, seed = sys.argv[1:6]
    g = np.load(path)
    offsets, edges = g["offsets"], g["edges"]
    degree = np.diff(offsets)
    hubs = set(np.argsort(degree)[-10:].tolist())  # the ten largest lists
    log: list = []
    res = simulate(offsets, edges, int(wave), order, int(seed), log=log)
    print(f"# {name} wave {wave} {order} seed {seed}: {res['rounds']} rounds, {res['pushes']} pushes")
    print("graph,round,pushers,pushes,max_degree,median_degree,top10_hubs_pushing")
    for k, ids in enumerate(log):
        d = degree[ids]
        top = sum(int(v) in hubs for v in ids)
        print(f"{name},{k},{ids.size},{int(d.sum())},{int(d.max())},{int(np.median(d))},{top}")


if __name__ == "__main__":
    main()
