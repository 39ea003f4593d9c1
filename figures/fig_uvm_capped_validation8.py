"""Issue 21's uvm-capped, capped validation 8 (model/uvm_capped_validation8.py): capped validation 7's rule unchanged,
each cell measured in three device calls; capped validation 2's figure for its judged cells, each point the median
over the calls of the measured and of the predicted time, each error the judged one (the median over the calls of
each call's error), one panel per rule (micro_end, the primary; h200, capped validation 6's rule).

    python -m figures.fig_uvm_capped_validation8 --cells capped_validation8_cells.csv --source source.json \
        --out fig.png [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures.fig_uvm_capped_validation2 import capped_main

FIGURE = "fig_uvm_capped_validation8"
RULES = {
    "micro_end": "micro_end (primary): capped validation 7's rule, unchanged",
    "h200": "h200: capped validation 6's rule as registered (reported)",
}
DEFINITION = ("error = the median over 3 device calls of (predicted / measured uvm-capped - 1); in each call, measured "
              "= the median over 3 processes of each one's median of 2 runs, predicted = that call's device-mode "
              "median + Naive's tail + g x (a x the capped simulation's migration + b x evicted chunks), g = the "
              "call's uvmfault_end ^ 0.35 (docs/uvm-capped-validation8.md)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return capped_main(argv, FIGURE, RULES, DEFINITION, 8, judged=True)


if __name__ == "__main__":
    sys.exit(main())
