"""The binary CSR graph file (docs/graph-format.md, version 1): reader, writer, narrowing and metadata.

Layout: a 4096-byte header block, then the offsets (u64, V+1), the edges (u32 or u64, E) and optionally the
weights (u32, E), each section starting at a multiple of 4096 bytes, zero padding in between. The header's
checksum is XXH3-64 (seed 0) of every byte from 4096 to the end of the file.

Reading maps the file with numpy.memmap (read-only, no copy); checksums and structural checks stream the data
in bounded chunks so that multi-GB graphs never have to fit in memory twice.

CLI:
    python -m emogi.csr info FILE
    python -m emogi.csr verify FILE
    python -m emogi.csr narrow IN.csr --out OUT.csr --meta OUT.json
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import xxhash

from emogi.atomic import atomic_path, write_text
from emogi.cli import exit_status

MAGIC = b"EMOGICSR"
VERSION = 1
FLAG_HAS_WEIGHTS = 1 << 0
FLAG_DIRECTED = 1 << 1
KNOWN_FLAGS = FLAG_HAS_WEIGHTS | FLAG_DIRECTED
HEADER_BLOCK = 4096
SECTION_ALIGN = 4096
# magic, version, flags, index_bytes, reserved, num_vertices, num_edges, checksum, reserved[2]
HEADER_STRUCT = struct.Struct("<8sIIIIQQQQQ")
assert HEADER_STRUCT.size == 64

MAX_NARROW_VERTICES = 2**32 - 1  # the 4-byte edge width needs every id, hence V - 1, below 2^32
_CHUNK_BYTES = 64 << 20  # streaming granularity for checksums, writes and checks


class GraphFormatError(ValueError):
    """A graph file (or array set) that does not follow docs/graph-format.md."""


def _align(n: int) -> int:
    return -(-n // SECTION_ALIGN) * SECTION_ALIGN


@dataclass
class CSRHeader:
    version: int
    flags: int
    index_bytes: int
    num_vertices: int
    num_edges: int
    checksum: int

    @property
    def has_weights(self) -> bool:
        return bool(self.flags & FLAG_HAS_WEIGHTS)

    @property
    def directed(self) -> bool:
        return bool(self.flags & FLAG_DIRECTED)

    # Section layout, in bytes from the start of the file.
    @property
    def offsets_offset(self) -> int:
        return HEADER_BLOCK

    @property
    def offsets_bytes(self) -> int:
        return 8 * (self.num_vertices + 1)

    @property
    def edges_offset(self) -> int:
        return _align(self.offsets_offset + self.offsets_bytes)

    @property
    def edges_bytes(self) -> int:
        return self.index_bytes * self.num_edges

    @property
    def weights_offset(self) -> int:
        return _align(self.edges_offset + self.edges_bytes)

    @property
    def weights_bytes(self) -> int:
        return 4 * self.num_edges if self.has_weights else 0

    @property
    def file_size(self) -> int:
        # The file ends at the end of its last section (with E = 0 that is the aligned start of the empty one).
        if self.has_weights:
            return self.weights_offset + self.weights_bytes
        return self.edges_offset + self.edges_bytes

    def pack(self) -> bytes:
        """The 4096-byte header block."""
        head = HEADER_STRUCT.pack(
            MAGIC, self.version, self.flags, self.index_bytes, 0, self.num_vertices, self.num_edges, self.checksum, 0, 0
        )
        return head + bytes(HEADER_BLOCK - len(head))

    def to_dict(self) -> dict:
        return {
            "version": self.version,
            "flags": self.flags,
            "has_weights": self.has_weights,
            "directed": self.directed,
            "index_bytes": self.index_bytes,
            "num_vertices": self.num_vertices,
            "num_edges": self.num_edges,
            "checksum": f"{self.checksum:016x}",
            "offsets_offset": self.offsets_offset,
            "offsets_bytes": self.offsets_bytes,
            "edges_offset": self.edges_offset,
            "edges_bytes": self.edges_bytes,
            "weights_offset": self.weights_offset if self.has_weights else None,
            "weights_bytes": self.weights_bytes,
            "file_size": self.file_size,
        }


def check_index_width(num_vertices: int, index_bytes: int, where: str = "graph") -> None:
    """Raise GraphFormatError unless neighbour ids of a V-vertex graph fit in `index_bytes`."""
    if index_bytes not in (4, 8):
        raise GraphFormatError(f"{where}: bad index_bytes {index_bytes} (must be 4 or 8)")
    if index_bytes == 4 and num_vertices > MAX_NARROW_VERTICES:
        raise GraphFormatError(
            f"{where}: {num_vertices} vertices do not fit 4-byte edges (needs V <= 2^32 - 1 = {MAX_NARROW_VERTICES})"
        )


def read_header(path) -> CSRHeader:
    """Parse and check the header of `path` against the file's size (no payload is read)."""
    path = Path(path)
    with open(path, "rb") as f:
        block = f.read(HEADER_BLOCK)
        size = os.fstat(f.fileno()).st_size
    if len(block) >= len(MAGIC) and block[: len(MAGIC)] != MAGIC:
        raise GraphFormatError(f"{path}: not an EMOGI CSR file (magic {block[:8]!r}, expected {MAGIC!r})")
    if size < HEADER_BLOCK:
        raise GraphFormatError(f"{path}: truncated: {size} bytes, shorter than the {HEADER_BLOCK}-byte header")
    magic, version, flags, index_bytes, _r0, nv, ne, checksum, _r1, _r2 = HEADER_STRUCT.unpack_from(block)
    if version != VERSION:
        raise GraphFormatError(f"{path}: unknown version {version} (this reader knows version {VERSION})")
    if flags & ~KNOWN_FLAGS:
        raise GraphFormatError(f"{path}: unknown flag bits {flags & ~KNOWN_FLAGS:#x} in flags {flags:#x}")
    check_index_width(nv, index_bytes, str(path))
    header = CSRHeader(version, flags, index_bytes, nv, ne, checksum)
    if size < header.file_size:
        raise GraphFormatError(
            f"{path}: truncated: {size} bytes, header (V={nv}, E={ne}, index_bytes={index_bytes}) "
            f"implies {header.file_size}"
        )
    if size > header.file_size:
        raise GraphFormatError(
            f"{path}: {size - header.file_size} trailing bytes after the last section "
            f"(header implies {header.file_size} bytes, file has {size})"
        )
    return header


