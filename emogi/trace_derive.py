"""Access traces derived on the CPU from what each kernel reads (docs/kernels.md), without a GPU.

Exact where the set of lists a launch reads does not depend on the GPU's update order:
- BFS, every variant: the level-synchronous frontiers are the same whatever the order. The scan variants and
  `frontier` read the frontier's lists each level; `direction-optimizing` switches as the kernel does (Beamer's
  rule on frontier sizes and edge counts, alpha 15, beta 18, all known from the levels) and in a bottom-up step
  each unvisited vertex reads aligned lines of its list up to the line holding its first neighbour in the frontier.
- CC `afforest`: the two sample rounds read entry 0 and entry 1 of each list; the giant component is the sampled
  graph's component most of the kernel's 1024 fixed sample positions vote for; the finish reads the rest of the
  lists of the vertices outside it (exact up to component roots relabelled while the finish runs).

Approximate where atomics and in-place updates make the GPU's sets depend on timing (their error is to be
measured against traces recorded on the GPU):
- SSSP scan variants: Bellman-Ford; a launch reads the lists of the vertices whose distance fell in the launch
  before. The GPU's warps read distances lowered earlier in the same launch; here the active vertices are relaxed
  in waves of RESIDENT_WARPS consecutive ones, each wave seeing what earlier waves lowered (wave = 0: Jacobi).
- SSSP `frontier`: Jacobi delta-stepping with the kernel's bucket rule (pending vertices below the bound; an
  empty bucket moves the bound to the least pending distance + delta); every weight of a list read is counted as
  read, although the kernel skips weights that cannot lower a distance.
- CC scan variants: label propagation from every vertex, in waves as SSSP's; a launch reads the lists of the
  vertices whose label fell in the launch before.
- PageRank: push rounds from residual 1 - alpha; Jacobi rounds (scan variants, `frontier`) push from the
  vertices whose residual exceeded the tolerance when the round began, in float64 where the GPU adds float32;
  `gauss-seidel` takes `blocks` consecutive vertex ranges in turn (model/pagerank_sweeps.py's schedule).

    python -m emogi.trace_derive --graph G.csr --algorithm bfs --variant merged-aligned --root 5 --out T.npz
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from emogi.cli import exit_status
from emogi.csr import GraphFormatError, read_csr
from emogi.traces import (
    WEIGHT_ENTRY_BYTES,
    Trace,
    TraceError,
    graph_checksum,
    save_trace,
)

SCAN_VARIANTS = ("naive", "merged", "merged-aligned", "chunked")
SUPPORTED = {
    "bfs": SCAN_VARIANTS + ("frontier", "direction-optimizing"),
    "sssp": SCAN_VARIANTS + ("frontier",),
    "cc": SCAN_VARIANTS + ("afforest",),
    "pagerank": SCAN_VARIANTS + ("frontier", "gauss-seidel"),
}
BEAMER_ALPHA, BEAMER_BETA = 15, 18  # bfs_frontier.cuh
AFFOREST_SAMPLES = 1024  # cc.cuh: kAfforestSamples, positions from a fixed LCG
LINE_BYTES = 128
RESIDENT_WARPS = 132 * 64  # H100: 132 SMs x 64 resident warps, a warp per vertex in the scan kernels
_MAX_ENTRIES = 1 << 24  # list entries gathered per step (bounded temporaries)
_INF = np.iinfo(np.int64).max // 4


def _selected_entries(offsets, mask):
    """The list entries of the vertices in `mask` (a boolean mask, or sorted vertex ids), a bounded number at a
    time: yields (vertex of each entry, entry positions), both int64 and in address order."""
    sel_all = np.flatnonzero(mask) if mask.dtype == bool else mask
    if len(sel_all) == 0:
        return
    deg_all = (offsets[sel_all + 1] - offsets[sel_all]).astype(np.int64)
    cum = np.cumsum(deg_all)
    lo = 0
    while lo < len(sel_all):
        base = cum[lo - 1] if lo else 0
        hi = max(int(np.searchsorted(cum, base + _MAX_ENTRIES, side="right")), lo + 1)
        sel, deg = sel_all[lo:hi], deg_all[lo:hi]
        total = int(deg.sum())
        if total:
            starts = offsets[sel].astype(np.int64)
            idx = np.repeat(starts - (np.cumsum(deg) - deg), deg) + np.arange(total, dtype=np.int64)
            yield np.repeat(sel, deg), idx
        lo = hi


def _new_trace(graph, name, algorithm, variant, root, fidelity, note, weight_bytes=0):
    if variant not in SUPPORTED.get(algorithm, ()):
        raise TraceError(
            f"no CPU derivation of {algorithm} {variant!r}; supported: "
            f"{', '.join(SUPPORTED.get(algorithm, ())) or 'none for this algorithm'}"
        )
    return Trace(
        graph=name,
        checksum=graph_checksum(graph),
        num_vertices=graph.num_vertices,
        num_edges=graph.num_edges,
        algorithm=algorithm,
        variant=variant,
        edge_bytes=graph.index_bytes,
        weight_bytes=weight_bytes,
        root=-1 if root is None else int(root),
        source="derived",
        fidelity=fidelity,
        note=note,
    )


def _check_root(graph, root):
    if root is None or not 0 <= int(root) < graph.num_vertices:
        raise TraceError(f"root {root} is not a vertex (V = {graph.num_vertices})")
    return int(root)


# ---------------------------------------------------------------------------------------------- BFS


def bfs_levels(offsets, edges, root: int):
    """Frontier masks of a level-synchronous BFS from `root`, level by level (non-empty ones)."""
    n = len(offsets) - 1
    visited = np.zeros(n, dtype=bool)
    frontier = np.zeros(n, dtype=bool)
    frontier[root] = visited[root] = True
    while frontier.any():
        yield frontier
        nxt = np.zeros(n, dtype=bool)
        for _, idx in _selected_entries(offsets, frontier):
            nxt[np.asarray(edges[idx], dtype=np.int64)] = True
        nxt &= ~visited
        visited |= nxt
        frontier = nxt


def _bottom_up_counts(offsets, edges, unvisited, frontier, per_line: int):
    """Entries each unvisited vertex reads in a bottom-up step: whole aligned lines up to the line holding its
    first neighbour in the frontier (the whole list when it has none), counted from its list's start."""
    counts = []
    for src, idx in _selected_entries(offsets, unvisited):
        hits = idx[frontier[np.asarray(edges[idx], dtype=np.int64)]]
        starts_at = np.flatnonzero(np.r_[True, src[1:] != src[:-1]])
        sel = src[starts_at]
        begin = offsets[sel].astype(np.int64)
        end = offsets[sel + 1].astype(np.int64)
        if len(hits):
            j = np.searchsorted(hits, begin)
            first_hit = hits[np.minimum(j, len(hits) - 1)]
            found = (j < len(hits)) & (first_hit < end)
            stop = np.where(found, (first_hit // per_line + 1) * per_line, end)
        else:
            stop = end
        counts.append(np.minimum(stop, end) - begin)
    return np.concatenate(counts) if counts else np.zeros(0, dtype=np.int64)


def bfs_trace(graph, root, variant: str = "merged-aligned", name: str = "graph") -> Trace:
    root = _check_root(graph, root)
    if variant == "direction-optimizing" and graph.directed:
        raise TraceError(
            f"{name}: direction-optimizing on a directed graph reads its transpose in bottom-up steps, which a trace "
            "of the graph's lists does not describe (emogi run --trace-out refuses it too)"
        )
    if variant == "direction-optimizing":
        note = (
            "level-synchronous frontiers; Beamer's switch (alpha 15, beta 18) as bfs_frontier.cuh; bottom-up "
            "steps read aligned lines up to the first parent"
        )
    else:
        note = "level-synchronous frontiers: each launch reads the frontier's lists"
    trace = _new_trace(graph, name, "bfs", variant, root, "exact", note)
    offsets = np.asarray(graph.offsets, dtype=np.int64)
    degree = np.diff(offsets)
    n, unexplored, previous, bottom_up = graph.num_vertices, graph.num_edges, 0, False
    visited = np.zeros(n, dtype=bool)
    for level, frontier in enumerate(bfs_levels(offsets, graph.edges, root)):
        visited |= frontier
        if variant != "direction-optimizing":
            trace.add_launch(frontier, f"level {level}")
            continue
        size, frontier_edges = int(frontier.sum()), int(degree[frontier].sum())
        unexplored -= frontier_edges
        if not bottom_up and frontier_edges > unexplored // BEAMER_ALPHA and size > previous:
            bottom_up = True
        elif bottom_up and size < n // BEAMER_BETA and size < previous:
            bottom_up = False
        previous = size
        if not bottom_up:
            trace.add_launch(frontier, f"level {level} top-down")
            continue
        unvisited = ~visited & (degree > 0)
        counts = _bottom_up_counts(offsets, graph.edges, unvisited, frontier, LINE_BYTES // graph.index_bytes)
        trace.add_launch(unvisited, f"level {level} bottom-up", np.zeros_like(counts), counts)
    return trace


# ---------------------------------------------------------------------------------------------- SSSP


def default_delta(graph, fraction: float = 0.4) -> int:
    """The `frontier` kernel's bucket width: `fraction` x the mean weight of a strided sample of 100000 entries
    (kernels/src/problems/sssp.cu; fraction 1 before commit eda7b26, 0.4 since)."""
    step = graph.num_edges // 100000 + 1
    sample = np.asarray(graph.weights[::step], dtype=np.float64)
    return max(1, int(fraction * sample.sum() / len(sample))) if len(sample) else 1


def _relax_in_waves(offsets, edges, weights, dist, active, wave: int):
    """Relaxes the lists of `active` in place, `wave` vertices at a time in id order: later waves see what
    earlier ones lowered (wave = 0: all at once, Jacobi)."""
    ids = np.flatnonzero(active)
    step = wave or max(len(ids), 1)
    for k in range(0, len(ids), step):
        snapshot = dist if wave else dist.copy()
        for src, idx in _selected_entries(offsets, ids[k : k + step]):
            cand = snapshot[src] + np.asarray(weights[idx], dtype=np.int64)
            np.minimum.at(dist, np.asarray(edges[idx], dtype=np.int64), cand)


def sssp_trace(
    graph,
    root,
    variant: str = "merged-aligned",
    name: str = "graph",
    delta: int | None = None,
    wave: int = RESIDENT_WARPS,
    max_launches: int = 100000,
) -> Trace:
    """delta: the `frontier` variant's bucket width (default: the kernel's, default_delta). wave: vertices whose
    lists a scan launch relaxes at once before later ones see the result (the GPU's resident warps)."""
    root = _check_root(graph, root)
    if graph.weights is None:
        raise TraceError(f"{name}: SSSP needs a graph with weights")
    frontier = variant == "frontier"
    delta = default_delta(graph) if frontier and delta is None else delta
    if frontier:
        note = f"Jacobi delta-stepping, delta {delta}; every weight of a list read is counted as read"
    else:
        note = (
            f"Bellman-Ford in waves of {wave} vertices: a launch reads the lists of the vertices improved in "
            f"the launch before"
        )
    trace = _new_trace(graph, name, "sssp", variant, root, "approximate", note, WEIGHT_ENTRY_BYTES)
    offsets = np.asarray(graph.offsets, dtype=np.int64)
    n = graph.num_vertices
    dist = np.full(n, _INF, dtype=np.int64)
    dist[root] = 0
    pending = np.zeros(n, dtype=bool)
    pending[root] = True
    bound = delta if frontier else _INF
    while trace.num_launches < max_launches:
        active = pending & (dist < bound)
        if not active.any():
            if not frontier or not pending.any():
                break
            bound = int(dist[pending].min()) + delta
            continue
        pending &= ~active
        trace.add_launch(active, f"bound {bound}" if frontier else f"iteration {trace.num_launches}")
        new = dist.copy()
        _relax_in_waves(offsets, graph.edges, graph.weights, new, active, 0 if frontier else wave)
        pending |= new < dist
        dist = new
    else:
        raise TraceError(f"{name}: SSSP did not settle in {max_launches} launches")
    return trace


# ---------------------------------------------------------------------------------------------- CC


def _afforest(graph, name) -> Trace:
    trace = _new_trace(
        graph,
        name,
        "cc",
        "afforest",
        None,
        "exact",
        "two sample rounds (entries 0 and 1), giant component voted at the kernel's 1024 positions, "
        "finish reads the rest of the lists outside it; roots relabelled during the finish ignored",
    )
    offsets = np.asarray(graph.offsets, dtype=np.int64)
    n, degree = graph.num_vertices, np.diff(offsets)
    rows, cols = [], []
    for k in (0, 1):
        has = degree > k
        trace.add_launch(has, f"sample {k}", np.full(int(has.sum()), k, np.int64), np.ones(int(has.sum()), np.int64))
        v = np.flatnonzero(has)
        rows.append(v)
        cols.append(np.asarray(graph.edges[offsets[v] + k], dtype=np.int64))
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    _, comp = connected_components(
        coo_matrix((np.ones(len(rows), np.int8), (rows, cols)), shape=(n, n)), directed=False
    )
    least = np.full(comp.max() + 1, n, dtype=np.int64)
    np.minimum.at(least, comp, np.arange(n))
    label = least[comp]  # after linking and compressing, every vertex points at its sampled component's least id
    at = np.empty(AFFOREST_SAMPLES, dtype=np.uint64)
    x = np.uint64(0x9E3779B97F4A7C15)
    with np.errstate(over="ignore"):
        for i in range(AFFOREST_SAMPLES):
            x = x * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
            at[i] = x % np.uint64(n)
    votes, tally = np.unique(label[at.astype(np.int64)], return_counts=True)
    giant = votes[np.argmax(tally)]  # the first of the most common, as the kernel's scan of sorted votes
    rest = (label != giant) & (degree > 2)
    k = int(rest.sum())
    trace.add_launch(rest, "finish", np.full(k, 2, np.int64), degree[rest] - 2)
    return trace


def cc_trace(
    graph, variant: str = "merged-aligned", name: str = "graph", wave: int = RESIDENT_WARPS, max_launches: int = 100000
) -> Trace:
    if graph.directed:
        raise TraceError(f"{name}: CC needs an undirected graph")
    if variant == "afforest":
        return _afforest(graph, name)
    trace = _new_trace(
        graph,
        name,
        "cc",
        variant,
        None,
        "approximate",
        f"label propagation in waves of {wave} vertices: a launch reads the lists of the vertices "
        f"whose label fell in the launch before (every vertex in the first)",
    )
    offsets = np.asarray(graph.offsets, dtype=np.int64)
    label = np.arange(graph.num_vertices, dtype=np.int64)
    active = np.ones(graph.num_vertices, dtype=bool)
    while active.any() and trace.num_launches < max_launches:
        trace.add_launch(active, f"round {trace.num_launches}")
        before = label.copy()
        ids = np.flatnonzero(active)
        step = wave or len(ids)
        for k in range(0, len(ids), step):
            snapshot = label if wave else label.copy()
            for src, idx in _selected_entries(offsets, ids[k : k + step]):
                dst = np.asarray(graph.edges[idx], dtype=np.int64)
                low = np.minimum(snapshot[src], snapshot[dst])
                np.minimum.at(label, dst, low)
                np.minimum.at(label, src, low)
        active = label < before
    return trace


# ---------------------------------------------------------------------------------------------- PageRank


def pagerank_trace(
    graph,
    variant: str = "merged-aligned",
    name: str = "graph",
    alpha: float = 0.85,
    tolerance: float = 1e-3,
    blocks: int = 256,
    max_launches: int = 5000,
) -> Trace:
    """Push PageRank's rounds; `blocks` vertex ranges per round for gauss-seidel (1 for the Jacobi variants)."""
    gs = variant == "gauss-seidel"
    trace = _new_trace(
        graph,
        name,
        "pagerank",
        variant,
        None,
        "approximate",
        (f"Gauss-Seidel push, {blocks} vertex ranges in turn per round" if gs else "Jacobi push rounds")
        + f", alpha {alpha}, tolerance {tolerance}, float64",
    )
    offsets = np.asarray(graph.offsets, dtype=np.int64)
    n = graph.num_vertices
    degree = np.diff(offsets)
    share = np.divide(alpha, degree, out=np.zeros(n), where=degree > 0)
    bounds = np.linspace(0, n, (blocks if gs else 1) + 1).astype(np.int64)
    residual = np.full(n, 1.0 - alpha)
    rate = np.zeros(n)  # what each entry of a pusher's list carries, set for the pushers of one range at a time
    while trace.num_launches < max_launches:
        pushed = np.zeros(n, dtype=bool)
        for lo, hi in itertools.pairwise(bounds):
            take = residual[lo:hi] > tolerance
            if not take.any():
                continue
            ids = np.flatnonzero(take) + lo
            carried = residual[ids] * share[ids]
            residual[ids] = 0.0
            pushed[ids] = True
            rate[ids] = carried
            for src, idx in _selected_entries(offsets, ids):  # only the pushers' lists, bounded at a time
                np.add.at(residual, np.asarray(graph.edges[idx], dtype=np.int64), rate[src])
            rate[ids] = 0.0
        pushed &= degree > 0
        if not pushed.any():
            break
        trace.add_launch(pushed, f"round {trace.num_launches}")
    else:
        raise TraceError(f"{name}: PageRank did not converge in {max_launches} rounds")
    return trace


def derive(graph, algorithm: str, variant: str, root=None, name: str = "graph", **options) -> Trace:
    """The CPU-derived trace of one run (root for BFS and SSSP)."""
    if algorithm == "bfs":
        return bfs_trace(graph, root, variant, name)
    if algorithm == "sssp":
        return sssp_trace(graph, root, variant, name, **options)
    if algorithm == "cc":
        return cc_trace(graph, variant, name)
    if algorithm == "pagerank":
        return pagerank_trace(graph, variant, name, **options)
    raise TraceError(f"unknown algorithm {algorithm!r}; known: {', '.join(SUPPORTED)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m emogi.trace_derive",
        description="Derive a run's access trace on "
        "the CPU (exact for BFS and Afforest, approximate otherwise; see the module doc).",
    )
    ap.add_argument("--graph", required=True, help="EMOGI CSR file")
    ap.add_argument("--algorithm", required=True, choices=sorted(SUPPORTED))
    ap.add_argument("--variant", required=True)
    ap.add_argument("--root", type=int, help="source vertex (BFS, SSSP)")
    ap.add_argument("--name", help="graph name for the trace (default: the file's stem)")
    ap.add_argument("--out", required=True, help="trace file (.npz)")
    a = ap.parse_args(argv)

    def run():
        graph = read_csr(a.graph, verify_checksum=False)
        trace = derive(graph, a.algorithm, a.variant, a.root, name=a.name or Path(a.graph).name.split(".")[0])
        save_trace(trace, a.out)
        print(f"{a.out}: {trace.num_launches} launches ({trace.fidelity}: {trace.note})")

    return exit_status(run, (TraceError, GraphFormatError, OSError))


if __name__ == "__main__":
    sys.exit(main())
