"""Issue 21's uvm-capped, capped validation 6 (model/uvm_capped_validation6.py), the first on an NVIDIA H200: capped
validation 2's figure for its judged cells, one panel per rule (h200, the primary: e per evicted chunk refitted on the
H200's graph check; h200_naive, the registered form refitted; h100, capped validation 4's costs; pass 1 alone).

    python -m figures.fig_uvm_capped_validation6 --cells capped_validation6_cells.csv --source source.json \
        --out fig.png [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures.fig_uvm_capped_validation2 import capped_main

FIGURE = "fig_uvm_capped_validation6"
RULES = {
    "h200": "h200 (primary): f = 1, e per evicted chunk fitted on the H200 graph check, no Naive cost",
    "h200_naive": "h200_naive: e and Naive's e refitted together on the same cells (reported)",
    "h100": "h100: capped validation 4's H100 costs as registered (reported)",
    "pass1": "pass 1 alone: h200 against one process a cell (reported)",
}
DEFINITION = ("error = predicted / measured uvm-capped - 1; measured = the median over 3 separate processes of each "
              "one's median of 2 runs; predicted = device-mode median + f x the capped simulation's migration of the "
              "recorded trace by its access pattern's shape + e x evicted chunks + Naive's tail "
              "(docs/uvm-capped-validations.md, capped validation 6)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return capped_main(argv, FIGURE, RULES, DEFINITION, 6)


if __name__ == "__main__":
    sys.exit(main())
