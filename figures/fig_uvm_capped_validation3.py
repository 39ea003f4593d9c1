"""Issue 21's uvm-capped, capped validation 3 (model/uvm_capped_validation3.py): capped validation 2's figure for its
judged cells, one panel per rule (pageable, the primary; none; the floor, fitted on these runs; capped validation 2's
registered rule, reported).

    python -m figures.fig_uvm_capped_validation3 --cells capped_validation3_cells.csv --source source.json \
        --out fig.png [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures.fig_uvm_capped_validation2 import capped_main

FIGURE = "fig_uvm_capped_validation3"
RULES = {
    "pageable": "pageable (primary): f from the call's copies, + e (e_naive) per evicted chunk + Naive's tail",
    "none": "none: f = 1, + the same terms",
    "floor": "floor: f fitted on these runs (not a prediction)",
    "validation2": "capped validation 2's rule: pageable f, + e per evicted chunk (reported)",
}
DEFINITION = ("error = predicted / measured uvm-capped median - 1; predicted = device-mode median + f x the capped "
              "simulation's migration of the recorded trace by its access pattern's shape + e x evicted chunks "
              "(+ e_naive x Naive's) + Naive's device median x the growth of the summed longest list per sub-launch "
              "(docs/uvm-capped-validations.md, capped validation 3)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return capped_main(argv, FIGURE, RULES, DEFINITION, 3)


if __name__ == "__main__":
    sys.exit(main())
