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
from figures.inputs import FigureDataError, ReportFigure
from figures.report_format import fpct1, fx, paper_value, summary_of

FIGURE = "fig07"
DEFINITION = (
    "requests = system-memory read requests of the profiled traversal's kernels (Nsight Compute "
    "lts__t_requests_srcunit_tex_aperture_sysmem_op_read; default launch); label: mean request size"
)
CSV_COLUMNS = [
    "graph",
    "edge_bytes",
    "variant",
    "mode",
    "requests",
    "sectors",
    "avg_request_bytes",
    "fewer_than_naive",
    "fewer_than_merged",
]


def requests(profile: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers: one row per (graph, edge_bytes, variant, zero-copy mode), with each variant's
    reduction of the request count against Naive and against Merged (the paper's two percentages)."""
    prof = default_launch(profile)
    prof = prof[prof["mode"].isin(ZERO_COPY_MODES) & (prof["algorithm"] == "bfs")]
    if prof.empty:
        raise FigureDataError(f"figure {FIGURE} has no data: the profile table has no BFS rows in the zero-copy modes")
    keys = ["graph", "edge_bytes", "variant", "mode"]
    out = prof.groupby(keys, as_index=False).agg(
        requests=("sysmem_read_requests", "sum"), sectors=("sysmem_read_sectors", "sum")
    )
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
                ax.text(
                    variant_i,
                    0.02,
                    f"{np.mean(size):.0f} B",
                    ha="center",
                    va="bottom",
                    fontsize=style.VALUE_LABEL_SIZE,
                    transform=ax.get_xaxis_transform(),
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.4, "alpha": 0.8},
                )
        if column == 0:
            ax.set_ylabel("read requests (millions)")
    axes[0][0].set_ylim(0, float(shown["million"].max()) * 1.15)
    style.legend_on_top(fig, [style.mode_handle(m) for m in modes], [style.MODE_LABELS[m] for m in modes])
    style.stamp(fig, source, DEFINITION)
    return fig


# --- in the report (with Fig. 10) --------------------------------------------------------------------------
def report_section(fig07: ReportFigure | None, fig10: ReportFigure | None, paper: dict) -> dict | None:
    """Figs. 7 and 10: PCIe requests per variant and the read amplification, the paper's extremes beside ours
    (zero-copy managed, the default); None without both figures (no profile table)."""
    if not (fig07 and fig10):
        return None
    t7, t10 = pd.read_csv(fig07.csv), pd.read_csv(fig10.csv)
    p7, p10 = paper["fig07"], paper["fig10"]
    zc7, zc10 = t7[t7["mode"] == "zerocopy"], t10[t10["mode"] == "zerocopy"]

    def most(t, column, **where):
        return summary_of(t, column, "max", **where)

    rows = [
        [
            "Merged: fewer requests than Naive, up to",
            paper_value(p7["merged_fewer_than_naive"], fpct1),
            fpct1(most(zc7, "fewer_than_naive", variant="merged")),
            p7["merged_fewer_than_naive"]["section"],
        ],
        [
            "Merged+Aligned: fewer requests than Merged, up to",
            paper_value(p7["aligned_fewer_than_merged"], fpct1),
            fpct1(most(zc7, "fewer_than_merged", variant="merged-aligned")),
            p7["aligned_fewer_than_merged"]["section"],
        ],
        [
            "Merged+Aligned: mean request size, up to",
            "–",
            f"{most(zc7, 'avg_request_bytes', variant='merged-aligned'):.0f} B",
            "–",
        ],
        [
            "UVM read amplification, up to",
            paper_value(p10["uvm_up_to"], fx),
            fx(most(t10, "amplification", mode="uvm")),
            p10["uvm_up_to"]["section"],
        ],
        [
            "EMOGI read amplification, at most",
            paper_value(p10["emogi_at_most"], fx),
            f"{fx(most(zc10, 'amplification'))} (payload {fx(most(zc10, 'payload_amplification'))})",
            p10["emogi_at_most"]["section"],
        ],
    ]
    return {
        "fig07": fig07.image,
        "fig10": fig10.image,
        "comparison": {
            "columns": ["quantity", "paper (V100, PCIe 3.0)", "ours, zero-copy (managed)", "paper section"],
            "align": "lrrl",
            "rows": rows,
        },
    }


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Figure 7 analogue: PCIe read requests of BFS",
        tables=["profile"],
        compute=requests,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
