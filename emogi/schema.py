"""The tables every stage shares: column names, kernel variants and memory modes, defined once.

measure, profile, model, figures and the archive all read and write these tables; a figure script is a function
of them. The CUDA binary prints the same variant and mode names (`emogi list`), and a test checks they agree.
"""

from emogi.registry import vocabulary

# The vocabulary comes from emogi/registry.yaml (what each name means is written there), in registry order.
_V = vocabulary()
# Kernel variants (how a warp walks a neighbour list): the paper's, which the default study and its figures
# compare; then every variant the binary knows (`emogi list`).
VARIANTS = _V.names("variants", origin="paper")
ALL_VARIANTS = _V.names("variants")
# Where the edge list lives during a traversal: the paper's four, then every mode the binary knows.
MODES = _V.names("modes", origin="paper")
ALL_MODES = _V.names("modes")
# The modes a run needs no further option for (uvm-capped needs --uvm-capacity): what "every mode" means in the
# benchmark's defaults and the tests.
PLAIN_MODES = _V.names("modes", needs="")
# What auto keeps in GPU memory when not all fits (--auto-order).
AUTO_ORDERS = _V.names("auto_orders")
# The paper's ways of reading the edge list in place over the link.
ZERO_COPY_MODES = _V.names("modes", origin="paper", zero_copy=True)
# The modes that read all or part of the edge list in place over the link (what Nsight Compute sees as sysmem).
HOST_READING_MODES = _V.names("modes", host_reads=True)

ALGORITHMS = _V.names("algorithms")
ROOTED_ALGORITHMS = _V.names("algorithms", rooted=True)  # those that start from roots
# The variants each algorithm has (`emogi list`, "variants_of"); the benchmark runs them all by default.
VARIANTS_OF = _V.variants_of()
# Bytes an algorithm reads beside each neighbour id (SSSP's 4-byte weight).
WEIGHT_BYTES = {a.name: a.weight_bytes for a in _V.algorithms if a.weight_bytes}
EDGE_BYTES = _V.edge_bytes


def entry_bytes(frame):
    """Bytes each row's run reads per list entry: its edge_bytes plus its algorithm's weight."""
    return frame["edge_bytes"] + frame["algorithm"].map(WEIGHT_BYTES).fillna(0)


# Nsight Compute counts host reads in 32-byte L2 sectors.
SECTOR_BYTES = 32


def fetched_bytes(frame):
    """Host bytes each profiled row's run requested: its system-memory sectors x 32 (profile table)."""
    return SECTOR_BYTES * frame["sysmem_read_sectors"].astype(float)


# Provenance columns repeated on every measured row, so that a row never loses where it came from.
PROVENANCE_COLUMNS = ["gpu", "driver", "cuda", "commit", "date"]

# One row per timed traversal (measure stage).
RUN_COLUMNS = PROVENANCE_COLUMNS + [
    "graph",  # dataset name from the config, e.g. kron23
    "algorithm",  # bfs
    "variant",  # one of VARIANTS
    "mode",  # one of ALL_MODES
    "edge_bytes",  # width of one edge-list entry: 4 or 8
    "max_warps",  # warps resident during the traversal (0: one warp per vertex, the default launch)
    "root",  # source vertex
    "rep",  # repetition index for this (variant, mode, root), from 0
    "time_ms",  # CUDA-event time of the traversal (level loop), milliseconds
    "edges_traversed",  # sum of out-degrees of the vertices reached (TEPS numerator)
    "levels",  # BFS levels = kernel launches of the level loop
    "verified",  # the result matched the CPU reference (rows are only written when it did)
]

# The other applications of EMOGI §5.4 (BFS, SSSP, CC, PageRank; Figs. 11 and 12): the same columns as the runs
# table, kept apart so that the BFS study, its profile and the model read only what they were made for.
#   levels      BFS levels; iterations  kernel launches of the iteration loop (PageRank: sweeps to tolerance)
#   components  CC components found (checked against union-find); root empty for CC and PageRank
#   pr_hub_entries  gauss-seidel PageRank: it deferred the lists longer than this many entries (--pr-hub-entries,
#               `auto` resolved; 0: none deferred); empty for every other algorithm and variant
APP_COLUMNS = RUN_COLUMNS[:-1] + ["iterations", "components", "pr_hub_entries", "verified"]
# Columns added after tables were archived without them: check_columns lets a table lack these (none other), so a
# reader of one must allow for its absence.
LATER_COLUMNS = {"pr_hub_entries"}

