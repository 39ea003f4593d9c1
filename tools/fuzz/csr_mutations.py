"""Structure-aware mutations of graph files, and what a valid file is, for the Python fuzzers.

Written apart from emogi.csr (and from kernels/fuzz/csr_mutator.hpp, whose choices it mirrors): a valid graph of
random shape is built byte by byte from docs/graph-format.md, then header fields, offsets, ids, padding or the
size are changed to the values that break readers, and the checksum is repaired most of the time, since random
bit flips never get past it. `valid_graph_file` is the oracle: the readers must accept exactly what it accepts.
"""

from __future__ import annotations

import random
import struct

import numpy as np
import xxhash

PAGE = 4096
U64 = 2**64 - 1
INTERESTING = [0, 1, 2, 3, 4, 8, 4095, 4096, 2**31 - 1, 2**32 - 1, 2**32, 2**61, 2**61 - 1, 2**62, 2**63]
INTERESTING += [U64, U64 - 1, (U64 - 8192) // 8 + 2, (U64 - 4096) // 4 + 1]


def _up(n: int) -> int:
    return -(-n // PAGE) * PAGE


def checksum(data) -> int:
    """XXH3-64 of the whole file with the checksum field read as zero (format version 2)."""
    return xxhash.xxh3_64_intdigest(bytes(data[:40]) + bytes(8) + bytes(data[48:]))


def repair(data: bytearray) -> bytearray:
    if len(data) >= PAGE:
        data[40:48] = struct.pack("<Q", checksum(data))
    return data


def graph_file(offsets, edges, width: int, weights=None, directed: bool = False) -> bytearray:
    """A valid version-2 file, assembled field by field."""
    v, e = len(offsets) - 1, len(edges)
    body = bytearray(_up(8 * (v + 1)))
    body[: 8 * (v + 1)] = struct.pack(f"<{v + 1}Q", *offsets)
    ids = struct.pack(f"<{e}{'I' if width == 4 else 'Q'}", *edges)
    body += ids if weights is None else bytes(ids) + bytes(-len(ids) % PAGE) + struct.pack(f"<{e}I", *weights)
    flags = (1 if weights is not None else 0) | (2 if directed else 0)
    head = b"EMOGICSR" + struct.pack("<IIIIQQQQQ", 2, flags, width, 0, v, e, 0, 0, 0)
    return repair(bytearray(head + bytes(PAGE - len(head)) + body))


def random_graph(rng: random.Random) -> bytearray:
    v = rng.randrange(600) if rng.random() < 0.1 else rng.randrange(12)
    width = rng.choice((4, 8))
    offsets, edges = [0], []
    for _ in range(v):
        edges += [rng.randrange(v) for _ in range(0 if rng.random() < 0.3 else rng.randrange(5))]
        offsets.append(len(edges))
    weights = [rng.getrandbits(32) for _ in edges] if rng.random() < 0.5 else None
    return graph_file(offsets, edges, width, weights, rng.random() < 0.5)


def _get(data, at: int, n: int) -> int:
    return int.from_bytes(bytes(data[at : at + n]).ljust(n, b"\0"), "little")


def _put(data: bytearray, at: int, value: int, n: int) -> None:
    if 0 <= at and at + n <= len(data):
        data[at : at + n] = (value % 2 ** (8 * n)).to_bytes(n, "little")


def _interesting(rng: random.Random, current: int) -> int:
    return rng.choice([rng.choice(INTERESTING), current + 1, current - 1, current * 2, rng.getrandbits(64)])


def mutate_once(data: bytearray, rng: random.Random) -> None:
    if len(data) < PAGE:
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        return
    v, e, width = _get(data, 24, 8), _get(data, 32, 8), 4 if _get(data, 16, 4) == 4 else 8
    edges_at = _up(PAGE + 8 * (v + 1))
    kind = rng.randrange(10)
    if kind == 0:  # a 64-bit count
        at = rng.choice((24, 32))
        _put(data, at, _interesting(rng, _get(data, at, 8)), 8)
    elif kind == 1:  # version, flags, width, reserved
        at = rng.choice((8, 12, 16, 20))
        _put(data, at, rng.randrange(16) if rng.random() < 0.7 else _interesting(rng, _get(data, at, 4)), 4)
    elif kind == 2:  # the reserved words, or any byte of the rest of the header block
        if rng.random() < 0.5:
            _put(data, rng.choice((48, 56)), rng.choice((1, rng.getrandbits(64))), 8)
        else:
            data[rng.randrange(64, PAGE)] = rng.randrange(1, 256)
    elif kind in (3, 4):  # an offset
        at = PAGE + 8 * rng.randrange(v + 1) if v < 2**40 else PAGE
        _put(data, at, _interesting(rng, _get(data, at, 8)) if rng.random() < 0.5 else rng.randrange(e + 2), 8)
    elif kind in (5, 6) and 0 < e < 2**40:  # an id: V, V - 1, V + 1, the width's largest, anything
        at = edges_at + width * rng.randrange(e)
        _put(data, at, rng.choice((v, v - 1, v + 1, 2 ** (8 * width) - 1, rng.getrandbits(64))), width)
    elif kind == 7 and len(data) > PAGE:  # any byte after the header
        data[rng.randrange(PAGE, len(data))] ^= rng.randrange(1, 256)
    elif kind == 8:  # the size
        choice = rng.randrange(3)
        if choice == 0:
            del data[len(data) - min(len(data), rng.randrange(1, 17)) :]
        elif choice == 1:
            data += bytes(rng.randrange(1, 17))
        else:
            del data[min(len(data), PAGE * rng.randrange(1, 5)) :]
    elif kind == 9 and v and not _get(data, 12, 4) & 1 and edges_at + width * e == len(data):
        data += bytes(width)  # one more edge, E and offsets[V] updated: a consistent-looking edit
        _put(data, edges_at + width * e, rng.choice((rng.randrange(v), v)), width)
        _put(data, 32, e + 1, 8)
        _put(data, PAGE + 8 * v, e + 1, 8)


def mutated(rng: random.Random) -> bytes:
    """A random graph, mutated 1-4 times in 95% of cases, the checksum repaired in 90% of those."""
    data = random_graph(rng)
    if rng.random() < 0.95:
        for _ in range(rng.randrange(1, 5)):
            mutate_once(data, rng)
        if rng.random() < 0.9:
            repair(data)
    return bytes(data)


def valid_graph_file(data: bytes) -> bool:
    """The oracle: whether `data` is a valid version-2 graph file (docs/graph-format.md), in plain Python."""
    if len(data) < PAGE or data[:8] != b"EMOGICSR":
        return False
    version, flags, width, r0, v, e, check, r1, r2 = struct.unpack_from("<IIIIQQQQQ", data, 8)
    r1 = 0 if flags & 4 else r1  # `transposes` (any value) in a transpose file, reserved otherwise
    if version != 2 or flags & ~7 or width not in (4, 8) or r0 or r1 or r2 or any(data[64:PAGE]):
        return False
    if width == 4 and v > 2**32 - 1:
        return False
    offsets_end = PAGE + 8 * (v + 1)
    edges_at = _up(offsets_end)
    edges_end = edges_at + width * e
    end = _up(edges_end) + 4 * e if flags & 1 else edges_end
    if end != len(data) or any(data[offsets_end:edges_at]) or (flags & 1 and any(data[edges_end : _up(edges_end)])):
        return False
    offsets = np.frombuffer(data, "<u8", v + 1, PAGE)
    ids = np.frombuffer(data, "<u4" if width == 4 else "<u8", e, edges_at)
    if offsets[0] != 0 or offsets[-1] != e or np.any(offsets[1:] < offsets[:-1]) or (e and ids.max() >= v):
        return False
    return checksum(data) == check


def lists_digest(offsets, edges, weights) -> int:
    """What kernels/fuzz/csr_capi.cpp hashes: offsets, ids widened to 8 bytes, weights."""
    w = b"" if weights is None else np.asarray(weights, "<u4").tobytes()
    return xxhash.xxh3_64_intdigest(np.asarray(offsets, "<u8").tobytes() + np.asarray(edges, "<u8").tobytes() + w)
