"""Figure 10 in the paper's regime (issue 21): bytes moved over the link against bytes needed, zero-copy against
UVM, with the edge list larger than the GPU memory a run may use.

One panel per budget; per graph and algorithm, bars for zero-copy (the 32-byte sectors the run's recorded trace
touches: what zero-copy fetches, payload without PCIe protocol bytes) and UVM simulated at the budget (model/
uvm_sim.py on the same trace: eviction inside launches, an extrapolation, and at uvm-capped's sub-launch boundaries,
whose eviction counts match the GPU's; `oom_data.validation`). All three are computed from traces (regime
simulated); the paper's Fig. 10 is BFS with Merged+Aligned, which the claims read. Definitions: figures/oom_data.py.

    python -m figures.fig10_oom --oom-simulated results/oom/tables/oom_simulated.csv \
        --source results/oom/tables/source.json --out results/figures/fig10_oom.png [--out-csv ...]
"""

from __future__ import annotations

import sys

import pandas as pd

from figures import cli, oom_data, oom_style, style
from figures.inputs import FigureDataError

FIGURE = "fig10_oom"
VARIANT = "merged-aligned"  # the paper's EMOGI; its UVM runs the same kernel
WHAT_COLORS = {"zero-copy": style.MODE_COLORS["zerocopy"], "UVM unrestricted": style.MODE_COLORS["uvm"],
               "UVM capped": "#E69F00"}  # fmt: skip
WHAT_LABELS = {
    "zero-copy": "zero-copy (32-B sectors of the trace)",
    "UVM unrestricted": "UVM, eviction inside launches (extrapolated)",
    "UVM capped": "UVM, eviction at uvm-capped's sub-launches",
}
DEFINITION = (
    "amplification = bytes moved / bytes the run's lists need (traces recorded on the GPU, or CPU-derived where "
    "oom_simulated's trace_source says so; Merged+Aligned, mean over roots); "
    "every bar simulated or counted from the traces (model/uvm_sim.py; zero-copy payload without protocol)"
)


def amplification(sim: pd.DataFrame) -> pd.DataFrame:
    t = oom_data.amplification(sim)
    t = t[t["variant"] == VARIANT]
    if t.empty:
        raise FigureDataError(f"figure {FIGURE} has no data: no simulated Merged+Aligned runs")
    return t.sort_values(["budget_fraction", "graph", "algorithm", "what"], ascending=[False, True, True, True])


def draw(table: pd.DataFrame, source: dict):
    budgets = sorted(table["budget_fraction"].unique(), reverse=True)
    fig, axes = style.new_figure(len(budgets), 1, footer_lines=3)
    whats = [w for w in WHAT_COLORS if w in set(table["what"])]
    for r, b in enumerate(budgets):
        ax = axes[r][0]
        rows = table[table["budget_fraction"] == b]
        groups = list(dict.fromkeys(zip(rows["graph"], rows["algorithm"])))
        series = [
            {
                "values": [rows[(rows["graph"] == g) & (rows["algorithm"] == a) & (rows["what"] == w)]["amplification"]
                           .mean() for g, a in groups],
                "color": WHAT_COLORS[w],
                "hatch": oom_style.REGIME_HATCHES["simulated"],
            }
            for w in whats
        ]  # fmt: skip
        labels = [f"{g}\n{style.ALGORITHM_LABELS.get(a, a)}" for g, a in groups]
        oom_style.grouped_bars(ax, labels, series, fmt=lambda v: f"{v:.2f}", log=False)
        ax.axhline(1.0, **style.REFERENCE_LINE)
        ax.set_title(f"GPU memory = {b:g} × the lists")
        ax.set_ylabel("bytes moved / needed (×)")
        ax.set_ylim(0, max(1.5, float(rows["amplification"].max()) * 1.15))
    handles = [oom_style.regime_handle("simulated", WHAT_COLORS[w]) for w in whats]
    style.legend_on_top(
        fig, [*handles, style.reference_handle()], [*(WHAT_LABELS[w] for w in whats), "no amplification"]
    )
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Figure 10 out of GPU memory: read amplification at budgets",
        tables=["oom_simulated"],
        compute=amplification,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
