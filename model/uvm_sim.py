"""Cold UVM simulated from an access trace: what migrates, how often the driver is interrupted, and how long it takes.

What it is based on (docs/model.md, "UVM simulator"):
- Granularity. Managed memory is handled in 2 MiB VA blocks (the driver's migration and eviction unit) made of
  32 basic blocks of 64 KiB; a fault moves at least its 64 KiB block. Measured here (../shared/FACTS.md): one
  128-B read per 2 MiB moves ~64 KiB per region, one per 64 KiB or per 4 KiB moves the whole buffer.
- Density prefetch (Ganguly et al., ISCA 2019, "Interplay between hardware prefetcher and page eviction policy
  in CPU-GPU unified virtual memory", §2; NVIDIA's open driver, uvm_perf_prefetch.c, threshold 51): a full binary
  tree over a region's 32 blocks; for each faulted block the largest subtree in which more than 51% of the blocks
  are resident or faulted is fetched whole. Counts are taken once per batch, before anything is prefetched.
- Fault batches: the GPU writes faults to a buffer that the driver reads in batches of up to 256 entries
  (uvm_perf_fault_batch_count), servicing the faulted VA blocks of each batch, then replaying. A fault entry is
  counted per 4 KiB page touched in a block not yet resident when the launch (or sub-launch) starts.
- ReadMostly: the edge list is only read, so evicting drops the GPU's copy; nothing is written back.
- Eviction: 2 MiB chunks, least recently used first, at launch boundaries or at K sub-launch boundaries (K equal
  vertex ranges per launch: the `uvm-capped` emulation of issue 21), in address order within a launch (the scan
  kernels take vertices, hence lists, in id order). `unrestricted` evicts inside a launch as a driver does when
  oversubscribed, every `capacity/8` chunks of the launch's footprint: an extrapolation, never validated here.

Time: device-mode time (the GPU's own work, given) + per launch
    migrated bytes / throughput + fault batches x batch overhead + VA blocks serviced x service overhead
    + warp faults x warp-fault overhead,
less `overlap` x the shorter of the two (0 by default: no overlap). Warp faults are (warp, cold page) pairs
(`list_faults`): every warp that reads a page of a block not resident at the launch's start faults on it, so a
warp-per-list variant whose lists share pages sends the driver duplicates a thread-per-list one does not; the
kernels' mapping of lists to warps is `lists_per_warp_of`. Its cost is 0 unless a cost set gives one.
The three costs come from UvmParams: defaults solve the three microbenchmarks of FACTS.md exactly; `model.uvm_fit`
fits them on archived cold-UVM runs.
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, replace

import numpy as np
import pandas as pd

from emogi.traces import (
    CHUNK_BYTES,
    Trace,
    address_space_bytes,
    check_graph,
    launch_ranges,
    touched_units,
    weights_base,
)

PAGE_BYTES = 4096
BLOCK_BYTES = 64 << 10
BLOCKS_PER_CHUNK = CHUNK_BYTES // BLOCK_BYTES
PAGES_PER_BLOCK = BLOCK_BYTES // PAGE_BYTES
MODES = ("cold", "capped", "unrestricted")
LISTS_PER_WARP = {"naive": 32, "chunked": 8}  # variants whose kernels give a warp several lists
POLICIES = ("lru", "fifo")  # fifo: by the time a chunk was filled (the driver's root-chunk list), not by use

LAUNCH_COLUMNS = [
    "launch",
    "steps",
    "touched_blocks",
    "faulted_blocks",
    "fault_entries",
    "list_faults",
    "batches",
    "serviced_chunks",
    "migrated_bytes",
    "evicted_chunks",
    "resident_chunks",
    "migration_ms",
]


class UvmSimError(ValueError):
    """Bad simulator input (capacity, mode, parameters)."""


@dataclass(frozen=True)
class UvmParams:
    throughput_gbps: float = 48.5  # payload of migrations (GB/s, 1e9)
    batch_us: float = 75.0  # per batch of fault entries
    service_us: float = 7.9  # per 2 MiB VA block serviced with faults, per step
    batch_entries: int = 256  # uvm_perf_fault_batch_count
    prefetch_threshold: int = 51  # percent; uvm_perf_prefetch_threshold
    overlap: float = 0.0  # share of the shorter of GPU work and migration hidden under the other
    warp_fault_us: float = 0.0  # per (warp, cold page) fault entry: duplicates fill the driver's batches

    def check(self) -> UvmParams:
        if not (self.throughput_gbps > 0 and self.batch_us >= 0 and self.service_us >= 0 and self.warp_fault_us >= 0):
            raise UvmSimError(f"need throughput > 0 and overheads >= 0, got {asdict(self)}")
        if self.batch_entries < 1 or not 0 <= self.prefetch_threshold <= 100 or not 0 <= self.overlap <= 1:
            raise UvmSimError(
                f"need batch_entries >= 1, prefetch_threshold in [0, 100] and overlap in [0, 1], got {asdict(self)}"
            )
        return self

    def migration_ms(self, migrated_bytes, batches, serviced, warp_faults=0):
        return (
            migrated_bytes / (self.throughput_gbps * 1e6)
            + batches * self.batch_us / 1e3
            + serviced * self.service_us / 1e3
            + warp_faults * self.warp_fault_us / 1e3
        )

    def total_ms(self, device_ms, migration_ms):
        """A run's time from its GPU work (device mode) and its migrations: their sum, less `overlap` of the
        shorter (warps that do not wait on a fault keep computing; 0: the two never overlap)."""
        return device_ms + migration_ms - self.overlap * np.minimum(device_ms, migration_ms)

    def scaled(self, factor: float) -> UvmParams:
        """The same model on a machine whose fault handling takes `factor` times as long."""
        return replace(
            self,
            throughput_gbps=self.throughput_gbps / factor,
            batch_us=self.batch_us * factor,
            service_us=self.service_us * factor,
            warp_fault_us=self.warp_fault_us * factor,
        )


def lists_per_warp_of(trace: Trace) -> list[int]:
    """How many lists each launch's kernel gives one warp (for `list_faults`): naive a thread per list (32),
    chunked 8, Afforest's sample launches a thread per vertex reading one entry (32), every other kernel a warp
    per list (or per 4 KiB segment of one: the worklist kernels)."""
    if trace.variant in LISTS_PER_WARP:
        return [LISTS_PER_WARP[trace.variant]] * trace.num_launches
    sampled = trace.algorithm == "cc" and trace.variant == "afforest"
    return [32 if sampled and label.startswith("sample") else 1 for label in _labels(trace)]


def _labels(trace: Trace) -> list[str]:
    return list(trace.labels) + [""] * (trace.num_launches - len(trace.labels))


def prefetch(resident: np.ndarray, faulted: np.ndarray, threshold: int) -> np.ndarray:
    """Blocks to migrate for rows of 32 blocks (one row per 2 MiB region): each faulted block brings the largest
    subtree holding it whose resident-or-faulted blocks exceed `threshold` percent of it (counts before any
    prefetch). Returns a mask like `faulted`, already-resident blocks excluded."""
    valid = resident | faulted
    move = faulted.copy()
    rows = len(faulted)
    size = 2
    while size <= BLOCKS_PER_CHUNK:
        shape = (rows, BLOCKS_PER_CHUNK // size, size)
        dense = valid.reshape(shape).sum(axis=2) * 100 > size * threshold
        hit = dense & faulted.reshape(shape).any(axis=2)
        move |= np.repeat(hit, size, axis=1)
        size *= 2
    return move & ~resident


@dataclass
class SimResult:
    launches: pd.DataFrame  # LAUNCH_COLUMNS
    params: UvmParams
    mode: str
    capacity_bytes: int | None
    sub_launches: int
    policy: str
    label: str  # "simulated" or "simulated (extrapolation: eviction inside launches)"

    @property
    def migration_ms(self) -> float:
        return float(self.launches["migration_ms"].sum())

    def predicted_ms(self, device_ms: float) -> float:
        """The run's time: the GPU's own work (device mode) and the migrations (UvmParams.total_ms)."""
        return float(self.params.total_ms(float(device_ms), self.migration_ms))

    def totals(self) -> dict:
        t = self.launches.drop(columns=["launch", "resident_chunks"]).sum().to_dict()
        return {
            **{k: (float(v) if k == "migration_ms" else int(v)) for k, v in t.items()},
            "launches": len(self.launches),
            "mode": self.mode,
            "capacity_bytes": self.capacity_bytes,
            "sub_launches": self.sub_launches,
            "policy": self.policy,
            "label": self.label,
        }


class _State:
    """Residency per 64 KiB block, and per 2 MiB chunk the clock of its last use (lru) or fill (fifo)."""

    def __init__(self, space_bytes: int, capacity_chunks: int | None, policy: str):
        self.chunks = -(-space_bytes // CHUNK_BYTES)
        self.resident = np.zeros(self.chunks * BLOCKS_PER_CHUNK, dtype=bool)
        self.clock = np.zeros(self.chunks, dtype=np.int64)
        self.capacity, self.policy, self.now = capacity_chunks, policy, 0

    def step(self, pages: np.ndarray, params: UvmParams) -> dict:
        """One (sub-)launch touching `pages` (mask of 4 KiB pages); returns its counts."""
        npages = self.chunks * BLOCKS_PER_CHUNK * PAGES_PER_BLOCK
        pages = np.pad(pages, (0, npages - len(pages)))
        touched = pages.reshape(-1, PAGES_PER_BLOCK)
        blocks = touched.any(axis=1)
        faulted = blocks & ~self.resident
        entries = int(touched[faulted].sum())
        regions = np.flatnonzero(faulted.reshape(self.chunks, BLOCKS_PER_CHUNK).any(axis=1))
        res2 = self.resident.reshape(self.chunks, BLOCKS_PER_CHUNK)
        move = prefetch(
            res2[regions], faulted.reshape(self.chunks, BLOCKS_PER_CHUNK)[regions], params.prefetch_threshold
        )
        was = res2.any(axis=1)
        res2[regions] |= move
        used = np.flatnonzero(blocks.reshape(self.chunks, BLOCKS_PER_CHUNK).any(axis=1))
        # the clock ticks by address within a step: the kernels read lists in vertex-id, hence address, order
        base = self.now * self.chunks
        if self.policy == "lru":
            self.clock[used] = base + used
        else:
            filled = regions[~was[regions]]
            self.clock[filled] = base + filled
        self.now += 1
        batches = -(-entries // params.batch_entries)
        return {
            "touched_blocks": int(blocks.sum()),
            "faulted_blocks": int(faulted.sum()),
            "fault_entries": entries,
            "batches": batches,
            "serviced_chunks": len(regions),
            "migrated_bytes": int(move.sum()) * BLOCK_BYTES,
            "evicted_chunks": self.evict(),
        }

    def evict(self) -> int:
        if self.capacity is None:
            return 0
        res2 = self.resident.reshape(self.chunks, BLOCKS_PER_CHUNK)
        held = np.flatnonzero(res2.any(axis=1))
        over = len(held) - self.capacity
        if over <= 0:
            return 0
        victims = held[np.argpartition(self.clock[held], over - 1)[:over]]
        res2[victims] = False  # ReadMostly: the host copy is current, dropping ours writes nothing back
        return over

    def list_faults(self, trace, offsets, i, lo, hi, mask, lists_per_warp: int = 1) -> int:
        """(warp, page) pairs over pages of blocks not resident now, a warp taking `lists_per_warp` consecutive
        vertices (1: a warp per list; 32: a thread per list): each warp faults on each cold page it reads, and
        warps sharing a page fault each (an upper bound on duplicate fault entries)."""
        cold = np.repeat(~self.resident, PAGES_PER_BLOCK)
        cum = np.concatenate([[0], np.cumsum(cold)])
        off = np.asarray(offsets)
        total = 0
        for chunk in launch_ranges(trace, offsets, i, lo, hi, mask):
            for k, ranges in enumerate(chunk):
                if ranges is None or not len(ranges[0]):
                    continue
                first, last = ranges[0] // PAGE_BYTES, (ranges[1] - 1) // PAGE_BYTES
                total += int((cum[last + 1] - cum[first]).sum())
                if lists_per_warp > 1:  # a page two lists of one warp share faults once
                    entry = (
                        ranges[0] // trace.edge_bytes
                        if k == 0
                        else (ranges[0] - weights_base(trace)) // trace.weight_bytes
                    )
                    warp = (np.searchsorted(off, entry, side="right") - 1) // lists_per_warp
                    shared = (warp[1:] == warp[:-1]) & (first[1:] == last[:-1]) & cold[first[1:]]
                    total -= int(shared.sum())
        return total

    def resident_chunks(self) -> int:
        return int(self.resident.reshape(self.chunks, BLOCKS_PER_CHUNK).any(axis=1).sum())


def _pieces(pages: np.ndarray, max_chunks: int):
    """Split a page mask into address-ordered pieces touching at most `max_chunks` chunks each."""
    per_chunk = CHUNK_BYTES // PAGE_BYTES
    pages = np.pad(pages, (0, -len(pages) % per_chunk))
    used = np.flatnonzero(pages.reshape(-1, per_chunk).any(axis=1))
    for k in range(0, len(used), max_chunks):
        lo, hi = used[k] * per_chunk, (used[min(k + max_chunks, len(used)) - 1] + 1) * per_chunk
        piece = np.zeros_like(pages)
        piece[lo:hi] = pages[lo:hi]
        yield piece


def simulate(
    trace: Trace,
    graph,
    mode: str = "cold",
    capacity_bytes: int | None = None,
    params: UvmParams | None = None,
    sub_launches: int = 1,
    policy: str = "lru",
    lists_per_warp: int | list[int] = 1,
) -> SimResult:
    """Simulate the trace's launches on managed memory that starts cold (every page on the host).

    mode: cold (no capacity limit), capped (evict to `capacity_bytes` at each of `sub_launches` boundaries per
    launch) or unrestricted (evict inside launches too: an extrapolation). lists_per_warp: how the kernel maps
    lists to warps, for the list_faults count (1 a warp per list, 8 chunked, 32 naive), one for every launch or
    one per launch (`lists_per_warp_of`)."""
    params = (params or UvmParams()).check()
    check_graph(trace, graph)
    if mode not in MODES:
        raise UvmSimError(f"mode must be one of {MODES}, got {mode!r}")
    if policy not in POLICIES:
        raise UvmSimError(f"policy must be one of {POLICIES}, got {policy!r}")
    if not isinstance(sub_launches, int | np.integer) or sub_launches < 1:
        raise UvmSimError(f"sub_launches must be a positive integer, got {sub_launches!r}")
    capacity_chunks = None
    if mode != "cold":
        if capacity_bytes is None or capacity_bytes < CHUNK_BYTES:
            raise UvmSimError(
                f"capacity must be at least one 2 MiB chunk ({CHUNK_BYTES} bytes), got {capacity_bytes!r}"
            )
        capacity_chunks = int(capacity_bytes // CHUNK_BYTES)
    per_warp = [lists_per_warp] * trace.num_launches if np.ndim(lists_per_warp) == 0 else list(lists_per_warp)
    if len(per_warp) != trace.num_launches or min(per_warp, default=1) < 1:
        raise UvmSimError(f"lists_per_warp: one positive count, or one per launch ({trace.num_launches})")
    state = _State(address_space_bytes(trace), capacity_chunks, policy)
    bounds = np.arange(sub_launches + 1, dtype=np.int64) * trace.num_vertices // sub_launches  # as the GPU splits
    rows = []
    for i in range(trace.num_launches):
        mask = trace.mask(i)
        row = dict.fromkeys(LAUNCH_COLUMNS[1:-2], 0)
        for lo, hi in itertools.pairwise(bounds):
            pages = touched_units(trace, graph.offsets, i, PAGE_BYTES, int(lo), int(hi), mask)
            row["list_faults"] += state.list_faults(trace, graph.offsets, i, int(lo), int(hi), mask, int(per_warp[i]))
            pieces = _pieces(pages, max(capacity_chunks // 8, 1)) if mode == "unrestricted" else [pages]
            for piece in pieces:
                counts = state.step(piece, params)
                row["steps"] += 1
                for k, v in counts.items():
                    row[k] += v
        row["resident_chunks"] = state.resident_chunks()
        row["migration_ms"] = params.migration_ms(
            row["migrated_bytes"], row["batches"], row["serviced_chunks"], row["list_faults"]
        )
        rows.append({"launch": i, **row})
    label = "simulated (extrapolation: eviction inside launches)" if mode == "unrestricted" else "simulated"
    return SimResult(
        pd.DataFrame(rows, columns=LAUNCH_COLUMNS), params, mode, capacity_bytes, sub_launches, policy, label
    )
