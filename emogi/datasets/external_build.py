"""Memory-bounded CSR construction: pair chunks in, a finished graph file (docs/graph-format.md) out.

Four phases, each parallel over threads (numpy releases the GIL in sorts, ufuncs and file I/O):
1. partition: each pair chunk becomes 64-bit keys src << 32 | dst (both directions when symmetrising, self-loops
   dropped), sorted and split by source-vertex range into B bucket files on disk (np.tofile-style appends);
2. per bucket, in parallel: read, sort, drop duplicates, find each vertex's first edge; once the buckets before
   it have reported their sizes, write its offsets and its slice of the edge list in place (buckets report
   before they wait, and start in order, so the wait always ends);
3. weights: per vertex range, read the edges back and write emogi.datasets.weights' hash weights (the weight section
   starts after the edges, so its place is known only once every bucket is counted);
4. checksum: XXH3-64 over the header (its checksum field zero) and the payload in file order (offsets and edges
   while phase 3 runs, then the weights), then the header is written; the file is renamed into place only now.

Memory: B is chosen so that one bucket per worker fits in `memory_limit` beside the fixed costs (offsets,
8 B/vertex; the pair source's tables; one pair chunk per worker); phase 2 runs as many buckets at once as the
real bucket sizes allow. Disk: the bucket files (8 B per directed edge) shrink as the graph file grows, so the
peak is about the final file. The graph depends on neither B, the worker count nor the chunk order: sorting and
deduplication make the CSR canonical.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from emogi.atomic import atomic_path, sweep_stale
from emogi.csr import checksum_state
from emogi.csr_header import FLAG_DIRECTED, FLAG_HAS_WEIGHTS, HEADER_BLOCK, VERSION, CSRHeader, check_index_width
from emogi.datasets.build_plan import (
    _BLOCK,
    _IO_BYTES,
    MEMORY_FRACTION,
    WEIGHT_PIECE,
    Plan,
    available_memory,
    bucket_bytes,
    default_workers,
    peak_rss_bytes,
    plan_build,
)
from emogi.datasets.weights import edge_weights

_MASK = np.uint64(0xFFFFFFFF)
_SHIFT = np.uint64(32)


# ---------------------------------------------------------------------------------------------- helpers


def dedup_sorted_inplace(keys: np.ndarray) -> np.ndarray:
    """Drop repeats from sorted `keys` by compacting towards the front; returns a view of the prefix.

    Block by block and in order, so the write position never passes the read position; this avoids a second
    full-size array (memory, and first-touch page faults, are what dominate at large scales).
    """
    write = 0
    prev = None
    for lo in range(0, len(keys), _BLOCK):
        block = keys[lo : lo + _BLOCK]
        fresh = np.empty(len(block), dtype=bool)
        fresh[0] = prev is None or block[0] != prev
        np.not_equal(block[1:], block[:-1], out=fresh[1:])
        prev = block[-1]  # a scalar copy, read before the block can be overwritten
        kept = block[fresh]
        keys[write : write + len(kept)] = kept
        write += len(kept)
    return keys[:write]


def local_starts(keys: np.ndarray, first: int, count: int, out: np.ndarray) -> None:
    """out[i] = position in the sorted `keys` of vertex first+i's first key (searched in vertex blocks)."""
    for lo in range(0, count, _BLOCK):
        hi = min(lo + _BLOCK, count)
        firsts = np.arange(first + lo, first + hi, dtype=np.uint64) << _SHIFT
        out[lo:hi] = np.searchsorted(keys, firsts, side="left")


def pair_keys(src: np.ndarray, dst: np.ndarray, symmetrize: bool) -> np.ndarray:
    """uint64 keys src << 32 | dst of the pairs without self-loops (and of their reverses when symmetrising)."""
    keep = src != dst
    s, d = src[keep], dst[keep]
    n = len(s)
    keys = np.empty(2 * n if symmetrize else n, dtype=np.uint64)
    for out, hi, lo in ((keys[:n], s, d), (keys[n:], d, s)) if symmetrize else ((keys, s, d),):
        out[:] = hi
        out <<= _SHIFT
        out |= lo
    return keys


def pwrite_all(fd: int, array: np.ndarray, offset: int) -> None:
    view = memoryview(np.ascontiguousarray(array)).cast("B")
    done = 0
    while done < len(view):
        done += os.pwrite(fd, view[done : done + _IO_BYTES], offset + done)


