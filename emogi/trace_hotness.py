"""How often a run reads each list, from its trace: the read counts `emogi run --auto-order hottest-first --auto-hot`
takes, and c, the share of the read bytes GPU memory would serve at a budget, without a GPU.

At a GPU-memory budget `auto` keeps some whole lists in GPU memory and reads the rest over the link. A list read
`n` times costs the link n x its bytes, so keeping it saves n bytes per byte of GPU memory: hottest-first keeps
lists in descending count (ties: the shorter, then the lower id), each one that still fits
(kernels/src/moved_lists.cpp, mirrored by hot_placement). c is the kept lists' share of sum(count x list bytes);
where the link bounds the run, the time is then at least (1 - c) of zero-copy's, a speed-up of at most 1/(1 - c).

A launch counts as a read of v's list when it reads at least one entry of it (a part, first/count, included).
The counts file is raw little-endian uint32, V entries. What a read is worth (`weight`, WEIGHTS) depends on the
reader, so a variant may rank by other counts than the launches (HOT_WEIGHTS; the counts file then holds values
per list entry in fixed point, FIXED per unit, which the binary ranks and shares out as it does read counts):
  launches    the launches that read the list: its bytes x reads are what the link carries for a reader of
              whole lists (the default)
  bytes       the entries each launch reads of it, per entry of the list: for readers that stop early (a
              bottom-up BFS step stops at the line of the first parent, so a long unvisited list costs a line,
              not its bytes); needs a trace with those parts (emogi.trace_exact)
  warp-steps  the lockstep steps its warp saves per entry kept: for a thread-per-list reader (`naive`), where
              a warp of 32 consecutive vertices takes as many dependent steps as its longest list read over
              the link, so keeping a warp's lists longest first saves steps, keeping its short lists alone
              none; not bytes: the latency of those steps is what bounds such a run (_warp_steps)

    python -m emogi.trace_hotness TRACE --graph G.csr --out HOT.u32 [--weight bytes] [--budget SIZE ...]

TRACE is an emogi.traces .npz, or a GPU recording (`emogi run --trace-out`) when it ends with .trace. (A module of
its own: emogi.trace_recording imports emogi.traces, so `python -m emogi.traces` could not load recordings with
one TraceError.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import atomic_path
from emogi.cli import exit_status
from emogi.csr import GraphFormatError, read_csr
from emogi.datasets.build_plan import parse_bytes
from emogi.trace_recording import load_recorded
from emogi.traces import Trace, TraceError, launch_entries, load_trace

MOVE_ALIGN_ENTRIES = 1024  # kMoveAlignEntries (moved_lists.hpp): the copy is padded to a multiple of these


def _degrees(offsets) -> np.ndarray:
    return np.diff(np.asarray(offsets, dtype=np.int64))


WEIGHTS = ("launches", "bytes", "warp-steps")
HOT_WEIGHTS = {"direction-optimizing": "bytes", "naive": "warp-steps"}  # variant -> weight; others: launches
FIXED = 1 << 16  # counts per unit of a fixed-point weight (a list read whole once: FIXED)
WARP_LANES = 32  # naive: a warp is 32 consecutive vertices (vertex_schedule.cuh, a thread per vertex)


def weight_of(variant: str) -> str:
    """What hottest-first ranks `variant`'s lists by (WEIGHTS)."""
    return HOT_WEIGHTS.get(variant, "launches")


