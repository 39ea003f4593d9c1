"""How a memory-bounded CSR build (emogi.datasets.external_build) fits the machine: the memory and cores there
are, sizes given as text ('8G'), and the plan (bucket count, phase-3 weight tasks) that keeps each phase within a
memory limit. The build's module doc says what the phases hold."""

from __future__ import annotations

import os
import re
import resource
from dataclasses import dataclass

MEMORY_FRACTION = 0.5  # default limit: this share of the memory the kernel says is available
BYTES_PER_PAIR_IN_FLIGHT = 48  # one pair chunk being made and partitioned: ids, draws, keys
WEIGHT_BYTES_PER_EDGE = 20  # a weight task holds ids read back (8), sources (8) and weights (4) per edge
WEIGHT_CHUNK_EDGES = 1 << 22  # edges per weight task at most
WEIGHT_PIECE = 1 << 18  # edges per emogi.datasets.weights call: small temporaries stay in cache and in the heap
WEIGHT_PIECE_BYTES = WEIGHT_PIECE * 64  # emogi.datasets.weights' temporaries for one piece
SLACK = 1.1  # headroom on a bucket's 8 B/key (allocator, page rounding)
MIN_BUCKET_KEYS = 1 << 22  # below this, more buckets only add files
MAX_BUCKETS = 4096  # bucket files are open at once during phase 1
_IO_BYTES = 16 << 20  # granularity of reads, writes and hashing
_BLOCK = 1 << 20  # keys (or vertices) per block in dedup and offset search (8 MB: reused, not
# mapped afresh: page faults cost more than the work on this scale)
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*$", re.IGNORECASE)


class MemoryLimitError(ValueError):
    """The memory limit cannot hold even the build's fixed costs."""


def parse_bytes(text) -> int:
    """'8G', '512M', '1.5G', '4096' -> bytes (binary multiples)."""
    m = _SIZE.match(str(text))
    if not m:
        raise ValueError(f"not a size: {text!r} (use e.g. 8G, 512M or a number of bytes)")
    return int(float(m.group(1)) * 1024 ** " KMGT".index(m.group(2).upper() or " "))


def _proc_bytes(path: str, key: str) -> int | None:
    """The 'key:  N kB' line of a /proc file, in bytes; None where there is none (not Linux)."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def mem_available() -> int | None:
    """Bytes the kernel says are available (MemAvailable); None where that is unknown (not Linux)."""
    return _proc_bytes("/proc/meminfo", "MemAvailable")


def available_memory() -> int:
    """MemAvailable, or physical memory where that is unknown."""
    return mem_available() or os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def peak_rss_bytes() -> int:
    """This process's peak resident memory: VmHWM, which (unlike getrusage's maxrss, inherited across fork and
    exec on Linux) counts this program only."""
    return (
        _proc_bytes("/proc/self/status", "VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    )  # getrusage: KiB on Linux


def default_workers() -> int:
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# ---------------------------------------------------------------------------------------------- the plan


@dataclass
class Plan:
    """How the build fits its memory limit; recorded in the graph's metadata."""

    memory_limit: int
    workers: int
    buckets: int
    bucket_vertices: int
    fixed_bytes: int  # offsets + the source's tables + one pair chunk per worker + I/O buffers
    budget: int  # the rest of the limit: buckets in flight (phase 2), weight tasks (phase 3)
    weight_workers: int
    weight_chunk_edges: int


def bucket_bytes(keys: int, vertices: int, index_bytes: int = 8) -> int:
    """Memory one phase-2 task holds: its keys, plus the block temporaries of dedup, offset search and narrowing."""
    return int(
        8 * keys * SLACK
        + 9 * min(keys, _BLOCK)
        + 16 * min(vertices, _BLOCK)
        + (4 * min(keys, _IO_BYTES // 8) if index_bytes == 4 else 0)
    )


def _weight_tasks(budget: int, workers: int) -> tuple[int, int]:
    """(workers, edges per task) for phase 3 within the budget."""
    per_task = budget // workers - WEIGHT_PIECE_BYTES
    chunk = int(min(WEIGHT_CHUNK_EDGES, max(per_task // WEIGHT_BYTES_PER_EDGE, WEIGHT_PIECE)))
    return max(1, min(workers, budget // (chunk * WEIGHT_BYTES_PER_EDGE + WEIGHT_PIECE_BYTES))), chunk


def _bucket_count(num_vertices: int, max_keys: int, workers: int, budget: int, index_bytes: int) -> int:
    """The fewest buckets of which one per worker fits the budget (at least one bucket if not one per worker),
    and enough to keep the workers busy."""

    def fits(b: int, tasks: int) -> bool:
        return tasks * bucket_bytes(-(-max_keys // b), -(-num_vertices // b), index_bytes) <= budget

    for tasks in (workers, 1):
        by_memory = next((b for b in _doubling(MAX_BUCKETS) if fits(b, tasks)), None)
        if by_memory is not None:
            while by_memory > 1 and fits(by_memory - 1, tasks):  # the doubling overshoots by up to 2x
                by_memory -= 1
            for_parallelism = min(2 * workers, -(-max_keys // MIN_BUCKET_KEYS))
            return max(1, by_memory, for_parallelism)
    raise MemoryLimitError(
        f"not even one bucket in {MAX_BUCKETS} fits the {budget / 2**20:.0f} MiB left by the "
        f"memory limit: raise --memory-limit"
    )


def _doubling(limit: int):
    b = 1
    while b <= limit:
        yield b
        b *= 2


def plan_build(
    num_vertices: int,
    max_keys: int,
    chunk_pairs: int,
    table_bytes: int,
    workers: int,
    memory_limit: int,
    buckets: int | None = None,
    index_bytes: int = 8,
) -> Plan:
    """Pick the bucket count and the phase-3 tasks so that each phase stays within `memory_limit`."""
    fixed = 8 * (num_vertices + 1) + table_bytes + workers * chunk_pairs * BYTES_PER_PAIR_IN_FLIGHT + 2 * _IO_BYTES
    budget = memory_limit - fixed
    if budget <= 0:
        raise MemoryLimitError(
            f"memory limit {memory_limit / 2**20:.0f} MiB is below the build's fixed cost of {fixed / 2**20:.0f} MiB "
            f"(offsets, tables, one pair chunk per worker for {workers} workers): raise --memory-limit or use fewer "
            f"--workers"
        )
    if buckets is None:
        buckets = _bucket_count(num_vertices, max_keys, workers, budget, index_bytes)
    buckets = max(1, min(buckets, num_vertices))
    if buckets > MAX_BUCKETS:
        raise MemoryLimitError(f"{buckets} buckets asked for; at most {MAX_BUCKETS} bucket files are kept open")
    weight_workers, weight_chunk = _weight_tasks(budget, workers)
    return Plan(
        memory_limit, workers, buckets, -(-num_vertices // buckets), fixed, budget, weight_workers, weight_chunk
    )
