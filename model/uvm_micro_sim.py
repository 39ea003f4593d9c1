"""`emogi uvmfault`'s patterns as the UVM simulator sees them: one launch reading lists of a synthetic edge array.

The microbenchmark (kernels/src/micro/uvmfault_command.cu) reads a managed buffer of B bytes once as lists: list i
spans `list_bytes` from byte i x stride, a thread per list (32 consecutive lists per warp) or a warp per list. As a
trace (emogi/traces.py): 8-byte entries; with lists back to back every vertex is a list, otherwise vertex 2i is
list i and vertex 2i + 1 the gap after it, which no launch reads (a thread's 32 lists then span 64 vertices).
`counts` simulates the launch cold (model/uvm_sim.py) and returns what the costs multiply: migrated bytes, fault
batches, serviced 2 MiB regions and (warp, cold page) faults.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from emogi.traces import Trace
from model.uvm_sim import simulate

ENTRY_BYTES = 8  # the microbenchmark reads uint64 words
CHECKSUM = 0  # the synthetic array's stand-in checksum (no file)
COUNT_KEYS = ("migrated_bytes", "fault_entries", "list_faults", "batches", "serviced_chunks")


def layout(buffer_bytes: int, list_bytes: int, stride: int) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, read mask) of the synthetic graph: entries per vertex and which vertices the launch reads."""
    stride = stride or list_bytes
    if list_bytes <= 0 or list_bytes % ENTRY_BYTES or stride < list_bytes or stride % ENTRY_BYTES:
        raise ValueError(f"need list bytes > 0, multiples of 8, stride >= list bytes: {list_bytes}, {stride}")
    if buffer_bytes % stride:
        raise ValueError(f"the stride {stride} must divide the buffer's {buffer_bytes} bytes")
    lists, words, step = buffer_bytes // stride, list_bytes // ENTRY_BYTES, stride // ENTRY_BYTES
    if stride == list_bytes:
        degree = np.full(lists, words, dtype=np.int64)
        read = np.ones(lists, dtype=bool)
    else:
        degree = np.empty(2 * lists, dtype=np.int64)
        degree[0::2], degree[1::2] = words, step - words
        read = np.zeros(2 * lists, dtype=bool)
        read[0::2] = True
    return np.concatenate([[0], np.cumsum(degree)]), read


def counts(buffer_bytes: int, list_bytes: int, stride: int, access: str) -> dict:
    """Cold counts of one uvmfault pattern (access: thread or warp)."""
    if access not in ("thread", "warp"):
        raise ValueError(f"access must be thread or warp, got {access!r}")
    offsets, read = layout(buffer_bytes, list_bytes, stride)
    graph = SimpleNamespace(offsets=offsets, header=SimpleNamespace(checksum=CHECKSUM), path="uvmfault")
    trace = Trace(
        graph="uvmfault",
        checksum=f"{CHECKSUM:016x}",
        num_vertices=len(read),
        num_edges=int(offsets[-1]),
        algorithm="uvmfault",
        variant=access,
        edge_bytes=ENTRY_BYTES,
        note="synthetic: emogi uvmfault's one launch",
    )
    trace.add_launch(read, "uvmfault")
    gapped = (stride or list_bytes) != list_bytes
    per_warp = (64 if gapped else 32) if access == "thread" else 1
    totals = simulate(trace, graph, lists_per_warp=per_warp).totals()
    return {k: int(totals[k]) for k in COUNT_KEYS}
