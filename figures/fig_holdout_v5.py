"""Issue 24's held-out validation v5 (model/holdout.py --split v5, docs/holdout-v3-v6.md "GPU-work term v5 and held-out
validation v5"): the same figure as figures/fig_holdout.py (v2), drawn from the v5 session's judged cells, and its
report section, which names the graphs of each split the session measured and those registered but not measured.
The workflow draws it only where the v5 session's archive exists (workflow/rules/model.smk, holdout_judge_split).

    python -m figures.fig_holdout_v5 --holdout holdout_cells.csv --source source.json --out fig_holdout_v5.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import split_main, split_section
from figures.inputs import ReportFigure
from model import holdout_split_v5 as hs5

FIGURE = "fig_holdout_v5"
REPORT_TITLE = "The model on graphs it has not seen, v5 (held-out validation with the GPU-work term v5)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v5 judgement; None when the figure was not drawn."""
    intro = (
        "The same judgement with the GPU-work term v5 (v4's floor plus a cost per list walked, fitted with the "
        "other costs on the train graphs' device cells) on a new split and a new device session, both written "
        "down in docs/holdout-v3-v6.md before the session: v4's held-out urand21ef8 and rmat21ef24 now in the train "
        "set, and the held-out graphs at edge factors 4, 8 and 24, made with seed 27, which no earlier graph used, "
        "every graph measured in that one session ({graphs}). Nothing was tuned after the comparison."
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs5.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v5")


if __name__ == "__main__":
    sys.exit(main())
