"""Issue 21's UVM simulator, validation 13 (model/uvm_validation13.py): validation 10's rule unchanged, each cold-UVM
cell measured in three device calls; validation 10's figure for its judged cells, each point the median over the
calls of the measured (the median of 9 runs in each call) and of the predicted time, each error the judged one (the
median over the calls of each call's error), one panel per rule.

    python -m figures.fig_uvm_validation13 --cells validation13_cells.csv --source source.json --out fig.png \
        [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures import fig_uvm_validation10
from figures.fig_uvm_validation4 import validation_main

FIGURE = "fig_uvm_validation13"
RULES = fig_uvm_validation10.RULES
DEFINITION = ("error = the median over 3 device calls of (predicted / measured cold-UVM median of 9 interleaved runs "
              "- 1); predicted = the call's device-mode median + f x the simulated migration of the CPU-derived "
              "trace, by its access pattern's shape, x the registered multiplier of its algorithm and variant "
              "(validation 10's rule unchanged; docs/uvm-validation13.md)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return validation_main(argv, FIGURE, 13, RULES, DEFINITION, judged=True)


if __name__ == "__main__":
    sys.exit(main())
