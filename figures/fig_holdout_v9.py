"""Issue 24's held-out validation v9 (model/holdout.py --split v9, docs/holdout-v7-v10.md "Held-out validation v9"): the
same figure as figures/fig_holdout.py (v2), drawn from the v9 session's judged cells (each the min of its 5 timed
runs, the runs interleaved: `--run-order rounds`), and its report section, which names the graphs of each split the
session measured and those registered but not measured, counts the cells whose runs spread over 20% (v8's
episode_text) and gives Gauss-Seidel PageRank's held-out device cells with their rounds' spread beside their error.
The workflow draws it only where the v9 session's archive exists (workflow/rules/model.smk, holdout_judge_split).

    python -m figures.fig_holdout_v9 --holdout holdout_cells.csv --source source.json --out fig_holdout_v9.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import gauss_seidel_text, split_main, split_section
from figures.fig_holdout_v8 import episode_text
from figures.inputs import ReportFigure, report_csv
from model import holdout_split_v9 as hs9

FIGURE = "fig_holdout_v9"
REPORT_TITLE = "The model on graphs it has not seen, v9 (held-out validation, v8's term, interleaved runs)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v9 judgement; None when the figure was not drawn."""
    if fig is None:
        return None
    cells = report_csv(fig.csv, f"{FIGURE} numbers")
    intro = (
        "The same judgement with v8's GPU-work term, unchanged (direction-optimizing BFS fitted apart for skewed and "
        "uniform graphs), each cell the min of 5 timed runs, the runs of each table interleaved (`--run-order "
        "rounds`: rep by rep over its variants and roots, so that a slow stretch of the machine spreads over every "
        "cell instead of covering one cell's runs), on a new split and a new device session, both written down in "
        "docs/holdout-v7-v10.md before the session: split v8's held-out graphs now in the train set, and held-out "
        "graphs at edge factors 3 and 7 made with seed 31, which no earlier graph used, every graph measured in "
        "that one session ({graphs}). Nothing was tuned after the comparison."
        + episode_text(cells)
        + gauss_seidel_text(cells)
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs9.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v9")


if __name__ == "__main__":
    sys.exit(main())
