"""Fit the UVM simulator's costs on archived cold-UVM runs and judge it on the runs it was not fitted on.

Steps (the split and the method: docs/model.md, "UVM simulator"; the cells: model/uvm_cells.py):
1. regenerate each archived graph on the CPU (model/uvm_graphs.py, checksums checked where recorded);
2. derive each cell's access trace on the CPU (emogi/trace_derive.py; cached as .npz under --trace-dir) and
   simulate it cold with the default costs: migrated bytes, fault batches and serviced regions per run do not
   depend on the costs, so the time is linear in them;
3. fit the three costs on the fit set by least absolute relative deviation of the total time (model/uvm_calibrate.py):
   `registered`, the fit docs/model.md wrote down before any fitting (one set of costs, no overlap); `selected`,
   chosen afterwards on fit cells only by leave-one-group-out cross-validation (cv.csv: per-session factors,
   overlap of GPU work and migration, which fault count makes batches); `micro`, FACTS.md's microbenchmarks;
4. write, under --out: cells.csv (every cell: measured, simulated counts, predictions, errors), summary.csv,
   cv.csv, params.json, repeatability.csv (how far the measurements scatter by themselves), bytes_check.csv
   (simulated migrated bytes against Nsight's pcie_read_bytes) and
   trace_check.csv (CPU-derived launches and list entries against the GPU's iterations and edges_traversed).

    python -m model.uvm_fit --archive archive --graph-dir /tmp/oom-graphs --trace-dir /tmp/oom-traces \\
        --out archive/uvm-sim-validation-2026-11-25
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv, write_text
from emogi.cli import exit_status
from emogi.csr import GraphFormatError, read_csr
from emogi.trace_derive import default_delta, derive
from emogi.traces import (
    Trace,
    TraceError,
    graph_checksum,
    load_trace,
    save_trace,
    summary_table,
)
from model import uvm_calibrate, uvm_graphs
from model.uvm_cells import (
    KEY,
    lists_per_warp,
    measured_cells,
    profiled_bytes,
    repeatability,
    trace_family,
)
from model.uvm_sim import UvmParams, simulate

COUNT_COLUMNS = [
    "launches",
    "cpu_entries",
    "bytes_needed",
    "migrated_bytes",
    "fault_entries",
    "list_faults",
    "batches",
    "serviced_chunks",
]
# The archived builds' SSSP frontier bucket: the mean weight (0.4 x since eda7b26, after every archived run used).
ARCHIVED_DELTA_FRACTION = 1.0
REPRESENTATIVE = {"scan": "merged-aligned"}
COUNT_KEYS = ["kind", "scale", "seed", "algorithm", "family", "root", "edge_bytes", "lists_per_warp"]


def _with_family(cells: pd.DataFrame) -> pd.DataFrame:
    """Adds the trace family and the variant's lists per warp (what the simulated counts depend on)."""
    return cells.assign(
        family=[trace_family(a, v) for a, v in zip(cells["algorithm"], cells["variant"], strict=True)],
        lists_per_warp=[lists_per_warp(v) for v in cells["variant"]],
    )


def retarget(trace: Trace, graph) -> Trace:
    """The same lists on the same graph stored at another edge width (emogi.csr narrow keeps every list in
    place); refused for traces whose parts depend on the width (bottom-up BFS reads whole lines)."""
    if trace.variant == "direction-optimizing":
        raise TraceError("direction-optimizing traces depend on the edge width: derive them on each file")
    if (graph.num_vertices, graph.num_edges) != (trace.num_vertices, trace.num_edges):
        raise TraceError(f"{graph.path}: not the graph of trace {trace.graph}")
    return dataclasses.replace(trace, checksum=graph_checksum(graph), edge_bytes=graph.index_bytes)


def _trace(graph, spec, algorithm, family, root, trace_dir: Path, log) -> Trace:
    path = trace_dir / f"{spec.file_name[:-4]}.{algorithm}.{family}.r{root}.npz"
    if path.exists():
        return load_trace(path, graph)
    t0 = time.perf_counter()
    options = {}
    if algorithm == "sssp" and family == "frontier":
        options["delta"] = default_delta(graph, ARCHIVED_DELTA_FRACTION)
    trace = derive(
        graph,
        algorithm,
        REPRESENTATIVE.get(family, family),
        None if root < 0 else root,
        name=f"{spec.kind}{spec.scale}",
        **options,
    )
    save_trace(trace, path)
    log(f"  derived {path.name}: {trace.num_launches} launches in {time.perf_counter() - t0:.0f} s")
    return trace


