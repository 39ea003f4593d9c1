"""Issue 24's held-out validation v10 (docs/holdout-v7-v10.md, "Held-out validation v10"): the registered split (no
held-out graph in training: v9's held-out graphs now train, a held-out graph in a fit set refused), v8's term and
statistic used unchanged (the judge with split v10 fits direction-optimizing BFS per degree class on synthetic
tables: made-up counts and times, never archived), the archived v9 judgement unchanged, the device script's
structure (every `emogi run` given `--run-order rounds`), and the figure and report section."""

from pathlib import Path

import numpy as np
import pytest

from model import holdout
from model import holdout_split as hs
from model import holdout_split_v3 as hs3
from model import holdout_split_v4 as hs4
from model import holdout_split_v5 as hs5
from model import holdout_split_v6 as hs6
from model import holdout_split_v7 as hs7
from model import holdout_split_v8 as hs8
from model import holdout_split_v9 as hs9
from model import holdout_split_v10 as hs10
from model.presets import MEASURED, get_preset
from tests import test_holdout_v8 as t8
from tests.holdout_checks import assert_archived_judgement, assert_fit_set_and_provenance
from tests.test_holdout_v4 import (
    session,  # noqa: F401  (the tiny synthetic session, a module fixture)
)
from tests.test_holdout_v9 import _measure_command, assert_judged_with_v8s_term, assert_rounds_script

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE_V9 = ROOT / "archive" / "holdout-v9-h100-2026-11-27"
ARCHIVE_V10 = ROOT / "archive" / "holdout-v10-h100-2026-11-27"
TRAIN = ["kron17", "kron19ef10", "kron19ef12", "kron20ef4", "kron20ef5", "kron20ef7", "kron21ef3", "urand17",
         "urand19ef10", "urand19ef12", "urand20ef5", "urand20ef7", "urand21ef3", "urand21ef4"]  # fmt: skip
HELD = ["kron19ef14", "kron19ef3", "urand20ef3"]


def test_the_split_is_the_registered_one():
    assert sorted(g for g, e in hs10.GRAPHS.items() if e["split"] == hs10.TRAIN) == TRAIN
    assert sorted(g for g, e in hs10.GRAPHS.items() if e["split"] == hs10.HELD_OUT) == HELD
    earlier = {**hs.GRAPHS, **hs3.GRAPHS, **hs4.GRAPHS, **hs5.GRAPHS, **hs6.GRAPHS, **hs7.GRAPHS, **hs8.GRAPHS,
               **hs9.GRAPHS}  # fmt: skip
    assert not set(HELD) & set(earlier)
    assert {hs10.seed_of(g) for g in HELD} == {32} and 32 not in {e["source"].get("seed") for e in earlier.values()}
    assert set(TRAIN) == set(hs9.GRAPHS)  # every graph of the v9 session, its held-out four among them
    for g in TRAIN:  # made as the v5 to v9 sessions made them
        assert hs10.GRAPHS[g]["source"] == hs9.GRAPHS[g]["source"], g
    src = [hs10.GRAPHS[g]["source"] for g in HELD]
    assert sorted((s["kind"], s["scale"], s["edge_factor"]) for s in src) == [
        ("kron", 19, 3), ("kron", 19, 14), ("urand", 20, 3)]  # fmt: skip
    trained = [hs10.GRAPHS[g]["source"] for g in TRAIN]
    low, high = min(s["edge_factor"] for s in trained), max(s["edge_factor"] for s in trained)
    assert (low, high) == (3, 16) and all(low <= s["edge_factor"] <= high for s in src)  # inside the train range
    assert all(min(s["scale"] for s in trained) <= s["scale"] <= max(s["scale"] for s in trained) for s in src)
    assert sum(g.startswith("kron") for g in TRAIN) == 7 and sum(g.startswith("urand") for g in TRAIN) == 7
    assert hs10.WIDTHS_OF == {} and hs10.ALGORITHMS_OF == {} and hs10.STATISTIC == "min"
    assert hs10.RUN_ORDER == "rounds" and (hs10.TARGET_MEDIAN, hs10.TARGET_WORST) == (0.05, 0.15)
    assert holdout.SPLITS["v10"] is hs10 and hs10 in holdout.V8_TERM


