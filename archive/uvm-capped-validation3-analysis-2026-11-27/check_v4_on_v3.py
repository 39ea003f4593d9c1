"""The registered capped validation 4 code on capped validation 3's judged cells (IN SAMPLE: capped validation 3's
cells are among the 252 the rule is fitted on), to check that model.uvm_capped_validation4.predict reproduces the
analysis and capped validation 3's archived pageable predictions (its `validation3` column).

    python archive/uvm-capped-validation3-analysis-2026-11-27/check_v4_on_v3.py > check_v4_on_v3_output.txt
"""

import json
from pathlib import Path

import pandas as pd

from model import uvm_capped_validation4 as v4
from model.uvm_access_shape import load_shapes
from model.uvm_validation3 import summarise

V3 = Path(__file__).resolve().parents[1] / "uvm-capped-validation3-h100-2026-11-27"
reg = json.loads(v4.REGISTERED.read_text())
old = pd.read_csv(V3 / "capped_validation3_cells.csv")
keep = [c for c in old.columns if not c.startswith(("factor_", "predicted_ms_", "error_"))]
keep = [c for c in keep if c not in ("simulated_migration_ms", "eviction_cost_ms", "tail_ms")]
factors = json.loads((V3 / "capped_validation3_factors.json").read_text())
cells = v4.predict(old[keep], load_shapes(reg), factors, reg)
s = summarise(cells, rules=(*v4.RULES, *v4.REPORTED))
pd.set_option("display.width", 200)
print(s[s["group"] == "all"].round(4).to_string(index=False))
gap = (cells["predicted_ms_validation3"] - old["predicted_ms_pageable"]).abs().max()
print(f"validation3 column against capped validation 3's archived pageable predictions: max |diff| {gap:.2e} ms")
