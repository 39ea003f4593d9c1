"""Issue 21's UVM simulator, validation 6 (model/uvm_validation6.py): fig_uvm_validation4's figure for its rules,
each judged cold-UVM cell's predicted time against the median of its 7 measured runs, one panel per rule
(pageable from the copies at the call's start and end, the primary; none; the start-only pageable and uvmfault
rules, reported) and the floor (fitted on these runs: not a prediction).

    python -m figures.fig_uvm_validation6 --cells validation6_cells.csv --source source.json --out fig.png \
        [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures.fig_uvm_validation4 import validation_main

FIGURE = "fig_uvm_validation6"
RULES = {
    "pageable": "pageable (primary): copies at start and end",
    "none": "none: f = 1",
    "pageable_start": "pageable at start (reported)",
    "micro_start": "uvmfault at start (reported)",
    "floor": "floor: fitted on these runs (not a prediction)",
}
DEFINITION = ("error = predicted / measured cold-UVM median of 7 runs - 1; predicted = device-mode median + f x "
              "the simulated migration of the CPU-derived trace, by its access pattern's shape "
              "(docs/uvm-validations.md, validation 6)")  # fmt: skip


def main(argv=None) -> int:
    return validation_main(argv, FIGURE, 6, RULES, DEFINITION)


if __name__ == "__main__":
    sys.exit(main())
