"""Capped validation 7: the capped rule with a call factor from the call's own uvmfault at its end, measured with
capped validation 5's design (three processes a cell), registered before the session (docs/uvm-capped-validations.md,
"Capped validation 7"; the in-sample exploration that chose the rule is archive/uvm-capped-micro-exploration-2026-11-28;
tools/device/uvm_capped_validation7.sh makes it).

    python -m model.uvm_capped_validation7 judge --tarball uvmc7.tgz --graph-dir /tmp/ucap7g --out D [--jobs 2]
    python -m model.uvm_capped_validation7 register --out registered_params.json   (the registered input)

Per judged cell (the median over its 3 passes of each pass's median, as capped validation 5) the prediction is the
same call's device-mode median + the tail (model.uvm_capped.tail_ms, no coefficient) + g x (a x the capped
simulation's migration time at f = 1 (validation 2's shapes) + b x the simulated evicted chunks), where g =
u ** beta and u is the call's uvmfault at its end (thread per list, 256-byte lists: the median microseconds per
touched 64 KiB block, micro/uvmfault_end.csv). Rules:
  micro_end   (primary, judged) a, b and beta fitted on the seven archived capped calls with uvmfault at start and end
and reported beside, not judged: `h200` (capped validation 6's rule as registered) and `pass1` (micro_end against
pass 1 alone). The fit pools H100 and H200 calls (g carries the machine), so no GPU is refused; each table names it.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_text
from emogi.cli import exit_status
from model import uvm_capped
from model import uvm_capped_validation2 as v2
from model import uvm_capped_validation5 as v5
from model import uvm_capped_validation6 as v6
from model.uvm_calibrate import _lad
from model.uvm_validation3 import judge_cli

SEED = 37
SET = {
    "kron20s37": "--kind kron --scale 20 --edge-factor 16",
    "urand20s37": "--kind urand --scale 20 --edge-factor 16",
}
ALGORITHMS, VARIANTS, FRACTIONS, SUBLAUNCHES = v2.ALGORITHMS, v2.VARIANTS, v2.FRACTIONS, v2.SUBLAUNCHES
PASSES, REPS, ORDERS = v5.PASSES, v5.REPS, v5.ORDERS  # capped validation 5's design, unchanged
RULES = ("micro_end",)
REPORTED = ("h200", "pass1")
ARCHIVE = Path(__file__).resolve().parents[1] / "archive"
HERE = ARCHIVE / "uvm-capped-validation7-registration-2026-11-28"
REGISTERED = HERE / "registered_params.json"
# the fit: every archived capped call with uvmfault at its start and end -> (folder, table prefix, micro folder or
# the tarball holding it)
FIT_CALLS = {
    "uvm-capped-validation3-h100-2026-11-27": ("capped_validation3", "session/uvmc3/micro"),
    "uvm-capped-validation4-h100-2026-11-28": ("capped_validation4", "session/uvmc4/micro"),
    "uvm-capped-validation5-h100-2026-11-28": ("capped_validation5", "session/uvmc5/micro"),
    "uvm-capped-repeat5-h100-2026-11-28": ("capped_validation5", "session/uvmc5/micro"),
    "uvm-capped-graph-check-h200-2026-11-28": ("capped_graph_check", "session/uvmcg.tgz"),
    "uvm-capped-validation6-h200-2026-11-28": ("capped_validation6", "session/uvmc6/micro"),
    "uvm-capped-graph-check-repeat-h200-2026-11-28": ("capped_graph_check", "session/uvmcg.tgz"),
}
BETAS = np.round(np.arange(0.0, 1.0001, 0.05), 2)  # the exponent's grid
NAME = "capped_validation7"


def uvmfault_us(table: pd.DataFrame) -> float:
    """The thread-per-list, 256-byte pattern's median microseconds per touched 64 KiB block."""
    if "us_per_touched_block" not in table:
        raise ValueError("the uvmfault table has no us_per_touched_block column")
    rows = table[(table["access"] == "thread") & (table["list_bytes"] == 256)]
    if rows.empty:
        raise ValueError("no uvmfault row for a thread per 256-byte list")
    return float(rows["us_per_touched_block"].median())


def call_uvmfault_end(folder: Path, where: str) -> float:
    """A fit call's uvmfault at its end, from its micro folder or from the tarball that holds it."""
    if not where.endswith(".tgz"):
        return uvmfault_us(pd.read_csv(folder / where / "uvmfault_end.csv"))
    with tarfile.open(folder / where) as tar:
        (member,) = [m for m in tar.getmembers() if m.name.endswith("micro/uvmfault_end.csv")]
        return uvmfault_us(pd.read_csv(io.BytesIO(tar.extractfile(member).read())))


def fit_cells(archive: Path = ARCHIVE, calls: dict = FIT_CALLS) -> pd.DataFrame:
    """The fit calls' judged capped cells, each with its call and that call's uvmfault at its end (`u_end`)."""
    frames = []
    for name, (table, where) in calls.items():
        c = pd.read_csv(archive / name / f"{table}_cells.csv")
        frames.append(c.assign(call=name, u_end=call_uvmfault_end(archive / name, where)))
    return pd.concat(frames, ignore_index=True)


def call_factor(u_end, coef: dict):
    """g = u ** beta: the call's uvmfault at its end, to the registered power."""
    return np.asarray(u_end, float) ** coef["beta"]


