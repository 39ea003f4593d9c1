"""Issue 24's held-out validation v3 (model/holdout.py --split v3, docs/holdout-v3-v6.md "GPU-work term v3 and held-out
validation v3"): the same figure as figures/fig_holdout.py (v2), drawn from the v3 session's judged cells, and its
report section, which names the graphs of each split the session measured and those registered but not measured.

    python -m figures.fig_holdout_v3 --holdout holdout_cells.csv --source source.json --out fig_holdout_v3.png
        [--out-csv ...]
"""

from __future__ import annotations

import sys

from figures.fig_holdout import split_main, split_section
from figures.inputs import ReportFigure
from model import holdout_split_v3 as hs3

FIGURE = "fig_holdout_v3"
REPORT_TITLE = "The model on graphs it has not seen, v3 (held-out validation with the GPU-work term v3)"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the v3 judgement; None when the figure was not drawn."""
    intro = (
        "The same judgement with the GPU-work term v3 (a cost per launch, and a per-entry cost that grows once the "
        "per-vertex state outgrows the L2, whose effective capacity comes from the session's own microbenchmark) "
        "on a new split and a new device session, both written down in docs/holdout-v3-v6.md before the session: the "
        "costs fitted on the train graphs' device cells, every graph measured in that one session, the held-out "
        "ones made with a seed no earlier graph used ({graphs}). Nothing was tuned "
        "after the comparison."
    )
    return split_section(fig, FIGURE, REPORT_TITLE, hs3.GRAPHS, intro)


def main(argv=None) -> int:
    return split_main(argv, FIGURE, "v3")


if __name__ == "__main__":
    sys.exit(main())
