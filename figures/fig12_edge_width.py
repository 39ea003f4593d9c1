"""Figure 12 analogue: EMOGI with 4-byte against 8-byte edge lists, for BFS, SSSP, CC and PageRank.

One panel per graph; for each application the speedup of 4-byte over 8-byte edges with the paper's EMOGI kernel
(Merged+Aligned, zero-copy), the 8-byte time under the application's name (the paper writes it on the bar). A
short dashed line marks the ratio of bytes read per edge, (8 + w) / (4 + w) with w = 4 for SSSP's weight and 0
otherwise: a traversal bound by the link alone would reach it.

Definitions (also in the figure footer):
  time     as in Fig. 11 (mean over roots of the per-root median over reps; CC, PageRank: median over reps)
  speedup  8-byte time / 4-byte time

    python -m figures.fig12_edge_width --apps results/tables/apps.csv --source results/tables/source.json \
        --out results/figures/fig12_edge_width.png [--out-csv ...]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from emogi.schema import WEIGHT_BYTES
from figures import applications as apps_lib
from figures import cli, style
from figures.inputs import FigureDataError

FIGURE = "fig12"
DEFINITION = (
    "time = mean over roots of the per-root median over reps (CC, PR: median over reps), Merged+Aligned, "
    "zero-copy; speedup = 8-byte time / 4-byte time; dashed: bytes per edge, (8 + w) / (4 + w)"
)
CSV_COLUMNS = ["graph", "algorithm", "variant", "mode", "time_8_ms", "time_4_ms", "speedup", "byte_ratio"]


def speedups(apps: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers, one row per (graph, algorithm); empty when the apps table is."""
    times = apps_lib.app_times(apps)
    if times.empty:
        return pd.DataFrame(columns=CSV_COLUMNS)
    emogi = times[(times["variant"] == apps_lib.PAPER_VARIANT) & (times["mode"] == "zerocopy")]
    wide = emogi.pivot_table(
        index=["graph", "algorithm", "variant", "mode"], columns="edge_bytes", values="time_ms"
    ).reset_index()
    if 4 not in wide.columns or 8 not in wide.columns:
        raise FigureDataError(
            f"figure {FIGURE} needs Merged+Aligned zero-copy runs with both 4- and 8-byte "
            "edges; add 4 and 8 to apps.edge_bytes (and zerocopy to apps.modes)"
        )
    out = wide.rename(columns={8: "time_8_ms", 4: "time_4_ms"}).dropna(subset=["time_8_ms", "time_4_ms"])
    if out.empty:
        raise FigureDataError(f"figure {FIGURE}: no application has both widths measured")
    out["speedup"] = out["time_8_ms"] / out["time_4_ms"]
    weight = out["algorithm"].map(WEIGHT_BYTES).fillna(0)
    out["byte_ratio"] = (8 + weight) / (4 + weight)
    order = {a: i for i, a in enumerate(apps_lib.algorithms_in(out))}
    out = out.assign(_a=out["algorithm"].map(order)).sort_values(["graph", "_a"], ignore_index=True)
    return out[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    if table.empty:
        return apps_lib.not_measured(source, "Figure 12 (4- against 8-byte edges)")
    graphs, algorithms, fig, axes = apps_lib.panel_per_graph(table)
    x = np.arange(len(algorithms))
    color = style.VARIANT_COLORS[apps_lib.PAPER_VARIANT]
    for col, graph in enumerate(graphs):
        ax = axes[0][col]
        rows = table[table["graph"] == graph].set_index("algorithm").reindex(algorithms)
        vals = rows["speedup"].to_numpy(dtype=float)
        ax.bar(x, vals, 0.55, color=color, hatch="xx", edgecolor="black", linewidth=0.4, zorder=2)
        style.label_bars(ax, x, vals, style.speedup_text, lambda v: v * 1.02)
        for xi, ratio in zip(x, rows["byte_ratio"]):
            if np.isfinite(ratio):  # NaN: an application not measured on this graph (CC on a directed one)
                ax.hlines(ratio, xi - 0.35, xi + 0.35, colors="black", linestyles="--", linewidth=0.9, zorder=3)
        ax.axhline(1.0, color="#777777", linewidth=0.6, zorder=1)
        ax.set_xticks(
            x,
            [
                f"{apps_lib.ALGORITHM_LABELS[a]}\n"
                + (f"8 B:\n{apps_lib.time_text(t)}" if np.isfinite(t) else "not run")  # e.g. CC on a directed graph
                for a, t in zip(algorithms, rows["time_8_ms"])
            ],
        )
        ax.set_title(f"{graph}, Merged+Aligned, zero-copy")
        if col == 0:
            ax.set_ylabel("speedup of 4-byte over 8-byte edges (×)")
    axes[0][0].set_ylim(0, max(2.2, float(table["speedup"].max()) * 1.2))
    handles = [
        Patch(facecolor=color, hatch="xx", edgecolor="black", linewidth=0.4),
        Line2D([], [], color="black", linestyle="--", linewidth=0.9),
    ]
    style.legend_on_top(
        fig, handles, ["EMOGI, 4-byte edges (8-byte time under the name)", "bytes per edge, 8-byte / 4-byte"]
    )
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Figure 12 analogue: 4- against 8-byte edges",
        tables=[apps_lib.APPS_INPUT],
        compute=speedups,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
