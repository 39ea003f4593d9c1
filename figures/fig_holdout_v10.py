"""Issue 24's held-out validation v10 (model/holdout.py --split v10, docs/holdout-v7-v10.md "Held-out validation v10"):
the same figure as figures/fig_holdout.py (v2), drawn from the v10 session's judged cells (each the min of its 5
timed runs, the runs interleaved: `--run-order rounds`), and its report section, as v9's (figures/fig_holdout_v9.py:
the graphs of each split, the cells whose runs spread over 20%, Gauss-Seidel PageRank's held-out device cells with
their rounds' spread). The workflow draws it only where the v10 session's archive exists (workflow/rules/model.smk,
holdout_judge_split).

    python -m figures.fig_holdout_v10 --holdout holdout_cells.csv --source source.json --out fig_holdout_v10.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import gauss_seidel_text, split_main, split_section
from figures.fig_holdout_v8 import episode_text
from figures.inputs import ReportFigure, report_csv
from model import holdout_split_v10 as hs10

FIGURE = "fig_holdout_v10"
REPORT_TITLE = "The model on graphs it has not seen, v10 (held-out validation, v8's term, v9's graphs trained on)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v10 judgement; None when the figure was not drawn."""
    if fig is None:
        return None
    cells = report_csv(fig.csv, f"{FIGURE} numbers")
    intro = (
        "The same judgement with v8's GPU-work term, unchanged, each cell the min of 5 timed runs interleaved "
        "(`--run-order rounds`), as v9, on a new split and a new device session, both written down in "
        "docs/holdout-v7-v10.md before the session: every graph of the v9 session in the train set, split v9's "
        "held-out graphs at edge factors 3 and 7 among them, and held-out graphs made with seed 32, which no earlier "
        "graph used, at edge factors 3 and 14, inside the train range, every graph measured in that one session "
        "({graphs}). Nothing was tuned after the comparison." + episode_text(cells) + gauss_seidel_text(cells)
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs10.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v10")


if __name__ == "__main__":
    sys.exit(main())
