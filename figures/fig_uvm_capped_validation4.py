"""Issue 21's uvm-capped, capped validation 4 (model/uvm_capped_validation4.py): capped validation 2's figure for its
judged cells, one panel per rule (unit, the primary; pooled; the floor, fitted on these runs; capped validation 3's
registered rule, reported).

    python -m figures.fig_uvm_capped_validation4 --cells capped_validation4_cells.csv --source source.json \
        --out fig.png [--out-csv fig.csv]
"""

from __future__ import annotations

import sys

from figures.fig_uvm_capped_validation2 import capped_main

FIGURE = "fig_uvm_capped_validation4"
RULES = {
    "unit": "unit (primary): f = 1, + e (e_naive) per evicted chunk + Naive's tail",
    "pooled": "pooled: one f fitted on the archived capped calls, + its own terms",
    "floor": "floor: f fitted on these runs (not a prediction)",
    "validation3": "capped validation 3's rule: pageable f, + its terms (reported)",
}
DEFINITION = ("error = predicted / measured uvm-capped median - 1; predicted = device-mode median + f x the capped "
              "simulation's migration of the recorded trace by its access pattern's shape + e x evicted chunks "
              "(+ e_naive x Naive's) + Naive's device median x the growth of the summed longest list per sub-launch "
              "(docs/uvm-capped-validations.md, capped validation 4)")  # fmt: skip
__all__ = ["FIGURE", "RULES", "DEFINITION", "main"]


def main(argv=None) -> int:
    return capped_main(argv, FIGURE, RULES, DEFINITION, 4)


if __name__ == "__main__":
    sys.exit(main())
