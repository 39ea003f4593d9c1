"""After the judgement, not registered: cold-UVM validation 10's rule (unchanged, fitted on H100 calls) on the
three calls' cold `uvm` cells, each call alone and each cell by the median over the calls, as capped validation 8
judges its capped cells. It asks whether the same design would help the cold worst target. These cells are 5 runs
in one process at scale 20, not the cold validations' 9 runs in rounds at scale 22-23.

    A=archive/uvm-capped-validation8-h200-2026-11-29; PYTHONPATH=. python $A/cold_v10.py > $A/cold_v10.txt
"""

import json
from pathlib import Path

import pandas as pd

from model import uvm_capped_validation8, uvm_validation10
from model.uvm_access_shape import load_shapes, migration_ms

HERE = Path(__file__).resolve().parent
KEYS = ["graph", "algorithm", "variant", "root"]


def errors(call: str) -> pd.DataFrame:
    cells = pd.read_csv(HERE / "calls" / call / f"capped_validation8_{call}_cold.csv")
    reg = uvm_validation10.REGISTERED
    mig = migration_ms(cells, load_shapes(json.loads(Path(reg).read_text()))) * uvm_validation10.term(cells, reg)
    return cells[[*KEYS, "uvm_ms"]].assign(error=(cells["device_ms"] + mig) / cells["uvm_ms"] - 1, call=call)


def line(name: str, e: pd.Series) -> str:
    a = e.abs()
    return (f"{name:<22} {len(e):>3} cells  median {a.median():6.1%}  worst {a.max():6.1%}  "
            f"past 25% {int((a > 0.25).sum())}  signed median {e.median():+6.1%}")  # fmt: skip


every = pd.concat([errors(c) for c in uvm_capped_validation8.CALLS], ignore_index=True)
for call, part in every.groupby("call"):
    print(line(f"{call} alone", part["error"]))
print(line("median over 3 calls", every.groupby(KEYS)["error"].median()))
spread = every.groupby(KEYS)["uvm_ms"].agg(lambda t: t.max() / t.min())
print(f"measured cold time, max / min over the calls: median {spread.median():.3f}, at most {spread.max():.3f}")
