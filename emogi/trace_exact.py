"""The parts of lists a recorded trace counts whole, made exact from the CPU's derivation where that is exact.

A GPU recording (`emogi run --trace-out`) marks each list a launch reads at all; where a kernel may stop early it
counts the list as read whole (emogi.trace_recording). Direction-optimizing BFS is such a case: a bottom-up step
reads each unvisited vertex's list one aligned 128-byte line at a time and stops at the line of its first parent
in the frontier. Which lines that is does not depend on the GPU's order (a level's frontier is the same whatever
the order, the bottom-up kernel only writes depths of the next level, which its test ignores), so the CPU's
trace (emogi.trace_derive) gives the entries each list read exactly. `exact_reads` derives it and takes its parts
only after checking that it reads the same lists in the same launches as the recording; any other trace comes
back as it is. c, the share of the bytes a run reads that GPU memory serves (model/oom_simulate.py), and the
`bytes` hotness that ranks hottest-first (emogi.trace_hotness) are then those of the bytes actually read.
"""

from __future__ import annotations

import numpy as np

from emogi.trace_derive import derive
from emogi.traces import Trace, TraceError

# (algorithm, variant) whose recorded partial launches the derivation makes exact
EXACT_PARTS = {("bfs", "direction-optimizing")}


def needs_parts(trace: Trace) -> bool:
    """Whether `trace` counts lists whole that its kernel reads in part, and the derivation knows the parts."""
    return (
        trace.source == "recorded"
        and trace.fidelity == "approximate"
        and (trace.algorithm, trace.variant) in EXACT_PARTS
    )


def exact_reads(trace: Trace, graph) -> Trace:
    """`trace` with the exact parts of the lists it counts whole (the module doc), or `trace` itself where it
    has none to make exact. TraceError (one line) where the derivation reads other lists or launches."""
    if not needs_parts(trace):
        return trace
    derived = derive(graph, trace.algorithm, trace.variant, trace.root, trace.graph)
    if derived.labels != trace.labels:
        raise TraceError(
            f"{trace.graph} {trace.variant} from {trace.root}: the CPU's launches {derived.labels} are not the "
            f"recording's {trace.labels}: its parts cannot stand for the recording's"
        )
    listed = np.diff(np.asarray(graph.offsets, dtype=np.int64)) > 0  # a recording drops empty lists
    for i in range(trace.num_launches):
        if not np.array_equal(derived.mask(i) & listed, trace.mask(i) & listed):
            raise TraceError(
                f"{trace.graph} {trace.variant} from {trace.root}: launch {i} ({trace.labels[i]}) reads other "
                "lists on the CPU than recorded: its parts cannot stand for the recording's"
            )
    exact = Trace(
        graph=trace.graph, checksum=trace.checksum, num_vertices=trace.num_vertices, num_edges=trace.num_edges,
        algorithm=trace.algorithm, variant=trace.variant, edge_bytes=trace.edge_bytes,
        weight_bytes=trace.weight_bytes, root=trace.root, source=trace.source, fidelity="exact",
        note=trace.note + "; the parts of the lists read whole derived on the CPU (emogi.trace_exact), launches "
        "and lists checked equal",
    )  # fmt: skip
    exact.bits, exact.labels, exact.parts = list(derived.bits), list(derived.labels), dict(derived.parts)
    return exact
