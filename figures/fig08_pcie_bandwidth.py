"""Figure 8 analogue: PCIe read bandwidth BFS achieves, per variant and memory mode, against the copy peak.

One panel per graph (columns) and edge width (rows). In each panel, for each variant (Naive, Merged,
Merged+Aligned), one bar per mode that reads over the link: zero-copy (managed + AccessedBy), zero-copy (pinned)
and UVM. A dashed line marks the measured peak of a pinned host-to-device cudaMemcpy.

Definitions (also printed in the figure footer):
  achieved bandwidth = sum of pcie_read_bytes / sum of gpu_time_ns over the profiled traversal's kernels
          (Nsight Compute, profile.csv; summed over profiled roots if several), in GB/s (1 GB = 1e9 B);
          default launches only (max_warps == 0)
  copy peak = max over copy sizes of the median over reps of pinned h2d cudaMemcpy GB/s (link.csv),
          model.littles_law.fit_link_bandwidth

    python -m figures.fig08_pcie_bandwidth --profile results/tables/profile.csv --link results/tables/link.csv \
        --source results/tables/source.json --out results/figures/fig08_pcie_bandwidth.png \
        [--out-csv results/figures/fig08_pcie_bandwidth.csv]
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.schema import VARIANTS, ZERO_COPY_MODES
from emogi.tables import default_launch
from figures import cli, style
from figures.inputs import FigureDataError, ReportFigure, report_csv
from figures.report_format import fgb, fms, fnum, fpct, frange, paper_value, span
from model.littles_law import fit_link_bandwidth

FIGURE = "fig08"
PLOTTED_MODES = ("zerocopy", "zerocopy-pinned", "uvm")  # the modes that read the edge list over the link
DEFINITION = (
    "bandwidth = pcie_read_bytes / gpu_time_ns over the profiled traversal's kernels (Nsight Compute; "
    "default launch, max_warps = 0); "
    "peak = max over sizes of the median pinned host-to-device cudaMemcpy GB/s"
)

CSV_COLUMNS = [
    "graph",
    "edge_bytes",
    "variant",
    "mode",
    "pcie_read_bytes",
    "gpu_time_ns",
    "n_profiled",
    "pcie_read_gbps",
    "peak_gbps",
    "peak_spread_gbps",
    "fraction_of_peak",
]


def bandwidths(profile: pd.DataFrame, link: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers: one row per (graph, edge_bytes, variant, mode) in PLOTTED_MODES (see module doc)."""
    try:
        peak, spread = fit_link_bandwidth(link)
    except ValueError as e:
        raise FigureDataError(f"figure {FIGURE}: {e}") from None
    profile = default_launch(profile)
    prof = profile[profile["mode"].isin(PLOTTED_MODES) & (profile["algorithm"] == "bfs")]
    if prof.empty:
        raise FigureDataError(
            f"figure {FIGURE} has no data: the profile table has no BFS rows in modes {list(PLOTTED_MODES)}"
        )
    keys = ["graph", "edge_bytes", "variant", "mode"]
    out = prof.groupby(keys, as_index=False).agg(
        pcie_read_bytes=("pcie_read_bytes", "sum"),
        gpu_time_ns=("gpu_time_ns", "sum"),
        n_profiled=("gpu_time_ns", "size"),
    )
    out["pcie_read_gbps"] = out["pcie_read_bytes"] / out["gpu_time_ns"]  # bytes per ns = GB/s
    out["peak_gbps"] = peak
    out["peak_spread_gbps"] = spread
    out["fraction_of_peak"] = out["pcie_read_gbps"] / peak
    out = out.assign(_v=out["variant"].map(VARIANTS.index), _m=out["mode"].map(PLOTTED_MODES.index))
    return out.sort_values(["graph", "edge_bytes", "_v", "_m"], ignore_index=True)[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    """Bar panels from the `bandwidths` table; returns the figure."""
    modes = [m for m in PLOTTED_MODES if m in set(table["mode"])]
    peak = float(table["peak_gbps"].iloc[0])
    fig, axes, panels = style.variant_mode_bars(table, "pcie_read_gbps", modes, ".3g", lambda v: v + 0.01 * peak)
    for ax, key, _, column in panels:
        ax.axhline(peak, **style.REFERENCE_LINE)
        ax.text(
            0.01,
            peak,
            f" copy peak {peak:.3g} GB/s",
            transform=ax.get_yaxis_transform(),
            ha="left",
            va="bottom",
            fontsize=style.VALUE_LABEL_SIZE,
        )
        ax.set_title(style.panel_title(*key))
        if column == 0:
            ax.set_ylabel("PCIe read bandwidth (GB/s)")
    top = max(peak, float(np.nanmax(table["pcie_read_gbps"])))
    axes[0][0].set_ylim(0, top * 1.22)  # room for the value labels and the peak label
    handles = [style.mode_handle(m) for m in modes] + [style.reference_handle()]
    labels = [style.MODE_LABELS[m] for m in modes] + [f"pinned cudaMemcpy H2D peak ({peak:.3g} GB/s)"]
    style.legend_on_top(fig, handles, labels)
    style.stamp(fig, source, DEFINITION)
    return fig


# --- in the report -----------------------------------------------------------------------------------------
BOUND_TIME_DEFINITION = "mean over roots of the per-root median over reps"  # as model.bounds computes it


def report_section(fig: ReportFigure, paper: dict, label: str, link: pd.DataFrame, source: dict) -> dict:
    """The report's Fig. 8 section: the paper's bandwidths beside ours (from the CSV and the copy peak)."""
    t = report_csv(fig.csv, "fig08 numbers")
    p = paper["fig08"]
    peak, spread = fit_link_bandwidth(link)  # the same W the figure's line shows
    modes = [m for m in ZERO_COPY_MODES if m in set(t["mode"])]

    def up_to(variant, mode):
        s = t[(t["variant"] == variant) & (t["mode"] == mode)]["pcie_read_gbps"]
        return float(s.max()) if len(s) else math.nan

    def gain_range(mode):
        a = t[(t["variant"] == "merged-aligned") & (t["mode"] == mode)].set_index(["graph", "edge_bytes"])
        m = t[(t["variant"] == "merged") & (t["mode"] == mode)].set_index(["graph", "edge_bytes"])
        d = (a["pcie_read_gbps"] - m["pcie_read_gbps"]).dropna()
        return (float(d.min()), float(d.max())) if len(d) else (math.nan, math.nan)

    uvm = t[t["mode"] == "uvm"]["pcie_read_gbps"]
    uvm_max = float(uvm.max()) if len(uvm) else math.nan
    n = len(modes)
    link_name = source.get("link") or "our link"
    rows = [
        [
            "pinned cudaMemcpy H2D peak",
            paper_value(p["memcpy_peak_gbps"], fgb),
            span(f"{fgb(peak)} (IQR {spread:.2f}) on {link_name}", n),
            p["memcpy_peak_gbps"]["section"],
        ],
        ["UVM, up to", paper_value(p["uvm_gbps"], fgb), span(fgb(uvm_max), n), p["uvm_gbps"]["section"]],
        [
            "Naive, up to",
            paper_value(p["naive_max_gbps"], fgb),
            *[fgb(up_to("naive", m)) for m in modes],
            p["naive_max_gbps"]["section"],
        ],
        [
            "Merged, up to",
            paper_value(p["merged_max_gbps"], fgb),
            *[fgb(up_to("merged", m)) for m in modes],
            p["merged_max_gbps"]["section"],
        ],
        [
            "Merged, fraction of copy peak",
            paper_value(p["merged_fraction_of_peak"], fpct),
            *[fpct(up_to("merged", m) / peak) for m in modes],
            p["merged_fraction_of_peak"]["section"],
        ],
        [
            "Merged+Aligned gain over Merged",
            paper_value(p["aligned_gain_over_merged_gbps"], fgb),
            *[frange(*gain_range(m), lambda x: f"{x:+.1f} GB/s") for m in modes],
            p["aligned_gain_over_merged_gbps"]["section"],
        ],
        ["Merged+Aligned, up to", "–", *[fgb(up_to("merged-aligned", m)) for m in modes], "–"],
        [
            "Merged+Aligned, fraction of copy peak",
            paper_value(p["aligned_fraction_of_peak"], fpct),
            *[fpct(up_to("merged-aligned", m) / peak) for m in modes],
            p["aligned_fraction_of_peak"]["section"],
        ],
    ]
    values = {
        "peak_gbps": {"paper": p["memcpy_peak_gbps"]["value"], "ours": fnum(peak), "ours_iqr": fnum(spread)},
        "uvm_max_gbps": {"paper": p["uvm_gbps"]["value"], "ours": fnum(uvm_max)},
        **{f"{v.replace('-', '_')}_max_gbps": {"ours": {m: fnum(up_to(v, m)) for m in modes}} for v in VARIANTS},
        "merged_fraction_of_peak": {
            "paper": p["merged_fraction_of_peak"]["value"],
            "ours": {m: fnum(up_to("merged", m) / peak) for m in modes},
        },
        "aligned_fraction_of_peak": {
            "paper": p["aligned_fraction_of_peak"]["value"],
            "ours": {m: fnum(up_to("merged-aligned", m) / peak) for m in modes},
        },
    }
    values["naive_max_gbps"]["paper"] = p["naive_max_gbps"]["value"]
    values["merged_max_gbps"]["paper"] = p["merged_max_gbps"]["value"]
    return {
        "image": fig.image,
        "label": label,
        "definition": (
            "achieved bandwidth = pcie_read_bytes / gpu_time_ns of the profiled traversal (Nsight "
            "Compute counters summed over its kernels); copy peak = max over copy sizes of the median "
            "pinned host-to-device cudaMemcpy bandwidth; 'up to' = max over graphs and edge widths. "
            "The paper measured with an FPGA monitor and VTune, we with GPU counters."
        ),
        "comparison": {
            "columns": [
                "quantity",
                "paper (V100, PCIe 3.0)",
                *[f"ours, {style.MODE_SHORT_LABELS[m]}" for m in modes],
                "paper section",
            ],
            "align": "l" + "r" * (n + 1) + "l",
            "rows": rows,
        },
        "values": values,
    }


def link_bound_section(csv: Path) -> dict:
    """model.bounds' lower bound D / W beside the measured times (link_bound.csv), shown under Fig. 8."""
    t = report_csv(csv, "model link bound")
    rows = []
    for r in t.itertuples():
        rows.append(
            [
                str(r.graph),
                f"{int(r.edge_bytes)} B",
                style.VARIANT_LABELS.get(r.variant, r.variant),
                {"zerocopy": "managed", "zerocopy-pinned": "pinned"}.get(r.mode, r.mode),
                fms(r.measured_ms),
                f"{r.D_bytes / 1e9:.3g}",
                "–" if pd.isna(r.d_bytes) else f"{r.d_bytes:.0f}",
                fms(r.predicted_ms),
                "–" if pd.isna(r.ratio) else f"{r.ratio:.2f}",
                "–" if pd.isna(r.achieved_gbps) else f"{r.achieved_gbps:.1f}",
            ]
        )
    W = float(t["W_gbps"].iloc[0])
    return {
        "W_gbps": W,
        "text": (
            f"Lower bound t = D / W with W = {W:.1f} GB/s, the pinned cudaMemcpy host-to-device peak; D = bytes "
            f"read over the link in the profiled traversal; d = mean request size. measured = {BOUND_TIME_DEFINITION} "
            "(over the profiled roots). A ratio near 1 means the traversal is bound by link bandwidth; larger "
            "ratios leave time to the request-size, request-rate and latency terms that this thin version "
            "does not fit yet."
        ),
        "table": {
            "columns": [
                "graph",
                "edges",
                "variant",
                "zero-copy",
                "measured (ms)",
                "D (GB)",
                "d (B)",
                "D / W (ms)",
                "measured / bound",
                "achieved (GB/s)",
            ],
            "align": "llll" + "r" * 6,
            "rows": rows,
        },
    }


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Figure 8 analogue: achieved PCIe read bandwidth of BFS",
        tables=["profile", "link"],
        compute=bandwidths,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
