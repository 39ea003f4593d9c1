"""Issue 24's held-out validation v5: the registered split (docs/holdout-v3-v6.md, "GPU-work term v5 and held-out
validation v5", written down before the session). One device call measures the train graphs (scales 17-21 at
edge factors 8 to 24, all measured before: kron/urand 17, 18 and 20, and split v4's held-out urand21ef8 and
rmat21ef24, seen since) and six held-out graphs made with seed 27, which no earlier session made, at the edge
factors 4, 8 and 24 of both generators and scales 19-21: the edge-factor gap v4 missed on urand21ef8. Same
interface as model.holdout_split (v2), whose checks it reuses with this table.
"""

from __future__ import annotations

from model import holdout_split as v2
from model.holdout_split import HELD_OUT, MODES, TARGET_MEDIAN, TARGET_WORST, TRAIN, VARIANTS, WIDTHS, SplitError
from model.holdout_split_v4 import RMAT21

NAME = "v5"
NEW_SEED = 27  # every held-out graph's generator, weights and roots seed: no earlier session used it
_gen = v2._generated

# name -> split and what the 8-byte file's metadata (`source`) must say
GRAPHS: dict[str, dict] = {
    **{f"{k}17": _gen(k, 17, TRAIN, seed=25) for k in ("kron", "urand")},  # v3's held-out kron17, urand17
    **{f"{k}{s}": _gen(k, s, TRAIN) for k in ("kron", "urand") for s in (18, 20)},
    "urand21ef8": _gen("urand", 21, TRAIN, edge_factor=8, seed=26),  # v4's held out
    "rmat21ef24": _gen("kron", 21, TRAIN, edge_factor=24, initiator=RMAT21, seed=26),  # v4's held out
    "urand20ef4": _gen("urand", 20, HELD_OUT, edge_factor=4, seed=NEW_SEED),
    "kron21ef4": _gen("kron", 21, HELD_OUT, edge_factor=4, seed=NEW_SEED),
    "urand19ef8": _gen("urand", 19, HELD_OUT, edge_factor=8, seed=NEW_SEED),
    "kron20ef8": _gen("kron", 20, HELD_OUT, edge_factor=8, seed=NEW_SEED),
    "urand19ef24": _gen("urand", 19, HELD_OUT, edge_factor=24, seed=NEW_SEED),
    "kron19ef24": _gen("kron", 19, HELD_OUT, edge_factor=24, seed=NEW_SEED),
}
ALGORITHMS_OF: dict[str, tuple] = {}  # every graph: all four algorithms
WIDTHS_OF: dict[str, tuple] = {}  # every graph: 8 and 4 bytes

__all__ = ["ALGORITHMS_OF", "GRAPHS", "HELD_OUT", "MODES", "NAME", "SplitError", "TARGET_MEDIAN", "TARGET_WORST",
           "TRAIN", "VARIANTS", "WIDTHS", "WIDTHS_OF", "check_fit_set", "seed_of", "split_of"]  # fmt: skip


split_of, check_fit_set, seed_of = v2.split_functions(__name__)
