"""Capped validation 4 (model/uvm_capped_validation4.py) on SYNTHETIC inputs whose answer is known (no table here is
a measurement), its registered parameters, its device script and the order diagnostic's; capped validation 2's tests
(tests/test_uvm_capped_validation2.py) lend the synthetic call."""

import json
import subprocess

import numpy as np
import pandas as pd
import pytest

from model import uvm_capped, uvm_capped_validation2, uvm_capped_validation3, uvm_capped_validation4
from tests.test_uvm_capped_validation2 import HOW, ROOT, F, _synthetic_call, capped_figure_and_report, script_text
from tests.test_uvm_capped_validation3 import (
    E_T,
    _price,
    archived_call,
    assert_a_new_set,
    assert_registered_and_reproduced,
    assert_script_tables,
    assert_validation_2s_design,
)

V4 = uvm_capped_validation4
E_MS = 0.01  # the SYNTHETIC cost per evicted chunk (as capped validation 2's tests)


def _cells(n=60, f=1.0, seed=4):
    """SYNTHETIC fit cells in the analysis's columns, priced at factor f, 0.02 and 0.01 ms per evicted chunk."""
    rng = np.random.default_rng(seed)
    c = pd.DataFrame({"graph": "kron20s31", "device_ms": rng.uniform(1, 50, n), "mig": rng.uniform(20, 500, n),
                      "tail": rng.uniform(0, 30, n), "evicted_chunks": rng.integers(100, 5000, n),
                      "naive": rng.random(n) < 0.5})  # fmt: skip
    c["naive_evicted"] = np.where(c["naive"], c["evicted_chunks"], 0)
    c["capped_ms"] = c["device_ms"] + f * c["mig"] + c["tail"] + 0.02 * c["evicted_chunks"] + 0.01 * c["naive_evicted"]
    return c


def test_the_fits_recover_their_terms_and_refuse_held_out_graphs():
    unit = V4.fit_unit(_cells())
    assert unit["evicted"] == pytest.approx(0.02, rel=1e-6) and unit["thread_evicted"] == pytest.approx(0.01, rel=1e-6)
    pooled = V4.fit_pooled(_cells(f=1.3))
    assert pooled["factor"] == pytest.approx(1.3, rel=1e-6)
    assert pooled["terms"]["evicted"] == pytest.approx(0.02, rel=1e-5)
    for held in V4.SET:
        bad = _cells().assign(graph=held)
        for fit in (V4.fit_unit, V4.fit_pooled):
            with pytest.raises(uvm_capped.CappedError, match="only the archived capped runs"):
                fit(bad)


def test_the_set_is_new_seed_33_and_the_design_is_validation_2s():
    assert_a_new_set(V4, 33, set(uvm_capped_validation2.SET) | set(uvm_capped_validation3.SET) | set(V4.FIT_GRAPHS), 9)
    assert_validation_2s_design(V4)


def test_registered_params_are_committed_and_reproduced():
    reg, again = assert_registered_and_reproduced(V4, uvm_capped_validation3, "validation3_terms", 252)
    assert len(reg["capped_fit"]["calls"]) == 4
    for term in V4.TERMS:
        assert again["pooled"]["terms"][term] == pytest.approx(reg["pooled"]["terms"][term], rel=1e-6)
    assert again["pooled"]["factor"] == pytest.approx(reg["pooled"]["factor"], rel=1e-6)


def _synthetic(tmp_path, name: str = "uvmc4", registered=V4.REGISTERED):
    """Capped validation 2's SYNTHETIC call (`name`) priced at F plus E_MS, E_T and the tail; the registered pooled
    rule (`registered` with it) is that price (so it is exact), unit's terms the same at f = 1 (so it is not)."""
    terms = {"evicted": E_MS, "thread_evicted": E_T}
    tarball, gdir, registered = _synthetic_call(tmp_path, name, registered, terms, _price)
    reg = json.loads(registered.read_text())
    reg["pooled"] = {"factor": F, "terms": terms}
    registered.write_text(json.dumps(reg))
    return tarball, gdir, registered


