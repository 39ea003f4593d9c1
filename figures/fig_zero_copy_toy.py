"""The zero-copy toy of EMOGI §3.3 (the analogue of the paper's Figure 4): copy bandwidth per access pattern.

A large array in host memory is copied into GPU memory by a kernel with one of three access patterns: strided (a
thread copies its own 128-byte chunk element by element: 32-byte requests), merged+aligned (a warp copies
consecutive elements from a 128-byte boundary: 128-byte requests) and merged+misaligned (every warp starts 32 bytes
past the boundary: a 32- and a 96-byte request per line). One panel per element width (4, 8 bytes); in each, a
group of bars per pattern with one bar per allocation: zero-copy managed (+AccessedBy), zero-copy pinned, and
device memory as the in-GPU reference when measured (off the link's scale: clipped, its value printed).

Definitions (also printed in the figure footer):
  timed bandwidth     median over reps of array_bytes / kernel time (toy table), GB/s; error bar = IQR of the reps
  PCIe bandwidth (◇)  pcie_read_bytes / gpu_time_ns of the profiled copy (Nsight Compute, toy_profile table):
                      what crossed the link, protocol bytes included
  d                   mean request size of the host reads, 32 B x sectors / requests (toy_profile avg_request_bytes)
  copy peak           max over sizes of the median pinned host-to-device cudaMemcpy bandwidth (link table)

    python -m figures.fig_zero_copy_toy --toy results/tables/toy.csv [--toy-profile results/tables/toy_profile.csv] \
        --link results/tables/link.csv --source results/tables/source.json \
        --out results/figures/fig_zero_copy_toy.png [--out-csv results/figures/fig_zero_copy_toy.csv]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from emogi.schema import TOY_PATTERNS, ZERO_COPY_MODES
from emogi.tables import summarise_reps, verified_rows
from figures import cli, style
from figures.inputs import FigureDataError
from figures.report_format import fgb, fpct, paper_entry, paper_value, span
from model.littles_law import fit_link_bandwidth

FIGURE = "fig_zero_copy_toy"
# in the report: the figure's title, and what it is drawn from (for the "not available" note)
REPORT_TITLE = "The zero-copy toy copy (EMOGI Figure 4)"
DRAWN_FROM = "the toy table (and toy_profile, link)"
PLOTTED_MODES = ("zerocopy", "zerocopy-pinned", "device")  # device last: the off-scale reference
KEYS = ["pattern", "mode", "element_bytes"]
DEFINITION = (
    "bars = median over reps of array bytes / copy-kernel time (error bar: IQR); ◇ = PCIe read bytes / "
    "kernel time of the profiled copy (Nsight Compute); d = mean host-read request size (32 B × sectors / "
    "requests); dashed = pinned cudaMemcpy H2D peak"
)

CSV_COLUMNS = KEYS + [
    "array_bytes",
    "n_reps",
    "timed_gbps",
    "timed_gbps_q25",
    "timed_gbps_q75",
    "pcie_read_gbps",
    "avg_request_bytes",
    "pcie_bytes_per_array_byte",
    "peak_gbps",
    "fraction_of_peak",
]


def toy_bandwidths(toy: pd.DataFrame, toy_profile: pd.DataFrame | None, link: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers: one row per (pattern, mode, element width); see the module doc."""
    try:
        peak, _ = fit_link_bandwidth(link)
    except ValueError as e:
        raise FigureDataError(f"figure {FIGURE}: {e}") from None
    rows = verified_rows(toy)
    rows = rows[rows["pattern"].isin(TOY_PATTERNS) & rows["mode"].isin(PLOTTED_MODES)]
    if rows.empty:
        raise FigureDataError(
            f"figure {FIGURE} has no data: the toy table has no rows of patterns "
            f"{list(TOY_PATTERNS)} in modes {list(PLOTTED_MODES)}"
        )
    out = summarise_reps(rows, KEYS, "gbps", "timed_gbps")
    out = out.merge(rows.groupby(KEYS, as_index=False)["array_bytes"].max(), on=KEYS)
    if toy_profile is not None:
        prof = toy_profile.groupby(KEYS, as_index=False).agg(
            pcie_read_bytes=("pcie_read_bytes", "sum"),
            gpu_time_ns=("gpu_time_ns", "sum"),
            sectors=("sysmem_read_sectors", "sum"),
            requests=("sysmem_read_requests", "sum"),
            prof_array_bytes=("array_bytes", "sum"),
        )
        prof["pcie_read_gbps"] = prof["pcie_read_bytes"] / prof["gpu_time_ns"]  # bytes per ns = GB/s
        prof["avg_request_bytes"] = 32.0 * prof["sectors"] / prof["requests"].where(prof["requests"] > 0)
        prof["pcie_bytes_per_array_byte"] = prof["pcie_read_bytes"] / prof["prof_array_bytes"]
        host = prof["mode"] != "device"  # device copies read no host memory: their "link bandwidth" is not one
        prof.loc[~host, ["pcie_read_gbps", "avg_request_bytes", "pcie_bytes_per_array_byte"]] = np.nan
        out = out.merge(
            prof[KEYS + ["pcie_read_gbps", "avg_request_bytes", "pcie_bytes_per_array_byte"]], on=KEYS, how="left"
        )
    else:
        out["pcie_read_gbps"] = out["avg_request_bytes"] = out["pcie_bytes_per_array_byte"] = np.nan
    out["peak_gbps"] = peak
    out["fraction_of_peak"] = np.where(out["mode"] != "device", out["timed_gbps"] / peak, np.nan)
    out = out.assign(_p=out["pattern"].map(TOY_PATTERNS.index), _m=out["mode"].map(PLOTTED_MODES.index))
    return out.sort_values(["element_bytes", "_p", "_m"], ignore_index=True)[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    """Bars per pattern x allocation, one panel per element width; returns the figure."""
    widths = sorted(table["element_bytes"].unique())
    modes = [m for m in PLOTTED_MODES if m in set(table["mode"])]
    fig, axes = style.new_figure(1, len(widths), sharey=True, panel_height=2.9, footer_lines=3, legend_lines=3)
    peak = float(table["peak_gbps"].iloc[0])
    link_side = table[table["mode"] != "device"]
    top = 1.25 * max(
        peak, float(np.nanmax(link_side[["timed_gbps_q75", "pcie_read_gbps"]].to_numpy())) if len(link_side) else peak
    )
    bar_w = 0.8 / len(modes)
    x = np.arange(len(TOY_PATTERNS))
    for ax, eb in zip(axes[0], widths):
        t = table[table["element_bytes"] == eb]
        for i, mode in enumerate(modes):
            r = t[t["mode"] == mode].set_index("pattern").reindex(TOY_PATTERNS)
            val = r["timed_gbps"].to_numpy(dtype=float)
            shown = np.minimum(val, top * 0.97)  # device bars: off the link's scale
            pos = style.group_bars(
                ax, x, i, len(modes), bar_w, shown, style.MODE_COLORS[mode], style.MODE_HATCHES[mode]
            )
            clipped = val > top * 0.97
            lo = np.where(clipped, np.nan, val - r["timed_gbps_q25"].to_numpy(dtype=float))
            hi = np.where(clipped, np.nan, r["timed_gbps_q75"].to_numpy(dtype=float) - val)
            ax.errorbar(pos, shown, yerr=[lo, hi], fmt="none", ecolor="black", elinewidth=0.6, capsize=1.5, zorder=3)
            ax.plot(pos, r["pcie_read_gbps"], "D", color="white", markeredgecolor="black", markersize=3.5, zorder=4)
            for p, v, c, d, pb in zip(pos, val, clipped, r["avg_request_bytes"], r["pcie_read_gbps"]):
                if not np.isfinite(v):
                    continue
                label = f"{v:,.0f}↑" if c else f"{v:.3g}"
                above = min(v, top * 0.97) if c or not np.isfinite(pb) else max(v, pb)  # clear of the ◆
                ax.text(
                    p,
                    above + 0.02 * top,
                    label,
                    ha="center",
                    va="bottom",
                    fontsize=style.VALUE_LABEL_SIZE,
                    zorder=5,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.3, "alpha": 0.8},
                )
                if np.isfinite(d):
                    ax.text(
                        p,
                        0.015 * top,
                        f"d={d:.0f}",
                        ha="center",
                        va="bottom",
                        rotation=90,
                        fontsize=style.VALUE_LABEL_SIZE - 0.5,
                        zorder=5,
                        color="black",
                        bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.2, "alpha": 0.7},
                    )
        ax.axhline(peak, **style.REFERENCE_LINE)
        ax.set_xticks(x, [style.PATTERN_TICKS[p] for p in TOY_PATTERNS])
        ax.set_ylim(0, top)
        ax.set_title(f"{int(eb)}-byte elements, {style.fmt_size(t['array_bytes'].max())} array")
    axes[0][0].set_ylabel("copy bandwidth (GB/s)")
    from matplotlib.lines import Line2D

    handles = [style.mode_handle(m) for m in modes]
    labels = [style.MODE_LABELS[m] + (" (clipped ↑)" if m == "device" else "") for m in modes]
    if table["pcie_read_gbps"].notna().any():
        handles.append(
            Line2D([], [], marker="D", color="white", markeredgecolor="black", linestyle="none", markersize=4)
        )
        labels.append("PCIe read bandwidth of the profiled copy")
    handles.append(style.reference_handle())
    labels.append(f"pinned cudaMemcpy H2D peak ({peak:.3g} GB/s)")
    style.legend_on_top(fig, handles, labels)
    style.stamp(fig, source, DEFINITION)
    return fig


