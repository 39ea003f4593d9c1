"""Validation 7 of the UVM simulator (model/uvm_validation7.py) on SYNTHETIC inputs whose answer is known (no table
here is a measurement), its registered parameters (archive/uvm-validation7-registration-2026-11-27) and device
script."""

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from model import uvm_validation3, uvm_validation4, uvm_validation5, uvm_validation6, uvm_validation7
from tests.uvm_validation_checks import (
    factors_without_and_with_the_closing_copy,
    figure_and_report_blocks,
    judge_synthetic_call,
)

ROOT = Path(__file__).resolve().parents[1]
SCALES = (0.9, 0.95, 0.97, 1.0, 1.0, 1.0, 1.03, 1.05, 1.3)  # each cell's nine SYNTHETIC timed runs: median exact


def test_judge_a_synthetic_call_by_the_median_of_start_and_end_copies(tmp_path):
    """Start 5 and end 15 GB/s: the primary reads 10 GB/s, the synthetic rule's exact factor (1.25) there; the
    start-only rule is the same c and k at 5 GB/s; the noise table has the block-of-3 perfect predictor."""
    every, out, registered = judge_synthetic_call(tmp_path, uvm_validation7, 7, 29, SCALES, 5.0, 15.0)
    assert set(every.index) == {"pageable", "none", "pageable_start", "micro_start", "floor"}
    assert every.loc["pageable", "factor"] == pytest.approx(1.25) and every.loc["pageable", "worst"] < 1e-9
    assert every.loc["pageable", "meets_targets"] and every.loc["micro_start", "factor"] == pytest.approx(1.25)
    factors = json.loads((out / "validation7_factors.json").read_text())
    assert factors["pageable_gbps"] == pytest.approx(10.0) and factors["pageable_from"] == "start and end"
    _, rule = uvm_validation4.load_access(registered)
    assert factors["pageable_start"] == pytest.approx(uvm_validation4.pageable_factor(rule, 5.0))
    cells = pd.read_csv(out / "validation7_cells.csv")
    assert (cells["uvm_runs"] == 9).all()
    noise = pd.read_csv(out / "validation7_noise.csv").iloc[0]
    assert noise["reps"] == 9 and noise["judged_cells"] == 4
    for key in ("block3_worst_p50", "block3_worst_p90", "block3_p_worst_over_25"):
        assert 0.0 <= noise[key] <= 1.0
    assert noise["block3_worst_p50"] <= noise["block3_worst_p90"]
    figure_and_report_blocks(out, tmp_path, 7)


def test_without_the_closing_copy_the_start_alone_is_used(tmp_path):
    alone, both = factors_without_and_with_the_closing_copy(tmp_path, uvm_validation7)
    assert alone["pageable_start"] == pytest.approx(1.0)
    assert both["pageable_start"] == pytest.approx(1.0)  # the same c and k on the start copies (10 GB/s)


def test_registered_params_are_the_refitted_shapes_and_mid_rule():
    """The committed registration (archive/uvm-validation7-registration-2026-11-27) is the fit its README's
    commands give: warp 75.9 GB/s, 39.35 us a batch, 28.29 us a region; c -0.184, k 0.746 over 10 sessions."""
    shapes, rule = uvm_validation4.load_access(uvm_validation7.REGISTERED)
    assert shapes["warp"].throughput_gbps == pytest.approx(75.93, abs=0.01)
    assert shapes["warp"].batch_us == pytest.approx(39.35, abs=0.01)
    assert shapes["warp"].service_us == pytest.approx(28.29, abs=0.01)
    assert rule["c"] == pytest.approx(-0.1837, abs=5e-4) and rule["k"] == pytest.approx(0.7463, abs=5e-4)
    assert rule["p_ref_gbps"] == 10.0 and len(rule["sessions"]) == 10 and "end" in rule["measure"]
    assert {"v3", "v4", "v5", "v6"} <= set(rule["sessions"])