# Raw Nsight Compute metric -> profile column.
NCU_METRICS = {
    "lts__t_sectors_srcunit_tex_aperture_sysmem_op_read.sum": "sysmem_read_sectors",
    "lts__t_requests_srcunit_tex_aperture_sysmem_op_read.sum": "sysmem_read_requests",
    "pcie__read_bytes.sum": "pcie_read_bytes",
    "pcie__write_bytes.sum": "pcie_write_bytes",
    "dram__bytes_read.sum": "dram_read_bytes",
    "gpu__time_duration.sum": "gpu_time_ns",
}
COUNTER_COLUMNS = ["launches", *NCU_METRICS.values(), "avg_request_bytes", "pcie_read_gbps"]

# One row per profiled traversal (profile stage): Nsight Compute counters summed over the traversal's launches.
#   launches              kernel launches profiled for this traversal
#   sysmem_read_sectors   lts__t_sectors_srcunit_tex_aperture_sysmem_op_read.sum (32-byte sectors read from host)
#   sysmem_read_requests  lts__t_requests_srcunit_tex_aperture_sysmem_op_read.sum
#   pcie_read_bytes       pcie__read_bytes.sum (bytes the GPU received over the link, protocol included)
#   pcie_write_bytes      pcie__write_bytes.sum (includes read-request headers)
#   dram_read_bytes       dram__bytes_read.sum (GPU memory; what device-mode runs read)
#   gpu_time_ns           gpu__time_duration.sum
#   avg_request_bytes     32 B x sectors / requests (NaN when there were no system-memory requests)
#   pcie_read_gbps        pcie_read_bytes / gpu_time_ns
PROFILE_COLUMNS = (
    PROVENANCE_COLUMNS + ["graph", "algorithm", "variant", "mode", "edge_bytes", "root", "max_warps"] + COUNTER_COLUMNS
)


# One row per timed copy of the link probe (host<->device cudaMemcpy bandwidth).
LINK_COLUMNS = PROVENANCE_COLUMNS + [
    "direction",  # h2d or d2h
    "host_memory",  # pinned or pageable
    "size_bytes",
    "rep",
    "time_ms",
    "gbps",  # size_bytes / time, 1 GB = 1e9 bytes
]

# --- microbenchmarks (the analytic side: emogi micro ...) ------------------------------------------------------
# Allocations are named like memory modes: device, zerocopy (managed + AccessedBy), zerocopy-pinned.
MICRO_MODES = _V.names("modes", micro=True)
TOY_PATTERNS = ("strided", "merged-aligned", "merged-misaligned")

# The zero-copy toy of EMOGI §3.3: a host array copied to GPU memory with one access pattern per kernel.
TOY_COLUMNS = PROVENANCE_COLUMNS + [
    "pattern",  # strided (thread per 128-byte chunk) | merged-aligned | merged-misaligned (warps start 32 B late)
    "mode",  # where the source array lives (MICRO_MODES)
    "element_bytes",  # 4 or 8
    "array_bytes",
    "rep",
    "time_ms",
    "gbps",  # array_bytes / time
    "verified",  # the copy equals the source
]

# One warp chasing a random cyclic permutation of 128-byte-spaced pointers (CXL paper, Appendix B).
LATENCY_COLUMNS = PROVENANCE_COLUMNS + [
    "mode",
    "footprint_bytes",
    "steps",  # dependent reads timed
    "rep",
    "time_ms",
    "latency_ns",  # time / steps
    "verified",  # the chase ended where the host-side walk of the same permutation ends
]

# Random aligned reads of request_bytes each, warps x reads_per_warp of them in flight at a time.
CONCURRENCY_COLUMNS = PROVENANCE_COLUMNS + [
    "mode",
    "footprint_bytes",
    "request_bytes",  # 32, 64, 96 or 128: that many bytes of one 128-byte line per read
    "warps",  # warps resident (all launched at once)
    "reads_per_warp",  # independent reads each warp keeps in flight
    "rep",
    "requests",
    "time_ms",
    "gbps",  # requests x request_bytes / time
    "mrps",  # million requests per second
]

