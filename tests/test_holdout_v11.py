"""Issue 24's held-out validation v11 (docs/holdout-v11.md): the registered split (the v10 session's 17 graphs train,
four new seed-33 graphs held out, none of an earlier split; a held-out graph in a fit set refused), v8's term and
statistic used unchanged (the judge with split v11 fits direction-optimizing BFS per degree class on synthetic
tables: made-up counts and times, never archived), the session assembled from two (model/holdout_combine.py: the
train graphs' runs from the v10 archive, the held-out graphs' only from the call, on synthetic call folders made in
the test), the archived v10 judgement unchanged, the device script's structure, and the figure and report section."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from model import holdout, holdout_combine
from model import holdout_split as hs
from model import holdout_split_v3 as hs3
from model import holdout_split_v4 as hs4
from model import holdout_split_v5 as hs5
from model import holdout_split_v6 as hs6
from model import holdout_split_v7 as hs7
from model import holdout_split_v8 as hs8
from model import holdout_split_v9 as hs9
from model import holdout_split_v10 as hs10
from model import holdout_split_v11 as hs11
from tests import test_holdout_v8 as t8
from tests.holdout_checks import assert_archived_judgement, assert_fit_set_and_provenance
from tests.test_holdout_v4 import (
    script_graph_lines,
    session,  # noqa: F401  (the tiny synthetic session, a module fixture)
)
from tests.test_holdout_v9 import _measure_command, assert_judged_with_v8s_term

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE_V10 = ROOT / "archive" / "holdout-v10-h100-2026-11-27"
TRAIN = sorted(hs10.GRAPHS)
HELD = ["kron19ef6", "kron20ef3", "urand19ef14", "urand19ef6"]
EARLIER = (hs, hs3, hs4, hs5, hs6, hs7, hs8, hs9, hs10)


def test_the_split_is_the_registered_one():
    assert sorted(g for g, e in hs11.GRAPHS.items() if e["split"] == hs11.TRAIN) == TRAIN and len(TRAIN) == 17
    assert sorted(g for g, e in hs11.GRAPHS.items() if e["split"] == hs11.HELD_OUT) == HELD
    for g in TRAIN:  # made as the v5 to v10 sessions made them
        assert hs11.GRAPHS[g]["source"] == hs10.GRAPHS[g]["source"], g
    earlier = {g: e for sp in EARLIER for g, e in sp.GRAPHS.items()}
    assert not set(HELD) & set(earlier)  # no name of an earlier split ...
    made = {(s["kind"], s["scale"], s["edge_factor"], s.get("seed")) for s in (e["source"] for e in earlier.values())
            if "kind" in s}  # fmt: skip
    src = [hs11.GRAPHS[g]["source"] for g in HELD]
    assert not {(s["kind"], s["scale"], s["edge_factor"], s["seed"]) for s in src} & made  # ... nor graph
    assert {hs11.seed_of(g) for g in HELD} == {33} and 33 not in {e["source"].get("seed") for e in earlier.values()}
    assert sorted((s["kind"], s["scale"], s["edge_factor"]) for s in src) == [
        ("kron", 19, 6), ("kron", 20, 3), ("urand", 19, 6), ("urand", 19, 14)]  # fmt: skip
    trained = [hs11.GRAPHS[g]["source"] for g in TRAIN]
    for kind in ("kron", "urand"):  # inside the train range of edge factors and scales, per family
        mine = [s for s in trained if s["kind"] == kind]
        for s in (s for s in src if s["kind"] == kind):
            assert min(t["edge_factor"] for t in mine) <= s["edge_factor"] <= max(t["edge_factor"] for t in mine)
            assert min(t["scale"] for t in mine) <= s["scale"] <= max(t["scale"] for t in mine)
    assert set(hs11.REMEASURED) <= set(TRAIN) and len(hs11.REMEASURED) == 6
    assert hs11.TRAIN_SESSION == "archive/holdout-v10-h100-2026-11-27" and (ROOT / hs11.TRAIN_SESSION).is_dir()
    assert hs11.WIDTHS_OF == {} and hs11.ALGORITHMS_OF == {} and hs11.STATISTIC == "min"
    assert hs11.RUN_ORDER == "rounds" and (hs11.TARGET_MEDIAN, hs11.TARGET_WORST) == (0.05, 0.15)
    assert holdout.SPLITS["v11"] is hs11 and hs11 in holdout.V8_TERM


def test_no_held_out_graph_in_training():
    made = {"type": "generator", "kind": "kron", "scale": 19, "edge_factor": 6, "seed": 33,
            "initiator": {"a": 0.57, "b": 0.19, "c": 0.19, "d": 0.05}}  # fmt: skip
    refused = (*HELD, "kron20ef6", "kron19ef8", "kron20")
    assert_fit_set_and_provenance(hs11, TRAIN, "kron17", refused, "kron19ef6", made, {"seed": 32}, hs10, "kron19ef14")


def test_the_v11_judge_is_v8s_term(monkeypatch):
    """Split v11 judges with v8's term (tests/test_holdout_v9.py, assert_judged_with_v8s_term)."""
    assert_judged_with_v8s_term(hs11, HELD, 11, monkeypatch)


