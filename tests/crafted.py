"""Graph files crafted the way an attacker or a damaged copy would make them: a field or an id changed, then the
checksum repaired (xxhash directly, no emogi.csr code), so that only the check meant for the defect can catch it."""

import struct

import numpy as np
import xxhash

from emogi.csr import write_csr

FIELDS = {  # name -> (byte offset, struct format) in the header (docs/graph-format.md)
    "version": (8, "<I"),
    "flags": (12, "<I"),
    "index_bytes": (16, "<I"),
    "reserved0": (20, "<I"),
    "num_vertices": (24, "<Q"),
    "num_edges": (32, "<Q"),
    "reserved1": (48, "<Q"),
    "reserved2": (56, "<Q"),
}


def checksum_v2(data: bytes) -> int:
    return xxhash.xxh3_64_intdigest(bytes(data[:40]) + bytes(8) + bytes(data[48:]), seed=0)


def repair(data: bytearray) -> bytearray:
    if len(data) >= 4096:
        data[40:48] = struct.pack("<Q", checksum_v2(data))
    return data


def small_graph(path, index_bytes=8, weights=True, directed=False):
    """V = 3: lists {1, 2}, {0}, {} (edges start at byte 8192); weights 5, 6, 7."""
    dtype = np.uint32 if index_bytes == 4 else np.uint64
    w = np.array([5, 6, 7], np.uint32) if weights else None
    write_csr(path, np.array([0, 2, 3, 3], np.uint64), np.array([1, 2, 0], dtype), w, directed=directed)
    return path


def craft(path, fix_checksum=True, **changes):
    """Change header fields by name, or bytes by offset (`at_8200=(value, nbytes)`), then repair the checksum."""
    data = bytearray(path.read_bytes())
    for name, value in changes.items():
        if name.startswith("at_"):
            at, (value, nbytes) = int(name[3:]), value
            data[at : at + nbytes] = int(value).to_bytes(nbytes, "little")
        else:
            at, fmt = FIELDS[name]
            data[at : at + struct.calcsize(fmt)] = struct.pack(fmt, value)
    path.write_bytes(bytes(repair(data) if fix_checksum else data))
    return path


def id_beyond_v(path, index_bytes=8):
    """The small graph with vertex 0's second neighbour set to V = 3, checksum repaired."""
    small_graph(path, index_bytes)
    return craft(path, **{f"at_{8192 + index_bytes}": (3, index_bytes)})