def _counts(trace: Trace, graph, per_warp: int) -> dict:
    summary = summary_table(trace, graph.offsets)
    totals = simulate(trace, graph, lists_per_warp=per_warp).totals()
    entry = trace.edge_bytes + trace.weight_bytes
    return {
        "launches": trace.num_launches,
        "cpu_entries": int(summary["bytes_needed"].sum()) // entry,
        "bytes_needed": int(summary["bytes_needed"].sum()),
        **{k: totals[k] for k in ("migrated_bytes", "fault_entries", "list_faults", "batches", "serviced_chunks")},
    }


def simulated_counts(runs: pd.DataFrame, graph_dir, trace_dir, log=print) -> pd.DataFrame:
    """COUNT_COLUMNS for every distinct (graph, algorithm, trace family, root, width) of `runs` (cached)."""
    trace_dir = Path(trace_dir)
    trace_dir.mkdir(parents=True, exist_ok=True)
    cache = trace_dir / "counts.csv"
    keys = COUNT_KEYS
    done = pd.read_csv(cache) if cache.exists() else pd.DataFrame(columns=keys + COUNT_COLUMNS)
    if list(done.columns) != keys + COUNT_COLUMNS:  # counted by an older simulator: count again (traces stay)
        done = pd.DataFrame(columns=keys + COUNT_COLUMNS)
    todo = _with_family(runs)
    todo = todo[keys].drop_duplicates().merge(done[keys], how="left", indicator=True)
    todo = todo[todo["_merge"] == "left_only"].drop(columns="_merge")
    for (kind, scale, seed), group in todo.groupby(["kind", "scale", "seed"], sort=False):
        wide_spec = uvm_graphs.GraphSpec(kind, int(scale), int(seed), 8)
        log(f"{wide_spec.file_name}: {len(group)} traces to simulate")
        wide = read_csr(uvm_graphs.make(wide_spec, graph_dir, log=log), verify_checksum=False)
        for _, row in group.sort_values(["algorithm", "family", "root"]).iterrows():
            spec = dataclasses.replace(wide_spec, width=int(row["edge_bytes"]))
            graph = (
                wide if spec.width == 8 else read_csr(uvm_graphs.make(spec, graph_dir, log=log), verify_checksum=False)
            )
            family, root = row["family"], int(row["root"])
            if spec.width == 8 or family == "direction-optimizing":
                trace = _trace(graph, spec, row["algorithm"], family, root, trace_dir, log)
            else:
                trace = retarget(_trace(wide, wide_spec, row["algorithm"], family, root, trace_dir, log), graph)
            counts = _counts(trace, graph, int(row["lists_per_warp"]))
            done = pd.concat([done, pd.DataFrame([{**row[keys].to_dict(), **counts}])], ignore_index=True)
            write_csv(done, cache)
    return done


def predict(cells: pd.DataFrame, model: uvm_calibrate.Calibration | UvmParams, tag: str) -> pd.DataFrame:
    """Adds predicted_ms_<tag>, error_<tag> (of the total time) and migration_error_<tag> (of cold - device)."""
    if isinstance(model, UvmParams):
        a = 1e3 / model.throughput_gbps
        model = uvm_calibrate.Calibration(np.array([a, model.batch_us / 1e3, model.service_us / 1e3]), model.overlap)
    total, migration = model.predict(cells)
    out = cells.copy()
    out[f"predicted_ms_{tag}"] = total
    out[f"error_{tag}"] = total / cells["uvm_ms"] - 1
    out[f"migration_error_{tag}"] = migration / (cells["uvm_ms"] - cells["device_ms"]) - 1
    return out


def summarise(cells: pd.DataFrame, tags) -> pd.DataFrame:
    rows = []
    groups = [("fit", "all", cells["split"] == "fit"), ("validation", "all", cells["split"] == "validation")]
    groups += [
        ("validation", a, (cells["split"] == "validation") & (cells["algorithm"] == a))
        for a in ("bfs", "sssp", "cc", "pagerank")
    ]
    groups += [
        (f"validation, scale {s}", "all", (cells["split"] == "validation") & (cells["scale"] == s))
        for s in sorted(cells["scale"].unique())
    ]
    for split, algorithm, sel in groups:
        part = cells[sel]
        for tag in tags:
            err, mig = part[f"error_{tag}"].abs(), part[f"migration_error_{tag}"].abs()
            worst = part.loc[err.idxmax()] if len(part) else None
            rows.append(
                {
                    "split": split,
                    "algorithm": algorithm,
                    "params": tag,
                    "cells": len(part),
                    "median_abs_error": err.median(),
                    "worst_abs_error": err.max(),
                    "share_within_10pct": (err <= 0.10).mean(),
                    "share_within_25pct": (err <= 0.25).mean(),
                    "median_abs_migration_error": mig.median(),
                    "worst_abs_migration_error": mig.max(),
                    "worst_cell": ""
                    if worst is None
                    else f"{worst['source'].split('/')[0]} {worst['graph']} {worst['algorithm']} {worst['variant']} "
                    f"w{worst['edge_bytes']} root {worst['root']}",
                }
            )
    return pd.DataFrame(rows)


