"""The graph-or-machine check (model/uvm_capped_graph_check.py, tools/device/uvm_capped_graph_check.sh) on SYNTHETIC
inputs whose answer is known: its set and seeds, its order, its guard, its decision rule and its judge; capped
validation 2's tests lend the synthetic call. The last test reads the REAL archived call
(archive/uvm-capped-graph-check-h200-2026-11-28) and makes its decision again from the judged cells."""

import json
import re
import subprocess

import numpy as np
import pandas as pd
import pytest

from model import uvm_capped_graph_check, uvm_capped_validation2, uvm_capped_validation4, uvm_capped_validation5
from tests.test_uvm_capped_validation2 import HOW, NAME, ROOT, _synthetic_call
from tests.test_uvm_capped_validation3 import E_T, _price
from tests.test_uvm_capped_validation5 import E_MS
from tests.uvm_validation_checks import dry_run_capped_script

GC, V4, V5 = uvm_capped_graph_check, uvm_capped_validation4, uvm_capped_validation5
SCRIPT = ROOT / "tools/device/uvm_capped_graph_check.sh"
ARCHIVE = ROOT / "archive/uvm-capped-graph-check-h200-2026-11-28"  # the call, judged
CLOSING_S = 25  # copies, uvmfault and packing after the last run (validation 4's call: 11 s before the tarball)


def test_the_set_is_the_earlier_graphs_with_their_own_seeds_and_the_rule_is_validation_4s():
    assert GC.SET == {"urand20s33": V4.SET["urand20s33"], "urand20s35": V5.SET["urand20s35"],
                      "kron20s33": V4.SET["kron20s33"]}  # fmt: skip
    assert GC.SEEDS == {"urand20s33": V4.SEED, "urand20s35": V5.SEED, "kron20s33": V4.SEED}
    assert GC.QUESTION == ("urand20s33", "urand20s35") and GC.CONTROL == "kron20s33"
    assert GC.REGISTERED == V4.REGISTERED and GC.RULES == V4.RULES == ("unit", "pooled")
    assert (GC.CENTRED, GC.OVER, GC.MIN_CELLS) == (0.05, 0.10, 36)
    for graph, calls in GC.EARLIER.items():
        for path in calls.values():
            assert graph in set(pd.read_csv(path, usecols=["graph"])["graph"]), path


def test_the_order_interleaves_the_two_urand_graphs():
    assert sorted(GC.ORDER) == sorted((a, g) for a in V4.ALGORITHMS for g in GC.QUESTION)
    firsts = [GC.ORDER[i][1] for i in range(0, len(GC.ORDER), 2)]
    assert [GC.ORDER[i][0] for i in range(0, len(GC.ORDER), 2)] == list(V4.ALGORITHMS)
    assert firsts.count("urand20s33") == firsts.count("urand20s35") == 2
    assert all(GC.ORDER[i][0] == GC.ORDER[i + 1][0] for i in range(0, len(GC.ORDER), 2))


def _cells(s33: float, s35: float, n: int = 48, kron: float = 0.0) -> pd.DataFrame:
    """SYNTHETIC judged cells: each graph's unit errors spread +-2% around the signed median given."""
    spread = np.linspace(-0.02, 0.02, n)
    frames = [pd.DataFrame({"graph": g, "error_unit": s + spread}) for g, s in
              (("urand20s33", s33), ("urand20s35", s35), ("kron20s33", kron))]  # fmt: skip
    return pd.concat(frames, ignore_index=True)


@pytest.mark.parametrize(
    ("s33", "s35", "decision"),
    [
        (0.02, 0.18, "graph"),
        (-0.049, 0.101, "graph"),
        (0.15, 0.20, "machines"),
        (0.101, 0.12, "machines"),
        (0.07, 0.18, "inconclusive"),  # urand20s33 neither centred nor over
        (0.02, 0.08, "inconclusive"),  # urand20s35's miss not reproduced
        (0.01, -0.01, "inconclusive"),
        (-0.15, 0.15, "inconclusive"),  # urand20s33 under-predicted
    ],
)
def test_the_decision_rule(s33, s35, decision):
    got = GC.decide(_cells(s33, s35))
    assert got["decision"] == decision
    assert got["signed_median"]["urand20s33"] == pytest.approx(s33)
    assert got["cells"] == {"urand20s33": 48, "urand20s35": 48}


