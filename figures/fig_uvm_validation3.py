"""Issue 21's UVM simulator, validation 3 (model/uvm_validation3.py): each judged cold-UVM cell's predicted time
against its measured median, log-log, one panel per registered calibration rule (micro, pageable, none) and the
floor (a factor fitted on these runs: not a prediction); colour by algorithm, filled for merged-aligned, hollow for
naive; the diagonal and the ±25% worst-error band; each title gives the median and worst |error|.

    python -m figures.fig_uvm_validation3 --cells validation3_cells.csv --source source.json --out fig.png \
        [--out-csv fig.csv]
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from figures import cli, style
from figures.inputs import FigureDataError

FIGURE = "fig_uvm_validation3"
RULES = {
    "micro": "micro (primary): uvmfault's factor",
    "pageable": "pageable: linkbw's factor",
    "none": "none: the median archived session",
    "floor": "floor: fitted on these runs (not a prediction)",
}
COLORS = {"bfs": "#1f77b4", "sssp": "#ff7f0e", "cc": "#2ca02c", "pagerank": "#d62728"}
COLUMNS = ["graph", "algorithm", "variant", "root", "uvm_ms", "device_ms"]
DEFINITION = ("error = predicted / measured cold-UVM median - 1; predicted = device-mode median + f x the "
              "simulated migration of the CPU-derived trace (docs/uvm-validations.md, validation 3)")  # fmt: skip


def load_cells(path, figure: str, rules: dict = RULES, measured: str = "uvm_ms") -> pd.DataFrame:
    path = Path(path)
    if not path.is_file():
        raise FigureDataError(f"figure {figure} has no data: {path} is missing (python -m model.uvm_validation3 or 4)")
    table = pd.read_csv(path)
    need = [*COLUMNS, measured] + [f"predicted_ms_{r}" for r in rules]
    missing = [c for c in need if c not in table.columns]
    if missing:
        raise FigureDataError(f"figure {figure}: {path} lacks columns {missing}")
    return table


def compute(cells: pd.DataFrame, rules: dict = RULES, measured: str = "uvm_ms", judged: bool = False) -> pd.DataFrame:
    """One row per judged cell and rule: measured (the column `measured`, or `measured`_rule where the cells have
    one, kept under the name `measured`), predicted, error. `judged`: the error is the cells' own error_<rule>, the
    statistic their judge computed (capped validation 8's median over calls), not predicted / measured - 1."""
    if cells.empty:
        raise FigureDataError("the UVM validation figure has no data: no judged cell")
    parts = []
    for rule in rules:
        part = cells[list(dict.fromkeys([*COLUMNS, measured]))].copy()
        part["rule"] = rule
        own = f"{measured}_{rule}"  # a rule judged against its own measurement (capped validation 5's pass1)
        if own in cells.columns:
            part[measured] = cells[own]
        part["predicted_ms"] = cells[f"predicted_ms_{rule}"]
        part["error"] = cells[f"error_{rule}"] if judged else part["predicted_ms"] / part[measured] - 1
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def draw(
    table: pd.DataFrame,
    source: dict,
    rules: dict = RULES,
    definition: str = DEFINITION,
    measured: str = "uvm_ms",
    xlabel: str = "measured cold UVM (ms)",
):
    """One panel per rule, two to a row."""
    fig, axes = style.new_figure((len(rules) + 1) // 2, 2, title_lines=2, footer_lines=3, hspace=0.55)
    lo = float(min(table[measured].min(), table["predicted_ms"].min())) / 1.5
    hi = float(max(table[measured].max(), table["predicted_ms"].max())) * 1.5
    x = np.array([lo, hi])
    for ax in np.ravel(axes)[len(rules) :]:
        ax.set_visible(False)  # an odd number of rules leaves the last panel empty
    for ax, (rule, label) in zip(np.ravel(axes), rules.items()):
        rows = table[table["rule"] == rule]
        for (algorithm, variant), g in rows.groupby(["algorithm", "variant"]):
            color = COLORS.get(algorithm, "#777777")
            filled = variant == "merged-aligned"
            ax.scatter(g[measured], g["predicted_ms"], s=16, facecolors=color if filled else "none",
                       edgecolors=color, linewidths=0.7, zorder=3)  # fmt: skip
        ax.plot(x, x, color="black", lw=0.8)
        for f in (0.75, 1.25):
            ax.plot(x, f * x, color="black", lw=0.5, ls="--")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("predicted (ms)")
        ax.minorticks_off()
        e = rows["error"].abs()
        # a long rule's name wraps rather than spill past its panel into the next
        verdict = f"median {100 * e.median():.1f}% (≤10%), worst {100 * e.max():.1f}% (≤25%)"
        ax.set_title(f"{textwrap.fill(label, 50)}\n{verdict}", fontsize=style.FONT_SIZE)
    algorithms = [a for a in COLORS if a in set(table["algorithm"])]
    handles = [Line2D([], [], ls="", marker="o", color=COLORS[a]) for a in algorithms]
    labels = [style.ALGORITHM_LABELS.get(a, a) for a in algorithms]
    handles += [Line2D([], [], ls="", marker="o", color="black"),
                Line2D([], [], ls="", marker="o", color="black", markerfacecolor="none"),
                Line2D([], [], color="black", ls="--", lw=0.5)]  # fmt: skip
    labels += ["merged-aligned (filled)", "naive (hollow)", "±25%"]
    style.legend_on_top(fig, handles, labels, ncol=4)
    style.stamp(fig, source, definition)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="The UVM simulator's validation 3: predicted against measured cold UVM per calibration rule",
        tables=[],
        inputs=[cli.Input("cells", load_cells, "validation3_cells.csv (python -m model.uvm_validation3 judge)")],
        compute=compute,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
