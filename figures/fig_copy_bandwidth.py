"""Copy bandwidth against transfer size (the analogue of Figure 2 of Pearson et al.'s NVLink SpMV study, CF'17).

Two panels, host to device and device to host; in each, one line per host allocation (pinned = cudaHostAlloc,
pageable = malloc) over the transfer size on a log-2 axis, with the interquartile range of the reps shaded. The
pinned host-to-device peak W (the link bandwidth every other figure and the model use) is marked.

Definitions (also printed in the figure footer):
  bandwidth  per (direction, host memory, size) = median over reps of size_bytes / cudaMemcpy time, GB/s (1e9 B/s);
             band = 25th to 75th percentile of the reps
  W          max over sizes of the pinned host-to-device median (model.littles_law.fit_link_bandwidth)
  size for 95% of W   the smallest size whose median reaches 95% of that direction's and allocation's own maximum

    python -m figures.fig_copy_bandwidth --link results/tables/link.csv --source results/tables/source.json \
        --out results/figures/fig_copy_bandwidth.png [--out-csv results/figures/fig_copy_bandwidth.csv]
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pandas as pd

from emogi.tables import summarise_reps
from figures import cli, style
from figures.inputs import FigureDataError
from figures.report_format import fgb, fsize, fx, paper_entry, paper_value
from model.littles_law import fit_link_bandwidth

FIGURE = "fig_copy_bandwidth"
# in the report: the figure's title, and what it is drawn from (for the "not available" note)
REPORT_TITLE = "Copy bandwidth against transfer size (CF'17 Figure 2)"
DRAWN_FROM = "the link table"
DIRECTIONS = ("h2d", "d2h")
HOST_MEMORY = ("pinned", "pageable")
NEAR_PEAK = 0.95
DEFINITION = (
    "bandwidth = median over reps of size / cudaMemcpy time (1 GB = 1e9 B), band = IQR of the reps; "
    "W = max over sizes of the pinned host-to-device median; ◆ = smallest size reaching 95% of the line's "
    "own maximum"
)

CSV_COLUMNS = [
    "direction",
    "host_memory",
    "size_bytes",
    "n_reps",
    "gbps",
    "gbps_q25",
    "gbps_q75",
    "line_max_gbps",
    "near_peak_size_bytes",
    "W_gbps",
    "W_size_bytes",
    "W_iqr_gbps",
]


def copy_bandwidth(link: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers: one row per (direction, host memory, size); see the module doc."""
    try:
        W, spread = fit_link_bandwidth(link)
    except ValueError as e:
        raise FigureDataError(f"figure {FIGURE}: {e}") from None
    rows = link[link["direction"].isin(DIRECTIONS) & link["host_memory"].isin(HOST_MEMORY)]
    rows = rows[np.isfinite(rows["gbps"].astype(float))]
    out = summarise_reps(rows, ["direction", "host_memory", "size_bytes"], "gbps")
    pinned_h2d = out[(out["direction"] == "h2d") & (out["host_memory"] == "pinned")]
    W_size = int(pinned_h2d.loc[pinned_h2d["gbps"].idxmax(), "size_bytes"])
    line = out.groupby(["direction", "host_memory"])["gbps"]
    out["line_max_gbps"] = line.transform("max")
    reach = out[out["gbps"] >= NEAR_PEAK * out["line_max_gbps"]]
    first = reach.groupby(["direction", "host_memory"])["size_bytes"].min().rename("near_peak_size_bytes")
    out = out.merge(first, on=["direction", "host_memory"], how="left")
    out["W_gbps"], out["W_size_bytes"], out["W_iqr_gbps"] = W, W_size, spread
    out = out.assign(_d=out["direction"].map(DIRECTIONS.index), _h=out["host_memory"].map(HOST_MEMORY.index))
    return out.sort_values(["_d", "_h", "size_bytes"], ignore_index=True)[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    """Two panels (directions) of lines (host allocations) with IQR bands; returns the figure."""
    directions = [d for d in DIRECTIONS if d in set(table["direction"])]
    fig, axes = style.new_figure(1, len(directions), sharey=True, panel_height=2.8)
    W = float(table["W_gbps"].iloc[0])
    W_size = float(table["W_size_bytes"].iloc[0])
    top = max(W, float(table["gbps_q75"].max())) * 1.15
    for ax, direction in zip(axes[0], directions):
        t = table[table["direction"] == direction]
        for host in HOST_MEMORY:
            r = t[t["host_memory"] == host]
            if r.empty:
                continue
            c = style.HOST_MEMORY_COLORS[host]
            ax.fill_between(r["size_bytes"], r["gbps_q25"], r["gbps_q75"], color=c, alpha=style.BAND_ALPHA, linewidth=0)
            ax.plot(r["size_bytes"], r["gbps"], color=c, marker="o", markersize=3, linewidth=1.2, zorder=3)
            near = r[r["size_bytes"] == r["near_peak_size_bytes"]]
            ax.plot(near["size_bytes"], near["gbps"], "D", color=c, markeredgecolor="black", markersize=5, zorder=4)
            ax.annotate(
                f"max {r['line_max_gbps'].iloc[0]:.3g}",
                (r["size_bytes"].iloc[-1], r["gbps"].iloc[-1]),
                xytext=(2, -6),
                textcoords="offset points",
                fontsize=style.VALUE_LABEL_SIZE,
                color=c,
                va="top",
                ha="right",
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.3},
            )
        ax.axhline(W, **style.REFERENCE_LINE)
        if direction == "h2d":
            ax.plot([W_size], [W], "*", color="black", markersize=8, zorder=5)
        ax.set_ylim(0, top)
        style.log2_size_axis(ax, t["size_bytes"])
        ax.set_xlim(t["size_bytes"].min() / 1.5, t["size_bytes"].max() * 2)
        ax.set_xlabel("transfer size")
        ax.set_title(f"cudaMemcpy, {style.DIRECTION_LABELS[direction]}")
        ax.grid(axis="y", linewidth=0.3, alpha=0.5)
    axes[0][0].set_ylabel("bandwidth (GB/s)")
    from matplotlib.lines import Line2D

    hosts = [h for h in HOST_MEMORY if h in set(table["host_memory"])]
    handles = [Line2D([], [], color=style.HOST_MEMORY_COLORS[h], marker="o", markersize=3) for h in hosts]
    labels = [style.HOST_MEMORY_LABELS[h] + ", median (band: IQR)" for h in hosts]
    handles.append(style.reference_handle())
    labels.append(f"W = pinned H2D peak, {W:.3g} GB/s at {style.fmt_size(W_size)} (★)")
    style.legend_on_top(fig, handles, labels)
    style.stamp(fig, source, DEFINITION)
    return fig