def test_too_few_cells_is_inconclusive_and_the_control_does_not_decide():
    few = _cells(0.0, 0.2)
    few = few[~((few["graph"] == "urand20s35") & (few.index % 4 == 0))]  # 36 of 48 left: enough
    assert GC.decide(few)["decision"] == "graph"
    fewer = few[~((few["graph"] == "urand20s35") & (few.index % 4 == 1))]
    assert GC.decide(fewer)["decision"] == "inconclusive" and "too few" in GC.decide(fewer)["why"]
    assert GC.decide(_cells(0.15, 0.15, kron=-0.3))["decision"] == "machines"


def test_per_graph_and_the_comparison_with_earlier_calls(tmp_path):
    cells = _cells(0.03, 0.16).assign(algorithm="bfs", variant="naive", edge_bytes=8, budget_fraction=0.25,
                                      sublaunches=1, capped_ms=86.0, device_ms=5.0)  # fmt: skip
    cells["root"] = cells.index
    then = cells.assign(capped_ms=100.0, device_ms=5.0)
    then.to_csv(tmp_path / "then.csv", index=False)
    table = GC.per_graph(cells).set_index("graph")
    assert table.loc["urand20s35", "n"] == 48 and table.loc["urand20s35", "over_predicted"] == 48
    assert table.loc["urand20s33", "signed_median"] == pytest.approx(0.03)
    ratios = GC.compare(cells, {"urand20s35": {"then": tmp_path / "then.csv"}}).iloc[0]
    assert ratios["cells"] == 48 and ratios["capped_ratio_median"] == pytest.approx(0.86)
    assert ratios["device_ratio_median"] == pytest.approx(1.0)


def script_parts() -> tuple[str, str]:
    """The device script and, after it, the session steps it sources (uvm_capped_session.sh)."""
    own = SCRIPT.read_text()
    assert ". tools/device/uvm_capped_session.sh" in own and own.rstrip().endswith("capped_session")
    return own, (ROOT / "tools/device/uvm_capped_session.sh").read_text()


def test_the_device_script_matches_the_module_and_keeps_validation_4s_design():
    own, session = script_parts()
    assert subprocess.run(["bash", "-n", str(SCRIPT)]).returncode == 0
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', own))
    assert how == GC.SET and "N=g;" in own and f'NAMES="{" ".join(GC.SET)}"' in own
    seeds = {k: int(v) for k, v in re.findall(r"\[(\w+)\]=(\d+)", own.split("declare -A SEEDS=")[1].split("\n")[0])}
    assert seeds == GC.SEEDS
    order = " ".join(f"{a}:{g}" for a, g in GC.ORDER)
    assert f'ORDER="{order}"' in own and f"CONTROL={GC.CONTROL}\n" in own
    # validation 4's design: no passes, REPS and the capacities and K of the session's defaults
    code = "\n".join(line for line in own.splitlines() if not line.lstrip().startswith("#"))
    for changed in ("PASS_ORDERS", "CAPPED_REPS", "REPS=", "FRACTIONS=", "SUBLAUNCHES=", "ALGORITHMS=", "VARIANTS="):
        assert changed not in code.replace("REPS=$REPS", ""), changed
    assert 'FRACTIONS="0.25 0.5"; SUBLAUNCHES="1 4"' in session and "REPS=${REPS:-5}" in session
    assert "--warmup 0" in session and "--trace-out" in session and "uvmc$N.tgz" in session
    assert "python -m model.uvm_capped_graph_check judge --tarball uvmcg.tgz" in own


