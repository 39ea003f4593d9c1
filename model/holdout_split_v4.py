"""Issue 24's held-out validation v4: the registered split (docs/holdout-v3-v6.md, "GPU-work term v4 and held-out
validation v4", written down before the session). One device call measures the train graphs (scales 17-22: the
small, launch-bound graphs v3 missed, kron/urand 18-22 and the skewed rmat22ef32, all judged before) and held-out
graphs made with seed 26, which no earlier session made: kron19 and urand19 (small), urand21ef8 (sparse, mid)
and rmat21ef24 (another initiator and density, mid). Same interface as model.holdout_split (v2), whose checks it
reuses with this table.
"""

from __future__ import annotations

from model import holdout_split as v2
from model.holdout_split import HELD_OUT, MODES, TARGET_MEDIAN, TARGET_WORST, TRAIN, VARIANTS, WIDTHS, SplitError

NAME = "v4"
NEW_SEED = 26  # every held-out graph's generator, weights and roots seed: no earlier session used it
RMAT21 = (0.55, 0.20, 0.20)  # between Graph500's (0.57, 0.19, 0.19) and rmat22ef32's (0.50, 0.20, 0.20)
_gen = v2._generated

# name -> split and what the 8-byte file's metadata (`source`) must say
GRAPHS: dict[str, dict] = {
    **{f"{k}17": _gen(k, 17, TRAIN, seed=25) for k in ("kron", "urand")},  # v3's held-out kron17, urand17
    **{f"{k}{s}": _gen(k, s, TRAIN) for k in ("kron", "urand") for s in (18, 20)},
    "kron22": _gen("kron", 22, TRAIN),
    "rmat22ef32": _gen("kron", 22, TRAIN, edge_factor=32, initiator=(0.50, 0.20, 0.20), seed=25),  # v3's held out
    **{f"{k}19": _gen(k, 19, HELD_OUT, seed=NEW_SEED) for k in ("kron", "urand")},
    "urand21ef8": _gen("urand", 21, HELD_OUT, edge_factor=8, seed=NEW_SEED),
    "rmat21ef24": _gen("kron", 21, HELD_OUT, edge_factor=24, initiator=RMAT21, seed=NEW_SEED),
}
ALGORITHMS_OF: dict[str, tuple] = {}  # every graph: all four algorithms
WIDTHS_OF: dict[str, tuple] = {}  # every graph: 8 and 4 bytes

__all__ = ["ALGORITHMS_OF", "GRAPHS", "HELD_OUT", "MODES", "NAME", "SplitError", "TARGET_MEDIAN", "TARGET_WORST",
           "TRAIN", "VARIANTS", "WIDTHS", "WIDTHS_OF", "check_fit_set", "seed_of", "split_of"]  # fmt: skip


split_of, check_fit_set, seed_of = v2.split_functions(__name__)
