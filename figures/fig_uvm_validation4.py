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
              "simulated migration of the CPU-derived trace, by its access pattern's shape (docs/model.md, "
              "validation 4)")  # fmt: skip


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="The UVM simulator's validation 4: predicted against measured cold UVM per calibration rule",
        tables=[],
        inputs=[
            cli.Input(
                "cells",
                partial(v3.load_cells, rules=RULES),
                "validation4_cells.csv (python -m model.uvm_validation4 judge)",
            )
        ],
        compute=partial(v3.compute, rules=RULES),
        draw=partial(v3.draw, rules=RULES, definition=DEFINITION),
    )


if __name__ == "__main__":
    sys.exit(main())
