"""Issue 24's held-out validation v9 (docs/holdout-v7-v10.md, "Held-out validation v9"): the registered split (no
held-out graph in training), v8's term and statistic used unchanged (the judge with split v9 fits direction-
optimizing BFS per degree class on synthetic tables: made-up counts and times, never archived), the archived v8
judgement unchanged, the device script's structure (every `emogi run` given `--run-order rounds`; the earlier
scripts' commands unchanged), and the figure and report section."""

import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
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
from model.presets import MEASURED, get_preset
from tests import test_holdout_v8 as t8
from tests.holdout_checks import assert_archived_judgement, assert_fit_set_and_provenance
from tests.test_holdout_v4 import (
    script_graph_lines,
    session,  # noqa: F401  (the tiny synthetic session, a module fixture)
)

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE_V8 = ROOT / "archive" / "holdout-v8-h100-2026-11-27"
TRAIN = ["kron17", "kron19ef10", "kron19ef12", "kron20ef4", "kron20ef5", "urand17", "urand19ef10", "urand19ef12",
         "urand20ef5", "urand21ef4"]  # fmt: skip
HELD = ["kron20ef7", "kron21ef3", "urand20ef7", "urand21ef3"]


def test_the_split_is_the_registered_one():
    assert sorted(g for g, e in hs9.GRAPHS.items() if e["split"] == hs9.TRAIN) == TRAIN
    assert sorted(g for g, e in hs9.GRAPHS.items() if e["split"] == hs9.HELD_OUT) == HELD
    earlier = {**hs.GRAPHS, **hs3.GRAPHS, **hs4.GRAPHS, **hs5.GRAPHS, **hs6.GRAPHS, **hs7.GRAPHS, **hs8.GRAPHS}
    assert not set(HELD) & set(earlier)
    assert {hs9.seed_of(g) for g in HELD} == {31} and 31 not in {e["source"].get("seed") for e in earlier.values()}
    for g in TRAIN:  # made as the v5 to v8 sessions made them
        assert hs9.GRAPHS[g]["source"] == hs8.GRAPHS[g]["source"], g
    assert {g for g, e in hs8.GRAPHS.items() if e["split"] == hs8.HELD_OUT} <= set(TRAIN)  # v8's held out join
    src = [hs9.GRAPHS[g]["source"] for g in HELD]
    assert sorted((s["kind"], s["scale"], s["edge_factor"]) for s in src) == [
        ("kron", 20, 7), ("kron", 21, 3), ("urand", 20, 7), ("urand", 21, 3)]  # fmt: skip
    measured_before = {e["source"].get("edge_factor") for e in earlier.values()}
    assert not {3, 7} & measured_before  # edge factors no session measured
    assert sum(g.startswith("kron") for g in TRAIN) == 5 and sum(g.startswith("urand") for g in TRAIN) == 5
    assert hs9.WIDTHS_OF == {} and hs9.ALGORITHMS_OF == {} and hs9.STATISTIC == "min" and hs9.RUN_ORDER == "rounds"
    assert (hs9.TARGET_MEDIAN, hs9.TARGET_WORST) == (0.05, 0.15)
    assert holdout.SPLITS["v9"] is hs9


def test_no_held_out_graph_in_training():
    made = {"type": "generator", "kind": "kron", "scale": 21, "edge_factor": 3, "seed": 31,
            "initiator": {"a": 0.57, "b": 0.19, "c": 0.19, "d": 0.05}}  # fmt: skip
    refused = (*HELD, "kron20ef6", "urand20ef8", "kron20", "urand20ef4")
    assert_fit_set_and_provenance(hs9, TRAIN, "kron17", refused, "kron21ef3", made, {"seed": 30}, hs8, "kron20ef5")


def test_the_statistic_is_v8s():
    runs = t8._runs([10.0, 11.0, 30.0, 10.5, 12.0])
    c = holdout.cells_of(runs, sp=hs9, log=lambda m: None)
    assert c["measured_ms"].item() == 10.0 and c["spread"].item() == 2.0


def assert_judged_with_v8s_term(sp, held: list[str], seed: int, monkeypatch) -> None:
    """Split `sp` judges with v8's term: direction-optimizing BFS per degree class, recovered exactly from made-up
    times on sp's graphs; the held-out cells (`held`) never reach the fit (their times × 7: the same costs)."""
    params = get_preset(MEASURED, t8.PARAMETERS)
    monkeypatch.setattr(hs8, "GRAPHS", sp.GRAPHS)  # the synthetic tables on the split's graphs
    cells, work, launches, kw = t8._do_bfs_cells(np.random.default_rng(seed), params)
    monkeypatch.undo()
    table, costs = holdout.judge(cells, work, launches, params, log=lambda m: None, sp=sp, **kw)
    assert len(table) == len(cells) and table["error"].abs().max() < 1e-6
    assert set(table[table["split"] == sp.HELD_OUT]["graph"]) == set(held)
    got = costs.set_index(["variant", "class", "edge_bytes"]).sort_index()
    for p, w in t8.SKEWED.items():
        assert got.loc[("direction-optimizing", "skewed"), p].to_numpy() == pytest.approx(w, rel=1e-4, abs=1e-12)
    wild = cells.assign(measured_ms=np.where(cells["graph"].isin(held), cells["measured_ms"] * 7, cells["measured_ms"]))
    pd.testing.assert_frame_equal(costs, holdout.judge(wild, work, launches, params, log=lambda m: None, sp=sp,
                                                       **kw)[1])  # fmt: skip