def test_no_held_out_graph_in_training():
    made = {"type": "generator", "kind": "kron", "scale": 19, "edge_factor": 3, "seed": 32,
            "initiator": {"a": 0.57, "b": 0.19, "c": 0.19, "d": 0.05}}  # fmt: skip
    refused = (*HELD, "kron20ef6", "urand20ef8", "kron20", "kron19ef8")
    assert_fit_set_and_provenance(hs10, TRAIN, "kron17", refused, "kron19ef3", made, {"seed": 31}, hs9, "kron21ef3")


def test_a_held_out_graph_in_the_training_table_fails(monkeypatch):
    """The judge refuses a fit whose train cells hold a held-out graph: a registry that says kron19ef3 is train
    while the split's check still reads the registered table."""
    params = get_preset(MEASURED, t8.PARAMETERS)
    monkeypatch.setattr(hs8, "GRAPHS", hs10.GRAPHS)
    cells, work, launches, kw = t8._do_bfs_cells(np.random.default_rng(10), params)
    monkeypatch.undo()
    registered = hs10.split_of
    monkeypatch.setattr(hs10, "split_of", lambda name, source=None: hs10.TRAIN if name in HELD else registered(name))
    with pytest.raises(hs10.SplitError, match="fit set"):
        holdout.judge(cells, work, launches, params, log=lambda m: None, sp=hs10, **kw)


def test_the_statistic_is_v8s():
    runs = t8._runs([10.0, 11.0, 30.0, 10.5, 12.0])
    c = holdout.cells_of(runs, sp=hs10, log=lambda m: None)
    assert c["measured_ms"].item() == 10.0 and c["spread"].item() == 2.0


def test_the_v10_judge_is_v8s_term(monkeypatch):
    """Split v10 judges with v8's term (tests/test_holdout_v9.py, assert_judged_with_v8s_term)."""
    assert_judged_with_v8s_term(hs10, HELD, 10, monkeypatch)


def test_the_archived_v9_judgement_is_unchanged(tmp_path, monkeypatch):
    """As the archive's commands.sh judges it, the same tables (split v10's additions leave v9 as it was)."""
    assert_archived_judgement(ARCHIVE_V9, "v9", tmp_path / "v9", monkeypatch)


def test_the_archived_v10_judgement_is_unchanged(tmp_path, monkeypatch):
    """v10's own session, as its archive's commands.sh judges it, the same tables."""
    assert_archived_judgement(ARCHIVE_V10, "v10", tmp_path / "v10", monkeypatch)


# --- the device script ---

SCRIPT = ROOT / "tools" / "device" / "holdout_v10.sh"


def test_the_device_script_makes_what_the_split_registers():
    """holdout_v10.sh (assert_rounds_script): the registered ~444 s on a warm build (v9's measured 57 s start), the
    guard inside a device command with room for the last graph."""
    assert_rounds_script(SCRIPT, hs10, TRAIN, HELD, 57, 445, 520)


def test_the_run_order_is_rounds():
    assert _measure_command("rounds").split("-- ", 1)[1].split()[-2:] == ["--run-order", "rounds"]
    assert "RUN_ORDER=${RUN_ORDER:-rounds}" in SCRIPT.read_text()


# --- the figure and report section (drawn from tests/test_holdout_v4.py's tiny synthetic session, its registry
# standing in for split v10 too: made-up times, never archived) ---


def test_the_v10_figure_and_section_from_a_judgement(session, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    from figures import fig_holdout_v10
    from figures.fig_holdout import split_graphs_text
    from tests.test_holdout_v4 import judged_figure

    monkeypatch.setattr(hs10, "GRAPHS", hs4.GRAPHS)  # the fixture's tiny registry
    section = judged_figure(fig_holdout_v10, "v10", session, tmp_path)
    assert "v8's GPU-work term" in section["text"] and "seed 32" in section["text"]
    assert "run-order rounds" in section["text"] and "the min of 5" in section["text"]
    monkeypatch.undo()
    assert split_graphs_text(fig_holdout_v10.hs10.GRAPHS, set(HELD)).startswith("train: none; held out: kron19ef3")
