"""Issue 21's uvm-capped, capped validation 2 (model/uvm_capped_validation2.py): fig_uvm_validation3's figure for the
judged uvm-capped cells, each cell's predicted time against the median of its measured runs, one panel per rule
(pageable, the primary; none; the floor, fitted on these runs; the pageable factor without the eviction cost).
`capped_main` draws capped validation 3's the same way (figures/fig_uvm_capped_validation3.py).

    python -m figures.fig_uvm_capped_validation2 --cells capped_validation2_cells.csv --source source.json \
        --out fig.png [--out-csv fig.csv]
"""

from __future__ import annotations

import sys
from functools import partial

from figures import cli
from figures import fig_uvm_validation3 as v3

FIGURE = "fig_uvm_capped_validation2"
RULES = {
    "pageable": "pageable (primary): f from the call's copies, + e per evicted chunk",
    "none": "none: f = 1, + e per evicted chunk",
    "floor": "floor: f fitted on these runs (not a prediction)",
    "no_eviction_cost": "pageable f, e = 0 (reported)",
}
MEASURED = "capped_ms"
DEFINITION = ("error = predicted / measured uvm-capped median - 1; predicted = device-mode median + f x the capped "
              "simulation's migration of the recorded trace by its access pattern's shape + e x evicted chunks "
              "(docs/uvm-capped-validations.md, capped validation 2)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main", "capped_main"]


def capped_main(argv, figure: str, rules: dict, definition: str, n: int, judged: bool = False) -> int:
    """A capped validation's figure: predicted against measured uvm-capped per rule, from capped_validation{n}_cells;
    `judged` as fig_uvm_validation3.compute's."""
    return cli.figure_main(
        argv,
        figure=figure,
        description=f"uvm-capped's validation {n}: predicted against measured uvm-capped per calibration rule",
        tables=[],
        inputs=[
            cli.Input(
                "cells",
                partial(v3.load_cells, rules=rules, measured=MEASURED),
                f"capped_validation{n}_cells.csv (python -m model.uvm_capped_validation{n} judge)",
            )
        ],
        compute=partial(v3.compute, rules=rules, measured=MEASURED, judged=judged),
        draw=partial(
            v3.draw, rules=rules, definition=definition, measured=MEASURED, xlabel="measured uvm-capped, emulated (ms)"
        ),  # fmt: skip
    )


def main(argv=None) -> int:
    return capped_main(argv, FIGURE, RULES, DEFINITION, 2)


if __name__ == "__main__":
    sys.exit(main())
