"""Issue 21's uvm-capped, capped validation 5 (model/uvm_capped_validation5.py): capped validation 2's figure for its
judged cells, one panel per rule (unit, the primary; pooled; the floor, fitted on these runs; pass 1 alone, reported:
capped validation 4's design of one process a cell).

    python -m figures.fig_uvm_capped_validation5 --cells capped_validation5_cells.csv --source source.json \
        --out fig.png [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures.fig_uvm_capped_validation2 import capped_main

FIGURE = "fig_uvm_capped_validation5"
RULES = {
    "unit": "unit (primary): capped validation 4's rule, against the median of 3 processes a cell",
    "pooled": "pooled: capped validation 4's pooled f and terms, the same measured value",
    "floor": "floor: f fitted on these runs (not a prediction)",
    "pass1": "pass 1 alone: unit against one process a cell, validation 4's order (reported)",
}
DEFINITION = ("error = predicted / measured uvm-capped - 1; measured = the median over 3 separate processes of each "
              "one's median of 2 runs; predicted = device-mode median + f x the capped simulation's migration of the "
              "recorded trace by its access pattern's shape + e x evicted chunks (+ e_naive x Naive's) + Naive's "
              "tail (docs/uvm-capped-validations.md, capped validation 5)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return capped_main(argv, FIGURE, RULES, DEFINITION, 5)


if __name__ == "__main__":
    sys.exit(main())