def test_the_v9_judge_is_v8s_term(monkeypatch):
    assert_judged_with_v8s_term(hs9, HELD, 9, monkeypatch)


def test_the_archived_v8_judgement_is_unchanged(tmp_path, monkeypatch):
    """As the archive's commands.sh judges it, the same tables (split v9's additions leave v8 as it was)."""
    assert_archived_judgement(ARCHIVE_V8, "v8", tmp_path / "v8", monkeypatch)


# --- the device script ---

SCRIPT = ROOT / "tools" / "device" / "holdout_v9.sh"


def assert_rounds_script(script: Path, sp, train: list[str], held: list[str], start_s: int, warm_max: int,
                         budget_max: int) -> None:  # fmt: skip
    """A split's rounds-order device script (holdout_v9.sh and later): its tables agree with the split's registry;
    the held-out graphs come last; 5 repetitions after 1 warm-up, the runs in rounds order; the estimates (`start_s`
    before the first graph) on a warm build within `warm_max` and with a fresh one (+32 s) under the guard, itself at
    most `budget_max`; it refuses to measure without EMOGI_COMMIT."""
    lines = script_graph_lines(script, sp.GRAPHS)
    text = script.read_text()
    assert sorted(n for n, *_ in lines[: len(train)]) == train
    assert sorted(n for n, *_ in lines[len(train) :]) == held
    warm = start_s + sum(int(e) for *_, e in lines) + 3
    budget = int(re.search(r"BUDGET_S=\$\{BUDGET_S:-(\d+)\}", text).group(1))
    assert warm <= warm_max and warm + 32 < budget <= budget_max
    split_session = text.index(". tools/device/holdout_split_s")
    for want in ("REPS=${REPS:-5}", "WARMUP=${WARMUP:-1}", "RUN_ORDER=${RUN_ORDER:-rounds}"):
        assert want in text and text.index(want) < split_session, want
    v = sp.NAME[1:]
    assert f"SPLIT={sp.NAME} TGZ=holdout{v} ST=${{H{v}:-/tmp/ho{v}}}" in text and text.rstrip().endswith("split_main")
    env = {k: v for k, v in os.environ.items() if k not in ("EMOGI_COMMIT", "RUN_ORDER")}
    done = subprocess.run(["bash", str(script)], cwd=ROOT, env=env | {"OUT": "/nonexistent"}, capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 2 and "EMOGI_COMMIT" in done.stdout


def test_the_device_script_makes_what_the_split_registers():
    """holdout_v9.sh (assert_rounds_script): the registered ~400 s on a warm build (v8's 67 s start)."""
    assert_rounds_script(SCRIPT, hs9, TRAIN, HELD, 67, 400, 480)


def _measure_command(run_order: str | None) -> str:
    """The `emogi.measure run` command measure_cell (holdout_session.sh) builds, echoed instead of run."""
    setup = 'S=$(mktemp -d); mkdir -p "$S/logs"; G=/g; REPS=5; WARMUP=1; EMOGI_BINARY=emogi\n'
    setup += 'log() { :; }; python3() { echo "$@"; }\n'  # the command, not run
    order = f"RUN_ORDER={run_order}\n" if run_order else "unset RUN_ORDER\n"
    body = '. tools/device/holdout_session.sh\nmeasure_cell kron17 bfs 8; cat "$S"/logs/run_bfs.kron17.w8.log'
    done = subprocess.run(["bash", "-c", setup + order + body], capture_output=True, text=True, cwd=ROOT, check=True)
    return done.stdout


def test_the_run_order_is_opt_in():
    """Every `emogi run` of split v9's session says `--run-order rounds`; without RUN_ORDER (v3-v8's scripts) the
    command is as before: the binary's default order (blocks)."""
    assert _measure_command("rounds").split("-- ", 1)[1].split()[-2:] == ["--run-order", "rounds"]
    before = _measure_command(None)
    assert "--run-order" not in before and before.rstrip().endswith("--reps 5 --warmup 1")
    for v in range(4, 9):
        assert "RUN_ORDER" not in (ROOT / "tools" / "device" / f"holdout_v{v}.sh").read_text(), v


# --- the figure and report section (drawn from tests/test_holdout_v4.py's tiny synthetic session, its registry
# standing in for split v9 too: made-up times, never archived) ---


def test_the_v9_figure_and_section_from_a_judgement(session, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    from figures import fig_holdout_v9
    from figures.fig_holdout import split_graphs_text
    from tests.test_holdout_v4 import judged_figure

    monkeypatch.setattr(hs9, "GRAPHS", hs4.GRAPHS)  # the fixture's tiny registry
    section = judged_figure(fig_holdout_v9, "v9", session, tmp_path)
    assert "v8's GPU-work term" in section["text"] and "seed 31" in section["text"]
    assert "run-order rounds" in section["text"] and "the min of 5" in section["text"]
    monkeypatch.undo()
    assert split_graphs_text(fig_holdout_v9.hs9.GRAPHS, set(HELD)).startswith("train: none; held out: kron21ef3")
