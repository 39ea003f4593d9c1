"""UVM out of GPU memory simulated from the OOM runs' recorded traces, and what each placement serves (issue 21).

    python -m model.oom_simulate --graph G.csr --runs oom/kron24.bfs.csv --trace-dir oom/traces \
        --params archive/uvm-sim-validation-2026-11-25/params.json --out oom/kron24.bfs.sim.csv \
        --out-placement oom/kron24.bfs.placement.csv [--jobs 8]

For every trace the zerocopy runs recorded (`emogi.oom_measure`, --trace-out), on the same graph (its checksum is
checked), with the device-mode time of the same run (median over its reps):
  cold          no capacity: against the measured cold `uvm` of the same run (out-of-sample validation)
  capped        at each budget's uvm-capped capacity and sub-launches: against the measured `uvm-capped`
  unrestricted  the same capacity, evicting inside launches as a driver does when oversubscribed: the paper's
                regime, an extrapolation from the two validated parts
and the trace's bytes needed and 32-byte sectors (what zero-copy fetches). The placement table gives, per budget,
the share c of the read bytes that `auto`'s prefix and hottest-first placements keep in GPU memory (the
measured runs' capacities; hottest-first ranked by the hot-roots traces, as the binary ranked them), and the bound
1 / (1 - c) on a link-bound run's gain over zero-copy. c counts the bytes the run actually reads: where a recording
counts lists whole that its kernel reads in part (a bottom-up BFS step), their exact parts come from the CPU
(emogi.trace_exact, checked against the recording's launches and lists). Each placement row carries its part's
`date` (the runs' stamp), so that figures/oom_data.py pairs c with the runs of its own part.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from emogi import schema
from emogi.atomic import write_csv
from emogi.cli import exit_status
from emogi.csr import GraphFormatError, read_csr
from emogi.trace_derive import derive
from emogi.trace_exact import exact_reads
from emogi.trace_hotness import WEIGHTS, hot_placement
from emogi.trace_recording import load_recorded
from emogi.traces import Trace, TraceError, launch_ranges, summary_table
from model.uvm_sim import UvmParams, UvmSimError, lists_per_warp_of, simulate


def load_params(path, name: str = "registered") -> UvmParams:
    sets = json.loads(Path(path).read_text())
    if name not in sets:
        raise KeyError(f"{path} has no cost set '{name}'")
    chosen = sets[name].get("params", sets[name])
    fields = set(UvmParams.__dataclass_fields__)
    return UvmParams(**{k: v for k, v in chosen.items() if k in fields})


def trace_key(trace: Trace) -> tuple:
    return trace.variant, -1 if trace.root is None else int(trace.root)


def _device_ms(runs: pd.DataFrame, variant: str, root: int) -> float:
    rows = runs[(runs["mode"] == "device") & (runs["variant"] == variant)]
    if root >= 0:
        rows = rows[rows["root"] == root]
    if rows.empty:
        raise TraceError(f"no device-mode run of {variant} from root {root}: the simulator needs its time")
    return float(rows["time_ms"].median())


def served_bytes(trace: Trace, offsets, placements: list) -> tuple[int, list[int]]:
    """Bytes read over the trace and, for each placement, the bytes of them in GPU memory, in one pass over the
    launches. A placement is an (edge entries, weight entries) prefix or a per-vertex mask of the whole lists kept."""
    total, served = 0, [0] * len(placements)
    w = trace.weight_bytes
    for i in range(trace.num_launches):
        for edge_r, _ in launch_ranges(trace, offsets, i):
            b, e = edge_r[0] // trace.edge_bytes, edge_r[1] // trace.edge_bytes
            n = e - b
            total += int(n.sum()) * (trace.edge_bytes + w)
            v = None
            for k, placed in enumerate(placements):
                if isinstance(placed, tuple):
                    served[k] += int(np.clip(np.minimum(e, placed[0]) - b, 0, None).sum()) * trace.edge_bytes
                    served[k] += int(np.clip(np.minimum(e, placed[1]) - b, 0, None).sum()) * w
                else:
                    if v is None:  # a range starts inside its list; the list's vertex is found by the offsets
                        v = np.searchsorted(offsets, b, side="right") - 1
                    served[k] += int(n[placed[v]].sum()) * (trace.edge_bytes + w)
    return total, served


def load_source(source, graph) -> Trace:
    """A recorded trace (a path) or one derived on the CPU: (algorithm, variant, root, name)."""
    if isinstance(source, Path):
        return load_recorded(source, graph)
    algorithm, variant, root, name = source
    return derive(graph, algorithm, variant, None if root < 0 else root, name)


def derived_sources(runs: pd.DataFrame) -> list[tuple]:
    """What --derive derives: each zerocopy run's (algorithm, variant, root, graph name)."""
    zc = runs[runs["mode"] == "zerocopy"].assign(root=lambda f: f["root"].fillna(-1).astype(int))
    keys = zc[["algorithm", "variant", "root", "graph"]].drop_duplicates()
    return [tuple(k) for k in keys.itertuples(index=False)]


