"""The transpose of a directed graph: its in-lists, in a graph file of their own (docs/graph-format.md, "Transpose").

Bottom-up BFS steps (`emogi run`, direction-optimizing) and the CPU pull kernels (`emogi_cpu pagerank|cc`) read
in-neighbours; an undirected graph's lists are their own in-lists, a directed graph's are not. Its transpose is
built once and stored beside it by the naming rule G.csr -> G.t.csr: the same format, the same V, E and edge
width, no weights, the DIRECTED and TRANSPOSE flags set, and in the header's `transposes` field the checksum of
the graph it transposes, so that a reader pairs the two and refuses a transpose of another graph (or of an
older version of this one). Each in-list is sorted ascending (sources in id order).

    python -m emogi.csr transpose G.csr [--out G.t.csr]

Memory: 8 bytes per edge (the sort keys, which become the transpose's edge list) and the transpose's offsets, plus
temporaries for one block of the graph's edges (the graph is memory-mapped); progress lines on stderr for graphs
of at least a GiB of edges.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from emogi.csr import CSRGraph, read_csr, write_csr
from emogi.csr_checks import PROGRESS_MIN_BYTES, GraphFormatError

_BLOCK_EDGES = 1 << 24  # edges of the graph handled at once
_KEY_VERTICES = 2**32  # graphs up to this many vertices sort 64-bit keys (32-bit ids in each half)


def transpose_path(graph_path) -> Path:
    """Where the transpose of `graph_path` lives: G.csr -> G.t.csr (a name without .csr gets .t.csr appended)."""
    graph_path = Path(graph_path)
    stem = graph_path.name[: -len(".csr")] if graph_path.name.endswith(".csr") else graph_path.name
    return graph_path.with_name(stem + ".t.csr")


def build_command(graph_path) -> str:
    return f"python -m emogi.csr transpose {graph_path}"


def transpose_arrays(offsets, edges, num_vertices: int, log=None) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, edges) of the in-lists: vertex v's list holds every u with v in u's list, in ascending order
    (a duplicate edge appears as often as in the graph). The edge array has the graph's dtype.

    One uint64 key per edge, destination << 32 | source, sorted (numpy's sort: seconds for 10^8 keys); the key's
    low half is then the in-neighbour. Graphs of more than 2^32 vertices sort the destinations stably instead."""
    edges, offsets = np.asarray(edges), np.asarray(offsets)
    num_edges = len(edges)
    counts = np.zeros(num_vertices, dtype=np.uint64)
    count_block = max(_BLOCK_EDGES, num_vertices)  # each bincount costs V: blocks of at least V edges
    for lo in range(0, num_edges, count_block):
        counts += np.bincount(edges[lo : lo + count_block], minlength=num_vertices).astype(np.uint64)
    t_offsets = np.zeros(num_vertices + 1, dtype=np.uint64)
    np.cumsum(counts, out=t_offsets[1:])
    del counts

    def sources(lo, hi):  # the vertex whose offsets range holds each edge position
        return np.searchsorted(offsets, np.arange(lo, hi, dtype=np.uint64), side="right").astype(np.uint64) - 1

    if num_vertices > _KEY_VERTICES:
        order = np.argsort(edges, kind="stable")
        return t_offsets, (np.searchsorted(offsets, order, side="right") - 1).astype(edges.dtype)
    keys = np.empty(num_edges, dtype=np.uint64)
    shown = 0
    for lo in range(0, num_edges, _BLOCK_EDGES):
        hi = min(lo + _BLOCK_EDGES, num_edges)
        np.left_shift(edges[lo:hi].astype(np.uint64), np.uint64(32), out=keys[lo:hi])
        keys[lo:hi] |= sources(lo, hi)
        tenth = hi * 10 // num_edges
        if log and tenth > shown:
            shown = tenth
            log(f"transpose: keys for {10 * tenth}% of {num_edges} edges")
    if log:
        log(f"transpose: sorting {num_edges} keys")
    keys.sort()
    np.bitwise_and(keys, np.uint64(0xFFFFFFFF), out=keys)
    return t_offsets, keys if edges.dtype == np.uint64 else keys.astype(edges.dtype)


def write_transpose(graph_path, out=None, log=None) -> Path:
    """Check the graph at `graph_path` fully and write its transpose to `out` (default: transpose_path),
    atomically. Refuses an undirected graph (its lists are their own transpose) and a transpose."""
    graph_path = Path(graph_path)
    out = Path(out) if out else transpose_path(graph_path)
    graph = read_csr(graph_path)
    header = graph.header
    if header.is_transpose:
        raise GraphFormatError(
            f"{graph_path}: is itself a transpose (of the graph with checksum {header.transposes:016x})"
        )
    if not graph.directed:
        raise GraphFormatError(f"{graph_path}: is undirected: its lists are their own transpose; none written")
    t0 = time.perf_counter()
    if log is None and graph.edges.nbytes >= PROGRESS_MIN_BYTES:

        def log(msg):
            print(f"{time.perf_counter() - t0:8.1f} s  {msg}", file=sys.stderr, flush=True)

    offsets, edges = transpose_arrays(graph.offsets, graph.edges, graph.num_vertices, log)
    if log:
        log(f"writing {out}")
    write_csr(out, offsets, edges, None, directed=True, transposes=header.checksum)
    print(f"{out}: the transpose of {graph_path} (V={graph.num_vertices}, E={graph.num_edges})", file=sys.stderr)
    return out


def check_pair(graph: CSRGraph, transpose: CSRGraph, graph_path, transpose_path_) -> None:
    """Raise GraphFormatError unless `transpose` (checked as any graph file) is the transpose of `graph`: the
    TRANSPOSE flag, `transposes` equal to the graph's checksum, and the same V, E and edge width."""
    g, t = graph.header, transpose.header
    again = f"; make it again: {build_command(graph_path)}"
    if not t.is_transpose:
        raise GraphFormatError(f"{transpose_path_}: not a transpose file (its TRANSPOSE flag is clear){again}")
    if t.transposes != g.checksum:
        raise GraphFormatError(
            f"{transpose_path_}: not the transpose of {graph_path}: it transposes the graph with checksum "
            f"{t.transposes:016x}, {graph_path} has {g.checksum:016x}{again}"
        )
    if (t.num_vertices, t.num_edges, t.index_bytes) != (g.num_vertices, g.num_edges, g.index_bytes):
        raise GraphFormatError(
            f"{transpose_path_}: V={t.num_vertices} E={t.num_edges} index_bytes={t.index_bytes}, but "
            f"{graph_path} has V={g.num_vertices} E={g.num_edges} index_bytes={g.index_bytes}{again}"
        )


def read_transpose(graph: CSRGraph, path=None, verify_checksum: bool = True) -> CSRGraph:
    """The transpose of `graph` (read from a file), checked as any graph file and paired with it; a missing
    file is a GraphFormatError naming the command that makes it."""
    path = Path(path) if path else transpose_path(graph.path)
    if not path.exists():
        raise GraphFormatError(
            f"{graph.path}: is directed and has no transpose at {path}: make it with {build_command(graph.path)}"
        )
    transpose = read_csr(path, verify_checksum)
    check_pair(graph, transpose, graph.path, path)
    return transpose