# --- in the report -----------------------------------------------------------------------------------------
def report_comparison(t: pd.DataFrame, paper: dict) -> dict:
    """EMOGI's toy (§3.3) beside ours (fig_zero_copy_toy's CSV): GB/s, fraction of the copy peak, request size."""
    e = lambda k: paper_entry(paper, "zero_copy_toy", k)  # noqa: E731
    modes = [m for m in ZERO_COPY_MODES if m in set(t["mode"])]
    peak = float(t["peak_gbps"].iloc[0])
    paper_cell = {
        "merged-aligned": (
            paper_value(e("aligned_gbps"), lambda v: fgb(v, 2))
            + " ("
            + paper_value(e("aligned_fraction_of_peak"), fpct)
            + ")",
            e("aligned_gbps")["section"],
        ),
        "strided": (
            "≤ "
            + paper_value(e("strided_bound_gbps"), lambda v: fgb(v, 2))
            + " (bound at 1.6–1.0 µs RTT; "
            + paper_value(e("strided_fraction_of_peak"), fpct)
            + ")",
            e("strided_bound_gbps")["section"],
        ),
        "merged-misaligned": (paper_value(e("misaligned"), str), e("misaligned")["section"]),
    }
    rows = [
        [
            "pinned cudaMemcpy H2D peak",
            paper_value(e("copy_peak_gbps"), fgb),
            span(fgb(peak), len(modes)),
            e("copy_peak_gbps")["section"],
        ]
    ]
    for eb in sorted(t["element_bytes"].unique()):
        for pattern in ("merged-aligned", "strided", "merged-misaligned"):
            cells = []
            for m in modes:
                r = t[(t["pattern"] == pattern) & (t["mode"] == m) & (t["element_bytes"] == eb)]
                if r.empty:
                    cells.append("–")
                    continue
                r = r.iloc[0]
                d = "" if pd.isna(r["avg_request_bytes"]) else f", d {r['avg_request_bytes']:.0f} B"
                cells.append(f"{fgb(r['timed_gbps'])} ({fpct(r['fraction_of_peak'])}{d})")
            rows.append(
                [
                    f"{style.PATTERN_LABELS[pattern]}, {int(eb)}-B elements",
                    paper_cell[pattern][0],
                    *cells,
                    paper_cell[pattern][1],
                ]
            )
    return {
        "columns": [
            "quantity",
            "paper (V100, PCIe 3.0)",
            *[f"ours, {style.MODE_SHORT_LABELS[m]}" for m in modes],
            "paper section",
        ],
        "align": "l" + "r" * (len(modes) + 1) + "l",
        "rows": rows,
    }


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="EMOGI Fig. 4 analogue: the zero-copy toy copy",
        tables=["toy", cli.table_input("toy_profile", required=False), "link"],
        compute=toy_bandwidths,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
