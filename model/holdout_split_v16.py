"""Issue 24's held-out validation v16 (docs/holdout-v16.md, written down before the session): split v13
(model/holdout_split_v13.py) unchanged, v15's design and statistic, with the GPU-work term v16
(model/gpu_work_v16.py): term v12 with Jacobi PageRank's longest walk replaced by its critical path through the grid
order. `python -m model.holdout --split v16` judges with it; every table and check is split v13's.
"""

from __future__ import annotations

from model import holdout_split_v13 as v13
from model.holdout_split_v13 import *  # noqa: F403  (re-exported: the split is v13's)

NAME = "v16"
NEW_SEED = v13.NEW_SEED
__all__ = v13.__all__
