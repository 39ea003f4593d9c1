"""Synthetic graphs in the GAP benchmark suite's conventions (Beamer et al.): Kronecker and uniform random.

kron:  2^scale * edge_factor pairs from the Graph500 Kronecker model (initiator A=0.57, B=0.19, C=0.19,
       D=0.05), vertex ids then randomly permuted so that degree does not follow the id.
urand: 2^scale * edge_factor pairs with both endpoints uniform in [0, 2^scale).
Both are symmetrised, with self-loops and duplicates removed and neighbour lists sorted (build_csr).

Determinism: the pairs are generated in fixed chunks of CHUNK_PAIRS, chunk k drawing from
Generator(PCG64(SeedSequence(seed).spawn(...)[k + 1])) and the permutation from child 0, so a seed gives the
same graph for any number of worker threads. (chunk_pairs is part of a graph's definition: changing it
changes the graph.)

CLI (the workflow's):
    python -m emogi.generators --kind kron --scale 23 --edge-factor 16 --seed 1 \\
        --out resources/graphs/kron23.w8.csr --meta resources/graphs/kron23.w8.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from emogi.atomic import write_text
from emogi.csr import CSRGraph, describe, write_csr

KINDS = ("kron", "urand")
CHUNK_PAIRS = 1 << 20
GRAPH500_ABC = (0.57, 0.19, 0.19)
MAX_SCALE = 32  # ids fit uint32 and build_csr's 32+32-bit sort keys
_BUILD_CHUNK = 1 << 22


def _default_workers() -> int:
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _check_scale(scale: int, edge_factor: int) -> None:
    if not (isinstance(scale, (int, np.integer)) and 1 <= scale <= MAX_SCALE):
        raise ValueError(f"scale must be an integer in [1, {MAX_SCALE}], got {scale!r}")
    if not (isinstance(edge_factor, (int, np.integer)) and edge_factor >= 1):
        raise ValueError(f"edge_factor must be a positive integer, got {edge_factor!r}")


def _chunked(num_pairs: int, seed, chunk_pairs: int, workers: int | None, fill):
    """Run fill(rng, src_slice, dst_slice) over fixed chunks, each with its own spawned seed, in threads.

    Returns (src, dst, the SeedSequence reserved for a permutation).

    numpy's generators and ufuncs release the GIL on large arrays, so threads scale without copying results.
    """
    if chunk_pairs < 1:
        raise ValueError(f"chunk_pairs must be positive, got {chunk_pairs}")
    n_chunks = -(-num_pairs // chunk_pairs)
    children = np.random.SeedSequence(seed).spawn(n_chunks + 1)  # child 0 is reserved for the permutation
    src = np.empty(num_pairs, dtype=np.uint32)
    dst = np.empty(num_pairs, dtype=np.uint32)

    def task(k: int) -> None:
        lo, hi = k * chunk_pairs, min((k + 1) * chunk_pairs, num_pairs)
        fill(np.random.Generator(np.random.PCG64(children[k + 1])), src[lo:hi], dst[lo:hi])

    workers = workers or _default_workers()
    if workers == 1 or n_chunks == 1:
        for k in range(n_chunks):
            task(k)
    else:
        with ThreadPoolExecutor(max_workers=min(workers, n_chunks)) as pool:
            for _ in pool.map(task, range(n_chunks)):
                pass  # re-raises a worker's exception
    return src, dst, children[0]


def kronecker_edges(scale: int, edge_factor: int = 16, seed=0, a: float = 0.57, b: float = 0.19,
                    c: float = 0.19, *, permute: bool = True, workers: int | None = None,
                    chunk_pairs: int = CHUNK_PAIRS) -> tuple[np.ndarray, np.ndarray]:
    """2^scale * edge_factor Kronecker (R-MAT) pairs as uint32 (src, dst) arrays.

    Each of the `scale` id bits picks a quadrant: (0,0) with probability a, (0,1) b, (1,0) c, (1,1) 1-a-b-c.
    """
    _check_scale(scale, edge_factor)
    if not (a > 0 and b > 0 and c > 0 and a + b + c < 1):
        raise ValueError(f"Kronecker initiator needs a, b, c > 0 and a + b + c < 1, got {a}, {b}, {c}")
    # Quadrant thresholds on a uniform 32-bit draw r: q = [r >= ta] + [r >= tab] + [r >= tabc] in 0..3,
    # and q's two bits are (src bit, dst bit).
    ta, tab, tabc = (np.uint32(round(x * 2**32)) for x in (a, a + b, a + b + c))

    def fill(rng, src, dst):
        src[:] = 0
        dst[:] = 0
        s_bit = np.empty(len(src), dtype=bool)
        d_bit = np.empty(len(src), dtype=bool)
        tmp = np.empty(len(src), dtype=bool)
        for _ in range(scale):
            r = rng.integers(0, 1 << 32, size=len(src), dtype=np.uint32)
            np.greater_equal(r, tab, out=s_bit)
            np.greater_equal(r, ta, out=d_bit)          # dst bit = [ta <= r < tab] or [r >= tabc]
            np.logical_xor(d_bit, s_bit, out=d_bit)
            np.greater_equal(r, tabc, out=tmp)
            np.logical_xor(d_bit, tmp, out=d_bit)
            src <<= 1
            src |= s_bit
            dst <<= 1
            dst |= d_bit

    src, dst, perm_seed = _chunked((1 << scale) * edge_factor, seed, chunk_pairs, workers, fill)
    if permute:
        # GAP permutes kron ids so that the high-degree vertices are not the low ids.
        perm = np.random.Generator(np.random.PCG64(perm_seed)).permutation(1 << scale).astype(np.uint32)
        _gather_inplace(perm, src, workers)
        _gather_inplace(perm, dst, workers)
    return src, dst


def _gather_inplace(table: np.ndarray, ids: np.ndarray, workers: int | None) -> None:
    """ids[:] = table[ids], in threaded chunks (take releases the GIL)."""
    step = _BUILD_CHUNK
    bounds = [(lo, min(lo + step, len(ids))) for lo in range(0, len(ids), step)]

    def task(bound):
        lo, hi = bound
        ids[lo:hi] = np.take(table, ids[lo:hi])

    with ThreadPoolExecutor(max_workers=workers or _default_workers()) as pool:
        for _ in pool.map(task, bounds):
            pass


def uniform_edges(scale: int, edge_factor: int = 16, seed=0, *, workers: int | None = None,
                  chunk_pairs: int = CHUNK_PAIRS) -> tuple[np.ndarray, np.ndarray]:
    """2^scale * edge_factor pairs with both endpoints uniform in [0, 2^scale), as uint32 arrays."""
    _check_scale(scale, edge_factor)
    num_vertices = 1 << scale

    def fill(rng, src, dst):
        src[:] = rng.integers(0, num_vertices, size=len(src), dtype=np.uint32)
        dst[:] = rng.integers(0, num_vertices, size=len(dst), dtype=np.uint32)

    src, dst, _ = _chunked(num_vertices * edge_factor, seed, chunk_pairs, workers, fill)
    return src, dst


def _threaded(task, items, workers: int | None):
    with ThreadPoolExecutor(max_workers=workers or _default_workers()) as pool:
        return list(pool.map(task, items))


def _dedup_sorted_inplace(keys: np.ndarray) -> np.ndarray:
    """Drop repeats from sorted `keys` by compacting towards the front; returns a view of the prefix.

    Chunk by chunk and in order, so the write position never passes the read position; this avoids a second
    full-size array (memory, and first-touch page faults, are what dominate at large scales).
    """
    write = 0
    prev = None
    for lo in range(0, len(keys), _BUILD_CHUNK):
        block = keys[lo:lo + _BUILD_CHUNK]
        fresh = np.empty(len(block), dtype=bool)
        fresh[0] = prev is None or block[0] != prev
        np.not_equal(block[1:], block[:-1], out=fresh[1:])
        prev = block[-1]  # a scalar copy, read before the block can be overwritten
        kept = block[fresh]
        keys[write:write + len(kept)] = kept
        write += len(kept)
    return keys[:write]


def build_csr(src, dst, num_vertices: int, symmetrize: bool = True, index_dtype=np.uint64,
              workers: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """CSR (offsets uint64 V+1, edges `index_dtype`) of the pairs: self-loops dropped, both directions added
    when `symmetrize`, duplicates removed, every neighbour list sorted ascending.

    Works on one uint64 key per directed edge, src << 32 | dst: sorting the keys sorts by source and then by
    neighbour, so dedup is a comparison with the previous key and offsets are a search for v << 32.
    Peak memory is the inputs plus one key array (8 bytes per directed edge): duplicates are removed in place.
    """
    src, dst = np.asarray(src), np.asarray(dst)
    if src.shape != dst.shape or src.ndim != 1:
        raise ValueError(f"src and dst must be 1-D arrays of equal length, got {src.shape} and {dst.shape}")
    if src.dtype.kind not in "iu" or dst.dtype.kind not in "iu":
        raise ValueError(f"vertex ids must be integers, got {src.dtype} and {dst.dtype}")
    if not 0 <= num_vertices <= 2**32:
        raise ValueError(f"build_csr handles 0 <= V <= 2^32 vertices, got {num_vertices}")
    index_dtype = np.dtype(index_dtype)
    if index_dtype not in (np.dtype(np.uint32), np.dtype(np.uint64)):
        raise ValueError(f"index_dtype must be uint32 or uint64, got {index_dtype}")
    if len(src):
        lo_id, hi_id = min(int(src.min()), int(dst.min())), max(int(src.max()), int(dst.max()))
        if lo_id < 0 or hi_id >= num_vertices:
            raise ValueError(f"vertex ids must lie in [0, {num_vertices}), found [{lo_id}, {hi_id}]")

    bounds = [(lo, min(lo + _BUILD_CHUNK, len(src))) for lo in range(0, len(src), _BUILD_CHUNK)]
    kept = _threaded(lambda b: int(np.count_nonzero(src[b[0]:b[1]] != dst[b[0]:b[1]])), bounds, workers)
    starts = np.concatenate([[0], np.cumsum(kept, dtype=np.int64)]).tolist()
    forward = starts[-1]
    keys = np.empty(forward * (2 if symmetrize else 1), dtype=np.uint64)
    shift = np.uint64(32)

    def make_keys(k: int) -> None:
        lo, hi = bounds[k]
        s, d = src[lo:hi], dst[lo:hi]
        keep = s != d
        s = s[keep].astype(np.uint64)
        d = d[keep].astype(np.uint64)
        out = keys[starts[k]:starts[k + 1]]
        np.left_shift(s, shift, out=out)
        out |= d
        if symmetrize:
            out = keys[forward + starts[k]:forward + starts[k + 1]]
            np.left_shift(d, shift, out=out)
            out |= s

    _threaded(make_keys, range(len(bounds)), workers)

    keys.sort()  # numpy's SIMD quicksort: a few seconds for 10^8 keys
    keys = _dedup_sorted_inplace(keys)

    offsets = np.empty(num_vertices + 1, dtype=np.uint64)
    vbounds = [(lo, min(lo + _BUILD_CHUNK, num_vertices)) for lo in range(0, num_vertices, _BUILD_CHUNK)]

    def find_starts(b) -> None:
        firsts = np.arange(b[0], b[1], dtype=np.uint64) << shift
        offsets[b[0]:b[1]] = np.searchsorted(keys, firsts, side="left")

    _threaded(find_starts, vbounds, workers)
    offsets[num_vertices] = len(keys)

    np.bitwise_and(keys, np.uint64(0xFFFFFFFF), out=keys)  # the key's low half is the neighbour id
    edges = keys if index_dtype == np.uint64 else keys.astype(index_dtype)
    return offsets, edges


def generate(kind: str, scale: int, edge_factor: int = 16, seed=0, workers: int | None = None,
             index_dtype=np.uint64) -> CSRGraph:
    """The symmetric graph of `kind` ('kron' or 'urand') with 2^scale vertices."""
    src, dst = _pairs(kind, scale, edge_factor, seed, workers)
    offsets, edges = build_csr(src, dst, num_vertices=1 << scale, index_dtype=index_dtype, workers=workers)
    return CSRGraph(offsets, edges, None, directed=False)


def _pairs(kind: str, scale: int, edge_factor: int, seed, workers):
    if kind == "kron":
        return kronecker_edges(scale, edge_factor, seed, workers=workers)
    if kind == "urand":
        return uniform_edges(scale, edge_factor, seed, workers=workers)
    raise ValueError(f"unknown graph kind {kind!r}; allowed: {', '.join(KINDS)}")


def generator_params(kind: str, scale: int, edge_factor: int, seed) -> dict:
    """What the metadata JSON records about how a graph was made."""
    params = {"kind": kind, "scale": scale, "edge_factor": edge_factor, "seed": seed,
              "generated_pairs": (1 << scale) * edge_factor, "chunk_pairs": CHUNK_PAIRS,
              "rng": "numpy Generator(PCG64), SeedSequence(seed).spawn per chunk",
              "symmetrized": True, "self_loops_removed": True, "duplicates_removed": True}
    if kind == "kron":
        a, b, c = GRAPH500_ABC
        params.update(initiator={"a": a, "b": b, "c": c, "d": round(1 - a - b - c, 10)}, ids_permuted=True)
    return params


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m emogi.generators",
                                     description="Generate a GAP-style synthetic graph as an 8-byte-edge CSR file.")
    parser.add_argument("--kind", required=True, choices=KINDS)
    parser.add_argument("--scale", required=True, type=int, help="log2 of the number of vertices")
    parser.add_argument("--edge-factor", type=int, default=16, help="generated pairs per vertex (default 16)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="graph file to write (.csr)")
    parser.add_argument("--meta", help="metadata JSON to write beside the graph")
    parser.add_argument("--workers", type=int, default=None, help="threads (default: all cores; output identical)")
    args = parser.parse_args(argv)

    label = f"[generators {args.kind} scale={args.scale} ef={args.edge_factor} seed={args.seed}]"
    t0 = time.perf_counter()

    def progress(msg: str) -> None:
        print(f"{label} {time.perf_counter() - t0:8.1f} s  {msg}", file=sys.stderr, flush=True)

    try:
        progress("generating pairs")
        pairs = _pairs(args.kind, args.scale, args.edge_factor, args.seed, args.workers)
        t_gen = time.perf_counter() - t0
        progress(f"generated {len(pairs[0])} pairs; symmetrising, sorting, removing duplicates")
        offsets, edges = build_csr(*pairs, num_vertices=1 << args.scale, workers=args.workers)
        del pairs
        t_built = time.perf_counter() - t0
        progress(f"built CSR: V={len(offsets) - 1} E={len(edges)}; writing {args.out}")
        graph = CSRGraph(offsets, edges, None, directed=False)
        graph.header = write_csr(args.out, offsets, edges, directed=False)
        graph.path = Path(args.out)
        t_written = time.perf_counter() - t0
        progress("written")
        if args.meta:
            meta = describe(graph)
            meta["generator"] = generator_params(args.kind, args.scale, args.edge_factor, args.seed)
            meta["generation_seconds"] = round(t_built, 3)  # pairs + CSR build, the work a graph costs
            meta["phase_seconds"] = {"generate": round(t_gen, 3), "build": round(t_built - t_gen, 3),
                                     "write": round(t_written - t_built, 3)}
            write_text(json.dumps(meta, indent=2) + "\n", args.meta)
            progress(f"metadata written to {args.meta}")
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
