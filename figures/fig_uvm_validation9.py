"""Issue 21's UVM simulator, validation 9 (model/uvm_validation9.py): fig_uvm_validation4's figure for its rules,
each judged cold-UVM cell's predicted time (with the R-MAT BFS term) against the median of its 9 measured runs,
interleaved across the step's cells, one panel per rule (the pooled constant factor, the primary; pageable from
the copies at the call's start and end; none; the start-only pageable and uvmfault rules, reported) and the floor
(fitted on these runs: not a prediction).

    python -m figures.fig_uvm_validation9 --cells validation9_cells.csv --source source.json --out fig.png \
        [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures import fig_uvm_validation6
from figures.fig_uvm_validation4 import validation_main

FIGURE = "fig_uvm_validation9"
RULES = {
    "pooled": "pooled (primary): one registered factor",
    "pageable": "pageable: copies at start and end",
    **{k: v for k, v in fig_uvm_validation6.RULES.items() if k != "pageable"},
}
DEFINITION = ("error = predicted / measured cold-UVM median of 9 interleaved runs - 1; predicted = device-mode "
              "median + f x the simulated migration of the CPU-derived trace, by its access pattern's shape, x the "
              "registered R-MAT BFS term (docs/uvm-validations.md, validation 9)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return validation_main(argv, FIGURE, 9, RULES, DEFINITION)


if __name__ == "__main__":
    sys.exit(main())
