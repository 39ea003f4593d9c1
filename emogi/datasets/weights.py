"""Edge weights for SSSP when a dataset carries none: uniform integers in [8, 72] (the paper's range, EMOGI §5.2).

A weight is a hash of the unordered edge {u, v} and a seed, not a draw from a stream, so
- both directions of an undirected edge get the same weight (the graph stays symmetric),
- the result does not depend on edge order, chunking or the number of threads, and
- any tool can recompute it: w = LOW + splitmix64(seed * 2^64/phi + (min(u,v) << 32 | max(u,v))) mod (HIGH-LOW+1)
  (all arithmetic mod 2^64; phi the golden ratio constant 0x9E3779B97F4A7C15; u, v < 2^32).
"""

from __future__ import annotations

import numpy as np

LOW, HIGH = 8, 72
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_CHUNK = 1 << 22


def _splitmix64(x: np.ndarray) -> np.ndarray:
    """The splitmix64 finaliser, elementwise on uint64 (wraps mod 2^64)."""
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def edge_weights(src, dst, seed: int, low: int = LOW, high: int = HIGH) -> np.ndarray:
    """uint32 weights in [low, high] for the edges (src[i], dst[i]); symmetric in (src, dst)."""
    src, dst = np.asarray(src), np.asarray(dst)
    if src.shape != dst.shape:
        raise ValueError(f"src and dst differ in shape: {src.shape} vs {dst.shape}")
    if not 0 < low <= high < 2**32:
        raise ValueError(f"weights need 0 < low <= high < 2^32, got [{low}, {high}]")
    out = np.empty(len(src), dtype=np.uint32)
    base = np.uint64((seed * 0x9E3779B97F4A7C15) % 2**64)
    span = np.uint64(high - low + 1)
    with np.errstate(over="ignore"):
        for lo in range(0, len(src), _CHUNK):
            s = src[lo : lo + _CHUNK].astype(np.uint64)
            d = dst[lo : lo + _CHUNK].astype(np.uint64)
            key = (np.minimum(s, d) << np.uint64(32)) | np.maximum(s, d)
            out[lo : lo + _CHUNK] = (_splitmix64(key + base) % span + np.uint64(low)).astype(np.uint32)
    return out


def csr_weights(offsets, edges, seed: int, low: int = LOW, high: int = HIGH) -> np.ndarray:
    """Weights for every entry of a CSR edge list (the source of entry i is the vertex whose list holds i)."""
    offsets, edges = np.asarray(offsets), np.asarray(edges)
    out = np.empty(len(edges), dtype=np.uint32)
    # Whole vertex ranges per chunk, so each chunk's sources come from one np.repeat.
    v, num_vertices = 0, len(offsets) - 1
    while v < num_vertices:
        first = int(offsets[v])
        last_v = int(np.searchsorted(offsets, first + _CHUNK, side="right")) - 1
        last_v = min(max(last_v, v + 1), num_vertices)
        lo, hi = first, int(offsets[last_v])
        src = np.repeat(np.arange(v, last_v, dtype=np.uint64), np.diff(offsets[v : last_v + 1]).astype(np.int64))
        out[lo:hi] = edge_weights(src, edges[lo:hi], seed, low, high)
        v = last_v
    return out
