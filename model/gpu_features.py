"""Per-launch features of a traversal from its CPU-derived trace and the graph's offsets (docs/predictor.md, "GPU-work
term v2"): the launch's grid V_l (vertices), the list entries it reads N_l and its longest walk K_l (the most
steps one thread or warp takes: the degree skew the launch meets).

    python -m model.gpu_features --cells archive/uvm-sim-validation-2026-11-25/cells.csv --trace-dir DIR \\
        --graph kron21s24=/tmp/oom-graphs/kron21s24.w8.csr ... --out launches.csv.gz

The trace of a cell is `<kind><scale>s<seed>.w<width>.<algorithm>.<family>.r<root>.npz` in DIR (model.uvm_fit's
cache); variants other than direction-optimizing read the same lists at either width, so the 8-byte trace serves
4-byte cells. Cells whose graph or trace is missing are listed on stderr and left out.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv
from emogi.cli import exit_status
from emogi.csr import GraphFormatError
from emogi.csr_header import read_header
from emogi.traces import TraceError, launch_entries, load_trace

WARP = 32
LINE_BYTES = 128
SEGMENT_BYTES = 4096  # frontier: hub lists split into 4 KiB-aligned segments, a warp each
CHUNK_LISTS = 8  # chunked: a warp walks 8 consecutive vertices
KEYS = ["kind", "scale", "seed", "algorithm", "family", "root", "variant", "edge_bytes"]
ALIGNED = {"merged-aligned", "gauss-seidel", "afforest", "direction-optimizing", "chunked", "frontier"}


def read_offsets(path) -> np.ndarray:
    """The offsets array of a CSR file, mapped read-only (header checked; edges not read). Files of format
    version 1 (the archived traces' graphs) have the same layout up to the header's checksum rule."""
    try:
        header = read_header(path)
    except GraphFormatError:
        header = read_header(path, 1)
    data = np.memmap(path, dtype=np.uint8, mode="r")
    n = header.num_vertices + 1
    return data[header.offsets_offset : header.offsets_offset + 8 * n].view("<u8")


def walk_steps(variant: str, begin: np.ndarray, deg: np.ndarray, edge_bytes: int) -> np.ndarray:
    """Steps one thread (naive) or one warp (the others) takes to read each list [begin, begin + deg)."""
    if variant == "naive":
        return deg
    if variant == "merged":
        return -(-deg // WARP)
    per_line = LINE_BYTES // edge_bytes
    steps = np.where(deg > 0, -(-(begin % per_line + deg) // WARP), 0)
    if variant == "frontier":
        steps = np.minimum(steps, SEGMENT_BYTES // edge_bytes // WARP)
    elif variant not in ALIGNED:
        raise ValueError(f"no walk rule for variant {variant!r}")
    return steps


def launch_features(trace, offsets, variant: str, edge_bytes: int) -> pd.DataFrame:
    """One row per launch: lists (vertices whose lists it reads), entries N_l, grid V_l and walk K_l."""
    off = np.asarray(offsets)
    rows = []
    for i in range(trace.num_launches):
        sel, begin, end = launch_entries(trace, off, i)
        deg = end - begin
        steps = walk_steps(variant, begin, deg, edge_bytes)
        if variant == "chunked" and len(sel):
            steps = np.bincount(sel // CHUNK_LISTS, weights=steps)
        rows.append(
            {
                "launch": i,
                "lists": len(sel),
                "entries": int(deg.sum()),
                "grid": len(sel) if variant == "frontier" else trace.num_vertices,
                "walk": float(steps.max()) if len(steps) else 0.0,
            }
        )
    return pd.DataFrame(rows, columns=["launch", "lists", "entries", "grid", "walk"])


def trace_path(trace_dir: Path, cell, width: int) -> Path:
    name = f"{cell.kind}{cell.scale}s{cell.seed}.w{width}.{cell.algorithm}.{cell.family}.r{cell.root}.npz"
    return Path(trace_dir) / name


def cell_launches(cells: pd.DataFrame, trace_dir, graphs: dict, log=print) -> pd.DataFrame:
    """Per-launch features of every distinct KEYS combination of `cells` (graphs: '<kind><scale>s<seed>' -> CSR
    path, either width: the offsets are the same)."""
    parts, offsets_of = [], {}
    for key, _ in cells.groupby(KEYS, sort=True):
        cell = pd.Series(dict(zip(KEYS, key, strict=True)))
        gname = f"{cell.kind}{cell.scale}s{cell.seed}"
        if gname not in graphs:
            log(f"left out (no graph file): {gname} {cell.algorithm} {cell.variant} w{cell.edge_bytes}")
            continue
        path = trace_path(trace_dir, cell, int(cell.edge_bytes))
        if not path.exists() and cell.family != "direction-optimizing":
            path = trace_path(trace_dir, cell, 8)
        if not path.exists():
            log(f"left out (no trace): {path.name}")
            continue
        if gname not in offsets_of:
            offsets_of = {gname: read_offsets(graphs[gname])}  # one graph mapped at a time
        trace = load_trace(path)
        if trace.num_vertices != len(offsets_of[gname]) - 1:
            raise TraceError(f"{path.name}: {trace.num_vertices} vertices, graph {graphs[gname]} differs")
        f = launch_features(trace, offsets_of[gname], cell.variant, int(cell.edge_bytes))
        parts.append(f.assign(**dict(zip(KEYS, key, strict=True))))
    if not parts:
        raise TraceError("no cell has both a graph file and a trace")
    return pd.concat(parts, ignore_index=True)[KEYS + ["launch", "lists", "entries", "grid", "walk"]]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.gpu_features", description=__doc__.split("\n\n")[0])
    p.add_argument("--cells", required=True, type=Path)
    p.add_argument("--trace-dir", required=True, type=Path)
    p.add_argument("--graph", action="append", default=[], help="NAME=PATH, NAME as kron21s24 (repeatable)")
    p.add_argument("--out", required=True, type=Path)
    a = p.parse_args(argv)

    def go():
        graphs = dict(g.split("=", 1) for g in a.graph)
        cells = pd.read_csv(a.cells)
        if "family" not in cells:
            raise KeyError("cells need a family column (model.uvm_fit's cells.csv)")
        out = cell_launches(cells, a.trace_dir, graphs, log=lambda m: print(m, file=sys.stderr))
        write_csv(out, a.out)
        print(f"{a.out}: {len(out)} launches of {out.groupby(KEYS).ngroups} cells")

    return exit_status(go, (TraceError, OSError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
