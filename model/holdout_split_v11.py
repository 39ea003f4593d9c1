"""Issue 24's held-out validation v11: the registered split (docs/holdout-v11.md, written down before the session).
The train table is the archived v10 session's (TRAIN_SESSION: all 17 of its graphs, split v10's three held-out
kron19ef3, urand20ef3 and kron19ef14 among them, one session, one build, one set of microbenchmarks), not measured
again: the v10 call that measured them took 501 s of a 600 s device command. One new device call measures four
held-out graphs made with seed 33, which no earlier session used, inside the covered range (edge factors 3 to 16,
Kronecker and uniform scales 19 and 20, 6.0 to 14.7 M entries): kron19ef6, kron20ef3, urand19ef6, urand19ef14; and
REMEASURED, six train graphs measured again in the same call as a check of the drift between the two sessions
(model/holdout_combine.py: their cells are compared with the archived ones, never fitted nor judged). The GPU-work
term is v8's (model/gpu_work_v8.py, unchanged: archive/gpu-work-v11-exploration-2026-11-27 found no graph-derived
change that helps leaving one graph out); every cell is the MIN of its 5 timed runs and the runs are interleaved
(`emogi run --run-order rounds`), as v9 and v10. Same interface as model.holdout_split (v2).
"""

from __future__ import annotations

from model import holdout_split as v2
from model import holdout_split_v10 as v10
from model.holdout_split import HELD_OUT, MODES, TARGET_MEDIAN, TARGET_WORST, TRAIN, VARIANTS, WIDTHS, SplitError

NAME = "v11"
NEW_SEED = 33  # every held-out graph's generator, weights and roots seed: no earlier session used it
STATISTIC = v10.STATISTIC  # the min of a cell's timed runs (model.holdout.cells_of)
RUN_ORDER = v10.RUN_ORDER  # `emogi run --run-order rounds`, as v9 and v10
TRAIN_SESSION = "archive/holdout-v10-h100-2026-11-27"  # the train graphs' runs, microbenchmarks and workloads
SEEN = tuple(v10.GRAPHS)  # every graph of the v10 session, its held-out three among them
# train graphs the v11 call measures again, only to compare with TRAIN_SESSION's cells (the drift between sessions)
REMEASURED = ("kron17", "urand17", "kron19ef14", "urand20ef3", "kron20ef7", "urand21ef4")
_gen = v2._generated

# name -> split and what the 8-byte file's metadata (`source`) must say
GRAPHS: dict[str, dict] = {
    **{g: {"split": TRAIN, "source": v10.GRAPHS[g]["source"]} for g in SEEN},  # as splits v5 to v10 made them
    "kron19ef6": _gen("kron", 19, HELD_OUT, edge_factor=6, seed=NEW_SEED),
    "kron20ef3": _gen("kron", 20, HELD_OUT, edge_factor=3, seed=NEW_SEED),
    "urand19ef6": _gen("urand", 19, HELD_OUT, edge_factor=6, seed=NEW_SEED),
    "urand19ef14": _gen("urand", 19, HELD_OUT, edge_factor=14, seed=NEW_SEED),
}
ALGORITHMS_OF: dict[str, tuple] = {}  # every graph: all four algorithms
WIDTHS_OF: dict[str, tuple] = {}  # every graph: 8 and 4 bytes

__all__ = ["ALGORITHMS_OF", "GRAPHS", "HELD_OUT", "MODES", "NAME", "REMEASURED", "RUN_ORDER", "STATISTIC",
           "SplitError", "TARGET_MEDIAN", "TARGET_WORST", "TRAIN", "TRAIN_SESSION", "VARIANTS", "WIDTHS", "WIDTHS_OF",
           "check_fit_set", "seed_of", "split_of"]  # fmt: skip


split_of, check_fit_set, seed_of = v2.split_functions(__name__)