# Nsight Compute counters of one toy copy per pattern x mode x element width (PCIe bytes behind the timing).
TOY_PROFILE_COLUMNS = PROVENANCE_COLUMNS + ["pattern", "mode", "element_bytes", "array_bytes"] + COUNTER_COLUMNS

# Nsight Compute counters of the concurrency sweep's reads (one kernel per setting): what a d-byte read is on the
# link (requests, sectors, PCIe bytes per request).
CONCURRENCY_PROFILE_COLUMNS = (
    PROVENANCE_COLUMNS
    + ["mode", "footprint_bytes", "request_bytes", "reads_per_warp", "warps", "reads"]
    + COUNTER_COLUMNS
)  # reads the kernel issued

# Nsight Compute counters of one `emogi lists` run per walk x mode (every list read once per access pattern; the
# binary's own rows, verified and timed, carry graph, variant, mode, edge_bytes, rep, time_ms, list_bytes, gbps and
# the requests and sectors counted from the list bounds).
LISTS_PROFILE_COLUMNS = PROVENANCE_COLUMNS + ["graph", "variant", "mode", "edge_bytes", "list_bytes"] + COUNTER_COLUMNS

# Added latency emulated by a wait after every read arrives (emogi.latency_emulation, CXL paper Fig. 11): the
# pointer chase (kind chase) and the BFS (kind bfs) at each requested delay; the latency a delay really adds is
# the chase's latency at it minus at 0, in the same job.
LATENCY_EMULATION_COLUMNS = PROVENANCE_COLUMNS + [
    "kind",  # chase | bfs
    "graph",  # the BFS's graph; the chase ran on an array of its edge-list bytes (footprint_bytes)
    "variant",  # the BFS variant (empty for the chase)
    "mode",  # where the edge list (the chase's array) lives
    "edge_bytes",
    "footprint_bytes",
    "requested_ns",  # --added-latency-ns: the wait after every read's arrival
    "root",  # the BFS source (empty for the chase)
    "rep",
    "time_ms",
    "latency_ns",  # chase: time / steps (empty for the BFS)
    "verified",
]

# Bytes a BFS must fetch when the edge list is read in aligned blocks of alignment_bytes (CXL paper §3.1):
# computed from the graph and the BFS tree of a root, no GPU involved.
AMPLIFICATION_COLUMNS = [
    "graph",
    "edge_bytes",
    "root",
    "alignment_bytes",
    "bytes_needed",  # E: sum of the neighbour-list bytes of the vertices expanded
    "bytes_fetched",  # D(a): those lists rounded out to whole aligned blocks
    "raf",  # D / E
    "max_list_bytes",
]  # the longest list expanded: one thread or warp walks it alone

# The tables a study consists of; the archive holds exactly these (compressed) plus provenance.json.
TABLES = {
    "runs": RUN_COLUMNS,
    "apps": APP_COLUMNS,
    "profile": PROFILE_COLUMNS,
    "link": LINK_COLUMNS,
    "toy": TOY_COLUMNS,
    "latency": LATENCY_COLUMNS,
    "concurrency": CONCURRENCY_COLUMNS,
    "toy_profile": TOY_PROFILE_COLUMNS,
    "concurrency_profile": CONCURRENCY_PROFILE_COLUMNS,
    "amplification": AMPLIFICATION_COLUMNS,
    "latency_emulation": LATENCY_EMULATION_COLUMNS,
}
# Access traces (emogi/traces.py): one row per kernel launch of one run, the lists it reads and the distinct units
# of the edge (and weight) arrays they touch.
TRACE_UNITS = ("pages_4k", "blocks_64k", "chunks_2m", "lines_128", "sectors_32")
TRACE_SUMMARY_COLUMNS = [
    "graph",
    "algorithm",
    "variant",
    "edge_bytes",
    "root",
    "source",  # derived (CPU) or recorded (GPU, --trace-out)
    "launch",  # 0-based launch index within the run
    "lists_read",  # vertices whose list the launch reads (at least one entry)
    "bytes_needed",  # entries read x (edge_bytes + weight bytes)
    *TRACE_UNITS,
]

