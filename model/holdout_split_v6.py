"""Issue 24's held-out validation v6: the registered split (docs/holdout-v3-v6.md, "GPU-work term v6 and held-out
validation v6", written down before the session). One device call measures ten train graphs, all made by earlier
sessions (kron/urand 17 and 20 at edge factor 16, and split v5's six held-out graphs, seen since: edge factors 4, 8
and 24, kron20ef8 and kron21ef4 with 48% and 59% of their vertices isolated), and four held-out graphs made with
seed 28, which no earlier session made, at edge factors 4 and 8: kron20ef4 and kron19ef8 (57% and 46% isolated, as
the development machine's generation of them says), urand21ef4 and urand20ef8. Same interface as
model.holdout_split (v2), whose checks it reuses with this table.
"""

from __future__ import annotations

from model import holdout_split as v2
from model import holdout_split_v5 as v5
from model.holdout_split import HELD_OUT, MODES, TARGET_MEDIAN, TARGET_WORST, TRAIN, VARIANTS, WIDTHS, SplitError

NAME = "v6"
NEW_SEED = 28  # every held-out graph's generator, weights and roots seed: no earlier session used it
_gen = v2._generated
SEEN = ("kron17", "urand17", "kron20", "urand20", "urand19ef8", "urand20ef4", "kron20ef8", "kron21ef4", "urand19ef24",
        "kron19ef24")  # fmt: skip

# name -> split and what the 8-byte file's metadata (`source`) must say
GRAPHS: dict[str, dict] = {
    **{g: {"split": TRAIN, "source": v5.GRAPHS[g]["source"]} for g in SEEN},  # as split v5 made them
    "kron20ef4": _gen("kron", 20, HELD_OUT, edge_factor=4, seed=NEW_SEED),
    "kron19ef8": _gen("kron", 19, HELD_OUT, edge_factor=8, seed=NEW_SEED),
    "urand21ef4": _gen("urand", 21, HELD_OUT, edge_factor=4, seed=NEW_SEED),
    "urand20ef8": _gen("urand", 20, HELD_OUT, edge_factor=8, seed=NEW_SEED),
}
ALGORITHMS_OF: dict[str, tuple] = {}  # every graph: all four algorithms
WIDTHS_OF: dict[str, tuple] = {}  # every graph: 8 and 4 bytes

__all__ = ["ALGORITHMS_OF", "GRAPHS", "HELD_OUT", "MODES", "NAME", "SplitError", "TARGET_MEDIAN", "TARGET_WORST",
           "TRAIN", "VARIANTS", "WIDTHS", "WIDTHS_OF", "check_fit_set", "seed_of", "split_of"]  # fmt: skip


split_of, check_fit_set, seed_of = v2.split_functions(__name__)
