"""Latency of one dependent read as the GPU sees it, per allocation and footprint (the analogue of Figure 9 of the
CXL-memory paper, Sano et al., SC-W 2023).

One warp chases a random cyclic permutation of 128-byte-spaced pointers through a buffer of the given footprint
(the paper's Appendix B): each read's address comes from the previous read, so time / steps is the round trip of
one read. One line per allocation (zero-copy managed + AccessedBy, zero-copy pinned, device memory as the in-GPU
reference) over the footprint on a log-2 axis; error bars = interquartile range of the reps.

Definitions (also printed in the figure footer):
  latency  per (allocation, footprint) = median over reps of time / steps (latency_ns), in µs; verified rows only
  dotted   the CXL paper's host-DRAM latency seen from an RTX A5000 over PCIe 4.0, ~1.2 µs (§3.3.1)

    python -m figures.fig_latency --latency results/tables/latency.csv --source results/tables/source.json \
        --out results/figures/fig_latency.png [--out-csv results/figures/fig_latency.csv]
"""

from __future__ import annotations

import sys

import pandas as pd

from emogi.tables import summarise_reps, verified_rows
from figures import cli, style
from figures.inputs import FigureDataError

FIGURE = "fig_latency"
# in the report: the figure's title, and what it is drawn from (for the "not available" note)
REPORT_TITLE = "Latency of one read (CXL paper Figure 9)"
DRAWN_FROM = "the latency table"
PLOTTED_MODES = ("zerocopy", "zerocopy-pinned", "device")
PAPER_HOST_DRAM_US = 1.2  # CXL paper §3.3.1: "which is around 1.2 usec as seen from the GPU" (paper_numbers.yaml)
DEFINITION = (
    "latency = median over reps of time / steps of a one-warp pointer chase (128-B-spaced pointers, random "
    "cyclic order); error bars = IQR of the reps; dotted = the CXL paper's host DRAM from an A5000 over "
    "PCIe 4.0 (~1.2 µs, §3.3.1)"
)

CSV_COLUMNS = ["mode", "footprint_bytes", "n_reps", "steps", "latency_us", "latency_us_q25", "latency_us_q75"]


def latencies(latency: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers: one row per (allocation, footprint); see the module doc."""
    rows = verified_rows(latency)
    rows = rows[rows["mode"].isin(PLOTTED_MODES)].assign(latency_us=lambda f: f["latency_ns"] / 1e3)
    if rows.empty:
        raise FigureDataError(
            f"figure {FIGURE} has no data: the latency table has no verified rows in modes {list(PLOTTED_MODES)}"
        )
    out = summarise_reps(rows, ["mode", "footprint_bytes"], "latency_us")
    out = out.merge(
        rows.groupby(["mode", "footprint_bytes"], as_index=False)["steps"].min(), on=["mode", "footprint_bytes"]
    )
    out = out.assign(_m=out["mode"].map(PLOTTED_MODES.index))
    return out.sort_values(["_m", "footprint_bytes"], ignore_index=True)[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    """Latency lines over footprint, one per allocation; returns the figure."""
    fig, axes = style.new_figure(1, 1, panel_height=2.4, footer_lines=3)
    ax = axes[0][0]
    modes = [m for m in PLOTTED_MODES if m in set(table["mode"])]
    for k, mode in enumerate(modes):
        r = table[table["mode"] == mode]
        c = style.MODE_COLORS[mode]
        ax.errorbar(
            r["footprint_bytes"],
            r["latency_us"],
            yerr=[r["latency_us"] - r["latency_us_q25"], r["latency_us_q75"] - r["latency_us"]],
            color=c,
            marker=style.MODE_MARKERS[mode],
            markersize=4,
            linewidth=1.3,
            capsize=2,
            elinewidth=0.8,
            markeredgecolor="black",
            markeredgewidth=0.4,
            zorder=3,
            label=style.MODE_LABELS[mode],
        )
        for fp, v in zip(r["footprint_bytes"], r["latency_us"]):
            ax.annotate(
                f"{v:.2f}",
                (fp, v),
                xytext=(0, 5 if k % 2 == 0 else -6),
                textcoords="offset points",
                ha="center",
                va="bottom" if k % 2 == 0 else "top",
                fontsize=style.VALUE_LABEL_SIZE,
                color="#555555" if mode == "device" else c,
            )
    ax.axhline(
        PAPER_HOST_DRAM_US,
        color="#555555",
        linewidth=0.8,
        linestyle=":",
        zorder=1,
        label="CXL paper: host DRAM ≈ 1.2 µs (A5000, PCIe 4.0)",
    )
    style.log2_size_axis(ax, table["footprint_bytes"])
    ax.set_xlabel("footprint (bytes the pointers are spread over)")
    ax.set_ylabel("latency of one dependent read (µs)")
    ax.set_ylim(0, max(float(table["latency_us_q75"].max()), PAPER_HOST_DRAM_US) * 1.25)
    ax.grid(axis="y", linewidth=0.3, alpha=0.5)
    handles, labels = ax.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: labels[i].startswith("CXL paper"))  # the reference last
    style.legend_on_top(fig, [handles[i] for i in order], [labels[i] for i in order])
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="CXL Fig. 9 analogue: pointer-chase latency",
        tables=["latency"],
        compute=latencies,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