# Out of GPU memory (issue 21; emogi/oom_measure.py, one GPU job per graph and algorithm): the binary's rows of
# every run, with how each was obtained and the budget it ran at first. A study of its own, archived apart
# (emogi/oom_archive.py), since it takes longer than the main job.
OOM_COLUMNS = [
    "regime",  # fits | budget | emulated (emogi/registry.yaml regimes)
    "budget_fraction",  # GPU memory allowed / list_bytes (empty: no budget)
    "gpu_memory_bytes",  # --gpu-memory-budget M: vertex data and lists together
    "list_bytes",  # bytes of the lists the algorithm reads (ids, and SSSP's weights)
    "list_capacity_bytes",  # what the lists may keep in GPU memory: auto's placed bytes; uvm-capped's capacity
    "auto_order",  # auto: which lists it kept (prefix | hottest-first)
    "uvm_sublaunches",  # uvm-capped: vertex ranges per sweep, evicting after each
]
OOM_RUN_COLUMNS = PROVENANCE_COLUMNS + OOM_COLUMNS + APP_COLUMNS[len(PROVENANCE_COLUMNS) :]

# UVM simulated from the OOM runs' recorded traces (model/oom_simulate.py): one row per traced run and budget.
OOM_SIMULATED_COLUMNS = [
    "graph",
    "algorithm",
    "variant",
    "edge_bytes",
    "root",  # empty for CC and PageRank
    "budget_fraction",  # empty: cold, no capacity (the fits regime, for validation against measured uvm)
    "capacity_bytes",  # what the lists may keep: the uvm-capped runs' capacity at that budget
    "sim_mode",  # cold | capped (validated against uvm-capped) | unrestricted (eviction inside launches too)
    "sublaunches",  # capped: vertex ranges per launch
    "launches",
    "bytes_needed",  # list bytes the trace reads, summed over launches
    "zero_copy_bytes",  # 32-byte sectors the trace touches, x 32, summed over launches (what zero-copy fetches)
    "trace_source",  # recorded (on the GPU, --trace-out) or derived (on the CPU: approximate beyond BFS)
    "migrated_bytes",
    "evicted_chunks",
    "batches",
    "serviced_chunks",
    "device_ms",  # the measured device-mode time of the same run (median over reps)
    "migration_ms",
    "time_ms",  # device_ms + migration (model/uvm_sim.py; the cost set named in `params`)
    "params",  # which cost set: registered (archive/uvm-sim-validation-2026-11-25/params.json)
    "regime",  # simulated
]
# The share of a run's read bytes that each placement serves from GPU memory (c), and the bound 1 / (1 - c) on
# what a link-bound run can gain over zero-copy from it (issue 21, item 6), from the same traces.
OOM_PLACEMENT_COLUMNS = [
    "graph",
    "algorithm",
    "variant",
    "edge_bytes",
    "root",
    "budget_fraction",
    "capacity_bytes",
    "auto_order",  # prefix | hottest-first
    "trace_source",  # recorded or derived, as in oom_simulated
    "served_fraction",  # c
    "bound",  # 1 / (1 - c)
]
OOM_TABLES = {"oom": OOM_RUN_COLUMNS, "oom_simulated": OOM_SIMULATED_COLUMNS, "oom_placement": OOM_PLACEMENT_COLUMNS}

