"""Access traces: which neighbour lists a traversal reads, launch by launch, and what that touches in memory.

One format for every algorithm and variant, shared by the UVM simulator (model/uvm_sim.py) and the model's
predictor. A trace is a sequence of kernel launches (BFS level, SSSP iteration or bucket, CC or PageRank round);
each launch is the set of vertices whose lists it reads, as a bitmap over the vertices, optionally with the part
of each list it reads (`first` entries skipped, `count` entries read: Afforest's samples, a bottom-up BFS step
that stops at the first parent). From a trace and the graph's offsets everything else derives: the bytes needed
and the 4 KiB pages, 64 KiB blocks, 2 MiB chunks, 128-byte lines and 32-byte sectors touched per launch.

Address space: the edge array starts at byte 0; an algorithm that reads weights (SSSP, 4 bytes per entry) reads
them from a second allocation, placed at the next 2 MiB boundary after the edges (managed allocations of this size
start on 2 MiB boundaries), so a unit never spans both arrays.

Stored as .npz: `meta` (JSON: graph, checksum of the CSR file's header, algorithm, variant, edge_bytes,
weight_bytes, root, source = derived | recorded, fidelity, note, labels of the launches), `bits` (one row of
np.packbits per launch) and, for launches that read parts of lists, `first_<i>` and `count_<i>`. A trace loaded
against a graph whose checksum differs is refused (TraceError, one line).

CLI:
    python -m emogi.traces summary TRACE.npz --graph G.csr --out summary.csv
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import atomic_path, write_csv
from emogi.cli import exit_status
from emogi.csr import GraphFormatError, read_csr
from emogi.schema import TRACE_SUMMARY_COLUMNS, TRACE_UNITS

SOURCES = ("derived", "recorded")
FIDELITIES = ("exact", "approximate")
WEIGHT_ENTRY_BYTES = 4
CHUNK_BYTES = 2 << 20  # the driver's VA block and eviction unit
# name -> unit size in bytes, for the per-launch counts
UNITS = {"pages_4k": 4096, "blocks_64k": 64 << 10, "chunks_2m": CHUNK_BYTES, "lines_128": 128, "sectors_32": 32}
assert tuple(UNITS) == TRACE_UNITS, "emogi/schema.py names the same units"


_VERTEX_CHUNK = 1 << 22  # vertices per step when deriving ranges: bounded temporaries at scale 25


class TraceError(ValueError):
    """A trace that is malformed or does not belong to the graph it is used with."""


@dataclass
class Trace:
    graph: str
    checksum: str  # 16 hex digits, the CSR header's XXH3-64
    num_vertices: int
    num_edges: int
    algorithm: str
    variant: str
    edge_bytes: int
    weight_bytes: int = 0  # 4 when each list entry also reads a weight (SSSP)
    root: int = -1  # -1: no root (CC, PageRank)
    source: str = "derived"
    fidelity: str = "exact"
    note: str = ""
    bits: list = field(default_factory=list)  # packed vertex bitmap per launch
    parts: dict = field(default_factory=dict)  # launch -> (first, count), aligned with the set vertices
    labels: list = field(default_factory=list)  # what each launch is, e.g. "level 2 top-down"

    def __post_init__(self):
        if self.source not in SOURCES:
            raise TraceError(f"trace source must be one of {SOURCES}, got {self.source!r}")
        if self.fidelity not in FIDELITIES:
            raise TraceError(f"trace fidelity must be one of {FIDELITIES}, got {self.fidelity!r}")
        if self.edge_bytes not in (4, 8):
            raise TraceError(f"edge_bytes must be 4 or 8, got {self.edge_bytes}")

    @property
    def num_launches(self) -> int:
        return len(self.bits)

    def add_launch(self, mask: np.ndarray, label: str = "", first=None, count=None) -> None:
        """Append a launch reading the lists of the vertices where `mask` is true (parts: see the module doc)."""
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != (self.num_vertices,):
            raise TraceError(f"launch mask has shape {mask.shape}, expected ({self.num_vertices},)")
        if (first is None) != (count is None):
            raise TraceError("give both first and count, or neither")
        if first is not None:
            k = int(mask.sum())
            first, count = np.asarray(first, dtype=np.int64), np.asarray(count, dtype=np.int64)
            if first.shape != (k,) or count.shape != (k,):
                raise TraceError(f"first/count need one entry per selected vertex ({k})")
            self.parts[len(self.bits)] = (first, count)
        self.bits.append(np.packbits(mask))
        self.labels.append(label)

    def mask(self, i: int) -> np.ndarray:
        return np.unpackbits(self.bits[i], count=self.num_vertices).astype(bool)

    def meta(self) -> dict:
        return {
            "graph": self.graph,
            "checksum": self.checksum,
            "num_vertices": self.num_vertices,
            "num_edges": self.num_edges,
            "algorithm": self.algorithm,
            "variant": self.variant,
            "edge_bytes": self.edge_bytes,
            "weight_bytes": self.weight_bytes,
            "root": self.root,
            "source": self.source,
            "fidelity": self.fidelity,
            "note": self.note,
            "labels": self.labels,
            "launches": self.num_launches,
        }


def graph_checksum(graph) -> str:
    """The checksum a trace records for `graph` (a CSRGraph read from a file)."""
    if graph.header is None:
        raise TraceError("the graph has no file header: traces name graphs by their file's checksum")
    return f"{graph.header.checksum:016x}"


def check_graph(trace: Trace, graph) -> None:
    """Raise TraceError (one line) unless `trace` was made on `graph`."""
    have = graph_checksum(graph)
    if have != trace.checksum:
        raise TraceError(
            f"trace of {trace.graph} (checksum {trace.checksum}) does not belong to graph "
            f"{graph.path or '?'} (checksum {have})"
        )


def save_trace(trace: Trace, path) -> Path:
    path = Path(path)
    arrays = {
        "meta": np.array(json.dumps(trace.meta())),
        "bits": np.stack(trace.bits) if trace.bits else np.zeros((0, 0), np.uint8),
    }
    for i, (first, count) in trace.parts.items():
        arrays[f"first_{i}"], arrays[f"count_{i}"] = first, count
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        np.savez_compressed(f, **arrays)
    return path


def load_trace(path, graph=None) -> Trace:
    """Read a trace; with `graph`, refuse it unless it was made on that graph (checksum)."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            bits = [row.copy() for row in z["bits"]]
            parts = {int(k[6:]): (z[k], z[f"count_{k[6:]}"]) for k in z.files if k.startswith("first_")}
    except (OSError, KeyError, ValueError) as e:
        raise TraceError(f"{path}: not a trace file ({e})") from None
    meta.pop("launches", None)
    labels = meta.pop("labels", [""] * len(bits))
    trace = Trace(**meta, bits=bits, parts=parts, labels=labels)
    if graph is not None:
        check_graph(trace, graph)
    return trace


