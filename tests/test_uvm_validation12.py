"""Validation 12 of the UVM simulator, on the H200 (model/uvm_validation12.py): validation 10's registered rule,
unchanged, on new graphs and a second GPU; its judge on SYNTHETIC inputs whose answer is known (no table here is a
measurement), its device script, and the expectation's basis from the archived H200 graph check."""

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from model import uvm_validation10, uvm_validation11, uvm_validation12
from tests.test_uvm_validation7 import SCALES
from tests.test_uvm_validation10 import EVERY, _registered
from tests.uvm_validation_checks import assert_figure_draws, judge_synthetic_call

ROOT = Path(__file__).resolve().parents[1]


def test_judge_a_synthetic_call_as_validation_10_does_and_name_its_gpu(tmp_path):
    """The SYNTHETIC call's cold times are at factor 1.25: f = 1 with every pair's multiplier at 1.25 is exact; its
    GPU (not the fit's) is refused nothing and named in the cells, the summary and source.json."""
    every, out, _ = judge_synthetic_call(
        tmp_path, uvm_validation12, 12, 36, SCALES, 4.0, 6.0, lambda r: _registered(r, EVERY)
    )
    assert list(every.index) == [*uvm_validation10.RULES, "floor"]
    assert every.loc["none", "factor"] == 1.0 and every.loc["none", "worst"] < 1e-9
    cells = pd.read_csv(out / "validation12_cells.csv")
    assert (cells["migration_term"] == 1.25).all() and (cells["uvm_runs"] == 9).all()
    assert (cells["gpu"] == "SYNTHETIC").all() and (every["gpu"] == "SYNTHETIC").all()
    assert (pd.read_csv(out / "validation12_summary.csv")["gpu"] == "SYNTHETIC").all()
    source = json.loads((out / "source.json").read_text())
    assert source["gpu"] == "SYNTHETIC" and source["rule_fitted_on"] == "NVIDIA H100 80GB HBM3"
    assert source["same_gpu_as_the_fit"] is False
    assert_figure_draws(out, tmp_path, 12)


def test_the_rule_is_validation_10s_registration_unchanged():
    assert uvm_validation12.REGISTERED == uvm_validation10.REGISTERED
    fit = json.loads((uvm_validation12.REGISTERED.parent / "shape_fit.json").read_text())
    assert not any(re.search(r"validation1[0-2]", s) for s in fit["session_factors"])
    assert all("h100" in s for s in fit["session_factors"])  # every fitted session ran on the H100
    assert uvm_validation12.CALL.term is uvm_validation10.CALL.term and uvm_validation12.RULES[0] == "none"
    assert uvm_validation12.JUDGED == uvm_validation10.JUDGED and uvm_validation12.REPS == 9
    with pytest.raises(ValueError, match="registers nothing"):
        uvm_validation12.register({}, {})
    assert uvm_validation12.main(["register", "--shape-fit", "x.json", "--out", "y.json"]) != 0


def test_the_graph_table_is_seed_36_and_new():
    assert uvm_validation12.SEED == 36 and uvm_validation12.CALL.seed == 36 and uvm_validation12.CALL.n == 12
    assert {k.replace("s36", "s34"): v for k, v in uvm_validation12.SET.items()} == uvm_validation11.SET
    earlier = set().union(*uvm_validation12.EARLIER_SETS)
    assert not set(uvm_validation12.SET) & earlier and set(uvm_validation11.SET) <= earlier


def test_the_device_script_is_validation_11s_call_on_the_registered_set():
    text = (ROOT / "tools/device/uvm_validation12.sh").read_text()
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', text))
    assert how == uvm_validation12.SET and f"SEED={uvm_validation12.SEED};" in text
    eleven = (ROOT / "tools/device/uvm_validation11.sh").read_text().replace("s34", "s36").replace("SEED=34", "SEED=36")
    body = [x for x in text.splitlines() if x and not x.startswith("#")]
    assert body == [x.replace("11", "12") for x in eleven.splitlines() if x and not x.startswith("#")]
    assert "validation_call 12 " in text and "validation_dirs 12" in text
    assert "allow-managed-oversubscription" not in text and "H100" not in "".join(body)


def test_the_expectations_basis_the_h200_graph_checks_cold_cells():
    """The numbers the docs' expectation quotes: validation 10's primary rule on the graph check's 36 cold cells."""
    basis = uvm_validation12.graph_check_basis()
    assert basis["cells"] == 36 and basis["past_25"] == 0
    assert basis["median"] == pytest.approx(0.097, abs=5e-4) and basis["worst"] == pytest.approx(0.2496, abs=5e-4)
    assert basis["signed_median"] == pytest.approx(-0.0007, abs=5e-4) and basis["floor"] == pytest.approx(1.001, 1e-3)


def test_the_report_and_workflow_know_validation_12():
    from figures import fig_uvm_validation12, uvm_validation_report

    rules, what, primary = uvm_validation_report.VALIDATIONS[fig_uvm_validation12.FIGURE]
    assert primary == "none" and set(uvm_validation12.RULES) <= set(rules) and "H200" in what
    assert re.search(
        r"UVM_VALIDATIONS = \(3, 4, 5, 6, 7, 8, 9, 10, 11, 12\b", (ROOT / "workflow/rules/oom.smk").read_text()
    )


def test_the_archived_h200_call_is_judged_as_registered():
    """Validation 12's H200 call, archived: the registered rule's median met, its worst missed by one cell; the
    source names the GPU, the commit as text and the rule's H100 fit."""
    (archive,) = (ROOT / "archive").glob("uvm-validation12-*")
    source = json.loads((archive / "source.json").read_text())
    assert (source["gpu"], source["commit"], source["same_gpu_as_the_fit"]) == ("NVIDIA H200", "0628657", False)
    summary = pd.read_csv(archive / "validation12_summary.csv")
    (row,) = summary[(summary["group"] == "all") & (summary["rule"] == "none")].itertuples()
    assert row.n == 36 and not row.meets_targets and row.within_25 == pytest.approx(35 / 36)
    assert row.median == pytest.approx(0.0439, abs=5e-4) and row.worst == pytest.approx(0.2508, abs=5e-4)
    assert pd.read_csv(archive / "validation12_missing.csv").empty
