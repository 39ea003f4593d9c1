"""Issue 24's held-out validation v7 (model/holdout.py --split v7, docs/holdout-v7-v10.md "GPU-work term v7 and held-out
validation v7"): the same figure as figures/fig_holdout.py (v2), drawn from the v7 session's judged cells, and its
report section, which names the graphs of each split the session measured and those registered but not measured,
and gives Gauss-Seidel PageRank's held-out device cells with their rounds' spread (the runs' iterations min-max) beside
their error, as registered. The workflow draws it only where the v7 session's archive exists
(workflow/rules/model.smk, holdout_judge_split).

    python -m figures.fig_holdout_v7 --holdout holdout_cells.csv --source source.json --out fig_holdout_v7.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import gauss_seidel_text, split_main, split_section
from figures.inputs import ReportFigure, report_csv
from model import holdout_split_v7 as hs7

FIGURE = "fig_holdout_v7"
REPORT_TITLE = "The model on graphs it has not seen, v7 (held-out validation with the GPU-work term v7)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v7 judgement; None when the figure was not drawn."""
    if fig is None:
        return None
    intro = (
        "The same judgement with the GPU-work term v7 (v6's floor, its costs fitted on the train graphs' device "
        "cells and fitted once more without the train cells that fit missed by over 30%), each cell the median of 5 "
        "timed runs, on a new split and a new device session, both written down in docs/holdout-v7-v10.md before the "
        "session: split v6's held-out graphs (edge factors 4 and 8) now in the train set, and held-out graphs at edge "
        "factors 6 and 12 made with seed 29, which no earlier graph used, every graph measured in that one session "
        "({graphs}). Nothing was tuned after "
        "the comparison." + gauss_seidel_text(report_csv(fig.csv, f"{FIGURE} numbers"))
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs7.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v7")


if __name__ == "__main__":
    sys.exit(main())
