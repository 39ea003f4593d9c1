"""Figure 9 analogue: BFS speedup of each kernel variant over the UVM baseline.

One panel per graph (columns) and edge width (rows). In each panel, for each variant (Naive, Merged,
Merged+Aligned), one bar per memory mode: the two zero-copy modes and device memory as the in-GPU reference.

Definitions (also printed in the figure footer):
  time    per (graph, edge_bytes, variant, mode) = mean over roots of the per-root median over reps
          (the paper averages over its 64 roots, §5.2); default launches only (max_warps == 0): throttled runs
          emulate added latency (fig_added_latency) and are not times of the configuration
  UVM baseline  per (graph, edge_bytes) = the fastest variant's time in uvm mode; choosing the fastest is
          conservative: it never inflates a speedup
  speedup = UVM baseline time / time   (> 1: faster than UVM)

    python -m figures.fig09_speedup_over_uvm --runs results/tables/runs.csv --source results/tables/source.json \
        --out results/figures/fig09_speedup_over_uvm.png [--out-csv results/figures/fig09_speedup_over_uvm.csv]
"""

from __future__ import annotations

import sys

import pandas as pd

from emogi.schema import VARIANTS
from emogi.tables import default_launch
from figures import cli, style
from figures.inputs import FigureDataError
from model.bounds import traversal_time_ms

FIGURE = "fig09"
PLOTTED_MODES = ("zerocopy", "zerocopy-pinned", "device")  # uvm is the baseline line at 1
DEFINITION = ("time = mean over roots of the per-root median over reps (default launch, max_warps = 0); "
              "speedup = UVM baseline time / time, UVM baseline = fastest variant in uvm mode for that graph and "
              "edge width (conservative)")

CSV_COLUMNS = ["graph", "edge_bytes", "variant", "mode", "time_ms", "n_roots", "uvm_baseline_ms",
               "uvm_baseline_variant", "speedup"]


def speedups(runs: pd.DataFrame) -> pd.DataFrame:
    """The plotted numbers: one row per (graph, edge_bytes, variant, mode) in PLOTTED_MODES (see module doc)."""
    times = traversal_time_ms(default_launch(runs))
    uvm = times[times["mode"] == "uvm"]
    if uvm.empty:
        raise FigureDataError(f"figure {FIGURE} has no data: the runs table has no uvm rows (the baseline)")
    best = uvm.loc[uvm.groupby(["graph", "edge_bytes"])["time_ms"].idxmin(),
                   ["graph", "edge_bytes", "time_ms", "variant"]]
    best = best.rename(columns={"time_ms": "uvm_baseline_ms", "variant": "uvm_baseline_variant"})
    out = times[times["mode"].isin(PLOTTED_MODES)].merge(best, on=["graph", "edge_bytes"], how="inner")
    lost = set(map(tuple, times[["graph", "edge_bytes"]].drop_duplicates().values)) - set(
        map(tuple, best[["graph", "edge_bytes"]].values))
    if lost:  # a panel without a baseline cannot show speedups; say so rather than drop it silently
        print(f"{FIGURE}: no uvm runs for {sorted(lost)}; those panels are left out", file=sys.stderr)
    if out.empty:
        raise FigureDataError(f"figure {FIGURE} has no data: no graph has both uvm and zero-copy runs")
    out["speedup"] = out["uvm_baseline_ms"] / out["time_ms"]
    out = out.assign(_v=out["variant"].map(VARIANTS.index), _m=out["mode"].map(PLOTTED_MODES.index))
    out = out.sort_values(["graph", "edge_bytes", "_v", "_m"], ignore_index=True)
    return out[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    """Bar panels from the `speedups` table; returns the figure."""
    modes = [m for m in PLOTTED_MODES if m in set(table["mode"])]
    lo, hi = table["speedup"].min(), table["speedup"].max()
    fig, axes, panels = style.variant_mode_bars(table, "speedup", modes, style.speedup_text, lambda v: v * 1.04,
                                                title_lines=2)
    for ax, key, rows, column in panels:
        ax.axhline(1.0, **style.REFERENCE_LINE)
        style.plain_log_axis(ax)
        base = rows["uvm_baseline_variant"].iloc[0]
        ax.set_title(style.panel_title(*key, f"UVM baseline: {style.VARIANT_LABELS[base]}, "
                                             f"{rows['uvm_baseline_ms'].iloc[0]:.3g} ms"))
        if column == 0:
            ax.set_ylabel("speedup over UVM (×)")
    # room above the tallest bar for its label; always include the line at 1
    axes[0][0].set_ylim(min(lo, 1.0) / 1.6, max(hi, 1.0) * 1.6)
    handles = [style.mode_handle(m) for m in modes]
    labels = [style.MODE_LABELS[m] for m in modes]
    handles.append(style.reference_handle())
    labels.append("UVM baseline (= 1)")
    style.legend_on_top(fig, handles, labels)
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(argv, figure=FIGURE, description="Figure 9 analogue: BFS speedup over UVM", tables=["runs"],
                           compute=speedups, draw=draw)


if __name__ == "__main__":
    sys.exit(main())
