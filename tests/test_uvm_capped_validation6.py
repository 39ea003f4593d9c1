"""Capped validation 6 (model/uvm_capped_validation6.py, tools/device/uvm_capped_validation6.sh) on SYNTHETIC inputs
whose answer is known (no table here is a measurement): its set, its H200 fit, its refusal of another GPU, its judge
and its device script (with a dry run); capped validations 2 and 5's tests lend the synthetic call."""

import json
import subprocess

import numpy as np
import pandas as pd
import pytest

from model import uvm_capped_graph_check, uvm_capped_validation4, uvm_capped_validation5, uvm_capped_validation6
from tests.test_uvm_capped_validation2 import HOW, ROOT, F, script_text
from tests.test_uvm_capped_validation3 import E_T, assert_a_new_set, assert_script_tables
from tests.test_uvm_capped_validation5 import E_MS, SLOW
from tests.test_uvm_capped_validation5 import _synthetic as v5_synthetic
from tests.uvm_validation_checks import dry_run_capped_script

V6, V5, V4, GC = uvm_capped_validation6, uvm_capped_validation5, uvm_capped_validation4, uvm_capped_graph_check
SCRIPT = ROOT / "tools/device/uvm_capped_validation6.sh"


def test_the_set_is_new_seed_36_with_validation_5s_design():
    earlier = set(V5.SET) | set(V4.SET) | set(V4.FIT_GRAPHS) | set(GC.SET)
    assert_a_new_set(V6, 36, earlier, 11)
    assert (V6.ALGORITHMS, V6.VARIANTS, V6.FRACTIONS, V6.SUBLAUNCHES) == (
        V5.ALGORITHMS, V5.VARIANTS, V5.FRACTIONS, V5.SUBLAUNCHES)  # fmt: skip
    assert (V6.PASSES, V6.REPS, V6.ORDERS) == (V5.PASSES, V5.REPS, V5.ORDERS)
    assert V6.RULES == ("h200",) and V6.GPU == "NVIDIA H200" and V6.FIT_GRAPHS == tuple(GC.SET)


def test_the_committed_registration():
    """The registered input: capped validation 4's shapes and pageable rule, its unit terms kept as h100_terms, e
    alone as the primary rule's terms (the exploration's numbers) and the fit call named; the fit again from the
    check's cells gives it where that archive is in the tree."""
    reg = json.loads(V6.REGISTERED.read_text())
    v4 = json.loads(V4.REGISTERED.read_text())
    assert reg["shapes"] == v4["shapes"] and reg["pageable_rule"] == v4["pageable_rule"]
    assert reg["h100_terms"] == v4["capped_terms"] and set(reg["capped_terms"]) == {"evicted"}
    assert reg["capped_terms"]["evicted"] == pytest.approx(0.03328, abs=5e-6)
    assert reg["h200_naive_terms"] == pytest.approx({"evicted": 0.02413, "thread_evicted": 0.01460}, abs=5e-6)
    fit = reg["capped_fit"]
    assert fit["cells"] == 144 and fit["gpu"] == V6.GPU and fit["graphs"] == sorted(GC.SET) and fit["factor"] == 1.0
    cells = V6.FIT_CALL / "capped_graph_check_cells.csv"
    if cells.exists():
        again = V6.register(pd.read_csv(cells), v4)
        assert again["capped_terms"] == pytest.approx(reg["capped_terms"])
        assert again["h200_naive_terms"] == pytest.approx(reg["h200_naive_terms"])


def test_the_fit_recovers_a_synthetic_cost_and_refuses_other_graphs():
    rng = np.random.default_rng(6)
    n = 40
    cells = pd.DataFrame({"graph": rng.choice(list(GC.SET), n), "device_ms": rng.uniform(1, 30, n),
                          "simulated_migration_ms": rng.uniform(20, 900, n), "tail_ms": rng.uniform(0, 40, n),
                          "evicted_chunks": rng.integers(100, 6000, n)})  # fmt: skip
    cells["thread_evicted_chunks"] = cells["evicted_chunks"] * (np.arange(n) % 2)
    rest = cells["device_ms"] + cells["simulated_migration_ms"] + cells["tail_ms"]
    cells["capped_ms"] = rest + 0.03 * cells["evicted_chunks"] + 0.01 * cells["thread_evicted_chunks"]
    reg = V6.register(cells, json.loads(V4.REGISTERED.read_text()))
    assert reg["h200_naive_terms"] == pytest.approx({"evicted": 0.03, "thread_evicted": 0.01}, abs=1e-9)
    assert 0.03 - 1e-9 <= reg["capped_terms"]["evicted"] <= 0.04 + 1e-9  # e alone: between the two costs
    with pytest.raises(ValueError, match="not \\['kron20s36'\\]"):
        V6.register(cells.assign(graph="kron20s36"), {"shapes": {}, "pageable_rule": {}, "cells": {},
                                                       "capped_terms": {}})  # fmt: skip


