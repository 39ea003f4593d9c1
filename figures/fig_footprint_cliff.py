"""Random-read throughput against footprint at the highest concurrency: the pinned-memory translation cliff.

Random, line-aligned 128-byte (and 32-byte) zero-copy reads, with the most requests in flight the concurrency
sweep offered at each footprint, from pinned host memory (cudaHostAlloc) and from managed memory + AccessedBy.
Left panel: throughput in GB/s; right panel: the same as requests per second, which shows whether a limit is a
rate of requests (the same for both sizes) or a rate of bytes. On the H100 pinned memory drops past ~1 GiB while
managed memory holds its bandwidth (docs/profiling.md); this figure measures that on the data at hand.

Definitions (also printed in the figure footer):
  highest concurrency  per (allocation, footprint, request size): the (warps, reads_per_warp) with the largest
                       product warps x reads_per_warp (ties: more warps); that choice is in the CSV
  T                    median over reps of requests x d / time, GB/s; error bar = IQR of the reps
  rate                 median over reps of mrps (million requests per second)

    python -m figures.fig_footprint_cliff --concurrency results/tables/concurrency.csv \
        --source results/tables/source.json --out results/figures/fig_footprint_cliff.png \
        [--out-csv results/figures/fig_footprint_cliff.csv]
"""

from __future__ import annotations

import sys

import pandas as pd

from emogi.schema import ZERO_COPY_MODES
from emogi.tables import summarise_reps
from figures import cli, style
from figures.inputs import FigureDataError

FIGURE = "fig_footprint_cliff"
# in the report: the figure's title, and what it is drawn from (for the "not available" note)
REPORT_TITLE = "Random reads against footprint: the pinned-memory cliff"
DRAWN_FROM = "the concurrency table"
REQUEST_SIZES = (128, 32)  # the largest request and the smallest
SIZE_STYLE = {128: {"linestyle": "-", "marker": "o"}, 32: {"linestyle": "--", "marker": "s"}}
CLIFF_BYTES = 1 << 30
KEYS = ["mode", "footprint_bytes", "request_bytes"]
DEFINITION = (
    "at each footprint the most requests in flight the sweep offered (max warps × reads per warp); T = median "
    "over reps of requests × d / time (error bar: IQR); rate = median million requests per second; random "
    "line-aligned reads"
)

CSV_COLUMNS = KEYS + [
    "warps",
    "reads_per_warp",
    "in_flight",
    "n_reps",
    "gbps",
    "gbps_q25",
    "gbps_q75",
    "mrps",
    "mrps_q25",
    "mrps_q75",
]


def cliff(concurrency: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers: one row per (allocation, footprint, request size); see the module doc."""
    rows = concurrency[concurrency["mode"].isin(ZERO_COPY_MODES) & concurrency["request_bytes"].isin(REQUEST_SIZES)]
    if rows.empty:
        raise FigureDataError(
            f"figure {FIGURE} has no data: the concurrency table has no {list(REQUEST_SIZES)}"
            f"-byte reads in the zero-copy modes {list(ZERO_COPY_MODES)}"
        )
    rows = rows.assign(in_flight=rows["warps"] * rows["reads_per_warp"])
    configs = rows[KEYS + ["in_flight", "warps", "reads_per_warp"]].drop_duplicates()
    best = configs.sort_values(["in_flight", "warps"]).groupby(KEYS, as_index=False).tail(1)
    rows = rows.merge(best, on=KEYS + ["in_flight", "warps", "reads_per_warp"])
    out = summarise_reps(rows, KEYS + ["warps", "reads_per_warp", "in_flight"], "gbps")
    rate = summarise_reps(rows, KEYS, "mrps").drop(columns="n_reps")
    out = out.merge(rate, on=KEYS)
    out = out.assign(_m=out["mode"].map(ZERO_COPY_MODES.index), _d=out["request_bytes"].map(REQUEST_SIZES.index))
    return out.sort_values(["_m", "_d", "footprint_bytes"], ignore_index=True)[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    """Throughput and request rate over footprint; returns the figure."""
    from matplotlib.lines import Line2D

    fig, axes = style.new_figure(1, 2, panel_height=2.7, footer_lines=3, wspace=0.28)
    modes = [m for m in ZERO_COPY_MODES if m in set(table["mode"])]
    sizes = [d for d in REQUEST_SIZES if d in set(table["request_bytes"])]
    for ax, (value, label) in zip(axes[0], (("gbps", "T (GB/s)"), ("mrps", "requests per second (millions)"))):
        top = float(table[f"{value}_q75"].max()) * 1.18
        placed = []  # (footprint, value) of printed labels: a label near another at the same footprint is left out
        for mode in modes:
            for d in sizes:
                r = table[(table["mode"] == mode) & (table["request_bytes"] == d)]
                if r.empty:
                    continue
                ax.errorbar(
                    r["footprint_bytes"],
                    r[value],
                    yerr=[r[value] - r[f"{value}_q25"], r[f"{value}_q75"] - r[value]],
                    color=style.MODE_COLORS[mode],
                    markersize=3.5,
                    linewidth=1.2,
                    capsize=1.5,
                    elinewidth=0.6,
                    markeredgecolor="black",
                    markeredgewidth=0.3,
                    **SIZE_STYLE[d],
                )
                for fp, v in zip(r["footprint_bytes"], r[value]):
                    if any(f == fp and abs(v - w) < 0.07 * top for f, w in placed):
                        continue
                    placed.append((fp, v))
                    ax.annotate(
                        f"{v:.3g}",
                        (fp, v),
                        xytext=(0, 3),
                        textcoords="offset points",
                        ha="center",
                        va="bottom",
                        fontsize=style.VALUE_LABEL_SIZE - 0.5,
                        color=style.MODE_COLORS[mode],
                    )
        ax.axvline(CLIFF_BYTES, color="#888888", linewidth=0.7, linestyle=":", zorder=1)
        ax.text(
            CLIFF_BYTES,
            1.0,
            " 1 GiB",
            transform=ax.get_xaxis_transform(),
            ha="left",
            va="top",
            fontsize=style.VALUE_LABEL_SIZE,
            color="#555555",
        )
        style.log2_size_axis(ax, table["footprint_bytes"])
        ax.set_ylim(0, top)
        ax.set_xlabel("footprint (bytes the reads are spread over)")
        ax.set_ylabel(label)
        ax.grid(axis="y", linewidth=0.3, alpha=0.5)
    axes[0][0].set_title("throughput")
    axes[0][1].set_title("request rate")
    handles = [Line2D([], [], color=style.MODE_COLORS[m], linewidth=2) for m in modes]
    labels = [style.MODE_LABELS[m] for m in modes]
    for d in sizes:
        handles.append(Line2D([], [], color="black", markersize=3.5, **SIZE_STYLE[d]))
        labels.append(f"{d}-byte random reads")
    style.legend_on_top(fig, handles, labels)
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Random-read throughput against footprint (pinned cliff)",
        tables=["concurrency"],
        compute=cliff,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