def test_register_reproduces_the_committed_json():
    folder = uvm_validation7.REGISTERED.parent
    fit = json.loads((folder / "shape_fit.json").read_text())
    again = uvm_validation7.register(fit, uvm_validation7.session_mids())
    committed = json.loads(uvm_validation7.REGISTERED.read_text())
    assert again["shapes"] == committed["shapes"] and again["cells"] == committed["cells"]
    assert again["pageable_rule"]["sessions"] == committed["pageable_rule"]["sessions"]
    for key in ("c", "k"):
        assert again["pageable_rule"][key] == pytest.approx(committed["pageable_rule"][key], rel=1e-9)


def test_the_graph_table_is_seed_29_and_new():
    assert uvm_validation7.SEED == 29 and uvm_validation7.CALL.seed == 29 and uvm_validation7.CALL.n == 7
    assert all(name.endswith("s29") for name in uvm_validation7.SET)
    earlier = set(uvm_validation3.SET) | set(uvm_validation4.SET) | set(uvm_validation5.SET) | set(uvm_validation6.SET)
    assert not set(uvm_validation7.SET) & earlier
    assert {k.replace("s29", "s28"): v for k, v in uvm_validation7.SET.items()} == uvm_validation6.SET


def test_the_device_script_measures_the_registered_set():
    text = (ROOT / "tools/device/uvm_validation7.sh").read_text()
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', text))
    assert how == uvm_validation7.SET and f"SEED={uvm_validation7.SEED};" in text
    est = {k: int(v) for k, v in re.findall(r"\[(\w+)\]=(\d+)", text)}
    assert est == {"kron23s29": 135, "urand23s29": 110, "rmat22ef32s29": 95}
    for setting in (f"REPS=${{REPS:-{uvm_validation7.REPS}}}", "WARMUP=${WARMUP:-1}", "BUDGET_S=${BUDGET_S:-400}"):
        assert setting in text
    assert "HARD_S=${HARD_S:-420}" in text and "RUN_LIMIT_S=${RUN_LIMIT_S:-150}" in text
    assert "UVMFAULT_AFTER=0" in text and "validation_call 7 " in text and "validation_dirs 7" in text
    assert f"VARIANTS={','.join(uvm_validation3.VARIANTS)};" in text and "EMOGI_COMMIT=" in text
    lib = (ROOT / "tools/device/uvm_session.sh").read_text()
    assert "link link_end.csv" in lib and "allow-managed-oversubscription" not in text + lib


def test_blocks_of_3_reproduce_the_analysis_on_validation_6s_runs():
    """model.uvm_run_spread.perfect_in_blocks on validation 6's archived call matches the analysis's block3 rows
    (archive/uvm-validation6-analysis-2026-11-27/perfect_predictor_blocks.csv: its own draws, so within ~0.01)."""
    from model import uvm_run_spread

    folder = ROOT / "archive/uvm-validation6-h100-2026-11-27"
    runs = pd.concat([pd.read_csv(f) for f in sorted((folder / "session/uvm6/runs").glob("*.csv"))])
    cells = pd.read_csv(folder / "validation6_cells.csv")
    table = pd.read_csv(ROOT / "archive/uvm-validation6-analysis-2026-11-27/perfect_predictor_blocks.csv")
    for reps in (7, 9):
        row = table[(table["pool"] == "v6") & (table["runs"] == reps) & (table["model"] == "block3")].iloc[0]
        got = uvm_run_spread.perfect_in_blocks(runs.reset_index(drop=True), cells, reps, 3)
        assert got["block3_worst_p50"] == pytest.approx(row["worst_p50"], abs=0.01)
        assert got["block3_worst_p90"] == pytest.approx(row["worst_p90"], abs=0.015)
        assert got["block3_p_worst_over_25"] == pytest.approx(row["p_over_25"], abs=0.015)