def derived_hot_counts(
    graph_path: str, runs: pd.DataFrame, hot_roots: list[int], folder: Path, weight: str | None = None
) -> Path:
    """What --derive ranks hottest-first by: per variant, the hotness of CPU-derived traces of `hot_roots` (the
    runs' own trace for CC and PageRank) by the variant's weight, as emogi.oom_measure ranks them from recorded
    ones; `weight`: every variant's instead (a part measured before the weights: `launches`)."""
    from emogi.trace_hotness import hotness, weight_of, write_hotness

    graph = read_csr(graph_path, verify_checksum=False)
    folder.mkdir(parents=True, exist_ok=True)
    for (algorithm, variant, name), _ in runs.groupby(["algorithm", "variant", "graph"]):
        roots = hot_roots if algorithm in schema.ROOTED_ALGORITHMS else [None]
        w = weight or weight_of(variant)
        traces = (derive(graph, algorithm, variant, r, name) for r in roots)
        counts = sum(hotness(t, graph.offsets, w).astype(np.int64) for t in traces)
        write_hotness(np.minimum(counts, np.iinfo(np.uint32).max), folder / f"{variant}.u32")
    return folder


def part_date(runs: pd.DataFrame):
    """The stamp emogi.oom_measure gives every row of one part (its zerocopy runs' where several), or NaN."""
    if "date" not in runs.columns:
        return np.nan
    dates = runs.loc[runs["mode"] == "zerocopy", "date"].dropna().unique()
    return dates[0] if len(dates) == 1 else np.nan


