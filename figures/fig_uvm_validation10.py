"""Issue 21's UVM simulator, validation 10 (model/uvm_validation10.py): fig_uvm_validation4's figure for its rules,
each judged cold-UVM cell's predicted time (with the registered multiplier of its algorithm and variant) against the
median of its 9 measured runs, interleaved across the step's cells, one panel per rule (f = 1, the primary; the
pooled constant; pageable from the copies at the call's start and end; the start-only pageable and uvmfault rules,
reported) and the floor (fitted on these runs: not a prediction).

    python -m figures.fig_uvm_validation10 --cells validation10_cells.csv --source source.json --out fig.png \
        [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures import fig_uvm_validation9
from figures.fig_uvm_validation4 import validation_main

FIGURE = "fig_uvm_validation10"
RULES = {
    "none": "none (primary): f = 1",
    "pooled": "pooled: one registered factor",
    **{k: v for k, v in fig_uvm_validation9.RULES.items() if k not in ("none", "pooled")},
}
DEFINITION = ("error = predicted / measured cold-UVM median of 9 interleaved runs - 1; predicted = device-mode "
              "median + f x the simulated migration of the CPU-derived trace, by its access pattern's shape, x the "
              "registered multiplier of its algorithm and variant (docs/uvm-validations-10-12.md, "
              "validation 10)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return validation_main(argv, FIGURE, 10, RULES, DEFINITION)


if __name__ == "__main__":
    sys.exit(main())