# ---------------------------------------------------------------------------------------------- byte ranges


def launch_entries(trace: Trace, offsets, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Launch `i`'s selected vertices in id order and the list entries [begin, end) it reads of each (a part of a
    list where the trace records one; empty lists kept), for the model's per-launch counts."""
    off = np.asarray(offsets)
    sel = np.flatnonzero(trace.mask(i))
    begin = off[sel].astype(np.int64)
    end = off[sel + 1].astype(np.int64)
    if i in trace.parts:
        first, count = trace.parts[i]
        begin = np.minimum(begin + first, end)
        end = np.minimum(begin + count, end)
    return sel, begin, end


def launch_ranges(trace: Trace, offsets, i: int, lo: int = 0, hi: int | None = None, mask=None):
    """Byte ranges [start, end) launch `i` reads for its selected vertices in [lo, hi), a bounded vertex range at
    a time: yields (edge ranges, weight ranges or None), each a (start, end) pair of int64 arrays in address
    order, empty lists dropped. `mask`: the launch's unpacked bitmap, if the caller has it already."""
    full = trace.mask(i) if mask is None else mask
    hi = trace.num_vertices if hi is None else hi
    off = np.asarray(offsets)
    parts = trace.parts.get(i)
    # selected vertices before each step (parts are aligned with the selected vertices)
    done = int(np.count_nonzero(full[:lo])) if parts is not None else 0
    for start in range(lo, hi, _VERTEX_CHUNK):
        sel = np.flatnonzero(full[start : min(start + _VERTEX_CHUNK, hi)]) + start
        begin = off[sel].astype(np.int64)
        end = off[sel + 1].astype(np.int64)
        if parts is not None:
            first, count = parts[0][done : done + len(sel)], parts[1][done : done + len(sel)]
            begin = np.minimum(begin + first, end)
            end = np.minimum(begin + count, end)
        done += len(sel)
        keep = end > begin
        begin, end = begin[keep], end[keep]
        edge_ranges = (begin * trace.edge_bytes, end * trace.edge_bytes)
        if not trace.weight_bytes:
            yield edge_ranges, None
        else:
            base = weights_base(trace)
            yield edge_ranges, (base + begin * trace.weight_bytes, base + end * trace.weight_bytes)


