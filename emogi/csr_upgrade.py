"""Version 1 graph files to version 2, in place: the payload stays, the header gets the new checksum.

Version 1's checksum covered the payload only, so a changed header (a flag, a count) went unnoticed; version 2's
covers the whole file (docs/graph-format.md). Upgrading first checks the file fully as version 1 (its payload
checksum, every header field, the structure), so that no damaged file is given a fresh, valid checksum. Only the
header block is rewritten (one write, then fsync): the multi-GB payload is read, never copied.

CLI: python -m emogi.csr upgrade FILE...
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import numpy as np
import xxhash

from emogi.csr import HEADER_BLOCK, VERSION, GraphFormatError, check_structure, checksum_state, parse_header

_CHUNK_BYTES = 64 << 20


def _stream(path: Path, h) -> int:
    """Feed the bytes of `path` after the header block into `h`; its digest."""
    buf = bytearray(_CHUNK_BYTES)
    view = memoryview(buf)
    with open(path, "rb", buffering=0) as f:
        f.seek(HEADER_BLOCK)
        while n := f.readinto(buf):
            h.update(view[:n])
    return h.intdigest()


def upgrade(path) -> bool:
    """Upgrade the version-1 file at `path` to version 2; False (nothing done) when it is version 2 already."""
    path = Path(path)
    with open(path, "rb") as f:
        block = f.read(HEADER_BLOCK)
        size = os.fstat(f.fileno()).st_size
    if len(block) >= 12 and struct.unpack_from("<I", block, 8)[0] == VERSION:
        parse_header(block, size, str(path))  # a version-2 file must still be a sound one
        return False
    header = parse_header(block, size, str(path), version=1)
    old = _stream(path, xxhash.xxh3_64(seed=0))
    if old != header.checksum:
        raise GraphFormatError(
            f"{path}: corrupt: version-1 checksum {old:016x} expected {header.checksum:016x} (header); not upgraded"
        )
    check_structure(np.memmap(path, dtype=np.uint8, mode="r"), header, str(path))
    header.version = VERSION
    header.checksum = _stream(path, checksum_state(header))
    with open(path, "r+b") as f:
        f.write(header.pack())
        f.flush()
        os.fsync(f.fileno())
    return True
