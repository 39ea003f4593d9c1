"""Figure 10 analogue: I/O read amplification of BFS, EMOGI (Merged+Aligned, zero-copy) against UVM.

One bar per graph and edge width for each mode that reads the edge list over the link: the bytes the GPU
received over PCIe during the profiled traversal divided by the bytes that traversal needed (the neighbour lists
of the vertices it reached). For zero-copy, a dot marks the payload alone (32-byte sectors requested), without
the PCIe protocol bytes that the link counter includes.

Definitions (also printed in the figure footer):
  needed         edges_traversed x edge_bytes of the profiled root (runs.csv: the reached vertices' lists)
  amplification  pcie_read_bytes / needed (Nsight Compute, profile.csv; default launch, Merged+Aligned kernel)
  payload        32 B x sysmem_read_sectors / needed (zero-copy only: UVM moves pages by DMA, not by sectors)

    python -m figures.fig10_read_amplification --profile results/tables/profile.csv --runs results/tables/runs.csv \
        --source results/tables/source.json --out results/figures/fig10_read_amplification.png [--out-csv ...]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from emogi.schema import fetched_bytes
from emogi.tables import default_launch
from figures import cli, style
from figures.inputs import FigureDataError

FIGURE = "fig10"
VARIANT = "merged-aligned"  # the paper's EMOGI; UVM runs the same kernel
PLOTTED_MODES = ("zerocopy", "zerocopy-pinned", "uvm")
DEFINITION = (
    "amplification = PCIe bytes read (Nsight Compute pcie__read_bytes, protocol included) / bytes the "
    "traversal needed (lists of the reached vertices); dot: zero-copy payload alone (32 B x sectors); "
    "Merged+Aligned kernel, default launch"
)
CSV_COLUMNS = [
    "graph",
    "edge_bytes",
    "mode",
    "root",
    "needed_bytes",
    "pcie_read_bytes",
    "amplification",
    "payload_amplification",
]


def amplification(profile: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers: one row per (graph, edge_bytes, mode, profiled root)."""
    prof = default_launch(profile)
    prof = prof[(prof["algorithm"] == "bfs") & (prof["variant"] == VARIANT) & prof["mode"].isin(PLOTTED_MODES)]
    if prof.empty:
        raise FigureDataError(
            f"figure {FIGURE} has no data: the profile table has no Merged+Aligned BFS rows "
            f"in modes {list(PLOTTED_MODES)}"
        )
    bfs = default_launch(runs)
    bfs = bfs[bfs["algorithm"] == "bfs"]
    # every run from a root reads the same lists, whatever its variant or mode
    needed = bfs.groupby(["graph", "edge_bytes", "root"], as_index=False)["edges_traversed"].max()
    out = prof.merge(needed, on=["graph", "edge_bytes", "root"], how="inner")
    if out.empty:
        raise FigureDataError(f"figure {FIGURE}: no profiled root appears in the runs table")
    out["needed_bytes"] = out["edges_traversed"] * out["edge_bytes"]
    out["amplification"] = out["pcie_read_bytes"] / out["needed_bytes"]
    payload = fetched_bytes(out) / out["needed_bytes"]
    out["payload_amplification"] = payload.where(out["mode"] != "uvm")
    out = out.assign(_m=out["mode"].map(PLOTTED_MODES.index))
    return out.sort_values(["graph", "edge_bytes", "_m", "root"], ignore_index=True)[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    per = table.groupby(["graph", "edge_bytes", "mode"], sort=False, as_index=False)[
        ["amplification", "payload_amplification"]
    ].mean()
    groups = list(dict.fromkeys(zip(per["graph"], per["edge_bytes"])))
    modes = [m for m in PLOTTED_MODES if m in set(per["mode"])]
    fig, axes = style.new_figure(1, 1, footer_lines=3)
    ax = axes[0][0]
    bar_w = 0.8 / len(modes)
    x = np.arange(len(groups))
    for i, mode in enumerate(modes):
        rows = per[per["mode"] == mode].set_index(["graph", "edge_bytes"]).reindex(groups)
        vals = rows["amplification"].to_numpy(dtype=float)
        pos = style.group_bars(ax, x, i, len(modes), bar_w, vals, style.MODE_COLORS[mode], style.MODE_HATCHES[mode])
        style.label_bars(ax, pos, vals, ".2f", lambda v: v + 0.03)
        dots = rows["payload_amplification"].to_numpy(dtype=float)
        ax.plot(pos, dots, "o", color="black", markersize=3, zorder=4)
    ax.axhline(1.0, **style.REFERENCE_LINE)
    ax.set_xticks(x, [f"{g}, {int(w)} B" for g, w in groups])
    ax.set_ylabel("bytes read / bytes needed (×)")
    ax.set_ylim(0, max(1.5, float(np.nanmax(per["amplification"])) * 1.2))
    handles = [style.mode_handle(m) for m in modes] + [
        Line2D([], [], marker="o", color="black", linestyle="none", markersize=3),
        style.reference_handle(),
    ]
    labels = [style.MODE_LABELS[m] for m in modes] + ["zero-copy payload alone (32 B sectors)", "no amplification"]
    style.legend_on_top(fig, handles, labels, ncol=3)
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Figure 10 analogue: I/O read amplification of BFS",
        tables=["profile", "runs"],
        compute=amplification,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
