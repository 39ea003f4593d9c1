"""Validation 10 of the UVM simulator (model/uvm_validation10.py) on SYNTHETIC inputs whose answer is known (no table
here is a measurement), its registered parameters (archive/uvm-validation10-registration-2026-11-27) and its device
script."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model import uvm_validation3, uvm_validation4, uvm_validation9, uvm_validation10
from tests.test_uvm_validation7 import SCALES
from tests.uvm_validation_checks import assert_figure_draws, judge_synthetic_call

ROOT = Path(__file__).resolve().parents[1]


def _registered(registered: Path, multipliers: dict, pooled: float = 1.1) -> Path:
    d = json.loads(registered.read_text())
    extra = {"algorithm_term": {"multipliers": multipliers}, "pooled_factor": {"f": pooled}}
    registered.write_text(json.dumps(d | extra))
    return registered


EVERY = {f"{a}/{v}": 1.25 for a in ("bfs", "cc") for v in uvm_validation3.VARIANTS}


def test_judge_a_synthetic_call_by_f_1_and_the_algorithm_term(tmp_path):
    """The SYNTHETIC call's cold times are at factor 1.25: f = 1 with every pair's multiplier registered at 1.25 is
    exact whatever the copies say (start 4, end 6 GB/s) and whatever the pooled constant (1.1) is."""
    every, out, _ = judge_synthetic_call(
        tmp_path, uvm_validation10, 10, 33, SCALES, 4.0, 6.0, lambda r: _registered(r, EVERY)
    )
    assert list(every.index) == [*uvm_validation10.RULES, "floor"]
    assert every.loc["none", "factor"] == 1.0 and every.loc["none", "worst"] < 1e-9
    assert every.loc["pooled", "factor"] == pytest.approx(1.1) and every.loc["pooled", "worst"] > 1e-3
    cells = pd.read_csv(out / "validation10_cells.csv")
    assert (cells["migration_term"] == 1.25).all() and (cells["uvm_runs"] == 9).all()
    factors = json.loads((out / "validation10_factors.json").read_text())
    assert factors["none"] == 1.0 and factors["pooled"] == 1.1 and factors["pageable_gbps"] == pytest.approx(5.0)
    assert "none" in set(pd.read_csv(out / "validation10_by_run.csv")["rule"])
    assert_figure_draws(out, tmp_path, 10)


def test_the_term_is_per_algorithm_and_variant_and_1_for_a_missing_pair(tmp_path):
    only = {"bfs/merged-aligned": 1.25, "bfs/naive": 1.25, "cc/naive": 0.5}  # cc/merged-aligned: none registered
    judge_synthetic_call(tmp_path, uvm_validation10, 10, 33, SCALES, 5.0, 15.0, lambda r: _registered(r, only))
    cells = pd.read_csv(tmp_path / "out/validation10_cells.csv").set_index(["algorithm", "variant"])
    bfs = cells.loc["bfs"]
    assert (bfs["migration_term"] == 1.25).all() and np.abs(bfs["error_none"]).max() < 1e-9
    assert cells.loc[("cc", "naive"), "migration_term"] == 0.5
    assert cells.loc[("cc", "merged-aligned"), "migration_term"] == 1.0
    assert (cells.loc["cc"]["error_none"] < -1e-3).all()
    # the simulated migration column carries the term: f = 1 adds it as it is, pooled scales it
    assert np.allclose(bfs["predicted_ms_none"], bfs["device_ms"] + bfs["simulated_migration_ms"])
    assert np.allclose(bfs["predicted_ms_pooled"], bfs["device_ms"] + 1.1 * bfs["simulated_migration_ms"])


def test_registered_params_are_the_v3_to_v9_fit_with_the_algorithm_term():
    """The committed registration: shapes fitted with validations 3-9 (1070 cells), the pooled factor 1.071 over 7
    calls, 8 multipliers (one per algorithm and variant), the pageable rule over 13 sessions
    (archive/uvm-validation9-analysis-2026-11-27, `loco.csv` with nothing held out uses the same fit)."""
    shapes, rule = uvm_validation4.load_access(uvm_validation10.REGISTERED)
    assert shapes["warp"].throughput_gbps == pytest.approx(75.58, abs=0.01)
    assert shapes["thread"].throughput_gbps == pytest.approx(41.67, abs=0.01)
    assert len(rule["sessions"]) == 13 and {f"v{n}" for n in range(3, 10)} <= set(rule["sessions"])
    d = json.loads(uvm_validation10.REGISTERED.read_text())
    assert d["cells"] == {"thread": 306, "warp": 764} and "rmat_bfs_term" not in d
    assert d["pooled_factor"]["f"] == pytest.approx(1.0708, abs=5e-4) and d["pooled_factor"]["calls"] == 7
    m = d["algorithm_term"]["multipliers"]
    assert set(m) == {f"{a}/{v}" for a in ("bfs", "sssp", "cc", "pagerank") for v in uvm_validation3.VARIANTS}
    assert m["pagerank/merged-aligned"] == pytest.approx(0.8468, abs=5e-4)
    assert m["pagerank/naive"] == pytest.approx(1.1375, abs=5e-4)
    assert sum(d["algorithm_term"]["cells"].values()) == 7 * 36


def test_the_registered_term_is_the_analysis_in_sample_alg_var():
    """The analysis's alg_var correction with nothing held out, recomputed here, is the registered multipliers."""
    d = json.loads(uvm_validation10.REGISTERED.read_text())
    fit = json.loads((uvm_validation10.REGISTERED.parent / "shape_fit.json").read_text())
    again = uvm_validation10.fit_algorithm_term(fit)
    assert again["multipliers"] == pytest.approx(d["algorithm_term"]["multipliers"], rel=1e-12)


