"""Issue 21's UVM simulator, validation 8 (model/uvm_validation8.py): fig_uvm_validation4's figure for its rules,
each judged cold-UVM cell's predicted time (with the R-MAT BFS term) against the median of its 9 measured runs,
interleaved across the step's cells, one panel per rule (pageable from the copies at the call's start and end, the
primary; none; the start-only pageable and uvmfault rules, reported) and the floor (fitted on these runs: not a
prediction).

    python -m figures.fig_uvm_validation8 --cells validation8_cells.csv --source source.json --out fig.png \
        [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures.fig_uvm_validation4 import validation_main
from figures.fig_uvm_validation6 import RULES

FIGURE = "fig_uvm_validation8"
DEFINITION = ("error = predicted / measured cold-UVM median of 9 interleaved runs - 1; predicted = device-mode "
              "median + f x the simulated migration of the CPU-derived trace, by its access pattern's shape, x the "
              "registered R-MAT BFS term (docs/uvm-validations.md, validation 8)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return validation_main(argv, FIGURE, 8, RULES, DEFINITION)


if __name__ == "__main__":
    sys.exit(main())
