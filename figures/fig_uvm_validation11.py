"""Issue 21's UVM simulator, validation 11 (model/uvm_validation11.py): validation 10's figure and rules for its
repeat on new graphs, each judged cold-UVM cell's predicted time against the median of its 9 measured runs.

    python -m figures.fig_uvm_validation11 --cells validation11_cells.csv --source source.json --out fig.png \
        [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures import fig_uvm_validation10
from figures.fig_uvm_validation4 import validation_main

FIGURE = "fig_uvm_validation11"
RULES = fig_uvm_validation10.RULES
DEFINITION = fig_uvm_validation10.DEFINITION.replace("validation 10)", "validation 11: validation 10's rule)")
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return validation_main(argv, FIGURE, 11, RULES, DEFINITION)


if __name__ == "__main__":
    sys.exit(main())