def test_the_guard_keeps_the_call_under_570_s():
    own, _ = script_parts()
    assert "BUDGET_S=${BUDGET_S:-520}; HARD_S=${HARD_S:-540}" in own and "declare -A EST=([kron20s33]=140)" in own
    i = own.index(". tools/device/uvm_capped_session.sh")
    assert own.index("BUDGET_S=") < i < own.index("capped_body() {") < own.index("\ncapped_session")
    assert 540 + CLOSING_S < 570 and 520 <= 540
    # the estimate (docs): 28 s of fixed steps + 120 s a urand graph + 33 s of a fresh build: kron starts with room
    urand_done = 28 + 33 + 2 * 120
    assert urand_done + 140 <= 520 and urand_done + 135 + CLOSING_S < 570


def _dry_run(tmp_path, start_s: int) -> tuple[list[str], str]:
    """The script's body with the device steps stubbed: which graphs are made with which seed, which (graph,
    algorithm) run in which order, and what the guard defers when the control is reached at START_S seconds."""
    own, _ = script_parts()
    middle = own[own.index("N=g;") : own.rstrip().rindex("capped_session")]
    stubs = f"""graph() {{ echo "graph $1 $SEED"; [ "$1" = urand20s35 ] && SECONDS={start_s}; return 0; }}
measure() {{ echo "measure $1 $2"; }}"""
    return dry_run_capped_script(tmp_path, middle, stubs, ("graph", "measure"))


def test_a_dry_run_makes_each_graph_with_its_seed_in_the_registered_order(tmp_path):
    steps, _ = _dry_run(tmp_path, 0)
    want = ["graph urand20s33 33", "graph urand20s35 35", *(f"measure {g} {a}" for a, g in GC.ORDER),
            "graph kron20s33 33", *(f"measure kron20s33 {a}" for a in V4.ALGORITHMS)]  # fmt: skip
    assert steps == want


def test_a_dry_run_defers_the_control_past_the_budget(tmp_path):
    steps, out = _dry_run(tmp_path, 390)  # 390 + 140 > 520
    assert steps == ["graph urand20s33 33", "graph urand20s35 35", *(f"measure {g} {a}" for a, g in GC.ORDER)]
    assert "DEFERRED: kron20s33" in out


def _synthetic(tmp_path):
    """Capped validation 2's SYNTHETIC call (one kron16s30 graph, seed 30) priced as capped validation 3's tests;
    the registered pooled rule is that price, so it is exact and unit (f = 1) is not."""
    terms = {"evicted": E_MS, "thread_evicted": E_T}
    tarball, gdir, registered = _synthetic_call(tmp_path, "uvmcg", V4.REGISTERED, terms, _price)
    reg = json.loads(registered.read_text())
    reg["pooled"] = {"factor": 1.25, "terms": terms}
    registered.write_text(json.dumps(reg))
    return tarball, gdir, registered


def test_judge_a_synthetic_call_regenerating_with_each_graphs_seed(tmp_path, capsys):
    tarball, gdir, registered = _synthetic(tmp_path)
    with pytest.raises(ValueError, match="checksum"):  # another seed makes another graph
        GC.judge(tarball, tmp_path / "g31", tmp_path / "bad", 1, registered, HOW, {NAME: 31}, {})
    with pytest.raises(ValueError, match="not in the registered set"):  # the synthetic graph is not in GC.SET
        GC.judge(tarball, gdir, tmp_path / "refused", 1, registered)
    first = tmp_path / "first"
    GC.judge(tarball, gdir, first, 1, registered, HOW, {NAME: 30}, {})
    out = tmp_path / "out"
    earlier = {NAME: {"first": first / "capped_graph_check_cells.csv"}}
    summary = GC.judge(tarball, gdir, out, 1, registered, HOW, {NAME: 30}, earlier)
    every = summary[summary["group"] == "all"].set_index("rule")
    assert every.loc["unit", "factor"] == 1.0 and every.loc["pooled", "worst"] < 1e-9 and every.loc["unit", "n"] == 15
    graphs = pd.read_csv(out / "capped_graph_check_graphs.csv")
    assert graphs["graph"].tolist() == [NAME] and graphs["n"].tolist() == [15]
    ratios = pd.read_csv(out / "capped_graph_check_earlier.csv").iloc[0]
    assert ratios["cells"] == 15 and ratios["capped_ratio_median"] == pytest.approx(1.0)
    decision = json.loads((out / "capped_graph_check_decision.json").read_text())
    assert decision["decision"] == "inconclusive" and "too few" in decision["why"]
    assert decision["signed_median"] == {"urand20s33": None, "urand20s35": None}
    for name in ("cells", "summary", "cold", "missing"):
        assert (out / f"capped_graph_check_{name}.csv").exists(), name
    assert "graph-or-machine" in json.loads((out / "source.json").read_text())["note"]
    assert "DECISION: inconclusive" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("s33", "s35", "decision"),
    [
        (0.15, 0.30, "graph"),  # the same call's difference +15 points
        (0.15, 0.18, "machines"),  # both shifted alike: not the graph
        (-0.10, -0.06, "machines"),
        (0.02, 0.10, "inconclusive"),  # +8 points: neither band
        (0.02, 0.18, "graph"),
    ],
)
def test_on_another_gpu_only_the_difference_decides(s33, s35, decision):
    got = GC.decide(_cells(s33, s35), "NVIDIA H200")
    assert got["decision"] == decision and got["gpu"] == "NVIDIA H200"
    assert "NVIDIA H200" in got["why"] or decision == "inconclusive"
    assert GC.decide(_cells(s33, s35))["gpu"] == GC.EARLIER_GPU


