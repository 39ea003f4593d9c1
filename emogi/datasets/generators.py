"""Synthetic graphs in the GAP benchmark suite's conventions (Beamer et al.): Kronecker and uniform random.

kron:  2^scale * edge_factor pairs from the Graph500 Kronecker (R-MAT) model (initiator A=0.57, B=0.19,
       C=0.19, D=0.05; another with --rmat-abc A,B,C, D = 1 - A - B - C), vertex ids then randomly permuted so
       that degree does not follow the id.
urand: 2^scale * edge_factor pairs with both endpoints uniform in [0, 2^scale).
Both are symmetrised (with --directed: each pair is one directed edge, as generated), with self-loops and
duplicates removed and neighbour lists sorted; the CLI's graphs carry SSSP weights (emogi.datasets.weights:
uniform 8..72, a hash of the edge and a recorded seed).

Determinism: the pairs are generated in fixed chunks of CHUNK_PAIRS (PairStream), chunk k drawing from
Generator(PCG64(SeedSequence(seed).spawn(...)[k + 1])) and the permutation from child 0, so a seed gives the
same pairs for any number of worker threads and in any chunk order. (chunk_pairs is part of a graph's
definition: changing it changes the graph.) The CSR of the pairs is canonical (sorted, deduplicated), so the
in-memory build (`generate`, `build_csr`) and the CLI's streaming, memory-bounded build (emogi.datasets.external_build,
any bucket count) write the same graph.

CLI (the workflow's):
    python -m emogi.datasets.generators --kind kron --scale 23 --edge-factor 16 --seed 1 --weights-seed 1 \\
        --out resources/graphs/kron23.w8.csr --meta resources/graphs/kron23.w8.json [--memory-limit 8G]
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from emogi.atomic import exit_cleanly_on_signals, write_text
from emogi.cli import exit_status
from emogi.csr import CSRGraph, describe, read_csr
from emogi.datasets import build_plan, external_build
from emogi.datasets.build_plan import default_workers
from emogi.datasets.external_build import dedup_sorted_inplace
from emogi.datasets.weights import HIGH, LOW, csr_weights

KINDS = ("kron", "urand")
CHUNK_PAIRS = 1 << 20
GRAPH500_ABC = (0.57, 0.19, 0.19)
MAX_SCALE = 32  # ids fit uint32 and the 32+32-bit sort keys
_BUILD_CHUNK = 1 << 22


def _threaded(task, items, workers: int | None):
    with ThreadPoolExecutor(max_workers=workers or default_workers()) as pool:
        return list(pool.map(task, items))


def _check_scale(scale: int, edge_factor: int) -> None:
    if not (isinstance(scale, (int, np.integer)) and 1 <= scale <= MAX_SCALE):
        raise ValueError(f"scale must be an integer in [1, {MAX_SCALE}], got {scale!r}")
    if not (isinstance(edge_factor, (int, np.integer)) and edge_factor >= 1):
        raise ValueError(f"edge_factor must be a positive integer, got {edge_factor!r}")


def _check_initiator(a: float, b: float, c: float) -> None:
    if not (a > 0 and b > 0 and c > 0 and a + b + c < 1):
        raise ValueError(f"Kronecker initiator needs a, b, c > 0 and a + b + c < 1, got {a}, {b}, {c}")


def parse_initiator(value) -> tuple[float, float, float]:
    """The R-MAT initiator (a, b, c) from 'A,B,C' or a sequence of three numbers; ValueError (one line) for
    anything else: not three numbers, one not above 0, or a + b + c >= 1 (d = 1 - a - b - c must stay above 0)."""
    parts = value.split(",") if isinstance(value, str) else value
    try:
        numbers = tuple(float(x) for x in parts)
    except (TypeError, ValueError):
        numbers = ()
    if len(numbers) != 3 or isinstance(value, bool) or not all(np.isfinite(numbers)):
        raise ValueError(f"R-MAT initiator must be three numbers a,b,c (e.g. 0.45,0.15,0.15), got {value!r}")
    _check_initiator(*numbers)
    return numbers


def _fill_kron(rng, src, dst, scale: int, thresholds) -> None:
    """Each of the `scale` id bits picks a quadrant: (0,0) with probability a, (0,1) b, (1,0) c, (1,1) the rest.

    Quadrant thresholds on a uniform 32-bit draw r: q = [r >= ta] + [r >= tab] + [r >= tabc] in 0..3, and q's
    two bits are (src bit, dst bit)."""
    ta, tab, tabc = thresholds
    src[:] = 0
    dst[:] = 0
    s_bit = np.empty(len(src), dtype=bool)
    d_bit = np.empty(len(src), dtype=bool)
    tmp = np.empty(len(src), dtype=bool)
    for _ in range(scale):
        r = rng.integers(0, 1 << 32, size=len(src), dtype=np.uint32)
        np.greater_equal(r, tab, out=s_bit)
        np.greater_equal(r, ta, out=d_bit)  # dst bit = [ta <= r < tab] or [r >= tabc]
        np.logical_xor(d_bit, s_bit, out=d_bit)
        np.greater_equal(r, tabc, out=tmp)
        np.logical_xor(d_bit, tmp, out=d_bit)
        src <<= 1
        src |= s_bit
        dst <<= 1
        dst |= d_bit


class PairStream:
    """The generated (src, dst) pairs of one graph as fixed chunks that can be made independently, in any order
    and on any thread: chunk k is `chunk(k)`, the same whoever makes it."""

    def __init__(
        self,
        kind: str,
        scale: int,
        edge_factor: int = 16,
        seed=0,
        *,
        initiator=GRAPH500_ABC,
        permute: bool = True,
        chunk_pairs: int = CHUNK_PAIRS,
    ):
        if kind not in KINDS:
            raise ValueError(f"unknown graph kind {kind!r}; allowed: {', '.join(KINDS)}")
        _check_scale(scale, edge_factor)
        if chunk_pairs < 1:
            raise ValueError(f"chunk_pairs must be positive, got {chunk_pairs}")
        if kind == "kron":
            _check_initiator(*initiator)
        self.kind, self.scale = kind, scale
        self.num_vertices = 1 << scale
        self.num_pairs = self.num_vertices * edge_factor
        self.chunk_pairs = chunk_pairs
        self.num_chunks = -(-self.num_pairs // chunk_pairs)
        self._seeds = np.random.SeedSequence(seed).spawn(self.num_chunks + 1)  # child 0: the permutation
        a, b, c = initiator
        self._thresholds = tuple(np.uint32(round(x * 2**32)) for x in (a, a + b, a + b + c))
        self._permute = permute and kind == "kron"  # GAP permutes kron ids: hubs are not the low ids
        self._perm = None
        self._perm_lock = threading.Lock()

    def bounds(self, k: int) -> tuple[int, int]:
        return k * self.chunk_pairs, min((k + 1) * self.chunk_pairs, self.num_pairs)

    def permutation(self) -> np.ndarray:
        """kron's id permutation (uint32, 4 bytes per vertex), made once."""
        with self._perm_lock:
            if self._perm is None:
                # shuffle of an arange is Generator.permutation's algorithm, without its int64 copy
                perm = np.arange(self.num_vertices, dtype=np.uint32)
                np.random.Generator(np.random.PCG64(self._seeds[0])).shuffle(perm)
                self._perm = perm
            return self._perm

    @property
    def table_bytes(self) -> int:
        """Memory the stream holds while chunks are made (the permutation)."""
        return 4 * self.num_vertices if self._permute else 0

    def fill(self, k: int, src: np.ndarray, dst: np.ndarray) -> None:
        """Write chunk k into the uint32 arrays `src`, `dst` (of the chunk's length)."""
        rng = np.random.Generator(np.random.PCG64(self._seeds[k + 1]))
        if self.kind == "kron":
            _fill_kron(rng, src, dst, self.scale, self._thresholds)
            if self._permute:
                perm = self.permutation()
                np.take(perm, src, out=src)
                np.take(perm, dst, out=dst)
        else:
            src[:] = rng.integers(0, self.num_vertices, size=len(src), dtype=np.uint32)
            dst[:] = rng.integers(0, self.num_vertices, size=len(dst), dtype=np.uint32)

    def chunk(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = self.bounds(k)
        src = np.empty(hi - lo, dtype=np.uint32)
        dst = np.empty(hi - lo, dtype=np.uint32)
        self.fill(k, src, dst)
        return src, dst

    def all_pairs(self, workers: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every pair, as two uint32 arrays, made in threads."""
        src = np.empty(self.num_pairs, dtype=np.uint32)
        dst = np.empty(self.num_pairs, dtype=np.uint32)

        def task(k: int) -> None:
            lo, hi = self.bounds(k)
            self.fill(k, src[lo:hi], dst[lo:hi])

        _threaded(task, range(self.num_chunks), workers if self.num_chunks > 1 else 1)
        return src, dst


def kronecker_edges(
    scale: int,
    edge_factor: int = 16,
    seed=0,
    a: float = 0.57,
    b: float = 0.19,
    c: float = 0.19,
    *,
    permute: bool = True,
    workers: int | None = None,
    chunk_pairs: int = CHUNK_PAIRS,
) -> tuple[np.ndarray, np.ndarray]:
    """2^scale * edge_factor Kronecker (R-MAT) pairs as uint32 (src, dst) arrays."""
    return PairStream(
        "kron", scale, edge_factor, seed, initiator=(a, b, c), permute=permute, chunk_pairs=chunk_pairs
    ).all_pairs(workers)


def uniform_edges(
    scale: int, edge_factor: int = 16, seed=0, *, workers: int | None = None, chunk_pairs: int = CHUNK_PAIRS
) -> tuple[np.ndarray, np.ndarray]:
    """2^scale * edge_factor pairs with both endpoints uniform in [0, 2^scale), as uint32 arrays."""
    return PairStream("urand", scale, edge_factor, seed, chunk_pairs=chunk_pairs).all_pairs(workers)


def build_csr(
    src, dst, num_vertices: int, symmetrize: bool = True, index_dtype=np.uint64, workers: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """CSR (offsets uint64 V+1, edges `index_dtype`) of the pairs, in memory: self-loops dropped, both
    directions added when `symmetrize`, duplicates removed, every neighbour list sorted ascending.

    Works on one uint64 key per directed edge, src << 32 | dst: sorting the keys sorts by source and then by
    neighbour, so dedup is a comparison with the previous key and offsets are a search for v << 32.
    Peak memory is the inputs plus one key array (8 bytes per directed edge): duplicates are removed in place.
    emogi.datasets.external_build makes the same CSR in bounded memory.
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
    kept = _threaded(lambda b: int(np.count_nonzero(src[b[0] : b[1]] != dst[b[0] : b[1]])), bounds, workers)
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
        out = keys[starts[k] : starts[k + 1]]
        np.left_shift(s, shift, out=out)
        out |= d
        if symmetrize:
            out = keys[forward + starts[k] : forward + starts[k + 1]]
            np.left_shift(d, shift, out=out)
            out |= s

    _threaded(make_keys, range(len(bounds)), workers)

    keys.sort()  # numpy's SIMD quicksort: a few seconds for 10^8 keys
    keys = dedup_sorted_inplace(keys)

    offsets = np.empty(num_vertices + 1, dtype=np.uint64)
    vbounds = [(lo, min(lo + _BUILD_CHUNK, num_vertices)) for lo in range(0, num_vertices, _BUILD_CHUNK)]

    def find_starts(b) -> None:
        firsts = np.arange(b[0], b[1], dtype=np.uint64) << shift
        offsets[b[0] : b[1]] = np.searchsorted(keys, firsts, side="left")

    _threaded(find_starts, vbounds, workers)
    offsets[num_vertices] = len(keys)

    np.bitwise_and(keys, np.uint64(0xFFFFFFFF), out=keys)  # the key's low half is the neighbour id
    edges = keys if index_dtype == np.uint64 else keys.astype(index_dtype)
    return offsets, edges


def generate(
    kind: str,
    scale: int,
    edge_factor: int = 16,
    seed=0,
    workers: int | None = None,
    index_dtype=np.uint64,
    weights_seed: int | None = None,
    directed: bool = False,
) -> CSRGraph:
    """The symmetric graph of `kind` ('kron' or 'urand') with 2^scale vertices, in memory (`directed`: each pair
    one directed edge, as the CLI's --directed); with `weights_seed`, carrying the weights the CLI writes."""
    src, dst = PairStream(kind, scale, edge_factor, seed).all_pairs(workers)
    offsets, edges = build_csr(
        src, dst, num_vertices=1 << scale, symmetrize=not directed, index_dtype=index_dtype, workers=workers
    )
    weights = None if weights_seed is None else csr_weights(offsets, edges, weights_seed)
    return CSRGraph(offsets, edges, weights, directed=directed)


def generator_params(
    kind: str, scale: int, edge_factor: int, seed, directed: bool = False, initiator=GRAPH500_ABC
) -> dict:
    """What the metadata JSON records about how a graph was made (kron: its initiator a, b, c, d)."""
    params = {
        "kind": kind,
        "scale": scale,
        "edge_factor": edge_factor,
        "seed": seed,
        "generated_pairs": (1 << scale) * edge_factor,
        "chunk_pairs": CHUNK_PAIRS,
        "rng": "numpy Generator(PCG64), SeedSequence(seed).spawn per chunk",
        "symmetrized": not directed,
        "self_loops_removed": True,
        "duplicates_removed": True,
    }
    if kind == "kron":
        a, b, c = initiator
        params.update(initiator={"a": a, "b": b, "c": c, "d": round(1 - a - b - c, 10)}, ids_permuted=True)
    return params


def _metadata(out: Path, args, result, seconds: float) -> dict:
    """describe() of the written file plus how it was made (source, weights, the build's plan and costs)."""
    graph = read_csr(out, verify_checksum=False)
    meta = describe(graph)
    meta.update(offsets_bytes=graph.header.offsets_bytes, weights_bytes=graph.header.weights_bytes)
    meta["source"] = {
        "type": "generator",
        **generator_params(args.kind, args.scale, args.edge_factor, args.seed, args.directed, args.rmat_abc),
    }
    meta["generator"] = meta["source"]  # the key earlier metadata used
    meta["weights"] = {
        "low": LOW,
        "high": HIGH,
        "seed": args.weights_seed,
        "scheme": "emogi.datasets.weights: splitmix64 hash of the unordered edge and the seed",
    }
    meta["generation_seconds"] = round(seconds, 3)  # pairs, CSR, weights and checksum: what a graph costs
    meta["build"] = result.to_dict()
    return meta


def _parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="python -m emogi.datasets.generators",
        description="Generate a GAP-style synthetic graph as a CSR file with weights.",
    )
    parser.add_argument("--kind", required=True, choices=KINDS)
    parser.add_argument("--scale", required=True, type=int, help="log2 of the number of vertices")
    parser.add_argument("--edge-factor", type=int, default=16, help="generated pairs per vertex (default 16)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rmat-abc",
        metavar="A,B,C",
        help="kron only: the R-MAT initiator, d = 1 - a - b - c (default Graph500's 0.57,0.19,0.19)",
    )
    parser.add_argument("--weights-seed", type=int, default=1, help="seed of the SSSP weights (default 1)")
    parser.add_argument("--index-bytes", type=int, choices=(4, 8), default=8, help="edge id width (default 8)")
    parser.add_argument(
        "--directed", action="store_true", help="each generated pair is one directed edge (default: symmetrised)"
    )
    parser.add_argument("--out", required=True, help="graph file to write (.csr)")
    parser.add_argument("--meta", help="metadata JSON to write beside the graph")
    parser.add_argument("--workers", type=int, default=None, help="threads (default: all cores; output identical)")
    parser.add_argument(
        "--memory-limit",
        type=build_plan.parse_bytes,
        default=None,
        help="bytes the build may hold, e.g. 8G (default: half of the available memory)",
    )
    parser.add_argument("--tmp-dir", type=Path, help="folder for the bucket files (default: beside --out)")
    parser.add_argument("--buckets", type=int, help="bucket count (default: chosen from the memory limit)")
    return parser.parse_args(argv)


def cli_initiator(kind: str, text: str | None) -> tuple[float, float, float]:
    """--rmat-abc's initiator (Graph500's where it is not given); ValueError where it is bad or kind is not kron."""
    if text is None:
        return GRAPH500_ABC
    if kind != "kron":
        raise ValueError(f"--rmat-abc applies to --kind kron only, not {kind}")
    return parse_initiator(text)


def main(argv=None) -> int:
    args = _parse_args(argv)
    label = f"[generators {args.kind} scale={args.scale} ef={args.edge_factor} seed={args.seed}]"
    t0 = time.perf_counter()

    def progress(msg: str) -> None:
        print(f"{label} {time.perf_counter() - t0:8.1f} s  {msg}", file=sys.stderr, flush=True)

    # A killed job (snakemake, timeout, Ctrl-C) still removes its bucket files and temporary graph.
    exit_cleanly_on_signals()

    def build():
        args.rmat_abc = cli_initiator(args.kind, args.rmat_abc)
        stream = PairStream(args.kind, args.scale, args.edge_factor, args.seed, initiator=args.rmat_abc)
        out = Path(args.out)
        result = external_build.build_csr_file(
            out,
            stream,
            num_vertices=stream.num_vertices,
            index_bytes=args.index_bytes,
            symmetrize=not args.directed,
            weights_seed=args.weights_seed,
            memory_limit=args.memory_limit,
            workers=args.workers,
            tmp_dir=args.tmp_dir,
            buckets=args.buckets,
            log=progress,
        )
        seconds = time.perf_counter() - t0
        progress(f"written {out}: V={result.header.num_vertices} E={result.header.num_edges}")
        if args.meta:
            write_text(json.dumps(_metadata(out, args, result, seconds), indent=2) + "\n", args.meta)
            progress(f"metadata written to {args.meta}")

    return exit_status(build, (ValueError, OSError))


if __name__ == "__main__":
    sys.exit(main())
