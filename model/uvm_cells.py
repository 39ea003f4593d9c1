"""The archived cold-UVM measurements the UVM simulator is fitted and judged on, and the split between the two.

A cell is one (archive table, graph, algorithm, variant, edge width, root) measured both in `uvm` mode (cold) and
in `device` mode in the same table, so on the same machine: the median of each over its repetitions. The split is
the one docs/model.md wrote down before any fitting ("UVM simulator").
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from model.uvm_graphs import GraphSpec
from model.uvm_sim import LISTS_PER_WARP

STUDY_GRAPHS = {"kron23": ("kron", 23, 23), "urand23": ("urand", 23, 24)}
BENCH_GRAPHS = {f"{k}{s}": (k, s, 24) for k in ("kron", "urand") for s in (21, 23, 24, 25)}
STUDIES = [f"h100-80gb-hbm3-2026-11-21-{t}" for t in ("0121", "0328", "0336", "0419", "0455", "0732")]
# (table under archive/, graph name -> (kind, scale, seed)); H100 only (h200-2026-11-21-0409 is left out)
SOURCES = (
    [(f"{s}/runs.csv.gz", STUDY_GRAPHS) for s in STUDIES]
    + [(f"{s}/apps.csv.gz", STUDY_GRAPHS) for s in STUDIES[3:]]
    + [
        ("uvm-warm-h100-2026-11-21/bench21/runs.csv", BENCH_GRAPHS),
        ("zero-copy-ways-h100-2026-11-21/bench21/runs.csv", BENCH_GRAPHS),
        ("kernel-bench-h100-2026-11-21-reads-ahead/whole_matrix_gap21/runs.csv.gz", BENCH_GRAPHS),
        ("large-matrix-h100-2026-11-21/runs.csv", BENCH_GRAPHS),
        ("uvm-warm-h100-2026-11-21/gap24/runs.csv", BENCH_GRAPHS),
    ]
)
# the study profiles: Nsight Compute's bytes over the link for cold-UVM BFS (a check on the simulated bytes)
PROFILES = [f"{s}/profile.csv.gz" for s in STUDIES]

FIT_VARIANTS = ("naive", "merged", "merged-aligned", "chunked", "frontier")
KEY = ["source", "graph", "algorithm", "variant", "edge_bytes", "root"]
CELL_COLUMNS = KEY + [
    "kind",
    "scale",
    "seed",
    "commit",
    "uvm_ms",
    "device_ms",
    "uvm_runs",
    "gpu_iterations",
    "gpu_edges",
    "split",
]


def split_of(kind: str, algorithm: str, variant: str) -> str:
    """'fit' for top-down BFS on kron, 'validation' for everything else (docs/model.md)."""
    return "fit" if kind == "kron" and algorithm == "bfs" and variant in FIT_VARIANTS else "validation"


# How the scan variants map lists to warps (docs/kernels.md): a thread per list (naive), a warp per 8 consecutive
# lists (chunked), a warp per list or per list segment (the rest). Used by the simulator's list_faults only.


def lists_per_warp(variant: str) -> int:
    return LISTS_PER_WARP.get(variant, 1)


def trace_family(algorithm: str, variant: str) -> str:
    """Variants whose CPU-derived traces are the same sets of lists share one trace (docs/kernels.md)."""
    special = {("bfs", "direction-optimizing"), ("sssp", "frontier"), ("cc", "afforest"), ("pagerank", "gauss-seidel")}
    return variant if (algorithm, variant) in special else "scan"


def _read(archive: Path, table: str) -> pd.DataFrame:
    frame = pd.read_csv(archive / table, low_memory=False)
    if "algorithm" not in frame:
        frame["algorithm"] = "bfs"
    for column in ("iterations", "max_warps"):
        if column not in frame:
            frame[column] = 0
    frame = frame[(frame["max_warps"].fillna(0) == 0) & frame["mode"].isin(["uvm", "device"])].copy()
    frame["root"] = frame["root"].fillna(-1).astype("int64")
    frame["source"] = table
    return frame


def measured_cells(archive_dir) -> pd.DataFrame:
    """CELL_COLUMNS, one row per cell with both a cold-UVM and a device-mode median."""
    archive = Path(archive_dir)
    cells = []
    for table, graphs in SOURCES:
        frame = _read(archive, table)
        frame = frame[frame["graph"].isin(graphs)]
        med = (
            frame.groupby(KEY + ["mode"])
            .agg(
                ms=("time_ms", "median"),
                runs=("time_ms", "size"),
                iterations=("iterations", "median"),
                edges=("edges_traversed", "median"),
                commit=("commit", "first"),
            )
            .reset_index()
        )
        uvm = med[med["mode"] == "uvm"].drop(columns="mode")
        dev = med[med["mode"] == "device"][KEY + ["ms", "iterations", "edges"]]
        both = uvm.merge(dev, on=KEY, suffixes=("", "_device"))
        both = both.rename(
            columns={
                "ms": "uvm_ms",
                "ms_device": "device_ms",
                "runs": "uvm_runs",
                "iterations_device": "gpu_iterations",
                "edges_device": "gpu_edges",
            }
        )
        spec = both["graph"].map(graphs)
        both["kind"] = spec.str[0]
        both["scale"] = spec.str[1]
        both["seed"] = spec.str[2]
        cells.append(both)
    out = pd.concat(cells, ignore_index=True)
    out["split"] = [split_of(k, a, v) for k, a, v in zip(out["kind"], out["algorithm"], out["variant"], strict=True)]
    return out[CELL_COLUMNS].sort_values(KEY, ignore_index=True)


def graph_spec(cell) -> GraphSpec:
    return GraphSpec(cell["kind"], int(cell["scale"]), int(cell["seed"]), int(cell["edge_bytes"]))


def profiled_bytes(archive_dir) -> pd.DataFrame:
    """Cold-UVM BFS runs profiled by Nsight Compute: pcie_read_bytes per (source, graph, variant, root)."""
    archive = Path(archive_dir)
    rows = []
    for table in PROFILES:
        p = pd.read_csv(archive / table)
        p = p[(p["mode"] == "uvm") & (p["max_warps"].fillna(0) == 0)]
        for _, r in p.iterrows():
            kind, scale, seed = STUDY_GRAPHS[r["graph"]]
            rows.append(
                {
                    "source": table,
                    "graph": r["graph"],
                    "kind": kind,
                    "scale": scale,
                    "seed": seed,
                    "algorithm": "bfs",
                    "variant": r["variant"],
                    "edge_bytes": int(r["edge_bytes"]),
                    "root": int(r["root"]),
                    "pcie_read_bytes": float(r["pcie_read_bytes"]),
                }
            )
    return pd.DataFrame(rows)


def repeatability(archive_dir, cells: pd.DataFrame) -> pd.DataFrame:
    """How far measured cold-UVM times scatter where nothing changed: between repetitions of one cell (max/min - 1
    within a table) and between sessions measuring the same graph, algorithm, variant, width and root
    (|median / median over sessions - 1|). No model of the cell alone can be closer than the sessions agree."""
    archive = Path(archive_dir)
    within = []
    for table, graphs in SOURCES:
        frame = _read(archive, table)
        uvm = frame[(frame["mode"] == "uvm") & frame["graph"].isin(graphs)]
        spread = uvm.groupby(KEY)["time_ms"].agg(lambda t: t.max() / t.min() - 1 if len(t) > 1 else float("nan"))
        within.append(spread.dropna())
    within = pd.concat(within)
    same = ["graph", "seed", "algorithm", "variant", "edge_bytes", "root"]
    sessions = cells.assign(session=cells["source"].str.split("/").str[0])
    sessions = sessions.groupby(same + ["session"])["uvm_ms"].median().reset_index()
    centre = sessions.groupby(same)["uvm_ms"].transform("median")
    count = sessions.groupby(same)["uvm_ms"].transform("size")
    between = (sessions["uvm_ms"] / centre - 1).abs()[count >= 2]
    rows = []
    for name, values in (
        ("repetitions within a table (max/min - 1)", within),
        ("sessions of one cell (|x / median - 1|)", between),
    ):
        rows.append(
            {
                "scatter": name,
                "samples": len(values),
                "median": values.median(),
                "p90": values.quantile(0.9),
                "max": values.max(),
            }
        )
    return pd.DataFrame(rows)