def file_checksum(path, start: int = HEADER_BLOCK) -> int:
    """XXH3-64 (seed 0) of the bytes of `path` from `start` to EOF, read in bounded chunks."""
    h = xxhash.xxh3_64(seed=0)
    buf = bytearray(_CHUNK_BYTES)
    view = memoryview(buf)
    with open(path, "rb", buffering=0) as f:
        f.seek(start)
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(view[:n])
    return h.intdigest()


def check_offsets(offsets, num_edges: int, where: str = "graph") -> None:
    """Raise GraphFormatError unless offsets start at 0, never decrease and end at `num_edges`."""
    if offsets.ndim != 1 or len(offsets) < 1:
        raise GraphFormatError(f"{where}: offsets must be a 1-D array of V + 1 entries")
    if offsets.dtype.kind not in "iu":
        raise GraphFormatError(f"{where}: offsets must be integers, not {offsets.dtype}")
    if int(offsets[0]) != 0:
        raise GraphFormatError(f"{where}: bad offsets: offsets[0] = {int(offsets[0])}, must be 0")
    step = _CHUNK_BYTES // 8
    for lo in range(0, len(offsets) - 1, step):
        block = offsets[lo : lo + step + 1]  # overlap by one so that every adjacent pair is compared
        bad = np.flatnonzero(block[1:] < block[:-1])
        if len(bad):
            v = lo + int(bad[0])
            raise GraphFormatError(
                f"{where}: bad offsets: offsets decrease at vertex {v} ({int(offsets[v])} -> {int(offsets[v + 1])})"
            )
    if int(offsets[-1]) != num_edges:
        raise GraphFormatError(f"{where}: bad offsets: offsets[V] = {int(offsets[-1])}, must equal E = {num_edges}")


