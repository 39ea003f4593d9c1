"""Issue 21's uvm-capped, capped validation 7 (model/uvm_capped_validation7.py), the first capped rule with a call
factor: capped validation 2's figure for its judged cells, one panel per rule (micro_end, the primary: migration and
eviction scaled by the call's closing uvmfault; h200, capped validation 6's rule; pass 1 alone).

    python -m figures.fig_uvm_capped_validation7 --cells capped_validation7_cells.csv --source source.json \
        --out fig.png [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures.fig_uvm_capped_validation2 import capped_main

FIGURE = "fig_uvm_capped_validation7"
RULES = {
    "micro_end": "micro_end (primary): a x migration + b x evicted chunks, times g = closing uvmfault ^ 0.35",
    "h200": "h200: capped validation 6's rule as registered (reported)",
    "pass1": "pass 1 alone: micro_end against one process a cell (reported)",
}
DEFINITION = ("error = predicted / measured uvm-capped - 1; measured = the median over 3 separate processes of each "
              "one's median of 2 runs; predicted = device-mode median + Naive's tail + g x (a x the capped "
              "simulation's migration of the recorded trace by its access pattern's shape + b x evicted chunks), "
              "g = uvmfault_end ^ 0.35 (docs/uvm-capped-validations.md, capped validation 7)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return capped_main(argv, FIGURE, RULES, DEFINITION, 7)


if __name__ == "__main__":
    sys.exit(main())