def test_register_reproduces_the_committed_json_and_refuses_held_out_cells():
    folder = uvm_validation10.REGISTERED.parent
    fit = json.loads((folder / "shape_fit.json").read_text())
    assert not any("validation10" in s for s in fit["session_factors"])
    again = uvm_validation10.register(fit, uvm_validation10.session_mids())
    committed = json.loads(uvm_validation10.REGISTERED.read_text())
    assert again["shapes"] == committed["shapes"] and again["cells"] == committed["cells"]
    assert again["pageable_rule"]["sessions"] == committed["pageable_rule"]["sessions"]
    for key in ("c", "k"):
        assert again["pageable_rule"][key] == pytest.approx(committed["pageable_rule"][key], rel=1e-9)
    assert again["algorithm_term"]["multipliers"] == pytest.approx(committed["algorithm_term"]["multipliers"])
    assert again["pooled_factor"]["f"] == pytest.approx(committed["pooled_factor"]["f"], rel=1e-9)
    leaked = fit | {"session_factors": fit["session_factors"] | {"uvm-validation10-h100-2026-11-28": 1.0}}
    with pytest.raises(ValueError, match="held out"):
        uvm_validation10.register(leaked, uvm_validation10.session_mids())
    assert set(uvm_validation10.CALLS) == {f"v{n}" for n in range(3, 10)}


def test_the_graph_table_is_seed_33_and_new():
    assert uvm_validation10.SEED == 33 and uvm_validation10.CALL.seed == 33 and uvm_validation10.CALL.n == 10
    assert all(name.endswith("s33") for name in uvm_validation10.SET)
    earlier = set().union(*uvm_validation10.EARLIER_SETS)
    assert not set(uvm_validation10.SET) & earlier and set(uvm_validation9.SET) <= earlier
    assert {k.replace("s33", "s31"): v for k, v in uvm_validation10.SET.items()} == uvm_validation9.SET
    assert uvm_validation10.JUDGED == ("none", "pooled", "pageable") and uvm_validation10.RULES[0] == "none"


def test_the_device_script_measures_the_registered_set_in_rounds():
    text = (ROOT / "tools/device/uvm_validation10.sh").read_text()
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', text))
    assert how == uvm_validation10.SET and f"SEED={uvm_validation10.SEED};" in text
    est = {k: int(v) for k, v in re.findall(r"\[(\w+)\]=(\d+)", text)}
    assert est == {"kron23s33": 150, "urand23s33": 125, "rmat22ef32s33": 100}
    for setting in (f"REPS=${{REPS:-{uvm_validation10.REPS}}}", "WARMUP=${WARMUP:-1}", "BUDGET_S=${BUDGET_S:-430}"):
        assert setting in text
    assert "HARD_S=${HARD_S:-450}" in text and "RUN_LIMIT_S=${RUN_LIMIT_S:-150}" in text
    assert f"RUN_ORDER=${{RUN_ORDER:-{uvm_validation10.RUN_ORDER}}}" in text
    assert "UVMFAULT_AFTER=0" in text and "validation_call 10 " in text and "validation_dirs 10" in text
    assert f"VARIANTS={','.join(uvm_validation3.VARIANTS)};" in text and "EMOGI_COMMIT=" in text
    assert "allow-managed-oversubscription" not in text


def test_the_report_and_workflow_know_validation_10():
    from figures import fig_uvm_validation10, uvm_validation_report

    rules, what, primary = uvm_validation_report.VALIDATIONS[fig_uvm_validation10.FIGURE]
    assert primary == "none" and list(rules)[0] == "none" and set(uvm_validation10.RULES) <= set(rules)
    assert re.search(r"UVM_VALIDATIONS = \(3, 4, 5, 6, 7, 8, 9, 10\b", (ROOT / "workflow/rules/oom.smk").read_text())
