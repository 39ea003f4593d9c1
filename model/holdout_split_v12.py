"""Issue 24's held-out validation v12: the registered split (docs/holdout-v12.md, written down before the session).
The train table is the archived v11 combined session's (TRAIN_SESSION: all 21 of its graphs, the v10 session's 17
and the v11 call's four, assembled by model.holdout_combine, one set of microbenchmarks: v10's), not measured again.
One new device call measures four held-out graphs made with seed 34, which no earlier session used, inside the
covered range (Kronecker and uniform, scale 19, edge factors 7 and 11, 7.0 to 11.5 M entries): kron19ef7,
kron19ef11, urand19ef7, urand19ef11; no train graph is measured again. The GPU-work term is v12's
(model/gpu_work_v12.py: v8's floor, v4's zero-copy link terms and a cost per list walked over the link, chosen in
sample by archive/zerocopy-transfer-v12-exploration-2026-11-28); every cell is the MIN of its 5 timed runs and the
runs are interleaved (`emogi run --run-order rounds`), as v9 to v11. Same interface as model.holdout_split (v2).
"""

from __future__ import annotations

from model import holdout_split as v2
from model import holdout_split_v11 as v11
from model.holdout_split import HELD_OUT, MODES, TARGET_MEDIAN, TARGET_WORST, TRAIN, VARIANTS, WIDTHS, SplitError

NAME = "v12"
NEW_SEED = 34  # every held-out graph's generator, weights and roots seed: no earlier session used it
STATISTIC = v11.STATISTIC  # the min of a cell's timed runs (model.holdout.cells_of)
RUN_ORDER = v11.RUN_ORDER  # `emogi run --run-order rounds`, as v9 to v11
TRAIN_SESSION = "archive/holdout-v11-h100-2026-11-28"  # the train graphs' runs, microbenchmarks and workloads
SEEN = tuple(v11.GRAPHS)  # every graph of the v11 combined session, its held-out four among them
REMEASURED: tuple[str, ...] = ()  # no train graph is measured again (the call measures only the held-out graphs)
_gen = v2._generated

# name -> split and what the 8-byte file's metadata (`source`) must say
GRAPHS: dict[str, dict] = {
    **{g: {"split": TRAIN, "source": v11.GRAPHS[g]["source"]} for g in SEEN},  # as splits v5 to v11 made them
    "kron19ef7": _gen("kron", 19, HELD_OUT, edge_factor=7, seed=NEW_SEED),
    "kron19ef11": _gen("kron", 19, HELD_OUT, edge_factor=11, seed=NEW_SEED),
    "urand19ef7": _gen("urand", 19, HELD_OUT, edge_factor=7, seed=NEW_SEED),
    "urand19ef11": _gen("urand", 19, HELD_OUT, edge_factor=11, seed=NEW_SEED),
}
ALGORITHMS_OF: dict[str, tuple] = {}  # every graph: all four algorithms
WIDTHS_OF: dict[str, tuple] = {}  # every graph: 8 and 4 bytes

__all__ = ["ALGORITHMS_OF", "GRAPHS", "HELD_OUT", "MODES", "NAME", "REMEASURED", "RUN_ORDER", "STATISTIC",
           "SplitError", "TARGET_MEDIAN", "TARGET_WORST", "TRAIN", "TRAIN_SESSION", "VARIANTS", "WIDTHS", "WIDTHS_OF",
           "check_fit_set", "seed_of", "split_of"]  # fmt: skip


split_of, check_fit_set, seed_of = v2.split_functions(__name__)
