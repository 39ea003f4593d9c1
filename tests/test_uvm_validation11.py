"""Validation 11 of the UVM simulator (model/uvm_validation11.py): validation 10's registered rule, unchanged, on new
graphs; its judge on SYNTHETIC inputs whose answer is known (no table here is a measurement) and its device script."""

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from model import uvm_validation3, uvm_validation10, uvm_validation11
from tests.test_uvm_validation7 import SCALES
from tests.test_uvm_validation10 import EVERY, _registered
from tests.uvm_validation_checks import assert_figure_draws, judge_synthetic_call

ROOT = Path(__file__).resolve().parents[1]


def test_judge_a_synthetic_call_as_validation_10_does(tmp_path):
    """The SYNTHETIC call's cold times are at factor 1.25: f = 1 with every pair's multiplier at 1.25 is exact, and
    every file is named validation11_*."""
    every, out, _ = judge_synthetic_call(
        tmp_path, uvm_validation11, 11, 34, SCALES, 4.0, 6.0, lambda r: _registered(r, EVERY)
    )
    assert list(every.index) == [*uvm_validation10.RULES, "floor"]
    assert every.loc["none", "factor"] == 1.0 and every.loc["none", "worst"] < 1e-9
    cells = pd.read_csv(out / "validation11_cells.csv")
    assert (cells["migration_term"] == 1.25).all() and (cells["uvm_runs"] == 9).all()
    assert_figure_draws(out, tmp_path, 11)


def test_the_rule_is_validation_10s_registration_unchanged():
    assert uvm_validation11.REGISTERED == uvm_validation10.REGISTERED
    fit = json.loads((uvm_validation11.REGISTERED.parent / "shape_fit.json").read_text())
    assert not any("validation10" in s or "validation11" in s for s in fit["session_factors"])
    assert uvm_validation11.CALL.term is uvm_validation10.CALL.term and uvm_validation11.RULES[0] == "none"
    assert uvm_validation11.JUDGED == uvm_validation10.JUDGED and uvm_validation11.REPS == 9
    with pytest.raises(ValueError, match="registers nothing"):
        uvm_validation11.register({}, {})
    assert uvm_validation11.main(["register", "--shape-fit", "x.json", "--out", "y.json"]) != 0


def test_the_graph_table_is_seed_34_and_new():
    assert uvm_validation11.SEED == 34 and uvm_validation11.CALL.seed == 34 and uvm_validation11.CALL.n == 11
    assert {k.replace("s34", "s33"): v for k, v in uvm_validation11.SET.items()} == uvm_validation10.SET
    earlier = set().union(*uvm_validation11.EARLIER_SETS)
    assert not set(uvm_validation11.SET) & earlier and set(uvm_validation10.SET) <= earlier


def test_the_device_script_measures_the_registered_set_as_validation_10():
    text = (ROOT / "tools/device/uvm_validation11.sh").read_text()
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', text))
    assert how == uvm_validation11.SET and f"SEED={uvm_validation11.SEED};" in text
    est = {k: int(v) for k, v in re.findall(r"\[(\w+)\]=(\d+)", text)}
    assert est == {"kron23s34": 150, "urand23s34": 125, "rmat22ef32s34": 100}
    ten = (ROOT / "tools/device/uvm_validation10.sh").read_text()
    for setting in ("REPS=${REPS:-9}", "WARMUP=${WARMUP:-1}", "BUDGET_S=${BUDGET_S:-430}", "HARD_S=${HARD_S:-450}",
                    "RUN_LIMIT_S=${RUN_LIMIT_S:-150}", "RUN_ORDER=${RUN_ORDER:-rounds}", "UVMFAULT_AFTER=0",
                    f"VARIANTS={','.join(uvm_validation3.VARIANTS)};", "UVMFAULT=(", "UVMFAULT_STRIDE=("):  # fmt: skip
        line = next(x for x in text.splitlines() if setting in x)
        assert line.replace("SEED=34", "SEED=33") in ten.splitlines(), line
    assert "validation_call 11 " in text and "validation_dirs 11" in text
    assert "allow-managed-oversubscription" not in text


def test_the_report_and_workflow_know_validation_11():
    from figures import fig_uvm_validation11, uvm_validation_report

    rules, what, primary = uvm_validation_report.VALIDATIONS[fig_uvm_validation11.FIGURE]
    assert primary == "none" and set(uvm_validation11.RULES) <= set(rules)
    assert re.search(
        r"UVM_VALIDATIONS = \(3, 4, 5, 6, 7, 8, 9, 10, 11\b", (ROOT / "workflow/rules/oom.smk").read_text()
    )
