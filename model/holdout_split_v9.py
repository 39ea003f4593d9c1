"""Issue 24's held-out validation v9: the registered split (docs/holdout-v7-v10.md, "Held-out validation v9", written
down before the session). One device call measures ten train graphs, all made by earlier sessions (kron17 and
urand17, split v6's held-out kron20ef4 and urand21ef4, split v7's held-out kron19ef12 and urand19ef12, and split
v8's four held-out kron20ef5, urand20ef5, kron19ef10, urand19ef10: five of each family, edge factors 4 to 16), and
four held-out graphs made with seed 31, which no earlier session used, at edge factors 3 and 7 and at Kronecker
scale 21, which no session measured: kron21ef3, urand21ef3, kron20ef7, urand20ef7. The GPU-work term is v8's
(model/gpu_work_v8.py, unchanged: archive/gpu-work-v9-exploration-2026-11-27 found no change that removes v8's
steady misses in sample); every cell is the MIN of its timed runs (STATISTIC), as v8, and the runs are interleaved
(`emogi run --run-order rounds`, tools/device/holdout_v9.sh) so that a slow episode spreads over every cell of a
table instead of covering one cell's runs. Same interface as model.holdout_split (v2).
"""

from __future__ import annotations

from model import holdout_split as v2
from model import holdout_split_v8 as v8
from model.holdout_split import HELD_OUT, MODES, TARGET_MEDIAN, TARGET_WORST, TRAIN, VARIANTS, WIDTHS, SplitError

NAME = "v9"
NEW_SEED = 31  # every held-out graph's generator, weights and roots seed: no earlier session used it
STATISTIC = v8.STATISTIC  # the min of a cell's timed runs (model.holdout.cells_of)
RUN_ORDER = "rounds"  # `emogi run --run-order`: every cell's runs interleaved with the table's other cells'
_gen = v2._generated
SEEN = ("kron17", "urand17", "kron20ef4", "urand21ef4", "kron19ef12", "urand19ef12", "kron20ef5", "urand20ef5",
        "kron19ef10", "urand19ef10")  # fmt: skip

# name -> split and what the 8-byte file's metadata (`source`) must say
GRAPHS: dict[str, dict] = {
    **{g: {"split": TRAIN, "source": v8.GRAPHS[g]["source"]} for g in SEEN},  # as splits v5 to v8 made them
    "kron21ef3": _gen("kron", 21, HELD_OUT, edge_factor=3, seed=NEW_SEED),
    "urand21ef3": _gen("urand", 21, HELD_OUT, edge_factor=3, seed=NEW_SEED),
    "kron20ef7": _gen("kron", 20, HELD_OUT, edge_factor=7, seed=NEW_SEED),
    "urand20ef7": _gen("urand", 20, HELD_OUT, edge_factor=7, seed=NEW_SEED),
}
ALGORITHMS_OF: dict[str, tuple] = {}  # every graph: all four algorithms
WIDTHS_OF: dict[str, tuple] = {}  # every graph: 8 and 4 bytes

__all__ = ["ALGORITHMS_OF", "GRAPHS", "HELD_OUT", "MODES", "NAME", "RUN_ORDER", "STATISTIC", "SplitError",
           "TARGET_MEDIAN", "TARGET_WORST", "TRAIN", "VARIANTS", "WIDTHS", "WIDTHS_OF", "check_fit_set", "seed_of",
           "split_of"]  # fmt: skip


split_of, check_fit_set, seed_of = v2.split_functions(__name__)
