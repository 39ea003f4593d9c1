"""The UVM simulator against the GPU on the out-of-GPU-memory study's own runs (issue 21, items 3 and 4): simulated
time against measured, per traced run, for cold UVM (no capacity: the `uvm` runs) and for UVM at each budget's
capacity with eviction at uvm-capped's sub-launch boundaries (the `uvm-capped` runs). None of these runs was used to
fit the simulator's costs (archive/uvm-sim-validation-2026-11-25/, `registered`): every point is out of sample.

    python -m figures.fig_uvm_sim_oom --oom results/oom/tables/oom.csv \
        --oom-simulated results/oom/tables/oom_simulated.csv --source results/oom/tables/source.json \
        --out results/figures/fig_uvm_sim_oom.png [--out-csv ...]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from emogi.schema import ALGORITHMS
from figures import cli, oom_data, oom_style, style
from figures.inputs import FigureDataError

FIGURE = "fig_uvm_sim_oom"
KIND_REGIME = {"cold": "fits", "capped": "emulated"}  # what the simulated point is compared with
KIND_LABEL = {"cold": "cold UVM (uvm, measured)", "capped": "UVM at a capacity (uvm-capped, measured)"}
DEFINITION = (
    "error = simulated / measured time - 1 per traced run (measured: median over reps); simulated = device-mode "
    "time + migration (model/uvm_sim.py, cost set `registered`, fitted on other runs)"
)


def validation(oom: pd.DataFrame, sim: pd.DataFrame) -> pd.DataFrame:
    t = oom_data.validation(oom, sim)
    if t.empty:
        raise FigureDataError(f"figure {FIGURE} has no data: no simulated run has a measured uvm or uvm-capped twin")
    return t.assign(regime=t["sim_mode"].map(KIND_REGIME))


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Median and worst |error| per comparison, and the share within the targets (10% median, 25% worst)."""
    e = table.assign(abs_error=table["error"].abs())
    return e.groupby("sim_mode").agg(
        runs=("abs_error", "size"),
        median=("abs_error", "median"),
        worst=("abs_error", "max"),
        within_10=("abs_error", lambda x: float((x <= 0.10).mean())),
        within_25=("abs_error", lambda x: float((x <= 0.25).mean())),
    )


def draw(table: pd.DataFrame, source: dict):
    fig, axes = style.new_figure(1, 1, title_lines=2, footer_lines=3, panel_height=3.2)
    ax = axes[0][0]
    algorithms = [a for a in ALGORITHMS if a in set(table["algorithm"])]
    colors = dict(zip(algorithms, style.GRAPH_COLORS, strict=False))
    for kind, rows in table.groupby("sim_mode"):
        for a in algorithms:
            r = rows[rows["algorithm"] == a]
            marker = oom_style.REGIME_MARKERS[KIND_REGIME[kind]]
            ax.scatter(r["measured_ms"], r["simulated_ms"], s=14, color=colors[a], marker=marker, edgecolor="black",
                       linewidth=0.3, zorder=3)  # fmt: skip
    lo = float(np.nanmin(table[["measured_ms", "simulated_ms"]].to_numpy())) / 1.5
    hi = float(np.nanmax(table[["measured_ms", "simulated_ms"]].to_numpy())) * 1.5
    x = np.array([lo, hi])
    ax.plot(x, x, **style.REFERENCE_LINE)
    for band in (0.10, 0.25):
        ax.fill_between(x, x * (1 - band), x * (1 + band), color="#999999", alpha=0.12, linewidth=0)
    ax.set(xscale="log", yscale="log", xlim=(lo, hi), ylim=(lo, hi), xlabel="measured (ms)", ylabel="simulated (ms)")
    s = summary(table)
    ax.set_title("\n".join(f"{k}: median |error| {100 * v['median']:.1f}%, worst {100 * v['worst']:.1f}% "
                           f"({int(v['runs'])} runs)" for k, v in s.iterrows()))  # fmt: skip
    handles = [style.Line2D([], [], marker=oom_style.REGIME_MARKERS[KIND_REGIME[k]], color="#777777", linestyle="none")
               for k in KIND_LABEL if k in s.index]  # fmt: skip
    labels = [KIND_LABEL[k] for k in KIND_LABEL if k in s.index]
    handles += [style.Line2D([], [], marker="o", color=colors[a], linestyle="none") for a in algorithms]
    labels += [style.ALGORITHM_LABELS.get(a, a) for a in algorithms]
    style.legend_on_top(fig, handles, labels, ncol=3)
    style.stamp(fig, source, DEFINITION + "; bands: ±10%, ±25%")
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="The UVM simulator against measured cold and capped UVM, out of sample",
        tables=["oom", "oom_simulated"],
        compute=validation,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
