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

import sys

import numpy as np
import pandas as pd

from emogi.schema import VARIANTS
from emogi.tables import default_launch
from figures import cli, style
from figures.inputs import FigureDataError
from model.littles_law import fit_link_bandwidth

FIGURE = "fig08"
PLOTTED_MODES = ("zerocopy", "zerocopy-pinned", "uvm")  # the modes that read the edge list over the link
DEFINITION = ("bandwidth = pcie_read_bytes / gpu_time_ns over the profiled traversal's kernels (Nsight Compute; "
              "default launch, max_warps = 0); "
              "peak = max over sizes of the median pinned host-to-device cudaMemcpy GB/s")

CSV_COLUMNS = ["graph", "edge_bytes", "variant", "mode", "pcie_read_bytes", "gpu_time_ns", "n_profiled",
               "pcie_read_gbps", "peak_gbps", "peak_spread_gbps", "fraction_of_peak"]


def bandwidths(profile: pd.DataFrame, link: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers: one row per (graph, edge_bytes, variant, mode) in PLOTTED_MODES (see module doc)."""
    try:
        peak, spread = fit_link_bandwidth(link)
    except ValueError as e:
        raise FigureDataError(f"figure {FIGURE}: {e}") from None
    profile = default_launch(profile)
    prof = profile[profile["mode"].isin(PLOTTED_MODES) & (profile["algorithm"] == "bfs")]
    if prof.empty:
        raise FigureDataError(f"figure {FIGURE} has no data: the profile table has no BFS rows in modes "
                              f"{list(PLOTTED_MODES)}")
    keys = ["graph", "edge_bytes", "variant", "mode"]
    out = prof.groupby(keys, as_index=False).agg(pcie_read_bytes=("pcie_read_bytes", "sum"),
                                                 gpu_time_ns=("gpu_time_ns", "sum"),
                                                 n_profiled=("gpu_time_ns", "size"))
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
        ax.text(0.01, peak, f" copy peak {peak:.3g} GB/s", transform=ax.get_yaxis_transform(), ha="left",
                va="bottom", fontsize=style.VALUE_LABEL_SIZE)
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


def main(argv=None) -> int:
    return cli.figure_main(argv, figure=FIGURE, description="Figure 8 analogue: achieved PCIe read bandwidth of BFS", tables=["profile", "link"],
                           compute=bandwidths, draw=draw)


if __name__ == "__main__":
    sys.exit(main())
