"""Issue 24's held-out validation v16 (docs/holdout-v16.md): v13h's figure and report section
(figures/fig_holdout_v13.py) for the v16 judgement: split v13 and v15's design again, with term v16 (Jacobi
PageRank's critical path through the grid order in its floor, model/gpu_work_v16.py).

    python -m figures.fig_holdout_v16 --holdout holdout_cells.csv --source source.json --out fig_holdout_v16.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import gauss_seidel_text, split_main, split_section
from figures.fig_holdout_v8 import episode_text
from figures.inputs import ReportFigure, report_csv
from model import holdout_split_v16 as hs16

FIGURE = "fig_holdout_v16"
REPORT_TITLE = "The model on graphs it has not seen, v16 (term v16: Jacobi PageRank's critical path)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v16 judgement; None when the figure was not drawn."""
    if fig is None:
        return None
    cells = report_csv(fig.csv, f"{FIGURE} numbers")
    intro = (
        "v15's judgement again (split v13, refitted on the 25 train graphs measured again on the NVIDIA H200 that "
        "measured the held-out cells, 3 processes a held-out cell) with term v16: term v12 with Jacobi PageRank's "
        "longest walk replaced by its critical path through the grid order, the hub's walk less what the rest of "
        "the grid overlaps (docs/holdout-v16.md, written down before the session; {graphs}). The term was sought "
        "after three validations missed the same held-out Jacobi cell and chosen on train cells. Nothing was tuned "
        "after the comparison." + episode_text(cells) + gauss_seidel_text(cells)
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs16.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v16")


if __name__ == "__main__":
    sys.exit(main())
