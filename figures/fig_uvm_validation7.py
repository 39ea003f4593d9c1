"""Issue 21's UVM simulator, validation 7 (model/uvm_validation7.py): fig_uvm_validation4's figure for its rules,
each judged cold-UVM cell's predicted time against the median of its 9 measured runs, one panel per rule
(pageable from the copies at the call's start and end, the primary; none; the start-only pageable and uvmfault
rules, reported) and the floor (fitted on these runs: not a prediction).

    python -m figures.fig_uvm_validation7 --cells validation7_cells.csv --source source.json --out fig.png \
        [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures.fig_uvm_validation4 import validation_main
from figures.fig_uvm_validation6 import RULES

FIGURE = "fig_uvm_validation7"
DEFINITION = ("error = predicted / measured cold-UVM median of 9 runs - 1; predicted = device-mode median + f x "
              "the simulated migration of the CPU-derived trace, by its access pattern's shape "
              "(docs/uvm-validations.md, validation 7)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return validation_main(argv, FIGURE, 7, RULES, DEFINITION)


if __name__ == "__main__":
    sys.exit(main())