def test_the_archived_call_decides_machines_on_the_h200_again(tmp_path):
    """REAL data: the archived call's judged cells give the archived decision, `machines` under the amended rule on
    the call's GPU (an NVIDIA H200), and its capped times are the medians of the tarball's runs. The judge itself
    needs the device-mode traces, which the archive does not keep (its README), so the decision is made again from
    the cells, not by judging again."""
    assert not ARCHIVE.name.startswith("uvm-capped-validation")  # the workflow draws no validation figure from it
    cells = pd.read_csv(ARCHIVE / "capped_graph_check_cells.csv")
    source = json.loads((ARCHIVE / "source.json").read_text())
    assert source["archive_id"] == ARCHIVE.name and source["gpu"] == "NVIDIA H200" and source["commit"] == "f7fec6f"
    decision = GC.decide(cells, source["gpu"])
    assert decision == json.loads((ARCHIVE / "capped_graph_check_decision.json").read_text())
    assert decision["decision"] == "machines" and decision["gpu"] == "NVIDIA H200" != GC.EARLIER_GPU
    assert decision["cells"] == {"urand20s33": 48, "urand20s35": 48} and len(cells) == 144
    s33, s35 = decision["signed_median"]["urand20s33"], decision["signed_median"]["urand20s35"]
    assert abs(s35 - s33) < GC.CENTRED and min(s33, s35) > 0.05  # both over-predicted alike, ~+7%
    graphs = pd.read_csv(ARCHIVE / "capped_graph_check_graphs.csv")
    pd.testing.assert_frame_equal(GC.per_graph(cells), graphs, check_dtype=False)
    assert pd.read_csv(ARCHIVE / "capped_graph_check_missing.csv").empty
    assert not [p for p in ARCHIVE.rglob("*") if "traces" in p.name]  # the trace part is not in the tree
    # the measured side from the session record: the runs, all on the H200, and each capped cell their median
    session = uvm_capped_validation2.unpack(ARCHIVE / "session/uvmcg.tgz", tmp_path, "uvmcg")
    assert (session / "deferred.txt").read_text().strip() == "" and "NVIDIA H200" in (session / "host.txt").read_text()
    runs = uvm_capped_validation2.load_runs(session)
    assert set(runs["gpu"]) == {"NVIDIA H200"} and runs["verified"].all() and len(runs) == 1080
    capped = runs[runs["mode"] == "uvm-capped"].groupby(uvm_capped_validation2.CELL, as_index=False)["time_ms"]
    both = cells.merge(capped.median(), on=uvm_capped_validation2.CELL)
    assert len(both) == 144 and np.array_equal(both["capped_ms"], both["time_ms"])