def run(archive, graph_dir, trace_dir, out, max_scale: int, log=print) -> pd.DataFrame:
    cells = measured_cells(archive)
    cells = cells[cells["scale"] <= max_scale]
    counts = simulated_counts(cells, graph_dir, trace_dir, log)
    cells = _with_family(cells).merge(counts, on=COUNT_KEYS, how="left")
    fit_cells = cells[cells["split"] == "fit"]
    registered = uvm_calibrate.fit(fit_cells)
    # Chosen after the registered result was seen, on fit cells only: the smallest cross-validated 90th percentile.
    cv = uvm_calibrate.cross_validate(fit_cells)
    best = cv.loc[cv["cv_p90_abs_error"].idxmin()]
    selected = uvm_calibrate.fit(fit_cells, float(best["overlap"]), bool(best["per_session"]), best["batches_from"])
    cells = predict(predict(predict(cells, registered, "registered"), selected, "selected"), UvmParams(), "micro")
    out = Path(out)
    write_csv(cells.sort_values(KEY), out / "cells.csv")
    write_csv(cv, out / "cv.csv")
    summary = summarise(cells, ("registered", "selected", "micro"))
    write_csv(summary, out / "summary.csv")
    params = {
        "registered": dataclasses.asdict(registered.params()),
        "selected": {
            "rule": "least cross-validated 90th-percentile error on the fit set (cv.csv)",
            "batches_from": selected.batches_from,
            "per_session": bool(best["per_session"]),
            "params": dataclasses.asdict(selected.params()),
            "session_factors": selected.factors,
        },
        "microbenchmark_defaults": dataclasses.asdict(UvmParams()),
        "fit_cells": len(fit_cells),
        "validation_cells": int((cells["split"] == "validation").sum()),
        "max_scale": max_scale,
    }
    write_text(json.dumps(params, indent=2) + "\n", out / "params.json")
    write_csv(repeatability(archive, cells), out / "repeatability.csv")
    write_csv(_bytes_check(archive, counts), out / "bytes_check.csv")
    write_csv(_trace_check(cells), out / "trace_check.csv")
    log(summary.drop(columns="worst_cell").to_string(index=False))
    return cells


def _bytes_check(archive, counts) -> pd.DataFrame:
    prof = _with_family(profiled_bytes(archive))
    both = prof.merge(counts, on=COUNT_KEYS, how="inner")
    both["pcie_over_simulated"] = both["pcie_read_bytes"] / both["migrated_bytes"]
    return both[
        [
            "source",
            "graph",
            "variant",
            "edge_bytes",
            "root",
            "pcie_read_bytes",
            "migrated_bytes",
            "bytes_needed",
            "pcie_over_simulated",
        ]
    ]


def _trace_check(cells) -> pd.DataFrame:
    """Per (graph, algorithm, variant, width, root): the CPU trace's launches and entries beside the GPU's."""
    cols = ["kind", "scale", "seed", "graph", "algorithm", "variant", "edge_bytes", "root"]
    per = cells.groupby(cols, as_index=False).agg(
        cpu_launches=("launches", "first"),
        cpu_entries=("cpu_entries", "first"),
        gpu_iterations=("gpu_iterations", "median"),
        gpu_edges=("gpu_edges", "median"),
    )
    per["entries_ratio"] = per["cpu_entries"] / per["gpu_edges"]
    # BFS's edges_traversed counts every reached list once, whatever a direction-optimizing run reads
    per.loc[per["variant"] == "direction-optimizing", "entries_ratio"] = np.nan
    return per


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m model.uvm_fit", description=__doc__.split("\n")[0])
    ap.add_argument("--archive", default="archive")
    ap.add_argument("--graph-dir", required=True)
    ap.add_argument("--trace-dir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-scale", type=int, default=24, help="leave out graphs above this scale")
    a = ap.parse_args(argv)
    return exit_status(
        lambda: run(a.archive, a.graph_dir, a.trace_dir, a.out, a.max_scale),
        (GraphFormatError, TraceError, OSError, ValueError),
    )


if __name__ == "__main__":
    sys.exit(main())
