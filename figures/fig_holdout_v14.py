"""Issue 24's held-out validation v14 (docs/holdout-v14.md): v13h's figure and report section
(figures/fig_holdout_v13.py) for the v14 judgement: split v13 again, measured at a commit where `gauss-seidel`
PageRank defers hub lists by default (`--pr-hub-entries auto`).

    python -m figures.fig_holdout_v14 --holdout holdout_cells.csv --source source.json --out fig_holdout_v14.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import gauss_seidel_text, split_main, split_section
from figures.fig_holdout_v8 import episode_text
from figures.inputs import ReportFigure, report_csv
from model import holdout_split_v14 as hs14

FIGURE = "fig_holdout_v14"
REPORT_TITLE = "The model on graphs it has not seen, v14 (v13h again, Gauss-Seidel deferring hub lists)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v14 judgement; None when the figure was not drawn."""
    if fig is None:
        return None
    cells = report_csv(fig.csv, f"{FIGURE} numbers")
    intro = (
        "v13h's judgement again, unchanged (split v13, term v12 refitted on the 25 train graphs measured again on "
        "the NVIDIA H200 that measured the held-out cells, 3 processes a held-out cell), at a commit where "
        "Gauss-Seidel PageRank defers lists longer than twice the entries per resident warp to a push after its "
        "round, its default since 2026-11-28 (docs/holdout-v14.md, written down before the session; {graphs}). "
        "The kernel change followed v13h's Gauss-Seidel misses. Nothing was tuned after the comparison."
        + episode_text(cells)
        + gauss_seidel_text(cells)
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs14.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v14")


if __name__ == "__main__":
    sys.exit(main())
