"""Issue 24's held-out validation v10: the registered split (docs/holdout-v7-v10.md, "Held-out validation v10", written
down before the session). One device call measures fourteen train graphs, every graph of the v9 session (split v9's
ten train graphs and its four held-out kron21ef3, urand21ef3, kron20ef7, urand20ef7: seven of each family, edge
factors 3 to 16, Kronecker scales 17 to 21), and three held-out graphs made with seed 32, which no earlier session
used, inside the now-covered range: kron19ef3 and urand20ef3 at edge factor 3 (v9's miss, now at the bottom of the
train range) and kron19ef14 between 12 and 16. The GPU-work term is v8's (model/gpu_work_v8.py, unchanged:
archive/gpu-work-v10-exploration-2026-11-27 found its edge-factor-3 misses a per-vertex cost standing in for list
work, eased by training on edge-factor-3 graphs, not a change to the term); every cell is the MIN of its timed runs
and the runs are interleaved (`emogi run --run-order rounds`, tools/device/holdout_v10.sh), as v9. Same interface
as model.holdout_split (v2).
"""

from __future__ import annotations

from model import holdout_split as v2
from model import holdout_split_v9 as v9
from model.holdout_split import HELD_OUT, MODES, TARGET_MEDIAN, TARGET_WORST, TRAIN, VARIANTS, WIDTHS, SplitError

NAME = "v10"
NEW_SEED = 32  # every held-out graph's generator, weights and roots seed: no earlier session used it
STATISTIC = v9.STATISTIC  # the min of a cell's timed runs (model.holdout.cells_of)
RUN_ORDER = v9.RUN_ORDER  # `emogi run --run-order rounds`, as v9
_gen = v2._generated
SEEN = tuple(v9.GRAPHS)  # every graph of the v9 session, its held-out four among them

# name -> split and what the 8-byte file's metadata (`source`) must say
GRAPHS: dict[str, dict] = {
    **{g: {"split": TRAIN, "source": v9.GRAPHS[g]["source"]} for g in SEEN},  # as splits v5 to v9 made them
    "kron19ef3": _gen("kron", 19, HELD_OUT, edge_factor=3, seed=NEW_SEED),
    "urand20ef3": _gen("urand", 20, HELD_OUT, edge_factor=3, seed=NEW_SEED),
    "kron19ef14": _gen("kron", 19, HELD_OUT, edge_factor=14, seed=NEW_SEED),
}
ALGORITHMS_OF: dict[str, tuple] = {}  # every graph: all four algorithms
WIDTHS_OF: dict[str, tuple] = {}  # every graph: 8 and 4 bytes

__all__ = ["ALGORITHMS_OF", "GRAPHS", "HELD_OUT", "MODES", "NAME", "RUN_ORDER", "STATISTIC", "SplitError",
           "TARGET_MEDIAN", "TARGET_WORST", "TRAIN", "VARIANTS", "WIDTHS", "WIDTHS_OF", "check_fit_set", "seed_of",
           "split_of"]  # fmt: skip


split_of, check_fit_set, seed_of = v2.split_functions(__name__)