def pread_array(fd: int, dtype, count: int, offset: int) -> np.ndarray:
    out = np.empty(count, dtype=dtype)
    view = memoryview(out).cast("B")
    done = 0
    while done < len(view):
        n = os.preadv(fd, [view[done : done + _IO_BYTES]], offset + done)
        if n == 0:
            raise OSError(f"unexpected end of file at byte {offset + done}")
        done += n
    return out


def hash_range(fd: int, h, start: int, end: int) -> None:
    """Feed bytes [start, end) of the file to the hash, in order."""
    buf = bytearray(_IO_BYTES)
    view = memoryview(buf)
    pos = start
    while pos < end:
        n = os.preadv(fd, [view[: min(_IO_BYTES, end - pos)]], pos)
        if n == 0:
            raise OSError(f"unexpected end of file at byte {pos}")
        h.update(view[:n])
        pos += n


def _pool_run(task, items, workers: int) -> None:
    """Run task(item) on `workers` threads, items started in order; re-raises the first failure."""
    if workers <= 1:
        for item in items:
            task(item)
        return
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        for _ in pool.map(task, items):
            pass
    finally:  # on a failure (or SIGTERM) drop the queued items; running ones end, their predecessors ran first
        pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------------------------------------- phase 1


class BucketFiles:
    """B append-only files of uint64 keys in a folder of their own; each bucket is read back once, then deleted."""

    def __init__(self, folder: Path, count: int):
        self.folder = folder
        self.paths = [folder / f"bucket{b:05d}.u64" for b in range(count)]
        self.sizes = [0] * count  # keys
        self._locks = [threading.Lock() for _ in range(count)]
        self._files = []
        folder.mkdir(parents=True, exist_ok=False)
        try:  # a SIGTERM (SystemExit) while the files open must not leave the folder behind
            for p in self.paths:
                self._files.append(open(p, "wb", buffering=0))
        except BaseException:
            self.remove()
            raise

    def append(self, b: int, keys: np.ndarray) -> None:
        view = memoryview(keys).cast("B")
        with self._locks[b]:
            done = 0
            while done < len(view):
                done += self._files[b].write(view[done:])
            self.sizes[b] += len(keys)

    def close(self) -> None:
        for f in self._files:
            f.close()

    def take(self, b: int) -> np.ndarray:
        keys = np.fromfile(self.paths[b], dtype=np.uint64)
        self.paths[b].unlink()
        return keys

    def remove(self) -> None:
        self.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def partition(pairs, symmetrize: bool, plan: Plan, store: BucketFiles, workers: int, log) -> None:
    """Phase 1: every chunk's keys, split by source range, appended to the bucket files."""
    cuts = np.arange(1, plan.buckets, dtype=np.uint64) * np.uint64(plan.bucket_vertices) << _SHIFT
    step = max(pairs.num_chunks // 10, 1)

    def task(k: int) -> None:
        keys = pair_keys(*pairs.chunk(k), symmetrize)
        if plan.buckets == 1:
            store.append(0, keys)
        else:
            keys.sort()  # groups the keys by bucket; SIMD sort, ~25 ms per chunk
            bounds = [0, *np.searchsorted(keys, cuts).tolist(), len(keys)]
            for b in range(plan.buckets):
                if bounds[b + 1] > bounds[b]:
                    store.append(b, keys[bounds[b] : bounds[b + 1]])
        if (k + 1) % step == 0:
            log(f"partitioned chunk {k + 1} of {pairs.num_chunks}")

    _pool_run(task, range(pairs.num_chunks), workers)


# ---------------------------------------------------------------------------------------------- phase 2


class PrefixSums:
    """Per-bucket counts arriving in any order; `wait(b)` blocks until every bucket before b has reported."""

    def __init__(self, count: int):
        self._counts = [None] * count
        self._failed = False
        self._cond = threading.Condition()

    def put(self, b: int, value: int) -> None:
        with self._cond:
            self._counts[b] = value
            self._cond.notify_all()

    def fail(self) -> None:
        with self._cond:
            self._failed = True
            self._cond.notify_all()

    def wait(self, b: int) -> int:
        with self._cond:
            self._cond.wait_for(lambda: self._failed or None not in self._counts[:b])
            if self._failed:
                raise RuntimeError("stopped: another bucket failed")
            return sum(self._counts[:b])


def build_buckets(
    store: BucketFiles, plan: Plan, layout: CSRHeader, offsets: np.ndarray, fd: int, workers: int, log
) -> int:
    """Phase 2: sort, dedup and place every bucket; fills `offsets[:V]`, writes the edges; returns E."""
    prefix = PrefixSums(plan.buckets)
    num_vertices = len(offsets) - 1
    edge_dtype = np.uint32 if layout.index_bytes == 4 else np.uint64

    def task(b: int) -> None:
        first = b * plan.bucket_vertices
        count = max(min(first + plan.bucket_vertices, num_vertices) - first, 0)
        try:
            keys = store.take(b)
            keys.sort()
            keys = dedup_sorted_inplace(keys)
            local_starts(keys, first, count, offsets[first : first + count])
            prefix.put(b, len(keys))
            start = prefix.wait(b)
        except BaseException:
            prefix.fail()
            raise
        offsets[first : first + count] += np.uint64(start)
        np.bitwise_and(keys, _MASK, out=keys)  # the low half of a key is the neighbour id
        for lo in range(0, len(keys), _IO_BYTES // 8):
            block = keys[lo : lo + _IO_BYTES // 8].astype(edge_dtype, copy=False)
            pwrite_all(fd, block, layout.edges_offset + (start + lo) * layout.index_bytes)
        log(f"bucket {b + 1} of {plan.buckets}: {len(keys)} edges")

    _pool_run(task, range(plan.buckets), workers)
    return prefix.wait(plan.buckets)


# ---------------------------------------------------------------------------------------------- phase 3


def weight_ranges(offsets: np.ndarray, chunk_edges: int) -> list[tuple[int, int]]:
    """Vertex ranges [a, b) of about `chunk_edges` edges each (a single vertex may exceed it)."""
    num_vertices, num_edges = len(offsets) - 1, int(offsets[-1])
    targets = np.arange(0, num_edges, chunk_edges, dtype=np.uint64)
    cuts = np.unique(np.searchsorted(offsets, targets, side="right") - 1).tolist()
    cuts = sorted(set(cuts) | {0, num_vertices})
    return [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if offsets[b] > offsets[a]]


def write_weights(layout: CSRHeader, offsets: np.ndarray, fd: int, seed: int, plan: Plan) -> None:
    """Phase 3: the weights of every edge, from the edges already in the file."""
    edge_dtype = np.uint32 if layout.index_bytes == 4 else np.uint64

    def task(vrange) -> None:
        a, b = vrange
        e0, e1 = int(offsets[a]), int(offsets[b])
        dst = pread_array(fd, edge_dtype, e1 - e0, layout.edges_offset + e0 * layout.index_bytes)
        src = np.repeat(np.arange(a, b, dtype=np.uint64), np.diff(offsets[a : b + 1]).astype(np.intp))
        weights = np.empty(len(dst), dtype=np.uint32)
        for lo in range(0, len(dst), WEIGHT_PIECE):
            weights[lo : lo + WEIGHT_PIECE] = edge_weights(
                src[lo : lo + WEIGHT_PIECE], dst[lo : lo + WEIGHT_PIECE], seed
            )
        pwrite_all(fd, weights, layout.weights_offset + 4 * e0)

    _pool_run(task, weight_ranges(offsets, plan.weight_chunk_edges), plan.weight_workers)


# ---------------------------------------------------------------------------------------------- the build


@dataclass
class BuildResult:
    header: CSRHeader
    plan: Plan
    phase2_workers: int
    max_bucket_keys: int
    phase_seconds: dict = field(default_factory=dict)
    peak_rss_bytes: int = 0

    def to_dict(self) -> dict:
        return {
            "plan": asdict(self.plan),
            "phase2_workers": self.phase2_workers,
            "max_bucket_keys": self.max_bucket_keys,
            "phase_seconds": self.phase_seconds,
            "peak_rss_bytes": self.peak_rss_bytes,
        }


def _phase2_workers(plan: Plan, max_bucket_keys: int, index_bytes: int, log) -> int:
    """As many buckets at once as the real (largest) bucket size lets the budget hold."""
    need = bucket_bytes(max_bucket_keys, plan.bucket_vertices, index_bytes)
    if need > plan.budget:
        log(
            f"warning: the largest bucket ({max_bucket_keys} keys) alone exceeds the memory budget of "
            f"{plan.budget / 2**20:.0f} MiB (a very skewed source range); building it anyway"
        )
    return max(1, min(plan.workers, plan.budget // need))


def _layout(num_vertices: int, num_edges: int, index_bytes: int, weighted: bool, directed: bool) -> CSRHeader:
    flags = (FLAG_HAS_WEIGHTS if weighted else 0) | (FLAG_DIRECTED if directed else 0)
    return CSRHeader(VERSION, flags, index_bytes, num_vertices, num_edges, 0)


def build_csr_file(
    path,
    pairs,
    *,
    num_vertices: int,
    symmetrize: bool = True,
    index_bytes: int = 8,
    weights_seed: int | None = None,
    memory_limit: int | None = None,
    workers: int | None = None,
    tmp_dir=None,
    buckets: int | None = None,
    log=None,
) -> BuildResult:
    """Write the CSR of `pairs` to `path` (atomically), in bounded memory; see the module doc.

    `pairs` has `num_chunks`, `chunk_pairs`, `chunk(k) -> (src, dst)` (uint32 arrays, ids < num_vertices) and
    optionally `table_bytes` (memory it holds). `weights_seed` None: no weight section."""
    log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    path = Path(path)
    check_index_width(num_vertices, index_bytes, str(path))
    if num_vertices > 2**32:
        raise ValueError(f"{path}: at most 2^32 vertices fit the 32+32-bit keys, got {num_vertices}")
    workers = workers or default_workers()
    memory_limit = memory_limit or int(MEMORY_FRACTION * available_memory())
    max_keys = pairs.num_chunks * pairs.chunk_pairs * (2 if symmetrize else 1)
    plan = plan_build(
        num_vertices,
        max_keys,
        pairs.chunk_pairs,
        getattr(pairs, "table_bytes", 0),
        workers,
        memory_limit,
        buckets,
        index_bytes,
    )
    log(
        f"plan: {plan.buckets} buckets of {plan.bucket_vertices} vertices, {workers} workers, memory limit "
        f"{memory_limit / 2**30:.2f} GiB (fixed {plan.fixed_bytes / 2**30:.2f} GiB)"
    )
    sweep_stale(path, tmp_dir or path.parent)  # bucket folders of a killed earlier build of `path`
    folder = Path(tmp_dir or path.parent) / f".{path.name}.{os.getpid()}.buckets"
    clock = _Clock()
    store = BucketFiles(folder, plan.buckets)
    try:
        partition(pairs, symmetrize, plan, store, workers, log)
        store.close()
        clock.lap("partition")
        max_bucket = max(store.sizes)
        with atomic_path(path) as tmp:
            fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                header, phase2_workers = _write_graph(
                    fd, store, plan, num_vertices, index_bytes, weights_seed, not symmetrize, max_bucket, clock, log
                )
            finally:
                os.close(fd)
    finally:
        store.remove()
    return BuildResult(header, plan, phase2_workers, max_bucket, clock.seconds, peak_rss_bytes())


def _write_graph(fd, store, plan, num_vertices, index_bytes, weights_seed, directed, max_bucket, clock, log):
    """Phases 2-4 into the open file `fd`; returns (header, phase-2 workers)."""
    weighted = weights_seed is not None
    offsets = np.empty(num_vertices + 1, dtype=np.uint64)
    layout = _layout(num_vertices, 0, index_bytes, weighted, directed)  # the edges' place needs V only
    phase2_workers = _phase2_workers(plan, max_bucket, index_bytes, log)
    num_edges = build_buckets(store, plan, layout, offsets, fd, phase2_workers, log)
    offsets[num_vertices] = num_edges
    header = _layout(num_vertices, num_edges, index_bytes, weighted, directed)
    pwrite_all(fd, offsets, header.offsets_offset)
    os.ftruncate(fd, header.file_size)  # padding and not-yet-written sections read as zeros
    clock.lap("sort_write")
    h = checksum_state(header)  # the header (checksum field zero), then the payload in file order
    first_end = header.weights_offset if weighted else header.file_size
    with ThreadPoolExecutor(max_workers=1) as hasher:  # offsets and edges are final: hash them meanwhile
        hashed = hasher.submit(hash_range, fd, h, HEADER_BLOCK, first_end)
        if weighted:
            write_weights(header, offsets, fd, weights_seed, plan)
        hashed.result()
    clock.lap("weights")
    hash_range(fd, h, first_end, header.file_size)
    header.checksum = h.intdigest()
    pwrite_all(fd, np.frombuffer(header.pack(), dtype=np.uint8), 0)
    os.fsync(fd)  # the data is on disk before the name points at it
    clock.lap("checksum_sync")
    log(f"E={num_edges}: written, checksum {header.checksum:016x}, seconds {clock.seconds}")
    return header, phase2_workers


class _Clock:
    """Seconds per phase, each lap measured from the previous one."""

    def __init__(self):
        self.seconds, self._t = {}, time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.seconds[name], self._t = round(now - self._t, 3), now
