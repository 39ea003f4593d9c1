"""Fig. 6 of the EMOGI paper: the CDF of edges by vertex degree, one line per graph, x axis cut at 96.

For a degree d, the share of the edge list held by vertices of degree <= d: what fraction of the neighbour lists
a traversal reads are short (a few 128-byte lines, where merging and alignment gain little) and what fraction are
long. The paper cuts the axis at 96 "as many of the graphs have vertices with an extremely high degree"; the
legend gives the share beyond the cut. The numbers come from the graphs themselves (a degree histogram written
when each graph is made), so the figure needs no GPU and is always of the graphs at hand.

Definitions (also printed in the figure footer):
  degree     out-degree: entries of the vertex's neighbour list (an undirected edge counts at both ends)
  edges CDF  sum of degree over vertices of degree <= d, divided by E (the edge-list length)

    python -m figures.fig06_degree_cdf \
        --degrees results/datasets/kron23.degrees.csv results/datasets/urand23.degrees.csv \
        --out results/figures/fig06_degree_cdf.png [--out-csv results/figures/fig06_degree_cdf.csv]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.degree_histogram import COLUMNS, edges_cdf
from figures import style
from figures.inputs import FigureDataError

FIGURE = "fig06_degree_cdf"
CUT = 96  # the paper's axis limit
DEFINITION = ("edges CDF at degree d = share of the edge list held by vertices of out-degree <= d (an undirected edge "
              "counts at both ends); x axis cut at 96 as in the paper; legend: share of edges beyond the cut")
CSV_COLUMNS = ["graph", "degree", "edges_cdf", "share_beyond_cut"]


def load_histograms(paths) -> pd.DataFrame:
    """The degree histograms (emogi.degree_histogram CSVs), concatenated."""
    frames = []
    for p in map(Path, paths):
        try:
            frame = pd.read_csv(p)
        except (FileNotFoundError, pd.errors.EmptyDataError) as e:
            raise FigureDataError(f"figure {FIGURE}: cannot read {p}: {e}") from None
        missing = [c for c in COLUMNS if c not in frame.columns]
        if missing or frame.empty:
            raise FigureDataError(f"figure {FIGURE}: {p} is empty or lacks columns {missing}")
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def cdf_table(histograms: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers: per graph, the edges CDF at every degree 0..CUT."""
    degrees = np.arange(CUT + 1)
    parts = []
    for graph, h in histograms.groupby("graph", sort=False):
        cdf = edges_cdf(h, degrees)
        parts.append(pd.DataFrame({"graph": graph, "degree": degrees, "edges_cdf": cdf,
                                   "share_beyond_cut": 1.0 - cdf[-1]}))
    return pd.concat(parts, ignore_index=True)[CSV_COLUMNS]


def draw(table: pd.DataFrame):
    """One step line per graph; returns the figure."""
    fig, axes = style.new_figure(1, 1, title_lines=0, panel_height=2.4, footer_lines=3, legend_lines=1)
    ax = axes[0][0]
    colors = style.graph_colors(table["graph"])
    for graph, rows in table.groupby("graph", sort=False):
        beyond = rows["share_beyond_cut"].iloc[0]
        ax.step(rows["degree"], rows["edges_cdf"], where="post", color=colors[graph], linewidth=1.4,
                label=f"{graph} ({beyond:.0%} of edges beyond {CUT})")
    ax.set_xlim(0, CUT)
    ax.set_ylim(0, 1.02)
    ax.set_xticks(range(0, CUT + 1, 16))
    ax.set_xlabel("vertex degree")
    ax.set_ylabel("edges CDF")
    ax.grid(linewidth=0.3, alpha=0.5)
    style.legend_on_top(fig, *ax.get_legend_handles_labels(), ncol=min(3, table["graph"].nunique()))
    fig.text(0.01, 0.005, "Data: degree histograms of the graph files this workflow made (no GPU)\n" + DEFINITION,
             ha="left", va="bottom", fontsize=style.FOOTER_SIZE, color="#333333", wrap=True)
    return fig


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Edges CDF by vertex degree (EMOGI Fig. 6)")
    ap.add_argument("--degrees", type=Path, nargs="+", required=True, help="degree histogram CSVs, one per graph")
    ap.add_argument("--out", type=Path, nargs="+", required=True, help=".png and/or .pdf")
    ap.add_argument("--out-csv", type=Path, help="the plotted numbers")
    args = ap.parse_args(argv)
    try:
        table = cdf_table(load_histograms(args.degrees))
    except FigureDataError as e:
        raise SystemExit(f"error: {e}") from None
    style.save(draw(table), args.out)
    if args.out_csv:
        style.write_csv(table, args.out_csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
