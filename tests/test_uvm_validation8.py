"""Validation 8 of the UVM simulator (model/uvm_validation8.py) on SYNTHETIC inputs whose answer is known (no table
here is a measurement), its registered parameters (archive/uvm-validation8-registration-2026-11-27), its device
script and the session library's run-order hook (tools/device/uvm_session.sh)."""

import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model import uvm_validation3, uvm_validation4, uvm_validation7, uvm_validation8
from tests.test_uvm_validation7 import SCALES
from tests.uvm_validation_checks import assert_figure_draws, judge_synthetic_call

ROOT = Path(__file__).resolve().parents[1]


def _registered_with_term(registered: Path, multiplier: float) -> Path:
    d = json.loads(registered.read_text())
    registered.write_text(json.dumps(d | {"rmat_bfs_term": {"multiplier": multiplier}}))
    return registered


def test_judge_a_synthetic_call_without_an_rmat_graph_leaves_every_cell_exact(tmp_path):
    """The SYNTHETIC call's graph is a kron graph: the term (0.5 here) applies to no cell, the rule is exact."""
    every, out, _ = judge_synthetic_call(
        tmp_path, uvm_validation8, 8, 30, SCALES, 5.0, 15.0, lambda r: _registered_with_term(r, 0.5)
    )
    assert every.loc["pageable", "factor"] == pytest.approx(1.25) and every.loc["pageable", "worst"] < 1e-9
    cells = pd.read_csv(out / "validation8_cells.csv")
    assert (cells["migration_term"] == 1.0).all() and (cells["uvm_runs"] == 9).all()
    assert_figure_draws(out, tmp_path, 8)


def test_the_term_scales_the_migration_of_rmat_bfs_cells_only(tmp_path, monkeypatch):
    """With the SYNTHETIC graph taken as R-MAT, BFS cells get the term (0.5) on their migration and every rule uses
    the product; CC cells stay exact."""
    monkeypatch.setattr(uvm_validation8, "rmat_bfs", lambda cells, how: (cells["algorithm"] == "bfs").to_numpy())
    judge_synthetic_call(tmp_path, uvm_validation8, 8, 30, SCALES, 5.0, 15.0, lambda r: _registered_with_term(r, 0.5))
    cells = pd.read_csv(tmp_path / "out/validation8_cells.csv")
    bfs, cc = cells[cells["algorithm"] == "bfs"], cells[cells["algorithm"] == "cc"]
    assert (bfs["migration_term"] == 0.5).all() and (cc["migration_term"] == 1.0).all()
    assert (bfs["error_pageable"] < -1e-3).all() and np.abs(cc["error_pageable"]).max() < 1e-9
    assert np.allclose(bfs["predicted_ms_pageable"], bfs["device_ms"] + 1.25 * bfs["simulated_migration_ms"])
    true_mig = (bfs["uvm_ms"] - bfs["device_ms"]) / 1.25
    assert np.allclose(bfs["simulated_migration_ms"], 0.5 * true_mig, rtol=1e-6)


def test_rmat_bfs_reads_the_generator_arguments():
    how = {**uvm_validation8.SET, "other": "--kind kron --scale 10 --edge-factor 8"}
    cells = pd.DataFrame(
        {"graph": ["rmat22ef32s30", "rmat22ef32s30", "kron23s30", "urand23s30", "other"],
         "algorithm": ["bfs", "sssp", "bfs", "bfs", "bfs"]}
    )  # fmt: skip
    assert list(uvm_validation8.rmat_bfs(cells, how)) == [True, False, False, False, False]


def test_registered_params_are_the_v3_to_v7_fit_with_the_rmat_bfs_term():
    """The committed registration: shapes fitted with validations 3-7 (998 cells), c -0.185, k 0.747 over 11
    sessions, the R-MAT BFS multiplier 0.896 over 20 cells (archive/uvm-validation7-analysis-2026-11-27, (b))."""
    shapes, rule = uvm_validation4.load_access(uvm_validation8.REGISTERED)
    assert shapes["warp"].throughput_gbps == pytest.approx(75.82, abs=0.01)
    assert rule["c"] == pytest.approx(-0.1854, abs=5e-4) and rule["k"] == pytest.approx(0.7473, abs=5e-4)
    assert len(rule["sessions"]) == 11 and {"v3", "v4", "v5", "v6", "v7"} <= set(rule["sessions"])
    d = json.loads(uvm_validation8.REGISTERED.read_text())
    assert d["cells"] == {"thread": 270, "warp": 728}
    assert d["rmat_bfs_term"]["multiplier"] == pytest.approx(0.896, abs=5e-4) and d["rmat_bfs_term"]["cells"] == 20


