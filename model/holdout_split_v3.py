"""Issue 24's held-out validation v3: the registered split (docs/holdout-v3-v6.md, "GPU-work term v3 and held-out
validation v3", written down before the session). Train graphs span 2^18-2^24 vertices (past the L2), with
rmat21ef64 and cnr2000, which v2 judged; held out are graphs never judged before, made with seed 25. Same interface
as model.holdout_split (v2), whose checks it reuses with this table: `split_of` refuses a graph the table does not
list or whose metadata disagrees, `check_fit_set` a fit set holding a cell of a held-out graph.
"""

from __future__ import annotations

from model import holdout_split as v2
from model.holdout_split import HELD_OUT, MODES, TARGET_MEDIAN, TARGET_WORST, TRAIN, VARIANTS, WIDTHS, SplitError

NAME = "v3"
NEW_SEED = 25  # every held-out graph's generator, weights and roots seed: none of them was made before
RMAT22 = (0.50, 0.20, 0.20)
_gen = v2._generated

# name -> split and what the 8-byte file's metadata (`source`) must say
GRAPHS: dict[str, dict] = {
    **{f"{k}{s}": _gen(k, s, TRAIN) for k in ("kron", "urand") for s in (18, 20, 22, 24)},
    "rmat21ef64": _gen("kron", 21, TRAIN, edge_factor=64, initiator=v2.OTHER_INITIATOR),
    "cnr2000": {"split": TRAIN, "source": {"format": "webgraph-bv", "basename": "cnr-2000"}},
    **{f"{k}25": _gen(k, 25, HELD_OUT, seed=NEW_SEED) for k in ("kron", "urand")},
    "rmat22ef32": _gen("kron", 22, HELD_OUT, edge_factor=32, initiator=RMAT22, seed=NEW_SEED),
    **{f"{k}17": _gen(k, 17, HELD_OUT, seed=NEW_SEED) for k in ("kron", "urand")},
}
# where not every algorithm or width is measured (docs/holdout-v3-v6.md: the cuts that fit two device calls)
ALGORITHMS_OF = {g: ("bfs", "sssp", "cc") for g in ("kron24", "urand24", "kron25", "urand25")}
WIDTHS_OF = {g: (8,) for g in ("kron24", "urand24", "kron25", "urand25")}

__all__ = ["ALGORITHMS_OF", "GRAPHS", "HELD_OUT", "MODES", "NAME", "SplitError", "TARGET_MEDIAN", "TARGET_WORST",
           "TRAIN", "VARIANTS", "WIDTHS", "WIDTHS_OF", "check_fit_set", "seed_of", "split_of"]  # fmt: skip


split_of, check_fit_set, seed_of = v2.split_functions(__name__)
