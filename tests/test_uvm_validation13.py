"""Validation 13 of the UVM simulator (model/uvm_validation13.py, tools/device/uvm_validation13.sh): validation 10's
registered cold-UVM rule, unchanged, each cell over three calls; its judge on SYNTHETIC calls whose answer is known
(no table here is a measurement), what it refuses, and its device script."""

import re
import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model import uvm_validation10, uvm_validation12, uvm_validation13
from tests.test_uvm_validation4 import synthetic_call
from tests.test_uvm_validation10 import EVERY, _registered
from tests.uvm_validation_checks import with_end_copies

ROOT = Path(__file__).resolve().parents[1]
V13 = uvm_validation13
SCALES = {"13a": 1.0, "13b": 1.2, "13c": 0.9}  # each SYNTHETIC call's cold times, times this


def test_the_rule_is_validation_10s_and_the_set_seed_38_and_new():
    assert V13.REGISTERED == uvm_validation10.REGISTERED and V13.PRIMARY == "none" == V13.RULES[0]
    assert V13.JUDGED == uvm_validation10.JUDGED and V13.REPS == 9 and V13.SEED == 38
    assert {k.replace("s38", "s36"): v for k, v in V13.SET.items()} == uvm_validation12.SET
    assert not set(V13.SET) & set().union(*V13.EARLIER_SETS) and set(uvm_validation12.SET) <= set().union(
        *V13.EARLIER_SETS)  # fmt: skip
    assert V13.CALLS == ("13a", "13b", "13c") and V13.MIN_CALLS == 2


def _calls(tmp_path, which=V13.CALLS):
    """SYNTHETIC cold calls at factor 1.25 (every pair's multiplier registered at 1.25: f = 1 exact), each call's
    timed runs scaled by SCALES."""
    tarballs = []
    for call in which:
        s = SCALES[call]
        _, gdir, registered, how = synthetic_call(tmp_path / call, call, 38, tuple(s * x for x in (1.0,) * 9))
        tarballs.append(with_end_copies(tmp_path / call, 4.0, 6.0, call))
    return tarballs, gdir, _registered(registered, EVERY), how


def test_a_cell_is_judged_by_the_median_of_its_errors_over_the_calls(tmp_path):
    tarballs, gdir, registered, how = _calls(tmp_path)
    out = tmp_path / "out"
    summary = V13.judge(tarballs, gdir, out, 1, registered, how)
    cells = pd.read_csv(out / "validation13_cells.csv")
    assert (cells["calls"] == 3).all()
    # calls at 1, 1.2 and 0.9 times the exact time: errors 0, 1/1.2 - 1 and 1/0.9 - 1; the median is call a's
    assert np.allclose(cells["error_none_13b"], 1 / 1.2 - 1) and np.allclose(cells["error_none"], 0, atol=1e-9)
    every = summary[summary["group"] == "all"].set_index("rule")
    assert every.loc["none", "worst"] < 1e-9 and every.loc["none", "meets_targets"]
    per_call = pd.read_csv(out / "validation13_per_call.csv").query("rule == 'none'").set_index("call")
    assert per_call.loc["13b", "worst"] == pytest.approx(1 - 1 / 1.2) and not per_call.loc["13b", "meets_targets"]
    for call in V13.CALLS:
        assert (out / "calls" / f"uvm{call}" / f"validation{call}_cells.csv").exists()