def test_the_statistic_is_v8s():
    c = holdout.cells_of(t8._runs([10.0, 11.0, 30.0, 10.5, 12.0]), sp=hs11, log=lambda m: None)
    assert c["measured_ms"].item() == 10.0 and c["spread"].item() == 2.0


def test_the_archived_v10_judgement_is_unchanged(tmp_path, monkeypatch):
    """v10's session, as its archive's commands.sh judges it, the same tables (split v11's additions leave it)."""
    assert_archived_judgement(ARCHIVE_V10, "v10", tmp_path / "v10", monkeypatch)


# --- the session assembled from two (SYNTHETIC call folders: v10's archived tables copied under other names or
# scaled, made here, never archived) ---


def _call(tmp_path: Path, held=HELD, again=("kron17",), scale=1.02, src: Path = ARCHIVE_V10 / "session") -> Path:
    """A call folder from the train session `src`: each `held` graph's runs tables and metadata (copies of
    kron19ef3's, renamed: synthetic), the `again` graphs' tables with every time × `scale`, and parameters.json."""
    call = tmp_path / "call"
    (call / "runs").mkdir(parents=True)
    (call / "graphs").mkdir()
    for g in held:
        for p in (src / "runs").glob("*.kron19ef3.w*.csv"):
            pd.read_csv(p).assign(graph=g).to_csv(call / "runs" / p.name.replace(".kron19ef3.", f".{g}."), index=False)
        for w in (4, 8):
            shutil.copy(src / "graphs" / f"kron19ef3.w{w}.json", call / "graphs" / f"{g}.w{w}.json")
    for g in again:
        for p in (src / "runs").glob(f"*.{g}.w*.csv"):
            t = pd.read_csv(p)
            t.assign(time_ms=t["time_ms"] * scale).to_csv(call / "runs" / p.name, index=False)
    params = json.loads((src / "parameters.json").read_text())
    params["W_gbps"]["value"] = 40.0
    (call / "parameters.json").write_text(json.dumps(params))
    return call


def test_the_combined_session_takes_train_runs_from_v10_and_held_out_ones_from_the_call(tmp_path):
    call, out = _call(tmp_path), tmp_path / "combined"
    record = holdout_combine.combine(hs11, ARCHIVE_V10 / "session", call, out, log=lambda m: None)
    assert_train_session_kept(out, ARCHIVE_V10 / "session", 21 * 8)
    for p in (call / "runs").glob("*.csv"):
        g = p.name.split(".")[1]
        assert ((out / "runs" / p.name).read_bytes() == p.read_bytes()) == (g in HELD), p.name
    assert {g for g, w in record["graphs"].items() if w == "call"} == set(HELD) and record["remeasured"] == ["kron17"]
    assert record["link"]["call"]["W_gbps"] == 40.0 and record["link"]["train session"]["W_gbps"] == 53.2355
    drift = pd.read_csv(out / "drift.csv")
    assert len(drift) == 48 and set(drift["graph"]) == {"kron17"}
    assert drift["drift"].to_numpy() == pytest.approx(0.02)  # every time × 1.02: the min too
    cells = holdout.cells_of(holdout.read_runs(out), log=lambda m: None, sp=hs11)
    assert set(cells["graph"]) == set(TRAIN) | set(HELD) and len(cells) == 21 * 48


@pytest.mark.parametrize(
    "case, match",
    [("missing", "urand19ef6: no"), ("stray", "not in split v11"), ("leak", "have runs in the train session")],
)
def test_the_combination_refuses(tmp_path, case, match):
    """A held-out graph the call lacks, a graph the split does not list, a held-out graph in the train session:
    one line, exit 2, nothing written."""
    assert_combination_refuses(tmp_path, case, match, "v11", HELD, ARCHIVE_V10 / "session", _call)


def assert_train_session_kept(out: Path, src: Path, tables: int) -> None:
    """The combined session `out` holds every runs table of the train session `src` unchanged, byte for byte,
    `tables` runs tables in all, and `src`'s link parameters and L2 table."""
    for p in (src / "runs").glob("*.csv"):
        assert (out / "runs" / p.name).read_bytes() == p.read_bytes(), p.name
    assert len(list((out / "runs").glob("*.csv"))) == tables
    assert (out / "parameters.json").read_bytes() == (src / "parameters.json").read_bytes()
    assert (out / "micro" / "l2.csv").read_bytes() == (src / "micro" / "l2.csv").read_bytes()


