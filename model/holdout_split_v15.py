"""Issue 24's held-out validation v15 (docs/holdout-v15.md, written down before the session): split v13
(model/holdout_split_v13.py) unchanged, the v14 design and statistic, term v12 refitted. What changed is the kernel:
from dd66272 on, `gauss-seidel` PageRank's default hub deferral takes at least 4 096 entries. This module names that
validation so that the workflow judges its archive (archive/holdout-v15-h200-2026-11-29) beside v13h's and v14's;
every table and check is split v13's.
"""

from __future__ import annotations

from model import holdout_split_v13 as v13
from model.holdout_split_v13 import *  # noqa: F403  (re-exported: the split is v13's)

NAME = "v15"
NEW_SEED = v13.NEW_SEED
__all__ = v13.__all__