def _synthetic(tmp_path):
    """Capped validation 5's SYNTHETIC call (folder uvmc6, runs naming the GPU 'SYNTHETIC') priced at F x the
    migration + E_MS per evicted chunk + E_T per Naive evicted chunk + the tail; registered: e = E_MS alone
    (primary), e = E_MS with e_naive = E_T (h200_naive) and nothing per chunk (h100)."""
    tarball, gdir, registered = v5_synthetic(tmp_path, "uvmc6")
    reg = json.loads(registered.read_text())
    reg |= {"capped_terms": {"evicted": E_MS}, "h200_naive_terms": {"evicted": E_MS, "thread_evicted": E_T},
            "h100_terms": {"evicted": 0.0}}  # fmt: skip
    registered.write_text(json.dumps(reg))
    return tarball, gdir, registered


def test_judge_a_synthetic_call(tmp_path):
    tarball, gdir, registered = _synthetic(tmp_path)
    out = tmp_path / "out"
    summary = V6.judge(tarball, gdir, out, 1, registered, HOW, "SYNTHETIC")
    every = summary[summary["group"] == "all"].set_index("rule")
    assert list(every.index) == ["h200", "h200_naive", "h100", "pass1"] and (every["factor"] == 1.0).all()
    assert every.loc["h200", "n"] == 15
    cells = pd.read_csv(out / "capped_validation6_cells.csv")
    assert (cells["capped_passes"] == 3).all() and np.allclose(cells["capped_ms_pass1"], SLOW * cells["capped_ms"])
    # the measured price is F x the migration: h200_naive misses by (F - 1) x it and nothing else
    gap = cells["capped_ms"] - cells["predicted_ms_h200_naive"]
    assert np.allclose(gap, (F - 1) * cells["simulated_migration_ms"])
    naive = cells["predicted_ms_h200_naive"] - cells["predicted_ms_h200"]
    assert np.allclose(naive, E_T * cells["thread_evicted_chunks"])
    assert np.allclose(cells["predicted_ms_h200"] - cells["predicted_ms_h100"], E_MS * cells["evicted_chunks"])
    assert np.allclose(cells["eviction_cost_ms"], E_MS * cells["evicted_chunks"])
    assert np.allclose(cells["error_pass1"], (1 + cells["error_h200"]) / SLOW - 1)
    naive4 = (cells["variant"] == "naive") & (cells["sublaunches"] == 4)
    assert (cells.loc[naive4, "tail_ms"] > 0).all() and (cells.loc[~naive4, "tail_ms"] == 0).all()
    assert len(pd.read_csv(out / "capped_validation6_missing.csv")) == 17
    assert len(pd.read_csv(out / "capped_validation6_cold.csv")) == 4
    factors = json.loads((out / "capped_validation6_factors.json").read_text())
    assert factors["h200"] == 1.0 and factors["capped_terms"] == {"evicted": E_MS}
    assert "capped validation 6" in json.loads((out / "source.json").read_text())["note"]


