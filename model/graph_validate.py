"""The graph-file prediction (model/graph_predict.py) judged against archived measured zero-copy runs of held-out
graphs (issue 24; CPU only): per (graph, algorithm, variant, width, root) the predicted D, d and time beside the
profiled D and d (Nsight, where profiled) and the measured median time.

    python -m model.graph_validate --archive archive/h100-80gb-hbm3-2026-11-21-0732 --trace-dir /tmp/oom-traces \\
        --graph kron23s23=G1.csr --graph urand23s24=G2.csr --parameters P.json --out-dir DIR

The traces are model.uvm_fit's cache (`<graph>.w<width>.<algorithm>.<family>.r<root>.npz`, the 8-byte trace
serving 4-byte runs except direction-optimizing); graph names map the archive's (kron23, urand23) to the seeds the
study used (uvm_cells: kron23 seed 23, urand23 seed 24).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import pandas as pd

from emogi.atomic import write_csv
from emogi.cli import exit_status
from emogi.traces import TraceError, load_trace
from model.gpu_features import read_offsets
from model.graph_predict import GraphPredictError, gpu_work_costs, predict, workload_from_trace
from model.presets import MEASURED, get_preset
from model.uvm_cells import trace_family

STUDY_SEEDS = {"kron23": "kron23s23", "urand23": "urand23s24"}
CELL = ["graph", "algorithm", "variant", "edge_bytes", "root"]


def measured(archive: Path) -> pd.DataFrame:
    """Median zero-copy time per cell of the archive's runs and apps tables (default launches only)."""
    frames = [pd.read_csv(p) for p in (archive / "runs.csv.gz", archive / "apps.csv.gz") if p.exists()]
    runs = pd.concat(frames, ignore_index=True)
    if "max_warps" in runs:
        runs = runs[runs["max_warps"].fillna(0) == 0]
    runs = runs[runs["mode"] == "zerocopy"].assign(root=runs["root"].fillna(-1).astype(int))  # CC, PageRank: -1
    return runs.groupby(CELL, as_index=False).agg(measured_ms=("time_ms", "median"), reps=("time_ms", "size"))


def profiled(archive: Path) -> pd.DataFrame:
    p = archive / "profile.csv.gz"
    if not p.exists():
        return pd.DataFrame(columns=CELL + ["profiled_D", "profiled_d"])
    prof = pd.read_csv(p)
    prof = prof[(prof["mode"] == "zerocopy") & (prof.get("max_warps", 0) == 0)]
    prof = prof.assign(root=prof["root"].fillna(-1).astype(int))
    g = prof.groupby(CELL, as_index=False)[["sysmem_read_sectors", "sysmem_read_requests"]].mean()
    g["profiled_D"] = 32 * g["sysmem_read_sectors"]
    g["profiled_d"] = g["profiled_D"] / g["sysmem_read_requests"]
    return g[CELL + ["profiled_D", "profiled_d"]]


def validate(archive, trace_dir, graphs: dict, params, log=print) -> pd.DataFrame:
    cells = measured(Path(archive)).merge(profiled(Path(archive)), on=CELL, how="left")
    costs, rows, offsets = gpu_work_costs(), [], {}
    for c in cells.itertuples(index=False):
        name = STUDY_SEEDS.get(c.graph, c.graph)
        if name not in graphs:
            log(f"left out (no graph file): {c.graph}")
            continue
        family = trace_family(c.algorithm, c.variant)
        root = int(c.root) if c.algorithm in ("bfs", "sssp") else -1
        width = c.edge_bytes if family == "direction-optimizing" else 8
        path = Path(trace_dir) / f"{name}.w{width}.{c.algorithm}.{family}.r{root}.npz"
        if not path.exists():
            log(f"left out (no trace): {path.name}")
            continue
        trace = dataclasses.replace(load_trace(path), edge_bytes=int(c.edge_bytes), variant=c.variant)
        if name not in offsets:
            offsets = {name: read_offsets(graphs[name])}
        try:
            w = workload_from_trace(trace, offsets[name], c.variant, costs)
        except GraphPredictError as e:
            log(f"left out: {e}")
            continue
        rows.append(c._asdict() | {k: w[k] for k in ("D_bytes", "d_bytes", "floor_ms", "chain_steps", "launches")}
                    | {"predicted_ms": predict(w, "zerocopy", params)})  # fmt: skip
    out = pd.DataFrame(rows)
    out["error"] = out["predicted_ms"] / out["measured_ms"] - 1
    out["D_error"] = out["D_bytes"] / out["profiled_D"] - 1
    out["d_error"] = out["d_bytes"] / out["profiled_d"] - 1
    return out


def summary(out: pd.DataFrame) -> pd.DataFrame:
    groups = [*out.groupby("algorithm"), ("all", out)]
    return pd.DataFrame(
        [{"algorithm": a, "cells": len(g), "median": g["error"].abs().median(), "worst": g["error"].abs().max(),
          "signed_median": g["error"].median(), "profiled": int(g["profiled_D"].notna().sum()),
          "D_median": g["D_error"].abs().median(), "d_median": g["d_error"].abs().median()} for a, g in groups]
    )  # fmt: skip


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.graph_validate", description=__doc__.split("\n\n")[0])
    p.add_argument("--archive", required=True, type=Path)
    p.add_argument("--trace-dir", required=True, type=Path)
    p.add_argument("--graph", action="append", default=[], help="NAME=PATH, NAME as kron23s23 (repeatable)")
    p.add_argument("--parameters", required=True, type=Path, help="parameters.json of model.fit (h100-measured)")
    p.add_argument("--out-dir", required=True, type=Path)
    a = p.parse_args(argv)

    def go():
        params = get_preset(MEASURED, a.parameters)
        out = validate(a.archive, a.trace_dir, dict(g.split("=", 1) for g in a.graph), params,
                       log=lambda m: print(m, file=sys.stderr))  # fmt: skip
        write_csv(out, a.out_dir / "graph_validate_cells.csv")
        s = summary(out)
        write_csv(s, a.out_dir / "graph_validate_summary.csv")
        print(s.to_string(index=False, float_format=lambda x: f"{x:.3f}"))

    return exit_status(go, (TraceError, GraphPredictError, OSError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
