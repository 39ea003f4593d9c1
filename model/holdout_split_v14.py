"""Issue 24's held-out validation v14 (docs/holdout-v14.md, written down before the session): split v13
(model/holdout_split_v13.py) unchanged, the same 25 train and 4 held-out graphs, term v12 refitted, the v13h design
(the train session measured again on the held-out call's machine, 3 processes a held-out cell) and its statistic.
What changed is the kernel: from b0409c2 on, `gauss-seidel` PageRank defers hub lists by default
(`--pr-hub-entries auto`). This module names that validation so that the workflow judges its archive
(archive/holdout-v14-h200-2026-11-28) beside v13h's; every table and check is split v13's.
"""

from __future__ import annotations

from model import holdout_split_v13 as v13
from model.holdout_split_v13 import *  # noqa: F403  (re-exported: the split is v13's)

NAME = "v14"
NEW_SEED = v13.NEW_SEED
__all__ = v13.__all__