def check_edge_ids(edges, num_vertices: int, where: str = "graph") -> None:
    """Raise GraphFormatError if any neighbour id is >= V (chunked: no full-size temporaries)."""
    step = _CHUNK_BYTES // max(edges.dtype.itemsize, 1)
    for lo in range(0, len(edges), step):
        block = edges[lo : lo + step]
        m = int(block.max())
        if m >= num_vertices:
            i = lo + int(np.argmax(block >= m))
            raise GraphFormatError(f"{where}: neighbour id {m} at edge {i} is >= V = {num_vertices}")


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


def _map_section(mm, start: int, dtype, count: int) -> np.ndarray:
    dtype = np.dtype(dtype)
    if count == 0:
        return np.empty(0, dtype=dtype)
    return mm[start : start + count * dtype.itemsize].view(dtype)


def read_csr(path, verify_checksum: bool = True, check_edges: bool = False) -> CSRGraph:
    """Map the graph at `path` read-only. Offsets are always checked; `check_edges` also checks ids < V."""
    path = Path(path)
    header = read_header(path)
    if verify_checksum:
        actual = file_checksum(path)
        if actual != header.checksum:
            raise GraphFormatError(f"{path}: corrupt: checksum {actual:016x} expected {header.checksum:016x} (header)")
    mm = np.memmap(path, dtype=np.uint8, mode="r")  # whole file once; sections are views, page-aligned
    offsets = _map_section(mm, header.offsets_offset, "<u8", header.num_vertices + 1)
    edges = _map_section(mm, header.edges_offset, "<u4" if header.index_bytes == 4 else "<u8", header.num_edges)
    weights = _map_section(mm, header.weights_offset, "<u4", header.num_edges) if header.has_weights else None
    check_offsets(offsets, header.num_edges, str(path))
    if check_edges:
        check_edge_ids(edges, header.num_vertices, str(path))
    return CSRGraph(offsets, edges, weights, header.directed, header=header, path=path)


def verify_csr(path) -> CSRGraph:
    """Everything a reader can check: header, size, checksum, offsets and neighbour ids."""
    return read_csr(path, verify_checksum=True, check_edges=True)


# ---------------------------------------------------------------------------------------------- writing


def _section_chunks(array, dtype):
    """Little-endian chunks of `array` converted to `dtype`, one bounded chunk at a time."""
    dtype = np.dtype(dtype)
    step = max(_CHUNK_BYTES // dtype.itemsize, 1)
    for lo in range(0, len(array), step):
        yield memoryview(np.ascontiguousarray(array[lo : lo + step], dtype=dtype)).cast("B")


def _validated_arrays(offsets, edges, weights, where: str):
    """Check the arrays for write_csr; returns (offsets, edges, weights, header without checksum)."""
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
    check_edge_ids(edges, num_vertices, where)
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
        (header.edges_offset, edges, "<u4" if header.index_bytes == 4 else "<u8"),
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


def _header_for(offsets, edges, weights, directed) -> CSRHeader:
    flags = (FLAG_HAS_WEIGHTS if weights is not None else 0) | (FLAG_DIRECTED if directed else 0)
    return CSRHeader(VERSION, flags, edges.dtype.itemsize, len(offsets) - 1, len(edges), 0)


def write_csr(path, offsets, edges, weights=None, directed: bool = False) -> CSRHeader:
    """Write a graph file atomically; the edge width is edges.dtype (uint32 or uint64). Returns the header."""
    path = Path(path)
    offsets, edges, weights = _validated_arrays(offsets, edges, weights, str(path))
    header = _header_for(offsets, edges, weights, directed)
    h = xxhash.xxh3_64(seed=0)
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


def payload_checksum(graph: CSRGraph) -> int:
    """The checksum the file of `graph` has (or would have), computed without writing it."""
    header = _header_for(graph.offsets, graph.edges, graph.weights, graph.directed)
    h = xxhash.xxh3_64(seed=0)
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
        header.checksum = payload_checksum(graph)
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
    graph = read_csr(args.file, verify_checksum=False)
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
    args = parser.parse_args(argv)
    return exit_status(lambda: args.func(args), (GraphFormatError, OSError))


if __name__ == "__main__":
    sys.exit(main())
