"""Issue 24's held-out validation v15 (docs/holdout-v15.md): v13h's figure and report section
(figures/fig_holdout_v13.py) for the v15 judgement: split v13 again, measured at a commit where `gauss-seidel`
PageRank's default hub deferral takes at least 4 096 entries.

    python -m figures.fig_holdout_v15 --holdout holdout_cells.csv --source source.json --out fig_holdout_v15.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import gauss_seidel_text, split_main, split_section
from figures.fig_holdout_v8 import episode_text
from figures.inputs import ReportFigure, report_csv
from model import holdout_split_v15 as hs15

FIGURE = "fig_holdout_v15"
REPORT_TITLE = "The model on graphs it has not seen, v15 (v14 again, hub deferral of at least 4 096 entries)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v15 judgement; None when the figure was not drawn."""
    if fig is None:
        return None
    cells = report_csv(fig.csv, f"{FIGURE} numbers")
    intro = (
        "v14's judgement again, unchanged (split v13, term v12 refitted on the 25 train graphs measured again on "
        "the NVIDIA H200 that measured the held-out cells, 3 processes a held-out cell), at a commit where "
        "Gauss-Seidel PageRank defers lists longer than twice the entries per resident warp and at least 4 096 "
        "entries, its default since 2026-11-29 (docs/holdout-v15.md, written down before the session; {graphs}). "
        "The floor followed in-sample findings on train graphs. Nothing was tuned after the comparison."
        + episode_text(cells)
        + gauss_seidel_text(cells)
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs15.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v15")


if __name__ == "__main__":
    sys.exit(main())
