"""Figure 9 in the paper's regime (issue 21): BFS speedup of each zero-copy variant over UVM, the edge list
larger than the GPU memory a run may use.

One panel per graph (columns) and budget (rows: GPU memory as a fraction of the lists). In each panel, per variant,
two bars: over UVM simulated (hatched dots: model/uvm_sim.py on the runs' recorded traces, eviction inside
launches as an oversubscribed driver does; an extrapolation from the validated cold and capped parts) and over UVM
emulated (hatched lines: uvm-capped, measured). Definitions: figures/oom_data.py.

    python -m figures.fig09_oom --oom results/oom/tables/oom.csv --oom-simulated results/oom/tables/oom_simulated.csv \
        --source results/oom/tables/source.json --out results/figures/fig09_oom.png [--out-csv ...]
"""

from __future__ import annotations

import sys

import pandas as pd

from emogi.schema import ALL_VARIANTS
from figures import cli, oom_data, oom_style, style
from figures.inputs import FigureDataError

FIGURE = "fig09_oom"
DEFINITION = (
    "time = mean over roots of the per-root median; speedup = UVM time / zero-copy time, UVM = the fastest of the "
    "paper's variants in UVM (conservative); zero-copy measured at the budget (it keeps only vertex data in GPU memory)"
)


def speedups(oom: pd.DataFrame, sim: pd.DataFrame) -> pd.DataFrame:
    t = oom_data.speedups(oom, sim)
    t = t[(t["algorithm"] == "bfs") & (t["placement"] == "zerocopy")]
    if t.empty:
        raise FigureDataError(f"figure {FIGURE} has no data: no BFS zero-copy runs with a UVM baseline")
    return t.reset_index(drop=True)


def draw(table: pd.DataFrame, source: dict):
    baselines = [b for b in oom_style.BASELINE_TEXT if b in set(table["baseline"])]
    color = style.MODE_COLORS["zerocopy"]
    fig = oom_style.speedup_panels(
        table,
        lambda rows: ("variant", [v for v in ALL_VARIANTS if v in set(rows["variant"])]),
        style.variant_short,
        [{"where": {"baseline": b}, "color": color, "hatch": oom_style.REGIME_HATCHES[b]} for b in baselines],
        "BFS speedup over UVM (×)",
    )
    handles = [oom_style.regime_handle(base, color) for base in baselines]
    labels = [f"zero-copy {oom_style.BASELINE_TEXT[base]}" for base in baselines]
    style.legend_on_top(fig, [*handles, style.reference_handle()], [*labels, "UVM (= 1)"], ncol=2)
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Figure 9 out of GPU memory: BFS speedup over UVM at budgets",
        tables=["oom", "oom_simulated"],
        compute=speedups,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
