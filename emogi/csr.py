"""The binary CSR graph file (docs/graph-format.md, version 2): reader, writer, narrowing and metadata.

Layout: a 4096-byte header block, then the offsets (u64, V+1), the edges (u32 or u64, E) and optionally the
weights (u32, E), each section starting at a multiple of 4096 bytes, zero padding in between. The header's
checksum is XXH3-64 (seed 0) of the whole file with the checksum field read as zero, so it covers the header's
flags, counts and widths as well as the payload (version 1's covered only the payload: `upgrade` converts).

A graph file is untrusted input: every read checks the header, the sizes, the padding, the offsets and every
neighbour id (emogi.csr_checks), and the checksum unless told not to; only a matching entry in the dataset lock
(emogi.dataset_lock) stands in for those checks. Reading maps the file with numpy.memmap (read-only, no copy);
checks stream the data in bounded blocks so that multi-GB graphs never have to fit in memory twice.

CLI:
    python -m emogi.csr info FILE
    python -m emogi.csr verify FILE
    python -m emogi.csr narrow IN.csr --out OUT.csr --meta OUT.json
    python -m emogi.csr upgrade FILE...        version 1 -> 2, in place, after a full check
    python -m emogi.csr transpose G.csr [--out G.t.csr]   the in-lists of a directed graph (emogi.csr_transpose)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import xxhash

from emogi import dataset_lock
from emogi.atomic import atomic_path, exit_cleanly_on_signals, write_text
from emogi.cli import exit_status
from emogi.csr_checks import GraphFormatError, check_edge_ids, check_offsets, check_zero
from emogi.csr_header import (
    CHECKSUM_AT,
    FLAG_DIRECTED,
    FLAG_HAS_WEIGHTS,
    FLAG_TRANSPOSE,
    HEADER_BLOCK,
    MAX_NARROW_VERTICES,
    VERSION,
    CSRHeader,
    check_index_width,
    parse_header,
    read_header,
)

_CHUNK_BYTES = 64 << 20  # streaming granularity for checksums, writes and checks


def checksum_state(header: CSRHeader):
    """An XXH3-64 state that has taken in the header block with its checksum field zero; the payload follows."""
    h = xxhash.xxh3_64(seed=0)
    h.update(header.pack(checksum=0))
    return h


def buffer_checksum(data) -> int:
    """The checksum of a whole file image (uint8 array or bytes): XXH3-64 with the checksum field read as zero."""
    data = np.frombuffer(data, dtype=np.uint8) if isinstance(data, (bytes, bytearray)) else data
    h = xxhash.xxh3_64(seed=0)
    head = bytearray(data[:HEADER_BLOCK])
    head[CHECKSUM_AT : CHECKSUM_AT + 8] = bytes(8)
    h.update(bytes(head))
    for lo in range(HEADER_BLOCK, len(data), _CHUNK_BYTES):
        h.update(memoryview(data[lo : lo + _CHUNK_BYTES]))
    return h.intdigest()


def file_checksum(path) -> int:
    """The checksum of the file at `path`, read in bounded chunks."""
    with open(path, "rb", buffering=0) as f:
        head = bytearray(f.read(HEADER_BLOCK))
        head[CHECKSUM_AT : CHECKSUM_AT + 8] = bytes(8)
        h = xxhash.xxh3_64(seed=0)
        h.update(bytes(head))
        buf = bytearray(_CHUNK_BYTES)
        view = memoryview(buf)
        while n := f.readinto(buf):
            h.update(view[:n])
    return h.intdigest()


@dataclass
class CSRGraph:
    offsets: np.ndarray  # uint64, V + 1
    edges: np.ndarray  # uint32 or uint64, E
    weights: np.ndarray | None = None  # uint32, E
    directed: bool = False
    # Set when the graph came from (or was written to) a file: describe() then reports that file's checksum.
    header: CSRHeader | None = field(default=None, repr=False, compare=False)
    path: Path | None = field(default=None, repr=False, compare=False)

    @property
    def num_vertices(self) -> int:
        return len(self.offsets) - 1

    @property
    def num_edges(self) -> int:
        return len(self.edges)

    @property
    def index_bytes(self) -> int:
        return self.edges.dtype.itemsize

    @property
    def has_weights(self) -> bool:
        return self.weights is not None

    def degrees(self) -> np.ndarray:
        """Out-degree of every vertex (int64 array of V entries)."""
        return np.diff(self.offsets).astype(np.int64, copy=False)


def _map_section(data, start: int, dtype, count: int) -> np.ndarray:
    dtype = np.dtype(dtype)
    if count == 0:
        return np.empty(0, dtype=dtype)
    return data[start : start + count * dtype.itemsize].view(dtype)


def check_structure(data, header: CSRHeader, where: str) -> None:
    """Zero padding, offsets and neighbour ids of a file image whose header passed parse_header."""
    check_zero(data, HEADER_BLOCK + header.offsets_bytes, header.edges_offset, "padding after the offsets", where)
    if header.has_weights:
        edges_end = header.edges_offset + header.edges_bytes
        check_zero(data, edges_end, header.weights_offset, "padding after the edges", where)
    offsets = _map_section(data, header.offsets_offset, "<u8", header.num_vertices + 1)
    check_offsets(offsets, header.num_edges, where)
    edges = _map_section(data, header.edges_offset, _edge_dtype(header.index_bytes), header.num_edges)
    check_edge_ids(edges, header.num_vertices, where, offsets)


def _edge_dtype(index_bytes: int) -> str:
    return "<u4" if index_bytes == 4 else "<u8"


def graph_from_buffer(data, where: str, verify_checksum: bool = True, check: bool = True, header=None) -> CSRGraph:
    """The graph in a whole file image (a uint8 array or bytes), after the reader's checks: header and size always;
    the checksum (first, so that a damaged file says so) and the structure unless switched off."""
    data = np.frombuffer(data, dtype=np.uint8) if isinstance(data, (bytes, bytearray)) else data
    header = header or parse_header(bytes(data[:HEADER_BLOCK]), len(data), where)
    if verify_checksum:
        actual = buffer_checksum(data)
        if actual != header.checksum:
            raise GraphFormatError(f"{where}: corrupt: checksum {actual:016x} expected {header.checksum:016x} (header)")
    if check:
        check_structure(data, header, where)
    offsets = _map_section(data, header.offsets_offset, "<u8", header.num_vertices + 1)
    edges = _map_section(data, header.edges_offset, _edge_dtype(header.index_bytes), header.num_edges)
    weights = _map_section(data, header.weights_offset, "<u4", header.num_edges) if header.has_weights else None
    return CSRGraph(offsets, edges, weights, header.directed, header=header)


def read_csr(path, verify_checksum: bool = True, use_lock: bool = True) -> CSRGraph:
    """Map the graph at `path` read-only and check it: header, sizes, padding, offsets and every id always, the
    checksum unless `verify_checksum` is False. A file whose digest matches its entry in the dataset lock beside
    it (emogi.dataset_lock; `use_lock`) was checked fully when it was recorded, so its checks are skipped."""
    path = Path(path)
    header = read_header(path)  # before mapping: a file too short for its header is never mapped
    data = np.memmap(path, dtype=np.uint8, mode="r")  # whole file once; sections are views, page-aligned
    entry = dataset_lock.find_locked(path) if use_lock else None
    if entry is not None:
        digest = dataset_lock.digest_of(data)
        if (digest, len(data)) != (entry.digest, entry.bytes):
            raise GraphFormatError(dataset_lock.mismatch(path, entry, digest, len(data)))
    checked = entry is None
    graph = graph_from_buffer(data, str(path), verify_checksum and checked, checked, header)
    graph.path = path
    return graph


def verify_csr(path) -> CSRGraph:
    """Everything a reader can check, the dataset lock notwithstanding: header, size, checksum and structure."""
    return read_csr(path, verify_checksum=True, use_lock=False)


# ---------------------------------------------------------------------------------------------- writing


def _section_chunks(array, dtype):
    """Little-endian chunks of `array` converted to `dtype`, one bounded chunk at a time."""
    dtype = np.dtype(dtype)
    step = max(_CHUNK_BYTES // dtype.itemsize, 1)
    for lo in range(0, len(array), step):
        yield memoryview(np.ascontiguousarray(array[lo : lo + step], dtype=dtype)).cast("B")


def _validated_arrays(offsets, edges, weights, where: str):
    """Check the arrays for write_csr; returns (offsets, edges, weights)."""
    offsets = np.asarray(offsets)
    edges = np.asarray(edges)
    if edges.ndim != 1:
        raise GraphFormatError(f"{where}: edges must be a 1-D array")
    if edges.dtype not in (np.dtype(np.uint32), np.dtype(np.uint64)):
        raise GraphFormatError(
            f"{where}: edges dtype {edges.dtype} not supported: the index width comes "
            f"from the dtype, which must be uint32 (4 bytes) or uint64 (8 bytes)"
        )
    check_offsets(offsets, len(edges), where)
    num_vertices = len(offsets) - 1
    check_index_width(num_vertices, edges.dtype.itemsize, where)
    check_edge_ids(edges, num_vertices, where, offsets)
    if weights is not None:
        weights = np.asarray(weights)
        if weights.ndim != 1 or len(weights) != len(edges):
            raise GraphFormatError(f"{where}: weights must be a 1-D array of E = {len(edges)} entries")
        if not np.can_cast(weights.dtype, np.uint32, casting="safe"):
            raise GraphFormatError(f"{where}: weights dtype {weights.dtype} does not fit uint32")
    return offsets, edges, weights


def _payload(offsets, edges, weights, header: CSRHeader):
    """Every byte after the header block, in file order, as a stream of buffers."""
    pos = HEADER_BLOCK
    sections = [
        (header.offsets_offset, offsets, "<u8"),
        (header.edges_offset, edges, _edge_dtype(header.index_bytes)),
    ]
    if weights is not None:
        sections.append((header.weights_offset, weights, "<u4"))
    for start, array, dtype in sections:
        if start > pos:
            yield bytes(start - pos)  # < 4096 bytes of zero padding
            pos = start
        for chunk in _section_chunks(array, dtype):
            pos += len(chunk)
            yield chunk
    assert pos == header.file_size, (pos, header.file_size)


def _header_for(offsets, edges, weights, directed, transposes: int | None = None) -> CSRHeader:
    flags = (FLAG_HAS_WEIGHTS if weights is not None else 0) | (FLAG_DIRECTED if directed else 0)
    flags |= FLAG_TRANSPOSE if transposes is not None else 0
    return CSRHeader(VERSION, flags, edges.dtype.itemsize, len(offsets) - 1, len(edges), 0, transposes or 0)


def write_csr(path, offsets, edges, weights=None, directed: bool = False, transposes: int | None = None) -> CSRHeader:
    """Write a graph file atomically; the edge width is edges.dtype (uint32 or uint64). Returns the header.
    `transposes`: the checksum of the graph whose in-lists these are (a transpose file, emogi.csr_transpose)."""
    path = Path(path)
    offsets, edges, weights = _validated_arrays(offsets, edges, weights, str(path))
    header = _header_for(offsets, edges, weights, directed, transposes)
    h = checksum_state(header)
    with atomic_path(path) as tmp:  # '.NAME.PID.tmp' beside path, removed if anything below fails
        with open(tmp, "wb") as f:
            f.write(bytes(HEADER_BLOCK))  # placeholder until the checksum is known
            for chunk in _payload(offsets, edges, weights, header):
                f.write(chunk)
                h.update(chunk)
            header.checksum = h.intdigest()
            f.seek(0)
            f.write(header.pack())
            f.flush()
            os.fsync(f.fileno())  # the data is on disk before the name points at it
    return header


def graph_checksum(graph: CSRGraph) -> int:
    """The checksum the file of `graph` has (or would have), computed without writing it."""
    header = _header_for(graph.offsets, graph.edges, graph.weights, graph.directed)
    h = checksum_state(header)
    for chunk in _payload(graph.offsets, graph.edges, graph.weights, header):
        h.update(chunk)
    return h.intdigest()


# ---------------------------------------------------------------------------------------------- transforms


def narrow_edges(graph: CSRGraph) -> CSRGraph:
    """The same graph with 4-byte edges; GraphFormatError when V >= 2^32 (ids would not fit)."""
    check_index_width(graph.num_vertices, 4, str(graph.path or "graph"))
    if graph.edges.dtype == np.uint32:
        edges = graph.edges
    else:
        edges = np.empty(len(graph.edges), dtype=np.uint32)
        step = _CHUNK_BYTES // 8
        for lo in range(0, len(graph.edges), step):
            block = graph.edges[lo : lo + step]
            if len(block) and int(block.max()) > MAX_NARROW_VERTICES:
                raise GraphFormatError(f"{graph.path or 'graph'}: neighbour id {int(block.max())} does not fit 4 bytes")
            edges[lo : lo + step] = block
    return CSRGraph(graph.offsets, edges, graph.weights, graph.directed)


def describe(graph: CSRGraph) -> dict:
    """The metadata recorded beside each graph (degree statistics are of out-degrees)."""
    deg = graph.degrees()
    nv, ne = graph.num_vertices, graph.num_edges
    isolated = int(np.count_nonzero(deg == 0))
    header = graph.header
    if header is None:
        header = _header_for(graph.offsets, graph.edges, graph.weights, graph.directed)
        header.checksum = graph_checksum(graph)
    return {
        "num_vertices": nv,
        "num_edges": ne,
        "index_bytes": graph.index_bytes,
        "directed": bool(graph.directed),
        "has_weights": graph.has_weights,
        "isolated_vertices": isolated,
        "max_degree": int(deg.max()) if nv else 0,
        "avg_degree_nonisolated": ne / (nv - isolated) if nv > isolated else 0.0,
        "edge_list_bytes": ne * graph.index_bytes,
        "file_bytes": header.file_size,
        "checksum": f"{header.checksum:016x}",
    }


# ---------------------------------------------------------------------------------------------- CLI


def _cmd_info(args) -> None:
    graph = read_csr(args.file)
    print(json.dumps({"file": str(args.file), "header": graph.header.to_dict(), "describe": describe(graph)}, indent=2))


def _cmd_verify(args) -> None:
    graph = verify_csr(args.file)
    print(
        f"{args.file}: OK (V={graph.num_vertices}, E={graph.num_edges}, index_bytes={graph.index_bytes}, "
        f"checksum {graph.header.checksum:016x})"
    )


def _cmd_narrow(args) -> None:
    src = read_csr(args.input, verify_checksum=True)
    narrow = narrow_edges(src)
    narrow.header = write_csr(args.out, narrow.offsets, narrow.edges, narrow.weights, narrow.directed)
    narrow.path = Path(args.out)
    if args.meta:
        meta = describe(narrow)
        meta["narrowed_from"] = {
            "file": str(args.input),
            "checksum": f"{src.header.checksum:016x}",
            "index_bytes": src.index_bytes,
        }
        write_text(json.dumps(meta, indent=2) + "\n", args.meta)


def _cmd_upgrade(args) -> None:
    from emogi.csr_upgrade import upgrade  # it builds on this module

    for path in args.files:
        print(f"{path}: " + ("upgraded to version 2" if upgrade(path) else "version 2 already; left as it is"))


def _cmd_transpose(args) -> None:
    from emogi.csr_transpose import write_transpose  # it builds on this module

    write_transpose(args.graph, args.out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m emogi.csr", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("info", help="print the header and the metadata of a graph file as JSON")
    p.add_argument("file")
    p.set_defaults(func=_cmd_info)
    p = sub.add_parser("verify", help="check checksum and structure; exit 1 on failure")
    p.add_argument("file")
    p.set_defaults(func=_cmd_verify)
    p = sub.add_parser("narrow", help="write the 4-byte-edge copy of an 8-byte-edge graph")
    p.add_argument("input")
    p.add_argument("--out", required=True)
    p.add_argument("--meta", help="metadata JSON to write beside --out")
    p.set_defaults(func=_cmd_narrow)
    p = sub.add_parser("upgrade", help="rewrite version-1 files as version 2 in place, after a full check")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=_cmd_upgrade)
    p = sub.add_parser("transpose", help="write the transpose (in-lists) of a directed graph beside it")
    p.add_argument("graph")
    p.add_argument("--out", help="where to write it (default: the naming rule, G.csr -> G.t.csr)")
    p.set_defaults(func=_cmd_transpose)
    args = parser.parse_args(argv)
    exit_cleanly_on_signals()  # SIGTERM/SIGINT remove the half-written output
    return exit_status(lambda: args.func(args), (GraphFormatError, OSError))


if __name__ == "__main__":
    sys.exit(main())
