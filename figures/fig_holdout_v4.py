"""Issue 24's held-out validation v4 (model/holdout.py --split v4, docs/holdout-v3-v6.md "GPU-work term v4 and held-out
validation v4"): the same figure as figures/fig_holdout.py (v2), drawn from the v4 session's judged cells, and its
report section, which names the graphs of each split the session measured and those registered but not measured.
The workflow draws it only where the v4 session's archive exists (workflow/rules/model.smk, holdout_judge_split).

    python -m figures.fig_holdout_v4 --holdout holdout_cells.csv --source source.json --out fig_holdout_v4.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import split_main, split_section
from figures.inputs import ReportFigure
from model import holdout_split_v4 as hs4

FIGURE = "fig_holdout_v4"
REPORT_TITLE = "The model on graphs it has not seen, v4 (held-out validation with the GPU-work term v4)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v4 judgement; None when the figure was not drawn."""
    intro = (
        "The same judgement with the GPU-work term v4 (Gauss-Seidel PageRank's launches as the GPU runs them, a mix "
        "of its trace and the Jacobi sweep's by the share of vertices one wave of resident warps updates; the floor "
        "in the sum form; and the zero-copy link terms, a cost per counted byte and per serial step, fitted on the "
        "train graphs' zero-copy cells) on a new split and a new device session, both written down in "
        "docs/holdout-v3-v6.md "
        "before the session: every graph measured in that one session, the held-out ones made with a seed no "
        "earlier graph used ({graphs}). Nothing was tuned after the comparison."
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs4.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v4")


if __name__ == "__main__":
    sys.exit(main())