def assert_combination_refuses(tmp_path, case, match, split, held, train, make_call, extra=()):
    """model.holdout_combine --split `split` (and the arguments `extra`) on a call (`make_call(tmp_path, held=...)`)
    lacking a held-out graph, with a stray graph, or with a held-out graph leaked into the train session `train`."""
    call = make_call(tmp_path, held=held[:3] if case == "missing" else held)
    runs = f"bfs.{held[0]}.w8.csv"
    if case == "stray":
        shutil.copy(call / "runs" / runs, call / "runs" / "bfs.kron99.w8.csv")
    if case == "leak":
        shutil.copytree(train, tmp_path / "train")
        train = tmp_path / "train"
        shutil.copy(call / "runs" / runs, train / "runs")
    out = tmp_path / "combined"
    args = ["--split", split, "--call", str(call), "--out", str(out), "--train-session", str(train), *extra]
    done = subprocess.run(["python", "-m", "model.holdout_combine", *args], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and match in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()


# --- the device script ---

SCRIPT = ROOT / "tools" / "device" / "holdout_v11.sh"


def test_the_device_script_makes_what_the_split_registers():
    """holdout_v11.sh: its tables agree with the split (seeds, generator arguments); the held-out graphs first, then
    exactly REMEASURED; the registered ~307 s warm (v10's measured 69 s start + the estimates + the last pack), a
    fresh build (+32 s) under the guard, the guard well inside a device command; 5 repetitions after 1 warm-up in
    rounds order; the train session the split's; it refuses to measure without EMOGI_COMMIT."""
    lines = script_graph_lines(SCRIPT, hs11.GRAPHS)
    text = SCRIPT.read_text()
    assert sorted(n for n, *_ in lines[: len(HELD)]) == HELD
    assert [n for n, *_ in lines[len(HELD) :]] == list(hs11.REMEASURED)
    warm = 69 + sum(int(e) for *_, e in lines) + 3
    budget = int(re.search(r"BUDGET_S=\$\{BUDGET_S:-(\d+)\}", text).group(1))
    assert warm == 307 and warm + 32 < budget <= 500
    split_session = text.index(". tools/device/holdout_split_session.sh")
    held = " ".join(n for n, *_ in lines[:4])
    for want in ("REPS=${REPS:-5}", "WARMUP=${WARMUP:-1}", "RUN_ORDER=${RUN_ORDER:-rounds}",
                 f"TRAIN=${{TRAIN:-{hs11.TRAIN_SESSION}}}", f'HELD_GRAPHS="{held}"'):  # fmt: skip
        assert want in text and text.index(want) < split_session, want
    assert "SPLIT=v11 TGZ=holdout11 ST=${H11:-/tmp/ho11}" in text and text.rstrip().endswith("split_main")
    assert text.rstrip().endswith(
        ". tools/device/holdout_combined.sh  # derive and judge: the combined session\nsplit_main"
    )
    shared = (ROOT / "tools" / "device" / "holdout_combined.sh").read_text()
    judge = (ROOT / "tools" / "device" / "holdout_judge.sh").read_text()  # the judge's one place
    assert 'model.holdout_combine --split "$SPLIT"' in shared and ". tools/device/holdout_judge.sh" in shared
    assert 'judge_both "$C" "$S/parameters.json" "$ST"' in shared and '--parameters "$own"' in judge
    env = {k: v for k, v in os.environ.items() if k not in ("EMOGI_COMMIT", "RUN_ORDER")}
    done = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env | {"OUT": "/nonexistent"}, capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 2 and "EMOGI_COMMIT" in done.stdout


def test_the_run_order_is_rounds():
    assert _measure_command("rounds").split("-- ", 1)[1].split()[-2:] == ["--run-order", "rounds"]


# --- the figure and report section (drawn from tests/test_holdout_v4.py's tiny synthetic session, its registry
# standing in for split v11 too: made-up times, never archived) ---


def test_the_v11_figure_and_section_from_a_judgement(session, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    from figures import fig_holdout_v11
    from figures.fig_holdout import split_graphs_text
    from tests.test_holdout_v4 import judged_figure

    monkeypatch.setattr(hs11, "GRAPHS", hs4.GRAPHS)  # the fixture's tiny registry
    section = judged_figure(fig_holdout_v11, "v11", session, tmp_path)
    assert "v8's GPU-work term" in section["text"] and "seed 33" in section["text"]
    assert "archived v10 session" in section["text"] and "the min of 5" in section["text"]
    monkeypatch.undo()
    assert split_graphs_text(fig_holdout_v11.hs11.GRAPHS, set(HELD)).startswith("train: none; held out: kron19ef6")