def simulate_trace(
    source, graph_path: str, runs: pd.DataFrame, params: UvmParams, hot_dir: Path | None, placement_only: bool = False
):
    graph = read_csr(graph_path, verify_checksum=False)
    trace = load_source(source, graph)
    variant, root = trace_key(trace)
    device_ms = np.nan if placement_only else _device_ms(runs, variant, root)
    summary = summary_table(trace, graph.offsets)
    head = {"graph": trace.graph, "algorithm": trace.algorithm, "variant": variant, "edge_bytes": trace.edge_bytes}
    head["root"] = root if root >= 0 else np.nan
    head["bytes_needed"] = int(summary["bytes_needed"].sum())
    head["zero_copy_bytes"] = int(summary["sectors_32"].sum()) * schema.SECTOR_BYTES
    head["trace_source"] = trace.source  # recorded (GPU) or derived (CPU: approximate beyond BFS)
    per_warp = lists_per_warp_of(trace)
    sim_rows, placement_rows = [], []

    def one(mode, fraction=np.nan, capacity=None, k=1):
        r = simulate(trace, graph, mode, capacity, params, sub_launches=k, lists_per_warp=per_warp)
        t = r.totals()
        sim_rows.append(
            {
                **head,
                "budget_fraction": fraction,
                "capacity_bytes": capacity if capacity is not None else np.nan,
                "sim_mode": mode,
                "sublaunches": k,
                "launches": t["launches"],
                "migrated_bytes": t["migrated_bytes"],
                "evicted_chunks": t["evicted_chunks"],
                "batches": t["batches"],
                "serviced_chunks": t["serviced_chunks"],
                "device_ms": device_ms,
                "migration_ms": r.migration_ms,
                "time_ms": r.predicted_ms(device_ms),
                "params": "registered",
                "regime": "simulated",
            }
        )

    if not placement_only:
        one("cold")
    capped = runs[(runs["regime"] == "emulated") & (runs["variant"] == variant)]
    for (fraction, capacity, k), _ in capped.groupby(["budget_fraction", "list_capacity_bytes", "uvm_sublaunches"]):
        one("capped", fraction, int(capacity), int(k))
        one("unrestricted", fraction, int(capacity), 1)
    entry = trace.edge_bytes + trace.weight_bytes
    autos = runs[(runs["mode"] == "auto") & (runs["variant"] == variant)]
    counts = np.fromfile(hot_dir / f"{variant}.u32", dtype="<u4") if hot_dir else None
    cells, placements = [], []
    for (fraction, order, capacity), _ in autos.groupby(["budget_fraction", "auto_order", "list_capacity_bytes"]):
        if order == "prefix":  # edges first, then weights (kernels/src/placement.cu, place_prefix)
            edges = min(int(capacity) // trace.edge_bytes, trace.num_edges)
            weights = (int(capacity) - edges * trace.edge_bytes) // max(trace.weight_bytes, 1)
            placements.append((edges, weights if trace.weight_bytes else 0))
        else:
            if counts is None or len(counts) != graph.num_vertices:
                continue
            keep = np.zeros(graph.num_vertices, dtype=bool)
            keep[hot_placement(counts, graph.offsets, entry, int(capacity))] = True
            placements.append(keep)
        cells.append((fraction, order, int(capacity)))
    total, served = served_bytes(exact_reads(trace, graph), graph.offsets, placements) if cells else (0, [])
    for (fraction, order, capacity), s in zip(cells, served, strict=True):
        c = s / total if total else 0.0
        placement_rows.append(
            {**{k: head[k] for k in ("graph", "algorithm", "variant", "edge_bytes", "root", "trace_source")},
             "budget_fraction": fraction, "capacity_bytes": capacity, "auto_order": order,
             "served_fraction": c, "bound": 1 / (1 - c) if c < 1 else np.inf, "date": part_date(runs)}
        )  # fmt: skip
    print(f"simulated {source}", file=sys.stderr, flush=True)
    return sim_rows, placement_rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.oom_simulate", description=__doc__.split("\n\n")[0])
    p.add_argument("--graph", required=True)
    p.add_argument("--runs", required=True, help="the part's measured rows (emogi.oom_measure)")
    p.add_argument("--trace-dir", required=True, type=Path)
    p.add_argument("--params", required=True, help="cost sets (model.uvm_fit's params.json); 'registered' is used")
    p.add_argument("--out", required=True)
    p.add_argument("--out-placement", required=True)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument(
        "--derive",
        action="store_true",
        help="derive each zerocopy run's trace on the CPU instead of "
        "reading recorded ones (exact for BFS; approximate for SSSP, CC and PageRank: emogi/trace_derive.py)",
    )
    p.add_argument("--hot-roots", default="", help="--derive: the roots hottest-first was ranked by (comma-separated)")
    p.add_argument(
        "--hot-weight",
        choices=WEIGHTS,
        help="--derive: what hottest-first ranked every variant by (default: each variant's, HOT_WEIGHTS; "
        "`launches` for parts measured before the weights, 2026-11-27)",
    )
    p.add_argument(
        "--placement-only",
        action="store_true",
        help="only c of each placement (a supplement part: no device runs to simulate UVM with)",
    )
    a = p.parse_args(argv)

    def go():
        runs = pd.read_csv(a.runs)
        params = load_params(a.params)
        paths = derived_sources(runs) if a.derive else sorted(a.trace_dir.glob("*.zerocopy.*trace"))
        if not paths:
            raise TraceError(f"{a.trace_dir}: no zerocopy traces to simulate")
        hot = a.trace_dir / "hot" if (a.trace_dir / "hot").is_dir() else None
        if a.derive and hot is None and (runs["auto_order"] == "hottest-first").any():
            roots = [int(r) for r in a.hot_roots.split(",") if r]
            zc = runs[runs["mode"] == "zerocopy"]
            hot = derived_hot_counts(a.graph, zc, roots, a.trace_dir / "hot", a.hot_weight)
        with ProcessPoolExecutor(max(a.jobs, 1)) as pool:
            args = [(a.graph, runs, params, hot, a.placement_only)] * len(paths)
            done = list(pool.map(simulate_trace, paths, *zip(*args)))
        sim = pd.DataFrame([r for s, _ in done for r in s], columns=schema.OOM_SIMULATED_COLUMNS)
        columns = [*schema.OOM_PLACEMENT_COLUMNS, "date"]  # date: the part (optional in the table)
        placement = pd.DataFrame([r for _, pl in done for r in pl], columns=columns)
        write_csv(sim, a.out)
        write_csv(placement, a.out_placement)

    return exit_status(go, (TraceError, UvmSimError, GraphFormatError, OSError, KeyError))


if __name__ == "__main__":
    sys.exit(main())
