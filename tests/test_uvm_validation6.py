"""Validation 6 of the UVM simulator (model/uvm_validation6.py) on SYNTHETIC inputs whose answer is known (no table
here is a measurement), its registered parameters (archive/uvm-validation5-analysis-2026-11-27) and device script."""

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from model import uvm_validation3, uvm_validation4, uvm_validation5, uvm_validation6
from tests.uvm_validation_checks import (
    factors_without_and_with_the_closing_copy,
    figure_and_report_blocks,
    judge_synthetic_call,
)

ROOT = Path(__file__).resolve().parents[1]
SCALES = (0.9, 0.95, 1.0, 1.0, 1.0, 1.05, 1.3)  # each cell's seven SYNTHETIC timed runs: median exact


def test_judge_a_synthetic_call_by_the_median_of_start_and_end_copies(tmp_path):
    """Start 5 and end 15 GB/s: the primary reads 10 GB/s, the synthetic rule's exact factor (1.25) there."""
    every, out, _ = judge_synthetic_call(tmp_path, uvm_validation6, 6, 28, SCALES, 5.0, 15.0)
    assert set(every.index) == {"pageable", "none", "pageable_start", "micro_start", "floor"}
    assert every.loc["pageable", "factor"] == pytest.approx(1.25) and every.loc["pageable", "worst"] < 1e-9
    assert every.loc["pageable", "meets_targets"] and every.loc["micro_start", "factor"] == pytest.approx(1.25)
    factors = json.loads((out / "validation6_factors.json").read_text())
    assert factors["pageable_gbps"] == pytest.approx(10.0) and factors["pageable_from"] == "start and end"
    _, v5_rule = uvm_validation4.load_access(uvm_validation5.REGISTERED)
    assert factors["pageable_start"] == pytest.approx(uvm_validation4.pageable_factor(v5_rule, 5.0))
    cells = pd.read_csv(out / "validation6_cells.csv")
    assert (cells["uvm_runs"] == 7).all()
    noise = pd.read_csv(out / "validation6_noise.csv").iloc[0]
    assert noise["reps"] == 7 and noise["judged_cells"] == 4
    figure_and_report_blocks(out, tmp_path, 6)


def test_without_the_closing_copy_the_start_alone_is_used(tmp_path):
    factors_without_and_with_the_closing_copy(tmp_path, uvm_validation6)


def test_registered_params_are_validation5s_shapes_and_the_loso_chosen_rule():
    shapes, rule = uvm_validation4.load_access(uvm_validation6.REGISTERED)
    v5 = json.loads(uvm_validation5.REGISTERED.read_text())
    assert json.loads(uvm_validation6.REGISTERED.read_text())["shapes"] == v5["shapes"]
    assert rule["c"] == pytest.approx(-0.1455, abs=5e-4) and rule["k"] == pytest.approx(0.7613, abs=5e-4)
    assert rule["p_ref_gbps"] == 10.0 and len(rule["sessions"]) == 9 and "end" in rule["measure"]


def test_the_graph_table_is_seed_28_and_new():
    assert uvm_validation6.SEED == 28 and uvm_validation6.CALL.seed == 28 and uvm_validation6.CALL.n == 6
    assert all(name.endswith("s28") for name in uvm_validation6.SET)
    earlier = set(uvm_validation3.SET) | set(uvm_validation4.SET) | set(uvm_validation5.SET)
    assert not set(uvm_validation6.SET) & earlier
    assert {k.replace("s28", "s27"): v for k, v in uvm_validation6.SET.items()} == uvm_validation5.SET


def test_the_device_script_measures_the_registered_set():
    text = (ROOT / "tools/device/uvm_validation6.sh").read_text()
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', text))
    assert how == uvm_validation6.SET and f"SEED={uvm_validation6.SEED};" in text
    est = {k: int(v) for k, v in re.findall(r"\[(\w+)\]=(\d+)", text)}
    assert est == {"kron23s28": 135, "urand23s28": 110, "rmat22ef32s28": 90}
    for setting in (f"REPS=${{REPS:-{uvm_validation6.REPS}}}", "WARMUP=${WARMUP:-1}", "BUDGET_S=${BUDGET_S:-400}"):
        assert setting in text
    assert "HARD_S=${HARD_S:-420}" in text and "UVMFAULT_AFTER=0" in text and "validation_call 6 " in text
    assert f"VARIANTS={','.join(uvm_validation3.VARIANTS)};" in text and "EMOGI_COMMIT=" in text
    lib = (ROOT / "tools/device/uvm_session.sh").read_text()
    assert "link link_end.csv" in lib and "allow-managed-oversubscription" not in text + lib