# --- in the report -----------------------------------------------------------------------------------------
def report_comparison(t: pd.DataFrame, paper: dict) -> dict:
    """CF'17's pinned and pageable copy bandwidth beside ours (fig_copy_bandwidth's CSV)."""

    def line(direction, host):
        r = t[(t["direction"] == direction) & (t["host_memory"] == host)]
        return (float(r["gbps"].max()), float(r["near_peak_size_bytes"].iloc[0])) if len(r) else (math.nan, math.nan)

    pin, pin_size = line("h2d", "pinned")
    page, page_size = line("h2d", "pageable")
    d2h_pin, _ = line("d2h", "pinned")
    d2h_page, _ = line("d2h", "pageable")
    e = lambda k: paper_entry(paper, "copy_bandwidth", k)  # noqa: E731
    rows = [
        [
            "pageable, host to device (best size)",
            paper_value(e("pageable_gbps"), lambda v: fgb(v, 0)),
            fgb(page),
            e("pageable_gbps")["section"],
        ],
        [
            "pinned, host to device (best size) = W",
            "≈ " + paper_value(e("pinned_gbps"), lambda v: fgb(v, 0)),
            fgb(pin),
            e("pinned_gbps")["section"],
        ],
        [
            "pinned / pageable, host to device",
            "≈ " + paper_value(e("pinned_over_pageable"), lambda v: f"{v:g}×"),
            fx(pin / page, 1),
            e("pinned_over_pageable")["section"],
        ],
        [
            "smallest size within 5% of the best (pinned / pageable)",
            "> " + fsize(e("peak_from_bytes")["value"]),
            f"{fsize(pin_size)} / {fsize(page_size)}",
            e("peak_from_bytes")["section"],
        ],
        ["device to host, pinned / pageable (best size)", "–", f"{fgb(d2h_pin)} / {fgb(d2h_page)}", "–"],
    ]
    ref = paper.get("references", {}).get("cf2017", {})
    return {
        "columns": ["quantity", f"paper ({ref.get('system', 'CF’17')})", "ours", "paper section"],
        "align": "lrrl",
        "rows": rows,
    }


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Copy bandwidth against transfer size (CF'17 Fig. 2)",
        tables=["link"],
        compute=copy_bandwidth,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
