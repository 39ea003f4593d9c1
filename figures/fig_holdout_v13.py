"""Issue 24's held-out validation v13 (docs/holdout-v13.md): the same figure as figures/fig_holdout.py (v2), drawn
from the v13 judgement's cells (model/holdout_passes.py: each held-out cell the median over 3 separate processes of
each one's min of 5 timed runs, interleaved: `--run-order rounds`; the train cells one process's min each, measured
again on the held-out call's H200 in the same machine session: v13h, docs/holdout-v13.md), and its report section,
as v12's (figures/fig_holdout_v12.py).

    python -m figures.fig_holdout_v13 --holdout holdout_cells.csv --source source.json --out fig_holdout_v13.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import gauss_seidel_text, split_main, split_section
from figures.fig_holdout_v8 import episode_text
from figures.inputs import ReportFigure, report_csv
from model import holdout_split_v13 as hs13

FIGURE = "fig_holdout_v13"
REPORT_TITLE = "The model on graphs it has not seen, v13 (held-out validation, each cell measured by 3 processes)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v13 judgement; None when the figure was not drawn."""
    if fig is None:
        return None
    cells = report_csv(fig.csv, f"{FIGURE} numbers")
    intro = (
        "The same judgement with the GPU-work term v12, unchanged in form and refitted on 25 graphs (the v12 "
        "combined session's graphs, measured again, one process a cell, on the NVIDIA H200 that measured the "
        "held-out cells, in the same machine session: v13h), on a new split and a new design written down in "
        "docs/holdout-v13.md before the session: the held-out graphs, made with seed 35, which no held-out split "
        "used, at scale 19 and edge factors 9 and 13, inside the train range, were measured in one device call by "
        "3 separate processes each ({graphs}); a held-out cell's measured time is the median over the 3 processes "
        "of each one's min of 5 timed runs interleaved (`--run-order rounds`). "
        "Nothing was tuned after the comparison." + episode_text(cells) + gauss_seidel_text(cells)
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs13.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v13")


if __name__ == "__main__":
    sys.exit(main())
