"""Issue 24's held-out validation v6 (model/holdout.py --split v6, docs/holdout-v3-v6.md "GPU-work term v6 and held-out
validation v6"): the same figure as figures/fig_holdout.py (v2), drawn from the v6 session's judged cells, and its
report section, which names the graphs of each split the session measured and those registered but not measured,
and gives Gauss-Seidel PageRank's held-out device cells with their rounds' spread (the runs' iterations min-max) beside
their error, as registered. The workflow draws it only where the v6 session's archive exists
(workflow/rules/model.smk, holdout_judge_split).

    python -m figures.fig_holdout_v6 --holdout holdout_cells.csv --source source.json --out fig_holdout_v6.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import gauss_seidel_text, split_main, split_section
from figures.inputs import ReportFigure, report_csv
from model import holdout_split_v6 as hs6

FIGURE = "fig_holdout_v6"
REPORT_TITLE = "The model on graphs it has not seen, v6 (held-out validation with the GPU-work term v6)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v6 judgement; None when the figure was not drawn."""
    if fig is None:
        return None
    intro = (
        "The same judgement with the GPU-work term v6 (v5's floor with the lists counted over non-isolated vertices, "
        "the isolated vertices' grid threads priced apart, and a cost per warp step of Gauss-Seidel, fitted with the "
        "other costs on the train graphs' device cells) on a new split and a new device session, both written down "
        "in docs/holdout-v3-v6.md before the session: split v5's held-out graphs (edge factors 4, 8 and 24, up to 59% "
        "of the vertices isolated) now in the train set, and held-out graphs at edge factors 4 and 8 made with seed "
        "28, which no earlier graph used, every graph measured in that one session ({graphs}). Nothing was tuned after "
        "the comparison." + gauss_seidel_text(report_csv(fig.csv, f"{FIGURE} numbers"))
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs6.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v6")


if __name__ == "__main__":
    sys.exit(main())
