"""Question 2 (in sample): does a wave schedule of the GPU's Gauss-Seidel round reproduce its round counts?

pagerank_gauss_seidel_round (kernels/include/emogi/pagerank.cuh) runs a warp per 32 consecutive vertices; at most
W vertices' warps are resident at once. Modelled here: a round cuts the vertices into waves of W; a wave's vertices
take their residuals (above the tolerance) as they stand when the wave starts, and push alpha * r / degree to every
out-neighbour when it ends (Jacobi inside a wave, Gauss-Seidel between waves). Waves go in vertex order, or (order
"random") the 256-vertex blocks of the round are shuffled (seeded) before being cut into waves. Residuals are
float32 (the kernel's), each wave's pushes summed in float64 and then added (the kernel adds each in float32 with
atomicAdd, in no fixed order). Rounds count as the kernel's `iterations`: rounds in which some vertex with a
non-empty list pushed; the run ends at the first round in which none did. Defaults: alpha 0.85, tolerance 1e-3
(PageRankParams; the run command passes no other).

    python archive/gs-rounds-exploration-2026-11-28/wave_sim.py GRAPH.npz NAME --waves 0,8448,33792,270336 \
        --orders vertex,random --seeds 0,1,2

GRAPH.npz: offsets (int64) and edges (uint32) of the generator's graph (emogi.datasets.generators.generate with the
split's kind, scale, edge factor and seed); W = 0 is one wave per round (the Jacobi round).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

import numpy as np

BLOCK = 256  # kBlockThreads: vertices per block (a warp per 32 vertices, 8 warps a block)


def list_positions(offsets: np.ndarray, vertices: np.ndarray, degree: np.ndarray) -> np.ndarray:
    """The edge-array positions of the lists of `vertices`, list after list."""
    lengths = degree[vertices]
    total = int(lengths.sum())
    if total == 0:
        return np.empty(0, np.int64)
    starts = offsets[vertices]
    shift = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
    return shift + np.arange(total, dtype=np.int64)


def simulate(offsets, edges, wave: int, order: str = "vertex", seed: int = 0, alpha: float = 0.85,
             tolerance: float = 1e-3, max_rounds: int = 5000, log: list | None = None,
             jacobi_below: float = 0.0, defer_degree: int = 0) -> dict:  # fmt: skip
    """Rounds and pushes of one run; `log` (a list) gets each round's pushing vertices' ids. jacobi_below > 0: a
    round after one that pushed fewer than jacobi_below * E entries is one wave (late rounds: the grid's warps
    test their vertices long before the few pushing warps' atomics land). defer_degree > 0: lists longer than that
    land at the end of the round (a long list's warp finishes after the other waves have tested)."""
    n = len(offsets) - 1
    degree = np.diff(offsets)
    share = np.divide(alpha, degree, out=np.zeros(n), where=degree > 0)
    residual = np.full(n, np.float32(1.0 - alpha), dtype=np.float32)
    tol = np.float32(tolerance)
    rng = np.random.default_rng(seed)
    blocks = np.arange((n + BLOCK - 1) // BLOCK)
    wave = n if wave <= 0 else wave
    E = int(offsets[-1])
    rounds = pushes = lists = walk = 0  # walk: the longest list of each round, in warp steps, summed
    last = E
    per_round = []
    while rounds < max_rounds:
        if order == "random":
            perm = rng.permutation(blocks)
            seq = (perm[:, None] * BLOCK + np.arange(BLOCK)[None, :]).ravel()
            seq = seq[seq < n]
        else:
            seq = None
        round_pushes, pushed, pushing, round_lists, round_longest = 0, False, [], 0, 0
        pending = np.zeros(n, np.float64) if defer_degree > 0 else None
        step = n if last < jacobi_below * E else wave
        for lo in range(0, n, step):
            ids = np.arange(lo, min(lo + step, n)) if seq is None else seq[lo : lo + step]
            take = ids[residual[ids] > tol]
            if take.size == 0:
                continue
            r = residual[take].astype(np.float64)
            residual[take] = 0.0
            pushers = take[degree[take] > 0]
            if pushers.size == 0:
                continue
            pushed = True
            if log is not None:
                pushing.append(pushers)
            round_lists += pushers.size
            round_longest = max(round_longest, int(degree[pushers].max()))
            pos = list_positions(offsets, pushers, degree)
            round_pushes += pos.size
            carried = np.repeat(r[degree[take] > 0] * share[pushers], degree[pushers])
            targets = edges[pos]
            if pending is not None:
                late = np.repeat(degree[pushers] > defer_degree, degree[pushers])
                np.add.at(pending, targets[late], carried[late])
                targets, carried = targets[~late], carried[~late]
            if pos.size > n // 8:
                residual += np.bincount(targets, weights=carried, minlength=n).astype(np.float32)
            else:
                add = np.zeros(n, np.float64)
                np.add.at(add, targets, carried)
                hit = np.unique(targets)
                residual[hit] += add[hit].astype(np.float32)
        if pending is not None:
            residual += pending.astype(np.float32)
        if not pushed:
            break
        rounds += 1
        pushes += round_pushes
        lists += round_lists
        walk += -(-round_longest // 32)
        last = round_pushes
        if log is not None:
            log.append(np.concatenate(pushing))
        per_round.append(round_pushes)
    return {"rounds": rounds, "pushes": pushes, "lists": lists, "walk": walk, "per_round": per_round}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graph")
    ap.add_argument("name")
    ap.add_argument("--waves", default="0,270336")
    ap.add_argument("--orders", default="vertex")
    ap.add_argument("--seeds", default="0")
    ap.add_argument("--defer-degree", type=int, default=0, help="lists longer than this land at the round's end")
    ap.add_argument("--jacobi-below", default="0", help="comma list; late-round switch to one wave (fraction of E)")
    a = ap.parse_args(argv)
    g = np.load(a.graph)
    offsets, edges = g["offsets"], g["edges"]
    E = int(offsets[-1])
    print("graph,wave,order,jacobi_below,defer_degree,seed,rounds,pushes,sweeps,lists,walk,seconds", flush=True)
    for w, jb in itertools.product((int(x) for x in a.waves.split(",")), (float(x) for x in a.jacobi_below.split(","))):
        for order in a.orders.split(","):
            seeds = [int(s) for s in a.seeds.split(",")] if order == "random" else [0]
            if w <= 0 and order == "random":
                continue
            for s in seeds:
                t0 = time.perf_counter()
                res = simulate(offsets, edges, w, order, s, jacobi_below=jb, defer_degree=a.defer_degree)
                dt = time.perf_counter() - t0
                print(f"{a.name},{w},{order},{jb:g},{a.defer_degree},{s},{res['rounds']},{res['pushes']},"
                      f"{res['pushes'] / E:.3f},{res['lists']},{res['walk']},{dt:.1f}",
                      flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