def test_two_calls_are_enough(tmp_path):
    tarballs, gdir, registered, how = _calls(tmp_path, V13.CALLS[1:])
    V13.judge(tarballs, gdir, tmp_path / "out", 1, registered, how)
    cells = pd.read_csv(tmp_path / "out/validation13_cells.csv")
    assert (cells["calls"] == 2).all() and np.allclose(cells["error_none"], ((1 / 1.2 - 1) + (1 / 0.9 - 1)) / 2)


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["uvm13a.tgz"], "at least 2 calls; 1 given"),
        (["uvm13a.tgz", "uvm12.tgz"], "not one of validation 13's calls"),
        (["uvm13b.tgz", "uvm13b.tgz"], "given twice"),
    ],
)
def test_what_the_judge_refuses_in_one_line(tmp_path, capsys, names, message):
    args = ["judge", "--tarballs", *[str(tmp_path / n) for n in names], "--graph-dir", str(tmp_path / "g")]
    assert V13.main([*args, "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and not (tmp_path / "out").exists()


def test_the_device_script_is_validation_12s_call_on_the_seed_38_set():
    script = ROOT / "tools/device/uvm_validation13.sh"
    text = script.read_text()
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', text))
    assert how == V13.SET and f"SEED={V13.SEED};" in text
    twelve = (ROOT / "tools/device/uvm_validation12.sh").read_text().replace("s36", "s38").replace("SEED=36", "SEED=38")
    body = [x for x in text.splitlines() if x and not x.startswith("#") and not x.startswith("case ")]
    want = [re.sub(r"\b12\b", "13$CALL", x).replace("seed 36", "seed 38") for x in twelve.splitlines()]
    assert body == [x for x in want if x and not x.startswith("#")]
    assert "allow-managed-oversubscription" not in text
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    bad = subprocess.run(["bash", str(script)], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert bad.returncode == 2 and "set CALL to a, b or c" in bad.stdout


def test_a_dry_run_of_one_call_measures_the_set_under_its_name(tmp_path):
    """The script's body with the device steps stubbed: call b writes into uvm13b and makes and measures the three
    seed-38 graphs, every algorithm, in order."""
    own = (ROOT / "tools/device/uvm_validation13.sh").read_text()
    body = own[own.index("validation_dirs 13$CALL") : own.rindex("validation_call")]
    harness = f"""set -uo pipefail
CALL=b
log() {{ :; }}
. tools/device/uvm_session.sh
validation_dirs() {{ W={tmp_path}/uvm$1; S=$W/uvm$1; G=$W/graphs; mkdir -p "$S/runs" "$S/logs" "$S/graphs" "$G"; }}
{body}
provenance() {{ :; }}; build_kernels() {{ :; }}; link() {{ :; }}; uvmfault() {{ :; }}; uvmfault_stride() {{ :; }}
gpu_tests() {{ :; }}; EMOGI_BINARY=true
graph() {{ echo "graph $1 $SEED"; }}
measure() {{ echo "measure $1 $2 $REPS $RUN_ORDER"; }}
validation_body 13$CALL ${{GRAPHS:-kron23s38 urand23s38 rmat22ef32s38}}
echo "session $S"
"""
    done = subprocess.run(["bash", "-c", harness], cwd=ROOT, capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert [x for x in lines if x.startswith("graph")] == [f"graph {g} 38" for g in V13.SET]
    measured = [x for x in lines if x.startswith("measure")]
    assert measured == [f"measure {g} {a} 9 rounds" for g in V13.SET for a in ("bfs", "sssp", "cc", "pagerank")]
    assert lines[-1] == f"session {tmp_path}/uvm13b/uvm13b"


def test_each_graphs_traces_are_derived_once_for_all_calls(tmp_path, monkeypatch):
    """The three calls measure the same graphs and roots: their CPU-derived counts are derived once (uvm_validation3's
    in-process memo), and every call's judgement is the same as with a fresh derivation."""
    from model import uvm_validation3

    tarballs, gdir, registered, how = _calls(tmp_path)  # making them counts too: start the memo after
    monkeypatch.setattr(uvm_validation3, "_COUNTED", {})
    V13.judge(tarballs, gdir, tmp_path / "out", 1, registered, how)
    assert len(uvm_validation3._COUNTED) == 2  # the synthetic graph's (bfs, root) and (cc) groups, once
    for call in V13.CALLS:  # each call alone, with a fresh derivation, judges the same
        monkeypatch.setattr(uvm_validation3, "_COUNTED", {})
        alone = tmp_path / f"alone{call}"
        uvm_validation10.judge(tarballs[V13.CALLS.index(call)], gdir, alone, 1, registered, how,
                               call=replace(uvm_validation12.CALL, n=call, seed=38, note="x"),
                               more=uvm_validation12.spread_and_gpu)  # fmt: skip
        name = f"validation{call}_cells.csv"
        assert pd.read_csv(tmp_path / "out/calls" / f"uvm{call}" / name).equals(pd.read_csv(alone / name))


def test_the_workflow_draws_the_archived_calls():
    """Validation 13's three H200 calls are archived as judged (both targets met over the calls; each call alone met
    them too) and the workflow draws them."""
    from tests.uvm_validation_checks import archived_over_calls

    archive, row, per_call = archived_over_calls("validation13", "UVM_VALIDATIONS", "uvm13a.tgz", "8e322d0", "none")
    assert all((archive / f"uvm{c}.tgz").exists() for c in V13.CALLS)
    assert row.n == 36 and row.meets_targets
    assert row.median == pytest.approx(0.0468, abs=5e-4) and row.worst == pytest.approx(0.1066, abs=5e-4)
    assert sorted(per_call["call"]) == ["13a", "13b", "13c"] and per_call["meets_targets"].all()


def test_the_reports_block_says_three_calls_and_the_judged_errors(tmp_path):
    from tests.uvm_validation_checks import figure_with_report_table

    (archive,) = (ROOT / "archive").glob("uvm-validation13-*")
    image, table, verdicts = figure_with_report_table(
        archive, tmp_path, "fig_uvm_validation13", "validation13_cells.csv"
    )
    assert "in three calls" in image["caption"] and "docs/uvm-validation13.md" in image["caption"]
    assert verdicts["none"] == verdicts["pooled"] == verdicts["pageable"] == "met"
    (row,) = [r for r in table["table"]["rows"] if r[0].startswith("none")]
    assert row[1:4] == ["36", "4.7%", "10.7%"]  # the judged statistic, not the medians' ratio