# Streamed transfers (CF'17, issue 22; emogi/streamed_runs.py): the binary's rows of an archive's streamed,
# zero-copy and device runs of SpMV and PageRank, each streamed row joined with its `streamed run:` log line.
# Empty for zero-copy and device rows: block_bytes to copy_gbps. In the column layout (SpMV) blocks are column blocks
# and bytes_copied holds their row index and x slices beside the entries.
STREAMED_COLUMNS = PROVENANCE_COLUMNS + [
    "graph",
    "algorithm",  # spmv | pagerank (| cc | sssp where measured)
    "variant",
    "mode",  # streamed | zerocopy | device
    "edge_bytes",
    "list_bytes",  # bytes of the lists one sweep reads: edges x (edge_bytes + the algorithm's weight bytes)
    "block_bytes",  # --stream-block-bytes
    "blocks",  # blocks the lists were cut into (whole lists; a list longer than a block split)
    "buffers",  # --stream-buffers: GPU buffers the copies rotate through
    "buffer_bytes",  # bytes of one buffer
    "skip",  # --stream-skip: on | off as the log's placement line says (runs before the option: off); empty otherwise
    "direct_below",  # --stream-direct-below: a block with fewer than this of its entries active read in place (0: none)
    "layout",  # --stream-layout: rows | columns as the placement line says (earlier runs: rows); empty otherwise
    "rep",
    "time_ms",  # CUDA-event time of the run
    "iterations",  # the binary's iteration count (PageRank: sweeps to tolerance)
    "edges_traversed",  # list entries the kernels read (PageRank's scans skip converged lists)
    "sweeps",  # passes over the blocks (Gauss-Seidel: one more than iterations, its last checks convergence)
    "copies",  # block copies made (a block still in its buffer is not copied again)
    "blocks_launched",  # blocks launched over the sweeps (empty where the log predates the count)
    "blocks_inactive",  # blocks left out as holding no active vertex (skip on; 0 when off)
    "blocks_per_sweep",  # the blocks each sweep launched, comma-separated (as the log's `blocks per sweep`)
    "blocks_in_place",  # of the blocks launched, those read in place by zero-copy instead of copied (direct_below)
    "in_place_entries",  # the active list entries those blocks held as their sweeps began
    "in_place_per_sweep",  # the blocks each sweep read in place, comma-separated
    "bytes_copied",  # host-to-device bytes the copies moved
    "copy_ms",  # time the copy stream was busy
    "copy_gbps",  # bytes_copied / copy_ms
    "run_gbps",  # bytes_copied / time_ms
    "w_gbps",  # W of the same session: max over sizes of the pinned host-to-device median (`emogi linkbw`)
    "of_w",  # run_gbps / w_gbps
    "verified",
]

# Tables written outside a study, by commands such as `emogi lists` (archive/list-ceiling-h100-2026-11-21/).
# The mode selector's predictions (model/select.py): one row per budget and candidate mode.
SELECT_COLUMNS = [
    "graph",
    "algorithm",
    "variant",
    "edge_bytes",
    "root",  # BFS and SSSP: the trace's root; empty otherwise
    "budget",  # as given: fits, a fraction of list_bytes or a size
    "budget_fraction",  # gpu_memory_bytes / list_bytes (empty: fits, no budget)
    "gpu_memory_bytes",  # --gpu-memory-budget M: vertex data and lists together (empty: fits)
    "list_bytes",  # bytes of the lists the algorithm reads (ids, and SSSP's weights)
    "vertex_bytes",  # the model's estimate of the vertex data, which come out of M first
    "auto_order",  # the placement auto's prediction and runs use (prefix)
    "mode",  # a candidate memory mode (emogi/registry.yaml mode_selectors)
    "feasible",  # whether the mode can run at this budget
    "why_not",  # why not, one line (empty where feasible)
    "predicted_ms",  # the model's time
    "block_bytes",  # streamed: the block size of the best prediction within the budget
    "blocks",  # streamed: blocks of that size over list_bytes
    "served_fraction",  # auto: c, the share of the read bytes its GPU-memory part serves
    "chosen",  # the fastest feasible prediction of its budget
    "selector",  # the selector's name (select)
]

# The selector judged on measured fixed-mode runs (model/select_judge.py): one row per graph, algorithm, variant,
# edge width and budget.
SELECT_JUDGE_COLUMNS = [
    "graph",
    "algorithm",
    "variant",
    "edge_bytes",
    "budget",
    "budget_fraction",
    "chosen",  # the selector's mode
    "predicted_ms",  # its prediction of that mode
    "chosen_ms",  # the measured median of that mode at that budget
    "best_mode",  # the fixed mode with the least measured median
    "best_ms",
    "behind_pct",  # 100 x (chosen_ms / best_ms - 1)
    "within_target",  # behind_pct <= the target (5%)
    "modes_measured",  # the fixed modes with runs at that budget, comma-separated
]

TOOL_TABLES = {
    "lists_profile": LISTS_PROFILE_COLUMNS,
    "trace_summary": TRACE_SUMMARY_COLUMNS,
    **OOM_TABLES,
    "streamed": STREAMED_COLUMNS,
    "select": SELECT_COLUMNS,
    "select_judge": SELECT_JUDGE_COLUMNS,
}


def check_columns(frame, table):
    """Raise ValueError naming the missing columns if `frame` lacks any column of `table` (LATER_COLUMNS aside)."""
    missing = [c for c in {**TABLES, **TOOL_TABLES}[table] if c not in frame.columns and c not in LATER_COLUMNS]
    if missing:
        raise ValueError(f"{table} table lacks columns {missing}")
    return frame
