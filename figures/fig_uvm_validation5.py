"""Issue 21's UVM simulator, validation 5 (model/uvm_validation5.py): fig_uvm_validation4's figure for its rules,
each judged cold-UVM cell's predicted time against the median of its 5 measured runs, one panel per rule
(pageable, the primary; none) and the floor (fitted on these runs: not a prediction).

    python -m figures.fig_uvm_validation5 --cells validation5_cells.csv --source source.json --out fig.png \
        [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures.fig_uvm_validation4 import validation_main

FIGURE = "fig_uvm_validation5"
RULES = {
    "pageable": "pageable (primary): linkbw's factor",
    "none": "none: f = 1",
    "floor": "floor: fitted on these runs (not a prediction)",
}
DEFINITION = ("error = predicted / measured cold-UVM median of 5 runs - 1; predicted = device-mode median + f x "
              "the simulated migration of the CPU-derived trace, by its access pattern's shape "
              "(docs/uvm-validations.md, validation 5)")  # fmt: skip


def main(argv=None) -> int:
    return validation_main(argv, FIGURE, 5, RULES, DEFINITION)


if __name__ == "__main__":
    sys.exit(main())