def test_register_reproduces_the_committed_json_and_refuses_held_out_cells():
    folder = uvm_validation8.REGISTERED.parent
    fit = json.loads((folder / "shape_fit.json").read_text())
    assert not any("validation8" in s for s in fit["session_factors"])
    again = uvm_validation8.register(fit, uvm_validation8.session_mids())
    committed = json.loads(uvm_validation8.REGISTERED.read_text())
    assert again["shapes"] == committed["shapes"] and again["cells"] == committed["cells"]
    assert again["pageable_rule"]["sessions"] == committed["pageable_rule"]["sessions"]
    for key in ("c", "k"):
        assert again["pageable_rule"][key] == pytest.approx(committed["pageable_rule"][key], rel=1e-9)
    assert again["rmat_bfs_term"]["multiplier"] == pytest.approx(committed["rmat_bfs_term"]["multiplier"], rel=1e-9)
    leaked = fit | {"session_factors": fit["session_factors"] | {"uvm-validation8-h100-2026-11-28": 1.0}}
    with pytest.raises(ValueError, match="held out"):
        uvm_validation8.register(leaked, uvm_validation8.session_mids())
    assert set(uvm_validation8.CALLS) == {"v3", "v4", "v5", "v6", "v7"}


def test_the_graph_table_is_seed_30_and_new():
    assert uvm_validation8.SEED == 30 and uvm_validation8.CALL.seed == 30 and uvm_validation8.CALL.n == 8
    assert all(name.endswith("s30") for name in uvm_validation8.SET)
    earlier = set().union(*uvm_validation8.EARLIER_SETS)
    assert not set(uvm_validation8.SET) & earlier
    assert {k.replace("s30", "s29"): v for k, v in uvm_validation8.SET.items()} == uvm_validation7.SET


def test_the_device_script_measures_the_registered_set_in_rounds():
    text = (ROOT / "tools/device/uvm_validation8.sh").read_text()
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', text))
    assert how == uvm_validation8.SET and f"SEED={uvm_validation8.SEED};" in text
    est = {k: int(v) for k, v in re.findall(r"\[(\w+)\]=(\d+)", text)}
    assert est == {"kron23s30": 145, "urand23s30": 115, "rmat22ef32s30": 100}
    for setting in (f"REPS=${{REPS:-{uvm_validation8.REPS}}}", "WARMUP=${WARMUP:-1}", "BUDGET_S=${BUDGET_S:-430}"):
        assert setting in text
    assert "HARD_S=${HARD_S:-450}" in text and "RUN_LIMIT_S=${RUN_LIMIT_S:-150}" in text
    assert f"RUN_ORDER=${{RUN_ORDER:-{uvm_validation8.RUN_ORDER}}}" in text
    assert "UVMFAULT_AFTER=0" in text and "validation_call 8 " in text and "validation_dirs 8" in text
    assert f"VARIANTS={','.join(uvm_validation3.VARIANTS)};" in text and "EMOGI_COMMIT=" in text
    assert "allow-managed-oversubscription" not in text
    for n in (3, 4, 5, 6, 7):  # the earlier calls keep the binary's default order
        assert "RUN_ORDER" not in (ROOT / f"tools/device/uvm_validation{n}.sh").read_text()


def _session_lib(tmp_path: Path, body: str, env: dict) -> subprocess.CompletedProcess:
    """Run `body` in bash with tools/device/uvm_session.sh sourced, `log` stubbed and a fake python3 (and timeout
    passing through) that records its arguments in calls.txt: a dry run, nothing measured."""
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    (fake / "python3").write_text(f'#!/bin/sh\necho "$@" >> {tmp_path}/calls.txt\n')
    (fake / "python3").chmod(0o755)
    script = f'set -uo pipefail\nlog() {{ echo "== $*"; }}\n. tools/device/uvm_session.sh\n{body}\n'
    env = os.environ | {"PATH": f"{fake}:{os.environ['PATH']}"} | env
    return subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("order", ["rounds", ""])
def test_measure_passes_the_run_order_only_where_set(tmp_path, order):
    w = tmp_path / "w"
    body = (f"W={w}; S=$W/uvm8; mkdir -p $S/logs $S/runs $S/graphs; G=$W/g; EMOGI_BINARY=emogi; SEED=30; REPS=9; "
            f"WARMUP=1; RUN_LIMIT_S=150; HARD_S=450; VARIANTS=merged-aligned,naive; RUN_ORDER='{order}'; "
            "measure kron23s30 cc")  # fmt: skip
    r = _session_lib(tmp_path, body, {})
    assert r.returncode == 0, r.stderr
    call = (tmp_path / "calls.txt").read_text()
    assert "--reps 9 --warmup 1" in call and ("--run-order rounds" in call) == bool(order)


def test_a_graph_past_the_budget_is_deferred_not_run(tmp_path):
    body = (f"S={tmp_path}/s; mkdir -p $S; declare -A EST=([rmat22ef32s30]=100); BUDGET_S=430; SECONDS=340; "
            "graph() { echo GENERATED; }; session_graph rmat22ef32s30; cat $S/deferred.txt")  # fmt: skip
    r = _session_lib(tmp_path, body, {})
    assert r.returncode == 0, r.stderr
    assert "DEFERRED: rmat22ef32s30" in r.stdout and "GENERATED" not in r.stdout
