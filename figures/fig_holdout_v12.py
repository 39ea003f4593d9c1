"""Issue 24's held-out validation v12 (model/holdout.py --split v12, docs/holdout-v12.md): the same figure as
figures/fig_holdout.py (v2), drawn from the v12 judgement's cells (each the min of its 5 timed runs, the runs
interleaved: `--run-order rounds`; the train cells the archived v11 combined session's, the held-out ones the v12
call's), and its report section, as v11's (figures/fig_holdout_v11.py). The workflow draws it only where the v12
archive exists (workflow/rules/model.smk, holdout_judge_split).

    python -m figures.fig_holdout_v12 --holdout holdout_cells.csv --source source.json --out fig_holdout_v12.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import gauss_seidel_text, split_main, split_section
from figures.fig_holdout_v8 import episode_text
from figures.inputs import ReportFigure, report_csv
from model import holdout_split_v12 as hs12

FIGURE = "fig_holdout_v12"
REPORT_TITLE = "The model on graphs it has not seen, v12 (held-out validation, a cost per list over the link)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v12 judgement; None when the figure was not drawn."""
    if fig is None:
        return None
    cells = report_csv(fig.csv, f"{FIGURE} numbers")
    intro = (
        "The same judgement with the GPU-work term v12 (v8's floor; the zero-copy link terms with a cost per list "
        "walked over the link beside v4's D / T(d) and serial steps), each cell the min of 5 timed runs interleaved "
        "(`--run-order rounds`), on a new split written down in docs/holdout-v12.md before the session: the train "
        "cells are the archived v11 combined session's, all 21 of its graphs, not measured again, and the held-out "
        "graphs, made with seed 34, which no earlier graph used, at scale 19 and edge factors 7 and 11, inside the "
        "train range, were measured in one new device session ({graphs}): the drift between the sessions is part of "
        "the error. "
        "Nothing was tuned after the comparison." + episode_text(cells) + gauss_seidel_text(cells)
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs12.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v12")


if __name__ == "__main__":
    sys.exit(main())
