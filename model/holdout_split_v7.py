"""Issue 24's held-out validation v7: the registered split (docs/holdout-v7-v10.md, "GPU-work term v7 and held-out
validation v7", written down before the session). One device call measures ten train graphs, all made by earlier
sessions (kron/urand 17 and 20 at edge factor 16, split v5's held-out kron21ef4 and urand20ef4, and split v6's four
held-out graphs, seen since: edge factors 4 and 8, kron20ef4 and kron19ef8 with 57% and 46% of their vertices
isolated), and four held-out graphs made with seed 29, which no earlier session made, at edge factors 6 and 12,
which no session measured: kron20ef6, urand20ef6, kron19ef12, urand19ef12 (archive/gpu-work-v7-exploration-
2026-11-27, "What v7 should register"). Same interface as model.holdout_split (v2), whose checks it reuses.
"""

from __future__ import annotations

from model import holdout_split as v2
from model import holdout_split_v6 as v6
from model.holdout_split import HELD_OUT, MODES, TARGET_MEDIAN, TARGET_WORST, TRAIN, VARIANTS, WIDTHS, SplitError

NAME = "v7"
NEW_SEED = 29  # every held-out graph's generator, weights and roots seed: no earlier session used it
_gen = v2._generated
SEEN = ("kron17", "urand17", "kron20", "urand20", "kron21ef4", "urand20ef4", "kron20ef4", "kron19ef8", "urand21ef4",
        "urand20ef8")  # fmt: skip

# name -> split and what the 8-byte file's metadata (`source`) must say
GRAPHS: dict[str, dict] = {
    **{g: {"split": TRAIN, "source": v6.GRAPHS[g]["source"]} for g in SEEN},  # as splits v5 and v6 made them
    "kron20ef6": _gen("kron", 20, HELD_OUT, edge_factor=6, seed=NEW_SEED),
    "urand20ef6": _gen("urand", 20, HELD_OUT, edge_factor=6, seed=NEW_SEED),
    "kron19ef12": _gen("kron", 19, HELD_OUT, edge_factor=12, seed=NEW_SEED),
    "urand19ef12": _gen("urand", 19, HELD_OUT, edge_factor=12, seed=NEW_SEED),
}
ALGORITHMS_OF: dict[str, tuple] = {}  # every graph: all four algorithms
WIDTHS_OF: dict[str, tuple] = {}  # every graph: 8 and 4 bytes

__all__ = ["ALGORITHMS_OF", "GRAPHS", "HELD_OUT", "MODES", "NAME", "SplitError", "TARGET_MEDIAN", "TARGET_WORST",
           "TRAIN", "VARIANTS", "WIDTHS", "WIDTHS_OF", "check_fit_set", "seed_of", "split_of"]  # fmt: skip


split_of, check_fit_set, seed_of = v2.split_functions(__name__)
