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
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.datasets.degree_histogram import COLUMNS, edges_cdf
from figures import style
from figures.inputs import FigureDataError, ReportError, ReportFigure, report_csv
from figures.report_format import fpct1

FIGURE = "fig06_degree_cdf"
CUT = 96  # the paper's axis limit
DEFINITION = (
    "edges CDF at degree d = share of the edge list held by vertices of out-degree <= d (an undirected edge "
    "counts at both ends); x axis cut at 96 as in the paper; legend: share of edges beyond the cut"
)
CSV_COLUMNS = ["graph", "degree", "edges_cdf", "share_beyond_cut"]


def load_histograms(paths) -> pd.DataFrame:
    """The degree histograms (emogi.datasets.degree_histogram CSVs), concatenated."""
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
        parts.append(
            pd.DataFrame({"graph": graph, "degree": degrees, "edges_cdf": cdf, "share_beyond_cut": 1.0 - cdf[-1]})
        )
    return pd.concat(parts, ignore_index=True)[CSV_COLUMNS]


def draw(table: pd.DataFrame):
    """One step line per graph; returns the figure."""
    fig, axes = style.new_figure(1, 1, title_lines=0, panel_height=2.4, footer_lines=3, legend_lines=1)
    ax = axes[0][0]
    colors = style.graph_colors(table["graph"])
    for graph, rows in table.groupby("graph", sort=False):
        beyond = rows["share_beyond_cut"].iloc[0]
        ax.step(
            rows["degree"],
            rows["edges_cdf"],
            where="post",
            color=colors[graph],
            linewidth=1.4,
            label=f"{graph} ({beyond:.0%} of edges beyond {CUT})",
        )
    ax.set_xlim(0, CUT)
    ax.set_ylim(0, 1.02)
    ax.set_xticks(range(0, CUT + 1, 16))
    ax.set_xlabel("vertex degree")
    ax.set_ylabel("edges CDF")
    ax.grid(linewidth=0.3, alpha=0.5)
    style.legend_on_top(fig, *ax.get_legend_handles_labels(), ncol=min(3, table["graph"].nunique()))
    style.footer(fig, "Data: degree histograms of the graph files this workflow made (no GPU)\n" + DEFINITION)
    return fig


# --- in the report -----------------------------------------------------------------------------------------
# What the paper says about Fig. 6, per dataset (quoted from §5.3 and §5.3.1; tests check the quotes).
PAPER_STATEMENTS = {
    "GU": ("all of its edges associated with vertices with degree between 16 and 48", "Fig. 6 caption"),
    "GK": ("The neighbor lists of the GK graph are extremely unbalanced", "§5.3.1"),
    "ML": ("the ML graph has nearly no edges associated with small degree vertices", "§5.3.1"),
    "FS": ("have some edges associated with small degree vertices", "§5.3.1"),
}
PAPER_CUT_QUOTE = (
    "The horizontal axis of this CDF is cut to 96 as many of the graphs have vertices with an extremely high degree"
)


def report_section(fig: ReportFigure, symbols: dict) -> dict:
    """Fig. 6 in numbers: the share of each graph's edges by degree band, beside what the paper says
    (`symbols`: the paper's symbol of each graph, from Table 2)."""
    t = report_csv(fig.csv, "fig06 numbers")
    missing = [c for c in CSV_COLUMNS if c not in t.columns]
    if missing:
        raise ReportError(f"report: {fig.csv} lacks columns {missing} (fig06)")

    rows, shares = [], {}
    for graph, g in t.groupby("graph", sort=False):
        cdf = g.set_index("degree")["edges_cdf"]
        at = lambda d: float(cdf.get(d, math.nan))  # noqa: E731
        beyond = float(g["share_beyond_cut"].iloc[0])
        s = {"below_16": at(15), "16_to_48": at(48) - at(15), "49_to_96": at(CUT) - at(48), "beyond_96": beyond}
        shares[str(graph)] = s
        symbol = symbols.get(str(graph))
        quote, where = PAPER_STATEMENTS.get(symbol, ("–", "")) if symbol else ("–", "")
        rows.append(
            [
                str(graph) + (f" ({symbol})" if symbol else ""),
                *[fpct1(s[k]) for k in s],
                f"“{quote}” ({where})" if where else quote,
            ]
        )

    def said(graph):
        s, sym = shares[graph], symbols.get(graph)
        name = graph + (f" (for {sym})" if sym else "")
        return (
            f"{name} has {fpct1(s['16_to_48'])} of its edges on vertices of degree 16 to 48 and "
            f"{fpct1(s['beyond_96'])} beyond 96"
        )

    return {
        "image": fig.image,
        "definition": DEFINITION[0].upper() + DEFINITION[1:],
        "paper_cut_quote": PAPER_CUT_QUOTE,
        "shares": shares,
        "ours_text": "; ".join(said(g) for g in shares) + ".",
        "table": {
            "columns": ["graph", "degree < 16", "16 to 48", "49 to 96", "> 96", "the paper (Fig. 6)"],
            "align": "lrrrrl",
            "rows": rows,
        },
    }


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
