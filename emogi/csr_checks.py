"""The structural checks of a graph (docs/graph-format.md, "Errors"): offsets, neighbour ids and zero padding.

A graph file is untrusted input: a valid checksum only says that nobody changed the file since it was hashed, so
every reader runs these on every file (kernels/src/csr_check.cpp does the same in C++, with the same messages).
Large arrays are checked in blocks on all cores (numpy releases the GIL in reductions), with progress lines on
stderr, and the first bad position is the one reported, so that a message does not depend on the thread count.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

_BLOCK = 1 << 22  # elements per task
PROGRESS_MIN_BYTES = 1 << 30  # progress lines for sections at least this large


class GraphFormatError(ValueError):
    """A graph file (or array set) that does not follow docs/graph-format.md."""


def _first_bad(n: int, nbytes: int, block_check, label: str) -> int | None:
    """The smallest position block_check(lo, hi) reports over [0, n) in blocks (None if none)."""
    if n <= _BLOCK:
        return block_check(0, n)
    progress = nbytes >= PROGRESS_MIN_BYTES
    if progress:
        print(f"{label} ...", file=sys.stderr, flush=True)
    starts = range(0, n, _BLOCK)
    shown = 0
    with ThreadPoolExecutor(max_workers=min(os.cpu_count() or 1, 64)) as pool:
        for k, bad in enumerate(pool.map(lambda lo: block_check(lo, min(n, lo + _BLOCK)), starts)):
            if bad is not None:
                return bad  # in block order: the first bad block holds the smallest position
            tenth = (k + 1) * 10 // len(starts)
            if progress and tenth > shown:
                shown = tenth
                print(f"{label}: {10 * tenth}%", file=sys.stderr, flush=True)
    return None


def check_offsets(offsets, num_edges: int, where: str = "graph") -> None:
    """Raise GraphFormatError unless offsets start at 0, never decrease and end at `num_edges`."""
    if offsets.ndim != 1 or len(offsets) < 1:
        raise GraphFormatError(f"{where}: offsets must be a 1-D array of V + 1 entries")
    if offsets.dtype.kind not in "iu":
        raise GraphFormatError(f"{where}: offsets must be integers, not {offsets.dtype}")
    if int(offsets[0]) != 0:
        raise GraphFormatError(f"{where}: bad offsets: offsets[0] = {int(offsets[0])}, must be 0")

    def decrease(lo, hi):
        block = offsets[lo : hi + 1]  # one past the block, so that every adjacent pair is compared
        bad = np.flatnonzero(block[1:] < block[:-1])
        return lo + int(bad[0]) if len(bad) else None

    n = len(offsets) - 1
    v = _first_bad(n, 8 * n, decrease, f"{where}: checking offsets")
    if v is not None:
        raise GraphFormatError(
            f"{where}: bad offsets: offsets decrease at vertex {v} ({int(offsets[v])} -> {int(offsets[v + 1])})"
        )
    if int(offsets[-1]) != num_edges:
        raise GraphFormatError(f"{where}: bad offsets: offsets[V] = {int(offsets[-1])}, must equal E = {num_edges}")


def check_edge_ids(edges, num_vertices: int, where: str = "graph", offsets=None) -> None:
    """Raise GraphFormatError if any neighbour id is >= V; with `offsets` (checked), the message names the vertex."""

    def too_large(lo, hi):
        block = edges[lo:hi]
        if not len(block) or int(block.max()) < num_vertices:
            return None
        return lo + int(np.argmax(block >= num_vertices))

    i = _first_bad(len(edges), edges.nbytes, too_large, f"{where}: checking {len(edges)} neighbour ids")
    if i is None:
        return
    owner = ""
    if offsets is not None:
        owner = f" (a neighbour of vertex {int(np.searchsorted(offsets, i, side='right')) - 1})"
    raise GraphFormatError(f"{where}: neighbour id {int(edges[i])} at edge {i}{owner} is >= V = {num_vertices}")


def check_zero(data, start: int, end: int, what: str, where: str) -> None:
    """Raise GraphFormatError unless bytes [start, end) of `data` (a uint8 array) are zero."""
    nonzero = np.flatnonzero(np.asarray(data[start:end]))
    if len(nonzero):
        raise GraphFormatError(f"{where}: {what} is not zero (byte {start + int(nonzero[0])})")
