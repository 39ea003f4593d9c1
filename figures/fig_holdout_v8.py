"""Issue 24's held-out validation v8 (model/holdout.py --split v8, docs/holdout-v7-v10.md "GPU-work term v8 and held-out
validation v8"): the same figure as figures/fig_holdout.py (v2), drawn from the v8 session's judged cells (each the
min of its 5 timed runs), and its report section, which names the graphs of each split the session measured and
those registered but not measured, counts the held-out cells whose runs spread over 20% (episodes, kept), and gives
Gauss-Seidel PageRank's held-out device cells with their rounds' spread beside their error, as registered. The
workflow draws it only where the v8 session's archive exists (workflow/rules/model.smk, holdout_judge_split).

    python -m figures.fig_holdout_v8 --holdout holdout_cells.csv --source source.json --out fig_holdout_v8.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

import pandas as pd

from figures.fig_holdout import gauss_seidel_text, split_main, split_section
from figures.inputs import ReportFigure, report_csv
from model import holdout_split_v8 as hs8

FIGURE = "fig_holdout_v8"
REPORT_TITLE = "The model on graphs it has not seen, v8 (held-out validation with the GPU-work term v8)"
EPISODE = 0.20  # a cell whose runs spread (slowest / min − 1) past it is an episode: counted, not dropped


def episode_text(cells: pd.DataFrame) -> str:
    """How many cells, held out and in all, spread over EPISODE; empty where the cells carry no spread."""
    if "spread" not in cells:
        return ""
    held = cells[cells["split"] == hs8.HELD_OUT]
    n_all, n_held = int((cells["spread"] > EPISODE).sum()), int((held["spread"] > EPISODE).sum())
    return (f" Cells whose 5 runs spread over {100 * EPISODE:.0f}% (slowest / min − 1, slow episodes; kept, each "
            f"judged on its min): {n_held} of {len(held)} held out, {n_all} of {len(cells)} in all.")  # fmt: skip


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v8 judgement; None when the figure was not drawn."""
    if fig is None:
        return None
    cells = report_csv(fig.csv, f"{FIGURE} numbers")
    intro = (
        "The same judgement with the GPU-work term v8 (v7's, with direction-optimizing BFS fitted apart for skewed "
        "and uniform graphs, the class from the graph file's max degree over the mean degree of its non-isolated "
        "vertices), each cell the min of 5 timed runs (not their median) for the fit and the judgement alike, on a "
        "new split and a new device session, both written down in docs/holdout-v7-v10.md before the session: split "
        "v7's held-out graphs now in the train set, and held-out graphs at edge factors 5 and 10 made with seed 30, "
        "which no earlier graph used, every graph measured in that one session ({graphs}). Nothing was tuned after the "
        "comparison." + episode_text(cells) + gauss_seidel_text(cells)
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs8.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v8")


if __name__ == "__main__":
    sys.exit(main())
