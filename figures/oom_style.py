"""How the out-of-GPU-memory figures show how each number was obtained: one hatch and marker per regime
(emogi/registry.yaml `regimes`), the same in every panel, legend and footer."""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Patch

from emogi.registry import vocabulary
from figures import style

REGIME_LABELS = {r.name: r.label for r in vocabulary().regimes}
REGIME_HATCHES = {"fits": "", "budget": "", "emulated": "////", "simulated": "...."}
REGIME_MARKERS = {"fits": "^", "budget": "o", "emulated": "s", "simulated": "D"}
BASELINE_TEXT = {
    "simulated": "over UVM simulated (eviction inside launches: extrapolated)",
    "emulated": "over UVM emulated (uvm-capped, measured)",
}
BASELINE_SHORT = {"simulated": "/ UVM simulated", "emulated": "/ UVM emulated"}


def budget_title(graph: str, fraction: float) -> str:
    return f"{graph}: GPU memory = {fraction:g} × the lists"


def regime_handle(regime: str, color: str = "#DDDDDD") -> Patch:
    return Patch(facecolor=color, hatch=REGIME_HATCHES[regime], edgecolor="black", linewidth=0.4)


def grouped_bars(ax, groups: list[str], series: list[dict], fmt=style.speedup_text, log: bool = True) -> None:
    """Bars of `series` (dicts: values aligned with `groups`, color, hatch) side by side in each group, labelled."""
    x = np.arange(len(groups))
    width = 0.8 / max(len(series), 1)
    for i, s in enumerate(series):
        vals = np.asarray(s["values"], dtype=float)
        pos = style.group_bars(ax, x, i, len(series), width, vals, s["color"], s["hatch"])
        style.label_bars(ax, pos, vals, fmt, (lambda v: v * 1.05) if log else (lambda v: v + 0.02))
    ax.set_xticks(x, groups)
    if log:
        style.plain_log_axis(ax)


def speedup_panels(table, groups_of, label_of, bars: list[dict], ylabel: str):
    """One panel per graph (columns) and budget (rows) of speedups over UVM: in each, the groups `groups_of(rows)`
    on the x axis (labelled by `label_of`), one bar per entry of `bars` (a `where` dict selecting its rows beside
    the group column, a color and a hatch), the line at 1 and the budget in the title. Returns the figure."""
    graphs = list(dict.fromkeys(table["graph"]))
    budgets = sorted(table["budget_fraction"].unique(), reverse=True)
    fig, axes = style.new_figure(len(budgets), len(graphs), footer_lines=3)
    for (r, b), (c, g) in ((rb, cg) for rb in enumerate(budgets) for cg in enumerate(graphs)):
        ax = axes[r][c]
        rows = table[(table["graph"] == g) & (table["budget_fraction"] == b)]
        column, groups = groups_of(rows)

        def mean(group, where):
            sel = rows[rows[column] == group]
            for k, v in where.items():
                sel = sel[sel[k] == v]
            return sel["speedup"].mean()

        series = [{"values": [mean(x, bar["where"]) for x in groups], "color": bar["color"], "hatch": bar["hatch"]}
                  for bar in bars]  # fmt: skip
        grouped_bars(ax, [label_of(x) for x in groups], series)
        ax.axhline(1.0, **style.REFERENCE_LINE)
        ax.set_title(budget_title(g, b))
        if c == 0:
            ax.set_ylabel(ylabel)
    return fig
