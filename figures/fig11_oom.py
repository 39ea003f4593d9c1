"""Figure 11 in the paper's regime (issue 21): every application over UVM with the edge list larger than the GPU
memory a run may use: EMOGI (Merged+Aligned, zero-copy) and this project's best (the fastest of its variants and
placements: zero-copy, `auto` with a prefix or the hottest lists of other roots' traces), each over UVM simulated
(dots) and emulated (lines).

One panel per graph (columns) and budget (rows). The CSV also holds every placement's gain over zero-copy beside
the bound 1 / (1 - c) (issue 21 item 6a; `oom_data.placement_gains`), which the report tabulates.
Definitions: figures/oom_data.py.

    python -m figures.fig11_oom --oom results/oom/tables/oom.csv --oom-simulated results/oom/tables/oom_simulated.csv \
        --oom-placement results/oom/tables/oom_placement.csv --source results/oom/tables/source.json \
        --out results/figures/fig11_oom.png [--out-csv ...]
"""

from __future__ import annotations

import sys

import pandas as pd

from emogi.schema import ALGORITHMS
from figures import cli, oom_data, oom_style, style
from figures.inputs import FigureDataError

FIGURE = "fig11_oom"
BAR_COLORS = {"emogi": style.MODE_COLORS["zerocopy"], "ours": "#009E73"}
BAR_LABELS = {"emogi": "EMOGI (M+A, zero-copy)", "ours": "ours (fastest variant, placement)"}
DEFINITION = (
    "time = mean over roots of the per-root median; speedup = UVM time / time, UVM = the fastest of the paper's "
    "variants (Merged+Aligned where the paper has no other); ours = the fastest of our variants x zero-copy and auto; "
    "UVM simulated: eviction inside launches (extrapolated); emulated: uvm-capped (measured)"
)


def speedups(oom: pd.DataFrame, sim: pd.DataFrame, placement: pd.DataFrame) -> pd.DataFrame:
    """One row per (graph, algorithm, budget, bar, baseline): EMOGI's and our best speedups (bar emogi, ours), and
    one per auto placement with its gain over zero-copy, c and bound (bar placement)."""
    t = oom_data.speedups(oom, sim)
    emogi = t[(t["variant"] == "merged-aligned") & (t["placement"] == "zerocopy")].assign(bar="emogi")
    keys = ["graph", "algorithm", "edge_bytes", "budget_fraction", "baseline"]
    ours = t.loc[t.groupby(keys)["time_ms"].idxmin()].assign(bar="ours")
    out = pd.concat([emogi, ours], ignore_index=True)
    if out.empty:
        raise FigureDataError(f"figure {FIGURE} has no data: no zero-copy or auto runs with a UVM baseline")
    # every auto placement's gain over zero-copy beside its bound (item 6a), for the report's table
    gains = oom_data.placement_gains(oom, placement)
    gains = gains.assign(bar="placement", placement="auto-" + gains["auto_order"]).drop(columns="auto_order")
    out = pd.concat([out, gains], ignore_index=True)
    return out.sort_values(["graph", "budget_fraction", "algorithm", "bar", "baseline", "variant"], ignore_index=True)


def draw(table: pd.DataFrame, source: dict):
    pairs = [(bar, base) for bar in BAR_COLORS for base in oom_style.BASELINE_TEXT if base in set(table["baseline"])]
    bars = [{"where": {"bar": bar, "baseline": base}, "color": BAR_COLORS[bar], "hatch": oom_style.REGIME_HATCHES[base]}
            for bar, base in pairs]  # fmt: skip
    fig = oom_style.speedup_panels(
        table,
        lambda rows: ("algorithm", [a for a in ALGORITHMS if a in set(rows["algorithm"])]),
        lambda a: style.ALGORITHM_LABELS.get(a, a),
        bars,
        "speedup over UVM (×)",
    )
    handles = [oom_style.regime_handle(base, BAR_COLORS[bar]) for bar, base in pairs]
    labels = [f"{BAR_LABELS[bar]} {oom_style.BASELINE_SHORT[base]}" for bar, base in pairs]
    style.legend_on_top(fig, [*handles, style.reference_handle()], [*labels, "UVM (= 1)"], ncol=3)
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Figure 11 out of GPU memory: all applications over UVM at budgets",
        tables=["oom", "oom_simulated", "oom_placement"],
        compute=speedups,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