def test_the_judge_refuses_another_gpu_in_one_line(tmp_path, capsys):
    tarball, gdir, registered = _synthetic(tmp_path)
    with pytest.raises(ValueError, match="fitted on an NVIDIA H200; this call ran on \\['SYNTHETIC'\\]"):
        V6.judge(tarball, gdir, tmp_path / "out", 1, registered, HOW)
    args = ["judge", "--tarball", str(tarball), "--graph-dir", str(gdir), "--out", str(tmp_path / "cli")]
    assert V6.main([*args, "--registered", str(registered)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: capped validation 6's costs were fitted on an NVIDIA H200")
    with pytest.raises(ValueError, match="not in the registered set"):  # an H200 call still judges SET only
        V6.judge(tarball, gdir, tmp_path / "set", 1, registered, gpu="SYNTHETIC")


def test_the_device_script_measures_the_set_in_validation_5s_passes_within_the_guard():
    text = script_text(6)
    assert_script_tables(text, V6, 6, fractions=False)
    orders = "|".join(" ".join(f"{f}:{k}" for f, k in order) for order in V6.ORDERS)
    assert f'PASS_ORDERS="{orders}"' in text and f"CAPPED_REPS={V6.REPS}\n" in text
    own = SCRIPT.read_text()
    assert "BUDGET_S=${BUDGET_S:-540}; HARD_S=${HARD_S:-570}" in own
    assert "declare -A EST=([kron20s36]=240 [urand20s36]=230)" in own
    i = own.index(". tools/device/uvm_capped_session.sh")
    assert own.index("BUDGET_S=") < i < own.index("PASS_ORDERS=") < own.index("capped_session\n")
    assert "uvmc6.tgz" in text and "python -m model.uvm_capped_validation6 judge" in own
    assert subprocess.run(["bash", "-n", str(SCRIPT)]).returncode == 0
    # the estimate (docs): the first graph at ~50 s with a fresh build (35 s + copies and uvmfault), kron20s36 ~215 s
    # on the H200 (its EST 240), so both start within BUDGET_S; the closing ~25 s ends the call before 600 s
    first = 35 + 15
    assert first + 240 <= 540 and first + 215 + 230 <= 540 and 570 + 25 < 600


def _dry_run(tmp_path, second_graph_at: int = 0) -> tuple[list[str], str]:
    """The script's body with the device steps stubbed (graph, capacity, every `emogi run` echoing its table): the
    graphs and seed, and the capped runs in order; the second graph reached at SECOND_GRAPH_AT seconds."""
    own = SCRIPT.read_text()
    middle = own[own.index("N=6;") : own.rstrip().rindex("capped_session")]
    stubs = f"""graph() {{ echo "graph $1 $SEED"; [ "$1" = kron20s36 ] && SECONDS={second_graph_at}; return 0; }}
capacity() {{ echo 2097152; }}
one_run() {{ echo "run $(basename "$1")"; }}"""
    return dry_run_capped_script(tmp_path, middle, stubs, ("graph", "run"))


def test_a_dry_run_runs_every_cell_in_three_passes_in_the_registered_orders(tmp_path):
    steps, _ = _dry_run(tmp_path)
    assert [s for s in steps if s.startswith("graph")] == ["graph kron20s36 36", "graph urand20s36 36"]
    runs = [s.split()[1] for s in steps if s.startswith("run")]
    want = []
    for g in V6.SET:
        for a in V6.ALGORITHMS:
            want.append(f"{a}.{g}.csv")
            want += [f"capped.{a}.{g}.f{f}.k{k}.p{p}.csv" for p, o in enumerate(V6.ORDERS, 1) for f, k in o]
    assert runs == want and len(runs) == 2 * 4 * (1 + 12)
    assert all(V5.PASS_FILE.fullmatch(r) for r in runs if r.startswith("capped."))


def test_a_dry_run_defers_the_second_graph_past_the_budget(tmp_path):
    steps, out = _dry_run(tmp_path, 320)  # 320 + 230 > 540
    assert "graph urand20s36 36" not in steps and "DEFERRED: urand20s36" in out


def test_the_workflow_draws_the_archived_call():
    """Capped validation 6's H200 call is archived as judged (both targets missed) and the workflow draws it; its
    trace part lives in git history, named in the archive's README, not in the tree."""
    from tests.test_uvm_capped_validation3 import archived_call

    archive = archived_call(6)
    source = json.loads((archive / "source.json").read_text())
    assert (source["gpu"], source["commit"], source["archive_id"]) == (V6.GPU, "0628657", archive.name)
    summary = pd.read_csv(archive / "capped_validation6_summary.csv")
    (row,) = summary[(summary["group"] == "all") & (summary["rule"] == "h200")].itertuples()
    assert row.n == 96 and not row.meets_targets
    assert row.median == pytest.approx(0.127, abs=5e-4) and row.worst == pytest.approx(0.418, abs=5e-4)
    assert "uvmc6_traces.tar.xz.part00" in (archive / "README.md").read_text()