def predict_ms(cells: pd.DataFrame, u_end, coef: dict) -> np.ndarray:
    work = coef["migration"] * cells["simulated_migration_ms"] + coef["evicted"] * cells["evicted_chunks"]
    return (cells["device_ms"] + cells["tail_ms"] + call_factor(u_end, coef) * work).to_numpy(float)


def fit(cells: pd.DataFrame) -> dict:
    """a (`migration`), b (`evicted`) and `beta` with the least sum of |relative error| over `cells`: for each beta
    on the grid, a and b by least absolute relative deviation."""
    m = cells["capped_ms"].to_numpy(float)
    rest = m - (cells["device_ms"] + cells["tail_ms"]).to_numpy(float)
    best = None
    for beta in BETAS:
        g = call_factor(cells["u_end"], {"beta": beta})
        x = np.column_stack([g * cells["simulated_migration_ms"], g * cells["evicted_chunks"]])
        a, b = _lad(x, rest, 1 / m)
        coef = {"migration": float(a), "evicted": float(b), "beta": float(beta)}
        loss = float(np.abs(predict_ms(cells, cells["u_end"], coef) / m - 1).sum())
        if best is None or loss < best[0]:
            best = (loss, coef)
    return best[1]


def register(cells: pd.DataFrame, v6_registered: dict) -> dict:
    """Capped validation 6's shapes, pageable rule and h200 terms (reported beside), and micro_end's a, b and beta
    fitted on `cells` (every fit call's)."""
    calls = sorted(set(cells["call"]))
    if calls != sorted(FIT_CALLS):
        raise uvm_capped.CappedError(f"the fit takes the {len(FIT_CALLS)} registered calls, not {calls}")
    reg = {k: v6_registered[k] for k in ("shapes", "pageable_rule", "cells")}
    reg["h200_terms"] = v6_registered["capped_terms"]
    reg["micro_end"] = fit(cells)
    u = cells.groupby("call")["u_end"].first()
    reg["micro_fit"] = {"calls": calls, "cells": len(cells), "uvmfault_end_us": {k: float(v) for k, v in u.items()},
                        "pattern": "thread, 256-byte lists", "tail": "no coefficient"}  # fmt: skip
    return reg


def predict(cells: pd.DataFrame, shapes: dict, reg: dict, u_end: float) -> pd.DataFrame:
    """Each rule's prediction and error; `pass1` the primary prediction against pass 1's median."""
    out = cells.copy()
    out["simulated_migration_ms"] = uvm_capped.base_ms(out, shapes, 1.0) - out["device_ms"].to_numpy(float)
    out["tail_ms"] = uvm_capped.tail_ms(out)
    out["uvmfault_end_us"] = u_end
    coef = reg["micro_end"]
    g = float(call_factor(u_end, coef))
    out["eviction_cost_ms"] = g * coef["evicted"] * out["evicted_chunks"]
    h200 = out["device_ms"] + out["simulated_migration_ms"] + out["tail_ms"]
    h200 = h200 + uvm_capped.predict(out, np.zeros(len(out)), reg["h200_terms"])
    for rule, factor, predicted in (("micro_end", g, predict_ms(out, u_end, coef)), ("h200", 1.0, h200)):
        out[f"factor_{rule}"], out[f"predicted_ms_{rule}"] = factor, predicted
        out[f"error_{rule}"] = out[f"predicted_ms_{rule}"] / out["capped_ms"] - 1
    out["factor_pass1"], out["predicted_ms_pass1"] = out["factor_micro_end"], out["predicted_ms_micro_end"]
    out["error_pass1"] = out["predicted_ms_pass1"] / out.get("capped_ms_pass1", np.nan) - 1
    return out


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET,
          call: tuple = ("uvmc7", SEED, 7, None)):  # fmt: skip
    """`call` is (session folder, seed, validation number, table name): capped validation 8 judges each of its calls
    with this rule, one folder each."""
    folder, seed, number, name = call
    session, reg, shapes, factors, _ = v2.open_call(tarball, out, folder, registered)
    runs = v5.load_runs(session)
    end = session / "micro" / "uvmfault_end.csv"
    if not end.is_file():
        raise ValueError(f"{end}: the call's uvmfault at its end is missing: micro_end has no factor")
    u_end = uvmfault_us(pd.read_csv(end))
    factors |= {"micro_end": float(call_factor(u_end, reg["micro_end"])), "h200": 1.0, "uvmfault_end_us": u_end}
    cells, counts = v5.pass_cells(session, runs, graph_dir, how, jobs, seed)
    cells = predict(cells, shapes, reg, u_end)
    return v2.finish(out, number, session, how, runs, cells, counts, (shapes, factors, reg), (*RULES, *REPORTED),
                     ("h200", "pageable"), ["micro_end", "h200_terms"], name)  # fmt: skip


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] != ["register"]:
        return judge_cli(argv, "python -m model.uvm_capped_validation7", __doc__.split("\n\n")[0], judge,
                         "uvmc7.tgz", REGISTERED, f"{NAME}_missing.csv")  # fmt: skip
    p = argparse.ArgumentParser(prog="python -m model.uvm_capped_validation7 register")
    p.add_argument("--validation6", type=Path, default=v6.REGISTERED, help="capped validation 6's registered input")
    p.add_argument("--out", required=True, type=Path)
    a = p.parse_args(argv[1:])

    def go():
        reg = register(fit_cells(), json.loads(a.validation6.read_text()))
        write_text(json.dumps(reg, indent=2) + "\n", a.out)
        print(json.dumps({k: reg[k] for k in ("micro_end", "h200_terms", "micro_fit")}))

    return exit_status(go, (OSError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
