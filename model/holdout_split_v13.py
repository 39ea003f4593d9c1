"""Issue 24's held-out validation v13: the registered split (docs/holdout-v13.md, written down before the session).
A DESIGN change, the term unchanged: term v12 (model/gpu_work_v12.py) refitted on 25 graphs, the archived v12
combined session's (TRAIN_SESSION: the v11 combined session's 21 graphs and v12's four held-out graphs, each cell
the min of one process's 5 timed runs, as measured), one set of microbenchmarks (v10's). One new device call
measures four held-out graphs made with seed 35, which no held-out split used (Kronecker and uniform, scale 19, edge
factors 9 and 13): kron19ef9, kron19ef13, urand19ef9, urand19ef13, each by PASSES = 3 separate processes (the
session part run three times, tools/device/holdout_v13.sh). A held-out cell's measured time is the MEDIAN over its
passes (PASS_STATISTIC) of each pass's MIN of its 5 timed runs (STATISTIC, model.holdout.cells_of), judged by
model/holdout_passes.py; the runs are interleaved (`emogi run --run-order rounds`), as v9 to v12. Same interface
as model.holdout_split (v2).
"""

from __future__ import annotations

from model import holdout_split as v2
from model import holdout_split_v12 as v12
from model.holdout_split import HELD_OUT, MODES, TARGET_MEDIAN, TARGET_WORST, TRAIN, VARIANTS, WIDTHS, SplitError

NAME = "v13"
NEW_SEED = 35  # every held-out graph's generator, weights and roots seed: no held-out split used it
STATISTIC = v12.STATISTIC  # within one process: the min of a cell's timed runs (model.holdout.cells_of)
PASSES = 3  # a held-out cell is measured by 3 separate processes (the session part run 3 times in one call)
PASS_STATISTIC = "median"  # over the passes' mins (model/holdout_passes.py); train cells: one process's min
RUN_ORDER = v12.RUN_ORDER  # `emogi run --run-order rounds`, as v9 to v12
TRAIN_SESSION = "archive/holdout-v12-h100-2026-11-28"  # the train graphs' runs, microbenchmarks and workloads
# v13 on the lent machine ("v13h", docs/holdout-v13.md, registered before any H200 data): this split unchanged, the
# train session measured again on the held-out call's machine (tools/device/holdout_v13h.sh, model.holdout_combine
# --same-gpu); the train graphs' workloads still TRAIN_SESSION's (they depend only on the graph files)
SEEN = tuple(v12.GRAPHS)  # every graph of the v12 combined session, its held-out four among them
REMEASURED: tuple[str, ...] = ()  # no train graph is measured again
_gen = v2._generated

# name -> split and what the 8-byte file's metadata (`source`) must say
GRAPHS: dict[str, dict] = {
    **{g: {"split": TRAIN, "source": v12.GRAPHS[g]["source"]} for g in SEEN},  # as splits v5 to v12 made them
    "kron19ef9": _gen("kron", 19, HELD_OUT, edge_factor=9, seed=NEW_SEED),
    "kron19ef13": _gen("kron", 19, HELD_OUT, edge_factor=13, seed=NEW_SEED),
    "urand19ef9": _gen("urand", 19, HELD_OUT, edge_factor=9, seed=NEW_SEED),
    "urand19ef13": _gen("urand", 19, HELD_OUT, edge_factor=13, seed=NEW_SEED),
}
ALGORITHMS_OF: dict[str, tuple] = {}  # every graph: all four algorithms
WIDTHS_OF: dict[str, tuple] = {}  # every graph: 8 and 4 bytes

__all__ = ["ALGORITHMS_OF", "GRAPHS", "HELD_OUT", "MODES", "NAME", "PASSES", "PASS_STATISTIC", "REMEASURED",
           "RUN_ORDER", "STATISTIC", "SplitError", "TARGET_MEDIAN", "TARGET_WORST", "TRAIN", "TRAIN_SESSION",
           "VARIANTS", "WIDTHS", "WIDTHS_OF", "check_fit_set", "seed_of", "split_of"]  # fmt: skip


split_of, check_fit_set, seed_of = v2.split_functions(__name__)
