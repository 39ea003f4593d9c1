"""The transpose of a directed graph: its in-lists, in a graph file of their own (docs/graph-format.md, "Transpose").

Bottom-up BFS steps (`emogi run`, direction-optimizing) and the CPU pull kernels (`emogi_cpu pagerank|cc`) read
in-neighbours; an undirected graph's lists are their own in-lists, a directed graph's are not. Its transpose is
built once and stored beside it by the naming rule G.csr -> G.t.csr: the same format, the same V, E and edge
width, no weights, the DIRECTED and TRANSPOSE flags set, and in the header's `transposes` field the checksum of
the graph it transposes, so that a reader pairs the two and refuses a transpose of another graph (or of an
older version of this one). Each in-list is sorted ascending (sources in id order).

    python -m emogi.csr transpose G.csr [--out G.t.csr]

Memory: the transpose's offsets and edges, plus temporaries for one block of the graph's edges (the graph is
memory-mapped); progress lines on stderr for graphs of at least a GiB of edges.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from emogi.csr import CSRGraph, read_csr, write_csr
from emogi.csr_checks import PROGRESS_MIN_BYTES, GraphFormatError

_BLOCK_EDGES = 1 << 24  # edges of the graph handled at once


def transpose_path(graph_path) -> Path:
    """Where the transpose of `graph_path` lives: G.csr -> G.t.csr (a name without .csr gets .t.csr appended)."""
    graph_path = Path(graph_path)
    stem = graph_path.name[: -len(".csr")] if graph_path.name.endswith(".csr") else graph_path.name
    return graph_path.with_name(stem + ".t.csr")


def build_command(graph_path) -> str:
    return f"python -m emogi.csr transpose {graph_path}"


def transpose_arrays(offsets, edges, num_vertices: int, log=None) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, edges) of the in-lists: vertex v's list holds every u with v in u's list, in ascending order
    (a duplicate edge appears as often as in the graph). The edge array has the graph's dtype."""
    edges = np.asarray(edges)
    num_edges = len(edges)
    counts = np.zeros(num_vertices, dtype=np.uint64)
    for lo in range(0, num_edges, _BLOCK_EDGES):
        counts += np.bincount(edges[lo : lo + _BLOCK_EDGES], minlength=num_vertices).astype(np.uint64)
    t_offsets = np.zeros(num_vertices + 1, dtype=np.uint64)
    np.cumsum(counts, out=t_offsets[1:])
    cursor = t_offsets[:-1].copy()
    t_edges = np.empty(num_edges, dtype=edges.dtype)
    offsets = np.asarray(offsets)
    shown = 0
    for lo in range(0, num_edges, _BLOCK_EDGES):
        hi = min(lo + _BLOCK_EDGES, num_edges)
        dst = edges[lo:hi]
        # The source of each edge: the vertex whose offsets range holds its position.
        src = np.searchsorted(offsets, np.arange(lo, hi, dtype=np.uint64), side="right").astype(np.uint64) - 1
        order = np.argsort(dst, kind="stable")  # sources stay ascending within each destination
        d = dst[order]
        first = np.flatnonzero(np.r_[True, d[1:] != d[:-1]])  # where each destination's run starts
        run_of = np.repeat(first, np.diff(np.r_[first, len(d)]))
        rank = np.arange(len(d), dtype=np.uint64) - run_of.astype(np.uint64)
        t_edges[(cursor[d] + rank).astype(np.int64)] = src[order].astype(edges.dtype)
        cursor += np.bincount(dst, minlength=num_vertices).astype(np.uint64)
        tenth = hi * 10 // num_edges
        if log and tenth > shown:
            shown = tenth
            log(f"transpose: {10 * tenth}% of {num_edges} edges")
    return t_offsets, t_edges


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