def hotness(trace: Trace, offsets, weight: str = "launches") -> np.ndarray:
    """Per vertex, what its list's reads in `trace` are worth (WEIGHTS): uint32, V entries. `launches`: how many
    launches read at least one entry of it; `bytes`, `warp-steps`: in fixed point (FIXED per list read whole,
    at least 1 for a list read at all)."""
    degree = _degrees(offsets)
    if len(degree) != trace.num_vertices:
        raise TraceError(f"the trace has {trace.num_vertices} vertices, the offsets {len(degree)}")
    if weight not in WEIGHTS:
        raise ValueError(f"hotness weight must be one of {WEIGHTS}, got {weight!r}")
    if weight != "launches":
        value = _read_entries(trace, offsets) if weight == "bytes" else _warp_steps(trace, degree)
        per_entry = np.where(value > 0, value / np.maximum(degree, 1), 0.0)
        fixed = np.where(value > 0, np.maximum(1, np.rint(per_entry * FIXED)), 0)
        return np.minimum(fixed, np.iinfo(np.uint32).max).astype(np.uint32)
    counts = np.zeros(trace.num_vertices, dtype=np.int64)
    listed = degree > 0
    for i in range(trace.num_launches):
        mask = trace.mask(i)
        parts = trace.parts.get(i)
        if parts is None:
            counts += mask & listed
            continue
        sel = np.flatnonzero(mask)
        first, count = parts
        counts[sel[(count > 0) & (first < degree[sel])]] += 1
    return counts.astype(np.uint32)  # at most one per launch: no launch count comes near 2^32


def _read_entries(trace: Trace, offsets) -> np.ndarray:
    """Per vertex, the list entries all launches of `trace` read (its parts where it records them)."""
    entries = np.zeros(trace.num_vertices, dtype=np.int64)
    for i in range(trace.num_launches):
        sel, begin, end = launch_entries(trace, offsets, i)
        entries[sel] += end - begin  # a vertex once per launch
    return entries


def _warp_steps(trace: Trace, degree: np.ndarray) -> np.ndarray:
    """Per vertex, over the launches that read its list: the lockstep steps its warp (WARP_LANES consecutive
    vertices) saves per list entry kept, x its entries. A warp takes as many steps as its longest list read by
    the link; keeping its j longest lists saves d_1 - d_(j+1) steps for d_1 + ... + d_j entries, so a list's rate
    is the best such ratio over the longest-first prefixes that hold it (never rising from a warp's longest list
    to its shortest, so a warp's lists rank longest first; lists of equal length share)."""
    steps = np.zeros(trace.num_vertices, dtype=np.float64)
    for i in range(trace.num_launches):
        sel = np.flatnonzero(trace.mask(i) & (degree > 0))
        if not len(sel):
            continue
        d, w = degree[sel].astype(np.int64), sel // WARP_LANES
        o = np.lexsort((-d, w))  # by warp, each warp's lists longest first
        sel, d, w = sel[o], d[o], w[o]
        head = np.r_[True, w[1:] != w[:-1]]
        warp = np.cumsum(head) - 1
        total = np.cumsum(d)
        kept = total - (total - d)[head][warp]  # entries of the warp's lists up to this one
        following = np.r_[d[1:], 0]  # the next shorter list of the warp, 0 after its last
        following[np.r_[w[1:] != w[:-1], True]] = 0
        rate = (d[head][warp] - following) / kept
        best = pd.Series(rate[::-1]).groupby(warp[::-1]).cummax().to_numpy()[::-1]  # over prefixes holding it
        steps[sel] += best * d
    return steps


def hot_placement(counts, offsets, entry_bytes: int, budget_bytes: int) -> np.ndarray:
    """The vertices whose lists hottest-first moves to GPU memory, in their order in the copy (move_hot_lists):
    by descending count, the shorter list then the lower id first, never an empty list or one read 0 times, each
    one that still fits in `budget_bytes` at `entry_bytes` per entry (ids, plus weights for SSSP) beside the
    copy's padding. `budget_bytes` is what the lists get: emogi run's auto first takes the vertex data and
    V x 8 bytes of list starts from its GPU memory."""
    degree = _degrees(offsets)
    counts = np.asarray(counts)
    if counts.shape != degree.shape:
        raise ValueError(f"{counts.size} read counts for {degree.size} vertices")
    padding = MOVE_ALIGN_ENTRIES * entry_bytes
    room = (budget_bytes - padding) // entry_bytes if budget_bytes > padding else 0
    cand = np.flatnonzero((counts > 0) & (degree > 0) & (degree <= room))
    order = cand[np.lexsort((cand, degree[cand], -counts[cand].astype(np.int64)))]
    taken = []
    # The greedy in rounds: take the prefix that fits, then drop every list longer than the room left (the one
    # that stopped the prefix among them), and go on; the same lists as one at a time, without a Python loop each.
    while len(order):
        d = degree[order]
        k = int(np.searchsorted(np.cumsum(d), room, side="right"))
        taken.append(order[:k])
        room -= int(d[:k].sum())
        order = order[k:][degree[order[k:]] <= room]
    return np.concatenate(taken) if taken else np.zeros(0, dtype=np.int64)


