"""The streamed mode (CF'17's blocks, issue 22) predicted from a CPU-derived trace: model.streamed.predict_ms over
uniform blocks of the lists, each sweep (a launch of the trace) launching only the blocks that hold part of a list
the launch reads (--stream-skip on), kernels at the floor's rate per list entry read. model.select predicts it per
GPU-memory budget (the best block whose buffers fit); model.graph_predict for the what-if (a block, or the best).
"""

from __future__ import annotations

import math

import numpy as np

from emogi.registry import vocabulary
from model.streamed import LinkCurve, predict_ms, uniform_blocks

BUFFERS = 2  # --stream-buffers
MARGIN = 0.02  # of the budget, left free beside the streamed buffers: the vertex data are an estimate
BLOCKS = [1 << k for k in range(14, 31)]  # block candidates, 16 KiB to 1 GiB
MARK_BYTES = 17  # a block's marks and bookkeeping in GPU memory


def streamed_variants(algorithm: str) -> tuple[str, ...]:
    """The variants of `algorithm` the streamed mode runs (emogi/registry.yaml `streamed`; none: not streamed)."""
    return tuple(vocabulary().streamed_of().get(algorithm, ()))


def flat_link(W_gbps: float) -> LinkCurve:
    """Copies at W whatever their size: a preset knows its link limit, not the copy curve below it."""
    return LinkCurve((1.0,), (float(W_gbps),))


def active_marks(trace, offsets, entry: int, list_bytes: int, fine: int) -> list[np.ndarray]:
    """Per launch, which blocks of `fine` bytes hold part of a list the launch reads."""
    off = np.asarray(offsets, dtype=np.int64)
    degree = np.diff(off)
    n = max(1, math.ceil(list_bytes / fine))
    marks = []
    for i in range(trace.num_launches):
        v = np.flatnonzero(trace.mask(i) & (degree > 0))
        first, last = off[v] * entry // fine, ((off[v + 1] * entry) - 1) // fine
        depth = np.cumsum(np.bincount(first, minlength=n + 1) - np.bincount(last + 1, minlength=n + 1))
        marks.append(depth[:n] > 0)
    return marks


def predict(
    trace, graph, w: dict, link: LinkCurve, room: int | None = None, memory: int | None = None, sizes=None
) -> tuple[float, int, int, str]:
    """(predicted ms, block bytes, blocks, why not) of the best of `sizes` (default BLOCKS) whose buffers fit
    `room` bytes (None: no budget) of `memory`; `w` is the run's workload (model.graph_predict: floor_ms,
    bytes_needed)."""
    algorithm, variant = trace.algorithm, trace.variant
    if variant not in streamed_variants(algorithm):
        return math.nan, 0, 0, f"the streamed mode does not run {algorithm} {variant}"
    entry = trace.edge_bytes + trace.weight_bytes
    list_bytes = graph.num_edges * entry
    degree = np.diff(np.asarray(graph.offsets, dtype=np.int64))
    # gauss-seidel refuses split lists: a block holds the longest list from a 32-entry boundary
    longest = (int(degree.max()) + 31) * entry if variant == "gauss-seidel" else 0
    top = next((b for b in BLOCKS if b >= list_bytes), BLOCKS[-1])

    def fits(b):
        n = math.ceil(list_bytes / b)
        return room is None or BUFFERS * b + MARK_BYTES * n + MARGIN * memory <= room

    if sizes is None:
        sizes = [b for b in BLOCKS if longest <= b <= top and fits(b)]
        if not sizes:
            why = "no block's buffers fit beside the vertex data"
            return math.nan, 0, 0, why + (" (gauss-seidel: a block holds the longest list)" if longest else "")
    elif any(b < longest for b in sizes):
        return math.nan, 0, 0, f"gauss-seidel: a block must hold the longest list ({longest} bytes)"
    entries = w["bytes_needed"] / entry
    if not entries or not w["floor_ms"] > 0:
        return math.nan, 0, 0, "the trace reads no list"
    rate = entries / w["floor_ms"]  # list entries per ms in GPU memory, from the floor
    fine = min(sizes)
    marks = active_marks(trace, graph.offsets, entry, list_bytes, fine)
    best = (math.inf, 0, 0, "")
    for b in sizes:
        blocks = uniform_blocks(list_bytes, b)
        group = b // fine
        active = []
        for m in marks:
            padded = np.zeros(-(-len(m) // group) * group, dtype=bool)
            padded[: len(m)] = m
            active.append(float(padded.reshape(-1, group).any(axis=1)[: len(blocks)].sum()) / len(blocks))
        ms = predict_ms(blocks, entry, link, rate, buffers=BUFFERS, active=active)
        if ms < best[0]:
            best = (ms, b, len(blocks), "")
    return best
