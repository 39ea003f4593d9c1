"""Issue 24's held-out validation v8: the registered split (docs/holdout-v7-v10.md, "GPU-work term v8 and held-out
validation v8", written down before the session). One device call measures ten train graphs, all made by earlier
sessions (kron17 and urand17, split v6's held-out kron20ef4, urand21ef4, kron19ef8, urand20ef8 and split v7's
held-out kron20ef6, urand20ef6, kron19ef12, urand19ef12: five of each family, so each class of direction-optimizing
BFS keeps five train graphs), and four held-out graphs made with seed 30, which no earlier session used, at edge
factors between those measured: kron20ef5, urand20ef5, kron19ef10, urand19ef10 (archive/gpu-work-v8-exploration-
2026-11-27, "What v8 should register"). Every cell is the MIN of its timed runs (STATISTIC), for the fit and the
judgement alike, its spread (slowest / min − 1) reported beside it. Same interface as model.holdout_split (v2).
"""

from __future__ import annotations

from model import holdout_split as v2
from model import holdout_split_v7 as v7
from model.holdout_split import HELD_OUT, MODES, TARGET_MEDIAN, TARGET_WORST, TRAIN, VARIANTS, WIDTHS, SplitError

NAME = "v8"
NEW_SEED = 30  # every held-out graph's generator, weights and roots seed: no earlier session used it
STATISTIC = "min"  # a cell's statistic over its timed runs (model.holdout.cells_of)
_gen = v2._generated
SEEN = ("kron17", "urand17", "kron20ef4", "urand21ef4", "kron19ef8", "urand20ef8", "kron20ef6", "urand20ef6",
        "kron19ef12", "urand19ef12")  # fmt: skip

# name -> split and what the 8-byte file's metadata (`source`) must say
GRAPHS: dict[str, dict] = {
    **{g: {"split": TRAIN, "source": v7.GRAPHS[g]["source"]} for g in SEEN},  # as splits v5 to v7 made them
    "kron20ef5": _gen("kron", 20, HELD_OUT, edge_factor=5, seed=NEW_SEED),
    "urand20ef5": _gen("urand", 20, HELD_OUT, edge_factor=5, seed=NEW_SEED),
    "kron19ef10": _gen("kron", 19, HELD_OUT, edge_factor=10, seed=NEW_SEED),
    "urand19ef10": _gen("urand", 19, HELD_OUT, edge_factor=10, seed=NEW_SEED),
}
ALGORITHMS_OF: dict[str, tuple] = {}  # every graph: all four algorithms
WIDTHS_OF: dict[str, tuple] = {}  # every graph: 8 and 4 bytes

__all__ = ["ALGORITHMS_OF", "GRAPHS", "HELD_OUT", "MODES", "NAME", "STATISTIC", "SplitError", "TARGET_MEDIAN",
           "TARGET_WORST", "TRAIN", "VARIANTS", "WIDTHS", "WIDTHS_OF", "check_fit_set", "seed_of",
           "split_of"]  # fmt: skip


split_of, check_fit_set, seed_of = v2.split_functions(__name__)