def weights_base(trace: Trace) -> int:
    """Where the weight array starts in the trace's address space (a 2 MiB boundary after the edges)."""
    return -(-trace.num_edges * trace.edge_bytes // CHUNK_BYTES) * CHUNK_BYTES


def address_space_bytes(trace: Trace) -> int:
    """Bytes of the address space the trace's arrays occupy (edges, and weights after a 2 MiB boundary)."""
    if not trace.weight_bytes:
        return trace.num_edges * trace.edge_bytes
    return weights_base(trace) + trace.num_edges * trace.weight_bytes


def count_units(start: np.ndarray, end: np.ndarray, unit: int, prev_last: int = -1) -> tuple[int, int]:
    """Distinct `unit`-byte units touched by ranges sorted by address and disjoint; `prev_last` is the last
    unit of the ranges before these (so counts add up over chunks). Returns (count, last unit)."""
    if len(start) == 0:
        return 0, prev_last
    first_u = start // unit
    last_u = (end - 1) // unit
    total = int((last_u - first_u + 1).sum())
    # A unit shared with the range before is counted once: ranges are ordered, so only neighbours can share.
    shared = int(np.count_nonzero(first_u[1:] == last_u[:-1])) + int(first_u[0] == prev_last)
    return total - shared, int(last_u[-1])


def mark_units(mask: np.ndarray, start: np.ndarray, end: np.ndarray, unit: int) -> None:
    """Set mask[u] for every `unit`-byte unit the ranges touch (a difference array: linear, no per-unit loop)."""
    if len(start) == 0:
        return
    n = len(mask)
    first_u = start // unit
    after = (end - 1) // unit + 1
    diff = np.bincount(first_u, minlength=n + 1)[: n + 1] - np.bincount(after, minlength=n + 1)[: n + 1]
    mask |= np.cumsum(diff[:n]) > 0


def touched_units(
    trace: Trace, offsets, i: int, unit: int, lo: int = 0, hi: int | None = None, mask=None
) -> np.ndarray:
    """Boolean mask over the address space's `unit`-byte units: those launch `i` touches reading the lists of its
    selected vertices in [lo, hi) (`mask`: the launch's unpacked bitmap, if the caller has it)."""
    units = np.zeros(-(-address_space_bytes(trace) // unit), dtype=bool)
    for chunk in launch_ranges(trace, offsets, i, lo, hi, mask):
        for ranges in chunk:
            if ranges is not None:
                mark_units(units, *ranges, unit)
    return units


def launch_counts(trace: Trace, offsets, i: int) -> dict:
    """lists_read, bytes_needed and the distinct units of each size launch `i` touches."""
    lists = entries = 0
    counts = dict.fromkeys(UNITS, 0)
    last = {(name, arr): -1 for name in UNITS for arr in (0, 1)}
    for edge_r, weight_r in launch_ranges(trace, offsets, i):
        lists += len(edge_r[0])
        entries += int((edge_r[1] - edge_r[0]).sum()) // trace.edge_bytes
        for arr, ranges in enumerate((edge_r, weight_r)):
            if ranges is None:
                continue
            for name, unit in UNITS.items():
                n, last[name, arr] = count_units(*ranges, unit, last[name, arr])
                counts[name] += n
    return {"lists_read": lists, "bytes_needed": entries * (trace.edge_bytes + trace.weight_bytes), **counts}


def summary_table(trace: Trace, offsets) -> pd.DataFrame:
    """TRACE_SUMMARY_COLUMNS, one row per launch."""
    head = {
        "graph": trace.graph,
        "algorithm": trace.algorithm,
        "variant": trace.variant,
        "edge_bytes": trace.edge_bytes,
        "root": trace.root,
        "source": trace.source,
    }
    rows = [{**head, "launch": i, **launch_counts(trace, offsets, i)} for i in range(trace.num_launches)]
    return pd.DataFrame(rows, columns=TRACE_SUMMARY_COLUMNS)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m emogi.traces", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("summary", help="per-launch bytes, pages, blocks, chunks, lines and sectors of a trace")
    p.add_argument("trace")
    p.add_argument("--graph", required=True, help="the CSR file the trace was made on (checksum checked)")
    p.add_argument("--out", required=True)
    a = ap.parse_args(argv)

    def run():
        graph = read_csr(a.graph, verify_checksum=False)
        table = summary_table(load_trace(a.trace, graph), graph.offsets)
        write_csv(table, a.out)
        print(table.to_string(index=False))

    return exit_status(run, (TraceError, GraphFormatError, OSError))


if __name__ == "__main__":
    sys.exit(main())
