"""Validation 9 of the UVM simulator (model/uvm_validation9.py) on SYNTHETIC inputs whose answer is known (no table
here is a measurement), its registered parameters (archive/uvm-validation9-registration-2026-11-27) and its device
script."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model import uvm_validation3, uvm_validation4, uvm_validation8, uvm_validation9
from tests.test_uvm_validation7 import SCALES
from tests.uvm_validation_checks import assert_figure_draws, judge_synthetic_call

ROOT = Path(__file__).resolve().parents[1]


def _registered(registered: Path, pooled: float, multiplier: float = 0.5) -> Path:
    d = json.loads(registered.read_text())
    registered.write_text(json.dumps(d | {"rmat_bfs_term": {"multiplier": multiplier}, "pooled_factor": {"f": pooled}}))
    return registered


def test_judge_a_synthetic_call_by_the_pooled_factor(tmp_path):
    """The SYNTHETIC call's cold times are at factor 1.25: the pooled rule registered at 1.25 is exact whatever the
    copies say (start 4, end 6 GB/s: the pageable rule reads 5 GB/s, not its exact 10); the kron graph gets no term."""
    every, out, _ = judge_synthetic_call(
        tmp_path, uvm_validation9, 9, 31, SCALES, 4.0, 6.0, lambda r: _registered(r, 1.25)
    )
    assert list(every.index) == [*uvm_validation9.RULES, "floor"]
    assert every.loc["pooled", "factor"] == pytest.approx(1.25) and every.loc["pooled", "worst"] < 1e-9
    assert every.loc["pageable", "factor"] != pytest.approx(1.25) and every.loc["pageable", "worst"] > 1e-3
    cells = pd.read_csv(out / "validation9_cells.csv")
    assert (cells["migration_term"] == 1.0).all() and (cells["uvm_runs"] == 9).all()
    factors = json.loads((out / "validation9_factors.json").read_text())
    assert factors["pooled"] == 1.25 and factors["pageable_gbps"] == pytest.approx(5.0)
    assert "pooled" in set(pd.read_csv(out / "validation9_by_run.csv")["rule"])
    assert "error_pooled" in pd.read_csv(out / "validation9_runs.csv").columns
    assert_figure_draws(out, tmp_path, 9)


def test_the_term_scales_the_pooled_prediction_of_rmat_bfs_cells_only(tmp_path, monkeypatch):
    monkeypatch.setattr(uvm_validation8, "rmat_bfs", lambda cells, how: (cells["algorithm"] == "bfs").to_numpy())
    judge_synthetic_call(tmp_path, uvm_validation9, 9, 31, SCALES, 5.0, 15.0, lambda r: _registered(r, 1.25))
    cells = pd.read_csv(tmp_path / "out/validation9_cells.csv")
    bfs, cc = cells[cells["algorithm"] == "bfs"], cells[cells["algorithm"] == "cc"]
    assert (bfs["migration_term"] == 0.5).all() and (cc["migration_term"] == 1.0).all()
    assert (bfs["error_pooled"] < -1e-3).all() and np.abs(cc["error_pooled"]).max() < 1e-9
    assert np.allclose(bfs["predicted_ms_pooled"], bfs["device_ms"] + 1.25 * bfs["simulated_migration_ms"])


def test_registered_params_are_the_v3_to_v8_fit_with_the_pooled_factor_and_term():
    """The committed registration: shapes fitted with validations 3-8 (1034 cells), the pooled factor 1.058 over 6
    calls, the R-MAT BFS term 0.909 over 24 cells, the pageable rule over 12 sessions
    (archive/uvm-validation8-analysis-2026-11-27, `loco.csv` with nothing held out has the same values)."""
    shapes, rule = uvm_validation4.load_access(uvm_validation9.REGISTERED)
    assert shapes["warp"].throughput_gbps == pytest.approx(75.48, abs=0.01)
    assert rule["c"] == pytest.approx(-0.1746, abs=5e-4) and rule["k"] == pytest.approx(0.7333, abs=5e-4)
    assert len(rule["sessions"]) == 12 and {"v3", "v4", "v5", "v6", "v7", "v8"} <= set(rule["sessions"])
    d = json.loads(uvm_validation9.REGISTERED.read_text())
    assert d["cells"] == {"thread": 288, "warp": 746}
    assert d["pooled_factor"]["f"] == pytest.approx(1.0577, abs=5e-4) and d["pooled_factor"]["calls"] == 6
    assert d["rmat_bfs_term"]["multiplier"] == pytest.approx(0.9086, abs=5e-4) and d["rmat_bfs_term"]["cells"] == 24


def test_register_reproduces_the_committed_json_and_refuses_held_out_cells():
    folder = uvm_validation9.REGISTERED.parent
    fit = json.loads((folder / "shape_fit.json").read_text())
    assert not any("validation9" in s for s in fit["session_factors"])
    again = uvm_validation9.register(fit, uvm_validation9.session_mids())
    committed = json.loads(uvm_validation9.REGISTERED.read_text())
    assert again["shapes"] == committed["shapes"] and again["cells"] == committed["cells"]
    assert again["pageable_rule"]["sessions"] == committed["pageable_rule"]["sessions"]
    for key in ("c", "k"):
        assert again["pageable_rule"][key] == pytest.approx(committed["pageable_rule"][key], rel=1e-9)
    assert again["rmat_bfs_term"]["multiplier"] == pytest.approx(committed["rmat_bfs_term"]["multiplier"], rel=1e-9)
    assert again["pooled_factor"]["f"] == pytest.approx(committed["pooled_factor"]["f"], rel=1e-9)
    leaked = fit | {"session_factors": fit["session_factors"] | {"uvm-validation9-h100-2026-11-28": 1.0}}
    with pytest.raises(ValueError, match="held out"):
        uvm_validation9.register(leaked, uvm_validation9.session_mids())
    assert set(uvm_validation9.CALLS) == {"v3", "v4", "v5", "v6", "v7", "v8"}


def test_the_graph_table_is_seed_31_and_new():
    assert uvm_validation9.SEED == 31 and uvm_validation9.CALL.seed == 31 and uvm_validation9.CALL.n == 9
    assert all(name.endswith("s31") for name in uvm_validation9.SET)
    earlier = set().union(*uvm_validation9.EARLIER_SETS)
    assert not set(uvm_validation9.SET) & earlier and set(uvm_validation8.SET) <= earlier
    assert {k.replace("s31", "s30"): v for k, v in uvm_validation9.SET.items()} == uvm_validation8.SET
    assert uvm_validation9.JUDGED == ("pooled", "pageable", "none") and uvm_validation9.RULES[0] == "pooled"


def test_the_device_script_measures_the_registered_set_in_rounds():
    text = (ROOT / "tools/device/uvm_validation9.sh").read_text()
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', text))
    assert how == uvm_validation9.SET and f"SEED={uvm_validation9.SEED};" in text
    est = {k: int(v) for k, v in re.findall(r"\[(\w+)\]=(\d+)", text)}
    assert est == {"kron23s31": 140, "urand23s31": 115, "rmat22ef32s31": 100}
    for setting in (f"REPS=${{REPS:-{uvm_validation9.REPS}}}", "WARMUP=${WARMUP:-1}", "BUDGET_S=${BUDGET_S:-430}"):
        assert setting in text
    assert "HARD_S=${HARD_S:-450}" in text and "RUN_LIMIT_S=${RUN_LIMIT_S:-150}" in text
    assert f"RUN_ORDER=${{RUN_ORDER:-{uvm_validation9.RUN_ORDER}}}" in text
    assert "UVMFAULT_AFTER=0" in text and "validation_call 9 " in text and "validation_dirs 9" in text
    assert f"VARIANTS={','.join(uvm_validation3.VARIANTS)};" in text and "EMOGI_COMMIT=" in text
    assert "allow-managed-oversubscription" not in text


def test_the_report_and_workflow_know_validation_9():
    from figures import fig_uvm_validation9, uvm_validation_report

    rules, what, primary = uvm_validation_report.VALIDATIONS[fig_uvm_validation9.FIGURE]
    assert primary == "pooled" and list(rules)[0] == "pooled" and set(uvm_validation9.RULES) <= set(rules)
    assert re.search(r"UVM_VALIDATIONS = \(3, 4, 5, 6, 7, 8, 9\b", (ROOT / "workflow/rules/oom.smk").read_text())
