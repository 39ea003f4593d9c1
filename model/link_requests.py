"""Requests and 32-byte sectors a zero-copy traversal sends over the link, per launch of a trace (issue 24; the
rules of kernels/include/emogi/request_count.hpp, in closed form, plus the sharing of a unit between neighbouring
lists; docs/predictor.md, "Link requests from the graph").

Per list [b, e) (entries of `eb` bytes; byte range [b·eb, e·eb)), with lines(x) and sectors(x) the 128-byte lines
and 32-byte sectors the byte range touches:
- aligned walks (merged-aligned, chunked, frontier, gauss-seidel, afforest, direction-optimizing): each warp step
  starts on a line, so steps never split a line: requests = lines, sectors = sectors.
- merged: steps of 32 entries from b; 32·eb is a multiple of 128, so when b·eb is not on a line boundary every one
  of the steps − 1 inner step boundaries splits a line (and, when not on a sector boundary, a sector) in two
  requests: requests = lines + (steps − 1), sectors = sectors + (steps − 1)·[b·eb mod 32 ≠ 0].
- naive: a thread walks its list alone, one 32-byte sector per request: requests = sectors = sectors(list).
Sharing: neighbouring lists (consecutive vertices the launch reads, in address order) issue their first steps
together (neighbouring warps, or the lanes of one naive warp), so a unit (line; sector for naive) that the first
step of one list and the first step of the next both touch is fetched once: one request fewer, and one sector
fewer where they touch the same sector. Later steps are never shared. Weights (SSSP) are a second array read the
same way at 4 bytes per entry.
"""

from __future__ import annotations

import numpy as np

from emogi.traces import launch_entries
from model.gpu_features import WARP

LINE = 128
SECTOR = 32
ALIGNED_WALKS = ("merged-aligned", "chunked", "frontier", "gauss-seidel", "afforest", "direction-optimizing")
WALKS = ("naive", "merged", *ALIGNED_WALKS)


def _units(lo_byte, hi_byte, unit):
    """Units of `unit` bytes that [lo, hi) touches (0 for an empty range)."""
    return np.where(hi_byte > lo_byte, (hi_byte - 1) // unit - lo_byte // unit + 1, 0)


def list_requests(variant: str, begin, end, entry_bytes: int, share: bool = True) -> tuple[int, int]:
    """(requests, sectors) of reading the lists [begin[i], end[i]) in address order (begin sorted)."""
    if variant not in WALKS:
        raise ValueError(f"no request rule for variant {variant!r} (known: {', '.join(WALKS)})")
    b = np.asarray(begin, dtype=np.int64)
    e = np.asarray(end, dtype=np.int64)
    keep = e > b
    b, e = b[keep], e[keep]
    if len(b) == 0:
        return 0, 0
    lo, hi = b * entry_bytes, e * entry_bytes
    sectors = _units(lo, hi, SECTOR)
    if variant == "naive":
        requests = sectors.copy()
        unit = SECTOR
        first_hi = np.minimum(hi, (lo // SECTOR + 1) * SECTOR)  # a thread's first request: its first sector
    else:
        requests = _units(lo, hi, LINE)
        unit = LINE
        start = b if variant == "merged" else b - b % (LINE // entry_bytes)
        if variant == "merged":
            steps = -(-(e - b) // WARP)
            requests = requests + np.where(lo % LINE != 0, steps - 1, 0)
            sectors = sectors + np.where(lo % SECTOR != 0, steps - 1, 0)
        first_hi = np.minimum(hi, (start + WARP) * entry_bytes)  # the first warp step's bytes
    n_req, n_sec = int(requests.sum()), int(sectors.sum())
    if share and len(b) > 1:
        # the next list's first unit is the previous list's last first-step unit: fetched once
        same_unit = (first_hi[:-1] - 1) // unit == lo[1:] // unit
        same_sector = same_unit & ((first_hi[:-1] - 1) // SECTOR == lo[1:] // SECTOR)
        n_req -= int(same_unit.sum())
        n_sec -= int(same_sector.sum())
    return n_req, n_sec


def trace_requests(trace, offsets, variant: str, share: bool = True):
    """Per launch of `trace`: (requests, sectors, needed bytes), edges and weights together."""
    off = np.asarray(offsets)
    out = []
    for i in range(trace.num_launches):
        _, begin, end = launch_entries(trace, off, i)
        r, s = list_requests(variant, begin, end, trace.edge_bytes, share)
        needed = int((end - begin).sum()) * (trace.edge_bytes + trace.weight_bytes)
        if trace.weight_bytes:
            rw, sw = list_requests(variant, begin, end, trace.weight_bytes, share)
            r, s = r + rw, s + sw
        out.append((r, s, needed))
    return out
