"""The header of a graph file (docs/graph-format.md): its fields, the section layout they imply, and the checks a
header must pass before anything else of the file is read (C++: kernels/src/csr_header.cpp, same checks and
messages)."""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass

import numpy as np

from emogi.csr_checks import GraphFormatError

MAGIC = b"EMOGICSR"
VERSION = 2
FLAG_HAS_WEIGHTS = 1 << 0
FLAG_DIRECTED = 1 << 1
FLAG_TRANSPOSE = 1 << 2  # the file holds another graph's in-lists; `transposes` is that graph's checksum
KNOWN_FLAGS = FLAG_HAS_WEIGHTS | FLAG_DIRECTED | FLAG_TRANSPOSE
HEADER_BLOCK = 4096
SECTION_ALIGN = 4096
CHECKSUM_AT = 40  # byte offset of the checksum field, read as zero when the checksum is computed
TRANSPOSES_AT = 48  # byte offset of `transposes` (reserved, zero, unless FLAG_TRANSPOSE)
# magic, version, flags, index_bytes, reserved, num_vertices, num_edges, checksum, transposes, reserved
HEADER_STRUCT = struct.Struct("<8sIIIIQQQQQ")
assert HEADER_STRUCT.size == 64

MAX_NARROW_VERTICES = 2**32 - 1  # the 4-byte edge width needs every id, hence V - 1, below 2^32
MAX_FILE_BYTES = 2**64 - 1  # the C++ reader's sizes are 64-bit


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
    transposes: int = 0  # FLAG_TRANSPOSE: the checksum of the graph whose transpose this file is

    @property
    def is_transpose(self) -> bool:
        return bool(self.flags & FLAG_TRANSPOSE)

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

    def pack(self, checksum: int | None = None) -> bytes:
        """The 4096-byte header block (with `checksum` in place of the header's own, if given)."""
        checksum = self.checksum if checksum is None else checksum
        head = HEADER_STRUCT.pack(
            MAGIC,
            self.version,
            self.flags,
            self.index_bytes,
            0,
            self.num_vertices,
            self.num_edges,
            checksum,
            self.transposes,
            0,
        )
        return head + bytes(HEADER_BLOCK - len(head))

    def to_dict(self) -> dict:
        return {
            "version": self.version,
            "flags": self.flags,
            "has_weights": self.has_weights,
            "directed": self.directed,
            "transposes": f"{self.transposes:016x}" if self.is_transpose else None,
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


def _check_version(version: int, expected: int, where: str) -> None:
    if version == expected:
        return
    if version == 1:
        raise GraphFormatError(
            f"{where}: format version 1, whose checksum does not cover the header; this reader knows version "
            f"{VERSION}: upgrade the file with `python -m emogi.csr upgrade FILE` (checks it fully first) or make it "
            "again"
        )
    raise GraphFormatError(f"{where}: unknown version {version} (this reader knows version {expected})")


def parse_header(block: bytes, size: int, where: str, version: int = VERSION) -> CSRHeader:
    """Check the header block of a `size`-byte file: every field, the reserved bytes, and a size exactly what the
    header implies (C++: kernels/src/csr_header.cpp, same checks and messages)."""
    if len(block) >= len(MAGIC) and block[: len(MAGIC)] != MAGIC:
        raise GraphFormatError(f"{where}: not an EMOGI CSR file (magic {block[:8]!r}, expected {MAGIC!r})")
    if size < HEADER_BLOCK or len(block) < HEADER_BLOCK:
        raise GraphFormatError(f"{where}: truncated: {size} bytes, shorter than the {HEADER_BLOCK}-byte header")
    _magic, ver, flags, index_bytes, r0, nv, ne, checksum, r1, r2 = HEADER_STRUCT.unpack_from(block)
    _check_version(ver, version, where)
    if flags & ~KNOWN_FLAGS:
        raise GraphFormatError(f"{where}: unknown flag bits {flags & ~KNOWN_FLAGS:#x} in flags {flags:#x}")
    if index_bytes not in (4, 8):
        raise GraphFormatError(f"{where}: bad index_bytes {index_bytes} (must be 4 or 8)")
    transposes = 0
    if flags & FLAG_TRANSPOSE:
        r1, transposes = 0, r1  # not reserved then: the checksum of the graph transposed, any value
    for at, value in ((20, r0), (TRANSPOSES_AT, r1), (56, r2)):
        if value:
            raise GraphFormatError(f"{where}: reserved header field at byte {at} is {value:#x}, must be 0")
    tail = np.flatnonzero(np.frombuffer(block, dtype=np.uint8, count=HEADER_BLOCK)[HEADER_STRUCT.size :])
    if len(tail):
        at = HEADER_STRUCT.size + int(tail[0])
        raise GraphFormatError(f"{where}: header block byte {at} is not zero (bytes 64..4095 are reserved)")
    check_index_width(nv, index_bytes, where)
    header = CSRHeader(ver, flags, index_bytes, nv, ne, checksum, transposes)
    if header.file_size > MAX_FILE_BYTES:  # C++ computes sizes in 64 bits: refuse what would wrap there
        raise GraphFormatError(
            f"{where}: header sizes overflow 64 bits (V = {nv}, E = {ne}, index_bytes = {index_bytes}): "
            "not a graph this format can hold"
        )
    if size < header.file_size:
        raise GraphFormatError(
            f"{where}: truncated: {size} bytes, header (V={nv}, E={ne}, index_bytes={index_bytes}) "
            f"implies {header.file_size}"
        )
    if size > header.file_size:
        raise GraphFormatError(
            f"{where}: {size - header.file_size} trailing bytes after the last section "
            f"(header implies {header.file_size} bytes, file has {size})"
        )
    return header


def read_header(path, version: int = VERSION) -> CSRHeader:
    """Parse and check the header of `path` against the file's size (no payload is read)."""
    with open(path, "rb") as f:
        block = f.read(HEADER_BLOCK)
        size = os.fstat(f.fileno()).st_size
    return parse_header(block, size, str(path), version)
