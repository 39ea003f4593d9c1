"""The mode selector judged (issue 22): per graph, for each algorithm and budget, how far the mode `select` chose
is behind the fastest fixed mode measured there (model/select_judge.py's table), its bar in the chosen mode's
colour, the fastest mode named where it is another, and issue 22's target (5%) as a line.

    python -m figures.fig_select --select-judge judge.csv --source source.json --out fig_select.png [--out-csv ...]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from emogi.registry import vocabulary
from figures import cli, style
from figures.inputs import FigureDataError

FIGURE = "fig_select"
TARGET_PCT = 5.0
# the paper's modes as every figure draws them; streamed as fig_streamed_* draws it; auto in Okabe-Ito orange
COLORS = {**style.MODE_COLORS, "streamed": "#009E73", "auto": "#E69F00"}
DEFINITION = (
    "behind = chosen mode's median / fastest fixed mode's median - 1, verified runs at the same budget "
    "(zero-copy's from the run without a budget where the budget has none); budget = GPU memory / list bytes"
)


def compute(judge: pd.DataFrame) -> pd.DataFrame:
    if judge["chosen"].isna().all():
        raise FigureDataError(f"figure {FIGURE}: the judged table has no chosen mode")
    return judge.reset_index(drop=True)


def _tick(r) -> str:
    """The algorithm's short label over the budget as a fraction of the lists (fits: no budget)."""
    labels = {a.name: a.label for a in vocabulary().algorithms}
    budget = "fits" if pd.isna(r["budget_fraction"]) else f"{float(r['budget_fraction']):.2g}"
    return f"{labels.get(r['algorithm'], r['algorithm'])}\n{budget}"


def draw(table: pd.DataFrame, source: dict):
    graphs = list(dict.fromkeys(table["graph"]))
    fig, axes = style.new_figure(1, len(graphs), title_lines=1, sharey=True, footer_lines=3)
    top = max(2 * TARGET_PCT, float(np.nanmax(table["behind_pct"].to_numpy(float), initial=0)) * 1.25)
    for ax, graph in zip(np.ravel(axes), graphs):
        rows = table[table["graph"] == graph]
        x = np.arange(len(rows))
        for xi, (_, r) in zip(x, rows.iterrows()):
            behind = r["behind_pct"]
            color = COLORS.get(r["chosen"], "#999999")
            if pd.isna(behind):
                ax.text(xi, 0.02 * top, "not\nmeasured", ha="center", va="bottom", fontsize=style.VALUE_LABEL_SIZE)
                continue
            ax.bar(xi, max(behind, 0.02 * top), color=color, width=0.7, zorder=3)
            note = style.MODE_SHORT_LABELS.get(r["chosen"], r["chosen"])
            if r["best_mode"] != r["chosen"]:
                note += f"\n(best: {r['best_mode']})"
            ax.annotate(note, (xi, max(behind, 0)), (0, 3), textcoords="offset points", ha="center",
                        fontsize=style.VALUE_LABEL_SIZE)  # fmt: skip
        ax.axhline(TARGET_PCT, color="black", ls="--", lw=0.8, zorder=2)
        ax.set_xticks(x, [_tick(r) for _, r in rows.iterrows()], fontsize=7)
        met = int(rows["within_target"].sum())
        ax.set_title(f"{graph}: {met} of {len(rows)} within {TARGET_PCT:g}%", fontsize=style.FONT_SIZE)
        ax.set_ylim(0, top)
    np.ravel(axes)[0].set_ylabel("% behind the fastest fixed mode")
    modes = list(dict.fromkeys(table["chosen"].dropna()))
    handles = [Patch(color=COLORS.get(m, "#999999")) for m in modes]
    labels = [f"chosen: {style.MODE_SHORT_LABELS.get(m, m)}" for m in modes]
    handles.append(Line2D([], [], color="black", ls="--", lw=0.8))
    labels.append(f"target: {TARGET_PCT:g}% behind")
    style.legend_on_top(fig, handles, labels, ncol=len(labels))
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="The mode selector's choice against the fastest fixed mode, per algorithm and budget",
        tables=["select_judge"],
        compute=compute,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