def hot_fraction(counts, offsets, entry_bytes: int, budget_bytes: int) -> float:
    """c: the share of the read bytes, sum(count x list bytes), of the lists hot_placement keeps (0 where nothing
    is read). Where the link bounds the run, 1 / (1 - c) bounds the speed-up over reading everything by it."""
    degree = _degrees(offsets).astype(np.float64)
    weighted = np.asarray(counts, dtype=np.float64) * degree
    total = float(weighted.sum())
    if total == 0:
        return 0.0
    return float(weighted[hot_placement(counts, offsets, entry_bytes, budget_bytes)].sum()) / total


def write_hotness(counts, path) -> Path:
    path = Path(path)
    with atomic_path(path) as tmp:
        np.asarray(counts, dtype="<u4").tofile(tmp)
    return path


def read_hotness(path, num_vertices: int) -> np.ndarray:
    """A counts file, refused (ValueError, one line) unless it holds exactly `num_vertices` uint32."""
    size = Path(path).stat().st_size
    if size != 4 * num_vertices:
        raise ValueError(f"{path} holds {size} bytes, expected {4 * num_vertices} (one uint32 per vertex)")
    return np.fromfile(path, dtype="<u4")


def load_any(path, graph) -> Trace:
    """A trace for `graph`: a GPU recording when the name ends with .trace, else an emogi.traces .npz."""
    return load_recorded(path, graph) if str(path).endswith(".trace") else load_trace(path, graph)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m emogi.trace_hotness", description=__doc__.split("\n")[0])
    ap.add_argument("trace", help="an emogi.traces .npz, or a recording (`emogi run --trace-out`) ending in .trace")
    ap.add_argument("--graph", required=True, help="the CSR file the trace was made on (checksum checked)")
    ap.add_argument("--out", required=True, help="the counts, V little-endian uint32 (emogi run --auto-hot)")
    ap.add_argument("--weight", choices=WEIGHTS, default="launches", help="what a read is worth (module doc)")
    ap.add_argument(
        "--budget",
        action="append",
        default=[],
        type=parse_bytes,
        help="also print c and 1/(1-c) with this much GPU memory for the lists (repeatable; e.g. 1G)",
    )
    a = ap.parse_args(argv)

    def run():
        graph = read_csr(a.graph, verify_checksum=False)
        trace = load_any(a.trace, graph)
        if a.weight == "bytes":
            from emogi.trace_exact import exact_reads  # the parts a recording counts whole

            trace = exact_reads(trace, graph)
        counts = hotness(trace, graph.offsets, a.weight)
        write_hotness(counts, a.out)
        print(
            f"{a.out}: {trace.num_launches} launches, {int(np.count_nonzero(counts))} of {trace.num_vertices} "
            f"lists read, at most {int(counts.max(initial=0))}" + (" times" if a.weight == "launches" else "")
        )
        entry_bytes = trace.edge_bytes + trace.weight_bytes
        for budget in a.budget:
            c = hot_fraction(counts, graph.offsets, entry_bytes, budget)
            bound = f"{1 / (1 - c):.2f}x" if c < 1 else "unbounded"
            print(f"budget {budget / 2**20:.1f} MiB: c = {100 * c:.1f}% of the traced reads, 1/(1-c) = {bound}")

    return exit_status(run, (TraceError, GraphFormatError, OSError))


if __name__ == "__main__":
    sys.exit(main())
