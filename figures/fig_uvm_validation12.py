"""Issue 21's UVM simulator, validation 12 (model/uvm_validation12.py): validation 10's figure and rules for its
transfer to a second GPU (the H200; the rule was fitted on H100 calls), each judged cold-UVM cell's predicted time
against the median of its 9 measured runs.

    python -m figures.fig_uvm_validation12 --cells validation12_cells.csv --source source.json --out fig.png \
        [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures import fig_uvm_validation10
from figures.fig_uvm_validation4 import validation_main

FIGURE = "fig_uvm_validation12"
RULES = fig_uvm_validation10.RULES
DEFINITION = fig_uvm_validation10.DEFINITION.replace(
    "validation 10)", "validation 12: validation 10's rule, fitted on an H100, on the call's GPU)"
)
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return validation_main(argv, FIGURE, 12, RULES, DEFINITION)


if __name__ == "__main__":
    sys.exit(main())
