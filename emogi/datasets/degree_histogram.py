"""How many vertices have each out-degree: the small per-graph table behind Fig. 6 (edges CDF by degree).

Read from the graph's offsets alone (8 bytes per vertex, streamed in blocks), so that figures never re-read an
edge list. Rows: graph, degree, vertices (only degrees that occur; degree 0 included).

CLI (the workflow's, right after a graph is made):
    python -m emogi.datasets.degree_histogram resources/graphs/kron23.w8.csr --name kron23 \
        --out results/datasets/kron23.degrees.csv
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

from emogi.atomic import write_csv
from emogi.cli import exit_status
from emogi.csr import GraphFormatError, read_csr

COLUMNS = ["graph", "degree", "vertices"]
_BLOCK = 1 << 23


def degree_histogram(offsets) -> pd.DataFrame:
    """(degree, vertices) for the CSR `offsets`, sorted by degree."""
    parts = []
    for lo in range(0, len(offsets) - 1, _BLOCK):
        deg = np.diff(np.asarray(offsets[lo : lo + _BLOCK + 1], dtype=np.int64))
        values, counts = np.unique(deg, return_counts=True)
        parts.append(pd.DataFrame({"degree": values, "vertices": counts}))
    if not parts:
        return pd.DataFrame({"degree": np.empty(0, np.int64), "vertices": np.empty(0, np.int64)})
    return pd.concat(parts).groupby("degree", as_index=False)["vertices"].sum()


def edges_cdf(histogram: pd.DataFrame, degrees) -> np.ndarray:
    """Share of edge-list entries held by vertices of degree <= d, for each d in `degrees` (Fig. 6's y)."""
    h = histogram.sort_values("degree")
    edges = (h["degree"] * h["vertices"]).to_numpy(dtype=np.float64)
    total = edges.sum()
    cumulative = np.cumsum(edges) / total if total else np.zeros(len(edges))
    at = np.searchsorted(h["degree"].to_numpy(), np.asarray(degrees), side="right") - 1
    return np.where(at >= 0, cumulative[np.maximum(at, 0)], 0.0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m emogi.datasets.degree_histogram", description=__doc__.split("\n")[0])
    ap.add_argument("graph", help="graph file (.csr)")
    ap.add_argument("--name", required=True, help="graph name for the table's `graph` column")
    ap.add_argument("--out", required=True, help="CSV to write")
    args = ap.parse_args(argv)

    def write():
        offsets = read_csr(args.graph).offsets  # the whole file is checked: a table of a bad graph is no table
        table = degree_histogram(offsets)
        table.insert(0, "graph", args.name)
        write_csv(table[COLUMNS], args.out)

    return exit_status(write, (GraphFormatError, OSError))


if __name__ == "__main__":
    sys.exit(main())
