"""Issue 24's held-out validation v11 (model/holdout.py --split v11, docs/holdout-v11.md): the same figure as
figures/fig_holdout.py (v2), drawn from the v11 judgement's cells (each the min of its 5 timed runs, the runs
interleaved: `--run-order rounds`; the train cells the archived v10 session's, the held-out ones the v11 call's), and
its report section, as v9's (figures/fig_holdout_v9.py: the graphs of each split, the cells whose runs spread over
20%, Gauss-Seidel PageRank's held-out device cells with their rounds' spread). The workflow draws it only where the
v11 archive exists (workflow/rules/model.smk, holdout_judge_split).

    python -m figures.fig_holdout_v11 --holdout holdout_cells.csv --source source.json --out fig_holdout_v11.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import gauss_seidel_text, split_main, split_section
from figures.fig_holdout_v8 import episode_text
from figures.inputs import ReportFigure, report_csv
from model import holdout_split_v11 as hs11

FIGURE = "fig_holdout_v11"
REPORT_TITLE = "The model on graphs it has not seen, v11 (held-out validation, v8's term, the v10 session trained on)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v11 judgement; None when the figure was not drawn."""
    if fig is None:
        return None
    cells = report_csv(fig.csv, f"{FIGURE} numbers")
    intro = (
        "The same judgement with v8's GPU-work term, unchanged, each cell the min of 5 timed runs interleaved "
        "(`--run-order rounds`), as v9 and v10, on a new split written down in docs/holdout-v11.md before the "
        "session: the train cells are the archived v10 session's, all 17 of its graphs, not measured again, and the "
        "held-out graphs, made with seed 33, which no earlier graph used, at edge factors 3, 6 and 14 inside the "
        "train range, were measured in one new device session ({graphs}): the drift between the two sessions is part "
        "of the error. Nothing was tuned after the comparison." + episode_text(cells) + gauss_seidel_text(cells)
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs11.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v11")


if __name__ == "__main__":
    sys.exit(main())
