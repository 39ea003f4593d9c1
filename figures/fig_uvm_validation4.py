"""Issue 21's UVM simulator, validation 4 (model/uvm_validation4.py): fig_uvm_validation3's figure for its rules,
each judged cold-UVM cell's predicted time against its measured median, one panel per rule (pageable, the primary;
micro_start; micro_instances; none), the floor (fitted on these runs: not a prediction) and validation 3's rule on
the same cells.

    python -m figures.fig_uvm_validation4 --cells validation4_cells.csv --source source.json --out fig.png \
        [--out-csv fig.csv]
"""

from __future__ import annotations

import sys
from functools import partial

from figures import cli
from figures import fig_uvm_validation3 as v3

FIGURE = "fig_uvm_validation4"
RULES = {
    "pageable": "pageable (primary): linkbw's factor",
    "micro_start": "micro_start: uvmfault at the start",
    "micro_instances": "micro_instances: every uvmfault run",
    "none": "none: f = 1",
    "floor": "floor: fitted on these runs (not a prediction)",
    "v3": "v3: validation 3's shape and rule",
}
DEFINITION = ("error = predicted / measured cold-UVM median - 1; predicted = device-mode median + f x the "
              "simulated migration of the CPU-derived trace, by its access pattern's shape (docs/uvm-validations.md, "
              "validation 4)")  # fmt: skip


def validation_main(argv, figure: str, n: int, rules: dict, definition: str, judged: bool = False) -> int:
    """fig_uvm_validation3's figure for validation n's judged cells and rules (validations 4 and 5); `judged`: the
    cells' own error columns (validation 13's median over calls), as fig_uvm_validation3.compute says."""
    return cli.figure_main(
        argv,
        figure=figure,
        description=f"The UVM simulator's validation {n}: predicted against measured cold UVM per calibration rule",
        tables=[],
        inputs=[
            cli.Input(
                "cells",
                partial(v3.load_cells, rules=rules),
                f"validation{n}_cells.csv (python -m model.uvm_validation{n} judge)",
            )
        ],
        compute=partial(v3.compute, rules=rules, judged=judged),
        draw=partial(v3.draw, rules=rules, definition=definition),
    )


def main(argv=None) -> int:
    return validation_main(argv, FIGURE, 4, RULES, DEFINITION)


if __name__ == "__main__":
    sys.exit(main())