def test_judge_a_synthetic_capped_call(tmp_path):
    tarball, gdir, registered = _synthetic(tmp_path)
    out = tmp_path / "out"
    summary = V4.judge(tarball, gdir, out, 1, registered, HOW)
    every = summary[summary["group"] == "all"].set_index("rule")
    assert set(every.index) == {"unit", "pooled", "floor", "validation3"}
    assert every.loc["unit", "factor"] == 1.0 and every.loc["unit", "worst"] > 1e-3
    assert every.loc["pooled", "factor"] == pytest.approx(F) and every.loc["pooled", "worst"] < 1e-9
    assert every.loc["pooled", "meets_targets"] and every.loc["floor", "factor"] == pytest.approx(F)
    assert every.loc["validation3", "factor"] == pytest.approx(F) and every.loc["pooled", "n"] == 15
    cells = pd.read_csv(out / "capped_validation4_cells.csv")
    naive4 = (cells["variant"] == "naive") & (cells["sublaunches"] == 4)
    assert (cells.loc[naive4, "tail_ms"] > 0).all() and (cells.loc[~naive4, "tail_ms"] == 0).all()
    missing = pd.read_csv(out / "capped_validation4_missing.csv")
    assert missing["algorithm"].value_counts().to_dict() == {"sssp": 8, "cc": 8, "bfs": 1}
    assert len(pd.read_csv(out / "capped_validation4_cold.csv")) == 4
    factors = json.loads((out / "capped_validation4_factors.json").read_text())
    assert factors["unit"] == 1.0 and factors["pooled"]["factor"] == pytest.approx(F)
    assert "capped validation 4" in json.loads((out / "source.json").read_text())["note"]
    unit_primary_block(out, tmp_path)


def unit_primary_block(out, tmp_path, n: int = 4):
    """Capped validation `n`'s figure and report blocks (validation 4's rules): the pooled rule met on the
    synthetic call, the primary unit rule missed, the floor no prediction."""
    verdicts, table = capped_figure_and_report(out, tmp_path, n)
    assert verdicts["pooled"] == "met" and verdicts["unit"] == "missed" and verdicts["floor"] == "not a prediction"
    assert "unit is the primary one" in table["caption"]


def test_the_judge_refuses_a_graph_outside_the_set(tmp_path):
    tarball, gdir, registered = _synthetic(tmp_path)
    with pytest.raises(ValueError, match="not in the registered set"):
        V4.judge(tarball, gdir, tmp_path / "out", 1, registered)  # the synthetic graph is not in V4.SET


def test_the_workflow_draws_the_archived_call():
    """The workflow draws capped validation 4 from its archive: the judge's tables and the call's tarball beside
    them; its trace part lives in git history, and the archive's README names the commit that restores it."""
    archive = archived_call(4)
    readme = (archive / "README.md").read_text()
    assert f"git show b06ef9e:archive/{archive.name}/uvmc4_traces.tar.xz.part00" in readme


def test_the_device_script_measures_the_registered_set_within_the_guard():
    text = script_text(4)
    assert_script_tables(text, V4, 4)
    for setting in (f"REPS=${{REPS:-{V4.REPS}}}", "BUDGET_S=${BUDGET_S:-400}", "HARD_S=${HARD_S:-430}"):
        assert setting in text
    assert "--warmup 0" in text and "--trace-out" in text and ">>21<<21" in text and "--run-order" not in text
    assert "uvmc4.tgz" in text and "python -m model.uvm_capped_validation4 judge" in text
    assert subprocess.run(["bash", "-n", str(ROOT / "tools/device/uvm_capped_validation4.sh")]).returncode == 0


def test_the_order_diagnostic_reruns_capped_validation_3s_worst_cells_in_descending_capacity():
    own = (ROOT / "tools/device/uvm_capped_order_check.sh").read_text()
    assert 'NAMES="urand20s31"' in own and "SEED=31;" in own and "N=3d;" in own
    assert 'FRACTIONS="0.5 0.375 0.25 0.125"' in own and 'SUBLAUNCHES="4 1"' in own and "ALGORITHMS=bfs" in own
    # the overrides come after the session's settings are sourced, and before the call
    assert (
        own.index(". tools/device/uvm_capped_session.sh") < own.index("ALGORITHMS=bfs") < own.index("capped_session\n")
    )
    assert subprocess.run(["bash", "-n", str(ROOT / "tools/device/uvm_capped_order_check.sh")]).returncode == 0
