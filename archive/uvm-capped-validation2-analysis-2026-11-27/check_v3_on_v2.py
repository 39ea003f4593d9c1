"""The registered capped validation 3 code (model.uvm_capped_validation3 predict, tails from _simulate) run on capped
validation 2's call, in sample: its coefficients were fitted on these cells. Expects /tmp/ucap2g (the judge's graphs).

    PYTHONPATH=. python archive/uvm-capped-validation2-analysis-2026-11-27/check_v3_on_v2.py
"""

import json
from pathlib import Path

import numpy as np

from model import uvm_capped_validation2 as v2
from model import uvm_capped_validation3 as v3
from model import uvm_validation7
from model.uvm_access_shape import load_shapes
from model.uvm_validation3 import unpack

A = Path("archive/uvm-capped-validation2-h100-2026-11-27")
out = Path("/tmp/c3/check")
session = unpack(A / "uvmc2.tgz", out, "uvmc2")
v2.unpack_traces(A / "uvmc2.tgz", out)
reg = json.loads(v3.REGISTERED.read_text())
shapes = load_shapes(reg)
factors, _ = uvm_validation7.session_factors(session, shapes, reg["pageable_rule"])
runs = v2.load_runs(session)
counts = v2.trace_counts(session, Path("/tmp/ucap2g"), v2.SET, 2, 30, v3._simulate)
cells = v3.predict(v2.measured_cells(runs, counts), shapes, factors, reg)
for r in ("pageable", "none", "floor", "validation2"):
    e = cells[f"error_{r}"].abs()
    print(r, round(100 * e.median(), 1), round(100 * e.max(), 1), (e > 0.25).sum())
old = __import__("pandas").read_csv(A / "capped_validation2_cells.csv")
same = np.allclose(np.sort(cells["predicted_ms_validation2"]), np.sort(old["predicted_ms_pageable"]))
print("validation2 rule equals the archived pageable:", same)
cells.to_csv(out / "cells.csv", index=False)
