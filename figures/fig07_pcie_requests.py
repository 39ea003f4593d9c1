"""Figure 7 analogue: how many read requests BFS sends over the link, per variant, in the zero-copy modes.

One panel per graph (columns) and edge width (rows). In each panel, for each variant (Naive, Merged,
Merged+Aligned), one bar per zero-copy mode: the millions of system-memory read requests of the profiled
traversal, labelled with the average request size. The paper counted PCIe requests with an FPGA; here Nsight
Compute counts the L2's requests to system memory (each becomes one PCIe read request).

Definitions (also printed in the figure footer):
  requests  sum of lts__t_requests_srcunit_tex_aperture_sysmem_op_read over the profiled traversal's kernels
            (profile.csv, default launches only), summed over profiled roots if several
  request size  32 B x sectors / requests

    python -m figures.fig07_pcie_requests --profile results/tables/profile.csv --source results/tables/source.json \
        --out results/figures/fig07_pcie_requests.png [--out-csv results/figures/fig07_pcie_requests.csv]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from emogi.schema import VARIANTS, ZERO_COPY_MODES
from emogi.tables import default_launch
from figures import cli, style
from figures.inputs import FigureDataError

FIGURE = "fig07"
DEFINITION = ("requests = system-memory read requests of the profiled traversal's kernels (Nsight Compute "
              "lts__t_requests_srcunit_tex_aperture_sysmem_op_read; default launch); label: mean request size")
CSV_COLUMNS = ["graph", "edge_bytes", "variant", "mode", "requests", "sectors", "avg_request_bytes",
               "fewer_than_naive", "fewer_than_merged"]


def requests(profile: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers: one row per (graph, edge_bytes, variant, zero-copy mode), with each variant's
    reduction of the request count against Naive and against Merged (the paper's two percentages)."""
    prof = default_launch(profile)
    prof = prof[prof["mode"].isin(ZERO_COPY_MODES) & (prof["algorithm"] == "bfs")]
    if prof.empty:
        raise FigureDataError(f"figure {FIGURE} has no data: the profile table has no BFS rows in the "
                              "zero-copy modes")
    keys = ["graph", "edge_bytes", "variant", "mode"]
    out = prof.groupby(keys, as_index=False).agg(requests=("sysmem_read_requests", "sum"),
                                                 sectors=("sysmem_read_sectors", "sum"))
    out["avg_request_bytes"] = 32 * out["sectors"] / out["requests"]
    per = out.set_index(keys)["requests"]

    def fewer_than(base):
        ref = out.apply(lambda r: per.get((r["graph"], r["edge_bytes"], base, r["mode"]), np.nan), axis=1)
        return 1 - out["requests"] / ref

    # the paper's two reductions: Merged and Merged+Aligned against Naive, Merged+Aligned against Merged
    out["fewer_than_naive"] = fewer_than("naive").where(out["variant"] != "naive")
    out["fewer_than_merged"] = fewer_than("merged").where(out["variant"] == "merged-aligned")
    out = out.assign(_v=out["variant"].map(VARIANTS.index), _m=out["mode"].map(ZERO_COPY_MODES.index))
    return out.sort_values(["graph", "edge_bytes", "_v", "_m"], ignore_index=True)[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    modes = [m for m in ZERO_COPY_MODES if m in set(table["mode"])]
    shown = table.assign(million=table["requests"] / 1e6)
    sizes = {(r.graph, r.edge_bytes, r.variant, r.mode): r.avg_request_bytes for r in table.itertuples()}
    fig, axes, panels = style.variant_mode_bars(shown, "million", modes, ".3g", lambda v: v * 1.02)
    for ax, key, rows, column in panels:
        ax.set_title(style.panel_title(*key))
        for variant_i, variant in enumerate(VARIANTS):  # mean request size inside each group, at its foot
            size = [sizes.get((*key, variant, m)) for m in modes]
            size = [s for s in size if s is not None and np.isfinite(s)]
            if size:
                ax.text(variant_i, 0.02, f"{np.mean(size):.0f} B", ha="center", va="bottom",
                        fontsize=style.VALUE_LABEL_SIZE, transform=ax.get_xaxis_transform(),
                        bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.4, "alpha": 0.8})
        if column == 0:
            ax.set_ylabel("read requests (millions)")
    axes[0][0].set_ylim(0, float(shown["million"].max()) * 1.15)
    style.legend_on_top(fig, [style.mode_handle(m) for m in modes], [style.MODE_LABELS[m] for m in modes])
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(argv, figure=FIGURE, description="Figure 7 analogue: PCIe read requests of BFS",
                           tables=["profile"], compute=requests, draw=draw)


if __name__ == "__main__":
    sys.exit(main())
