"""The registered code (model.uvm_capped_validation6.predict, registered_params.json here) on the graph-or-machine
check's own cells: IN SAMPLE (every cell is in the fit), a check that the module reproduces the analysis's rules.

    PYTHONPATH=. python archive/uvm-capped-h200-exploration-2026-11-28/check_v6_on_check.py [CELLS_CSV]
"""

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from model import uvm_capped_validation6 as v6
from model.uvm_access_shape import load_shapes

DEFAULT = [v6.FIT_CALL / "capped_graph_check_cells.csv", Path("/tmp/ucgj/capped_graph_check_cells.csv")]
path = Path(sys.argv[1]) if sys.argv[1:] else next(p for p in DEFAULT if p.exists())
cells = pd.read_csv(path)
reg = json.loads(v6.REGISTERED.read_text())
keep = [c for c in cells.columns if not c.startswith(("factor_", "predicted_ms_", "error_"))]
keep = [c for c in keep if c not in ("simulated_migration_ms", "eviction_cost_ms", "tail_ms")]
out = v6.predict(cells[keep], load_shapes(reg), reg)
print("migration and tail as the check's judge: max |diff| ms",
      float(np.abs(out["simulated_migration_ms"] - cells["simulated_migration_ms"]).max()),
      float(np.abs(out["tail_ms"] - cells["tail_ms"]).max()))  # fmt: skip
print("h100 = the check's judged unit prediction: max |diff| ms",
      float(np.abs(out["predicted_ms_h100"] - cells["predicted_ms_unit"]).max()))  # fmt: skip
for rule in ("h200", "h200_naive", "h100"):
    e = out[f"error_{rule}"]
    print(
        f"{rule} (in sample, all 144 fitted): median {e.abs().median():.3f} worst {e.abs().max():.3f} "
        f"past 25% {int((e.abs() > 0.25).sum())} signed median {e.median():+.3f}"
    )
