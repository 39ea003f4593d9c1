"""v13 on the lent machine, "v13h" (docs/holdout-v13.md, "v13 on an H200", registered before any H200 data): split
v13's train session measured again on the held-out call's machine (tools/device/holdout_v13h.sh). Its graph tables
agree with model/holdout_split_v13.py; its estimates are the archived H100 durations and its calls fit the guard and
the session's device time; the session part measures every train cell once and a second call only what the first
deferred (dry runs with a stand-in python3: nothing measured); the derive unpacks the fresh train session beside the
v12 archive's workloads and assembles each pass with it, refusing a graph file other than the archive's; and
model.holdout_combine --same-gpu refuses a train session measured on another GPU (synthetic sessions made here from
the v12 archive's tables, never archived)."""

import json
import os
import re
import shutil
import subprocess
import tarfile
from datetime import datetime
from functools import partial
from pathlib import Path

import pandas as pd
import pytest

from model import holdout_combine
from model import holdout_split_v13 as hs13
from tests import test_holdout_v11 as t11
from tests.test_holdout_v4 import script_graph_lines

ROOT = Path(__file__).resolve().parents[1]
DEVICE = ROOT / "tools" / "device"
SCRIPT = DEVICE / "holdout_v13h.sh"
ARCHIVE = ROOT / "archive"
V12 = ARCHIVE / "holdout-v12-h100-2026-11-28"
TRAIN = sorted(g for g, e in hs13.GRAPHS.items() if e["split"] == hs13.TRAIN)
HELD = sorted(g for g, e in hs13.GRAPHS.items() if e["split"] == hs13.HELD_OUT)
BUILD_S, PACK_S, MACHINE_START_S, BUDGET_DEVICE_S, WAIT_S = 33, 3, 35, 1800, 560
HELD_CALL_S = 444  # holdout_v13.sh's registered estimate, warm build (tests/test_holdout_v13.py)


def test_the_scripts_parse():
    for s in ("holdout_v13h.sh", "holdout_v13.sh", "holdout_passes.sh", "holdout_session.sh",
              "holdout_split_session.sh"):  # fmt: skip
        assert subprocess.run(["bash", "-n", str(DEVICE / s)]).returncode == 0, s


def test_the_train_session_is_split_v13s_train_set():
    """The 25 train graphs, none held out, with the registered seeds and generator arguments (script_graph_lines);
    5 runs after 1 warm-up in rounds order; split v13; it refuses to measure without EMOGI_COMMIT."""
    lines = script_graph_lines(SCRIPT, hs13.GRAPHS)
    names = [n for n, *_ in lines]
    assert sorted(names) == TRAIN and len(names) == len(set(names)) == 25 and not set(names) & set(HELD)
    text = SCRIPT.read_text()
    for want in ("REPS=${REPS:-5}", "WARMUP=${WARMUP:-1}", "RUN_ORDER=${RUN_ORDER:-rounds}",
                 "BUDGET_S=${BUDGET_S:-500}", "SPLIT=v13 TGZ=holdout13t", "TRAIN=$t SAME_GPU=1",
                 "bash tools/device/holdout_v13.sh"):  # fmt: skip
        assert want in text, want
    env = {k: v for k, v in os.environ.items() if k != "EMOGI_COMMIT"} | {"OUT": "/nonexistent"}
    done = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 2 and "EMOGI_COMMIT" in done.stdout


# --- the estimates (the archived H100 sessions' durations) and the calls ---


def _stamp(host: Path) -> datetime:
    return datetime.strptime(host.read_text().splitlines()[0].strip(), "%a %b %d %I:%M:%S %p UTC %Y")


def archived_durations() -> tuple[dict[str, list[int]], list[int]]:
    """Each graph's archived durations (its runs' first timestamps apart, v10's, v11's and v12's calls; the
    processes repeat's passes from their logs, the last graph to "done") and each call's start to its first run."""
    per: dict[str, list[int]] = {}
    starts = []
    for s in ("holdout-v10-h100-2026-11-27/session", "holdout-v11-h100-2026-11-28/call",
              "holdout-v12-h100-2026-11-28/call"):  # fmt: skip
        d = pd.concat(pd.read_csv(p, usecols=["date", "graph"]) for p in (ARCHIVE / s / "runs").glob("*.csv"))
        first = pd.to_datetime(d["date"]).dt.tz_localize(None).groupby(d["graph"]).min().sort_values()
        for g, dt in zip(first.index[:-1], first.diff().dropna().dt.total_seconds(), strict=True):
            per.setdefault(g, []).append(int(dt))
        starts.append(int((first.iloc[0] - _stamp(ARCHIVE / s / "host.txt")).total_seconds()))
    for p in (1, 2, 3):
        log = (ARCHIVE / "holdout-v12-processes-h100-2026-11-28" / "session" / f"pass{p}.log").read_text()
        marks = re.findall(r"== bfs (\S+) w8 \((\S+)\)", log) + [("done", re.search(r"done after .*\((\S+)\)", log)[1])]
        t = [datetime.strptime(x, "%H:%M:%S") for _, x in marks]
        for (g, _), a, b in zip(marks, t, t[1:]):
            per.setdefault(g, []).append(int((b - a).total_seconds()))
    return per, starts


def guard(order, est, start, budget, done=()) -> tuple[list[str], int]:
    """holdout_split_session.sh's guard on the estimates: the graphs one call measures, and its estimated length."""
    t, measured = start, []
    for g in order:
        if g not in done and t + est[g] <= budget:
            t += est[g]
            measured.append(g)
    return measured, t + PACK_S


def test_each_estimate_is_the_largest_archived_duration():
    lines = script_graph_lines(SCRIPT, hs13.GRAPHS)
    per, starts = archived_durations()
    assert {n: int(e) for n, *_, e in lines} == {g: max(per[g]) for g in TRAIN}
    assert sum(int(e) for *_, e in lines) == 599 and max(starts) == 69 and sorted(starts) == [59, 63, 69]


def test_the_calls_fit_the_guard_and_the_sessions_device_time():
    """T1 on a fresh machine (build + start 69 s) measures the first 15 graphs in ~492 s, T2 the other 10 in
    ~217 s; with the held-out call (~444 s) and the machine's start, ~1 188 s of the 1 800 s."""
    lines = script_graph_lines(SCRIPT, hs13.GRAPHS)
    order, est = [n for n, *_ in lines], {n: int(e) for n, *_, e in lines}
    t1, s1 = guard(order, est, BUILD_S + 69, 500)
    t2, s2 = guard(order, est, 2, 500, done=t1)
    assert t1 == order[:15] and t2 == order[15:] and (s1, s2) == (492, 217)
    assert max(s1, s2, HELD_CALL_S) < WAIT_S
    assert MACHINE_START_S + s1 + s2 + HELD_CALL_S == 1188 < BUDGET_DEVICE_S
    warm, s1 = guard(order, est, 69, 500)  # a build warm already: T1 takes urand20ef3 and kron19ef6 too
    t2, s2 = guard(order, est, 2, 500, done=warm)
    assert warm == [*order[:16], "kron19ef6"] and len(t2) == 8 and (s1, s2) == (503, 173)


# --- dry runs (a stand-in python3 that records its arguments and touches each --out: nothing measured) ---


def _stub(tmp_path: Path) -> Path:
    bin_ = tmp_path / "bin"
    bin_.mkdir(exist_ok=True)
    (bin_ / "python3").write_text(
        f'#!/bin/bash\necho "$*" >> {tmp_path}/calls.txt\n'
        'case "$2" in emogi.measure | model.fit) while [ $# -gt 0 ]; do\n'
        '  [ "$1" = --out ] && mkdir -p "$(dirname "$2")" && touch "$2"; shift; done ;; esac\n'
    )  # fmt: skip
    (bin_ / "python3").chmod(0o755)
    return bin_


def _run(tmp_path: Path, **env) -> tuple[subprocess.CompletedProcess, list[str]]:
    calls = tmp_path / "calls.txt"
    calls.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("RUN_ORDER", "GRAPHS", "SECONDS", "TRAIN")} | {
        "PATH": f"{_stub(tmp_path)}:{os.environ['PATH']}", "EMOGI_COMMIT": "abc1234", "EMOGI_WHEELS": "none",
        "EMOGI_BINARY": "/bin/true", "OUT": str(tmp_path / "out"), "H13T": str(tmp_path / "ho13t"),
        "H13": str(tmp_path / "ho13h"), **env}  # fmt: skip
    done = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env, capture_output=True, text=True)
    return done, calls.read_text().splitlines() if calls.exists() else []


def _runs(calls: list[str]) -> list[str]:
    return [c for c in calls if c.startswith("-m emogi.measure run")]


def test_the_session_measures_every_train_cell_once_and_again_nothing(tmp_path):
    done, calls = _run(tmp_path, BUDGET_S="100000")
    assert done.returncode == 0, done.stdout + done.stderr
    runs = _runs(calls)
    assert len(runs) == 25 * 4 * 2 and len(set(runs)) == len(runs)
    order = list(dict.fromkeys(re.search(r"--name (\S+)", c)[1] for c in runs))
    assert order == [n for n, *_ in script_graph_lines(SCRIPT, hs13.GRAPHS)]
    assert all("--reps 5 --warmup 1 --run-order rounds" in c and "--modes device,zerocopy" in c for c in runs)
    assert all(f"{tmp_path}/ho13t/session/runs/" in c for c in runs)
    for c in (c for c in calls if c.startswith("-m emogi.datasets.generators")):  # the registered seeds
        g = re.search(r"/(\w+)\.w8\.csr", c)[1]
        assert f"--seed {hs13.seed_of(g)} --weights-seed {hs13.seed_of(g)}" in c, c
    assert sum(c.startswith("-m emogi.measure linkbw") for c in calls) == 1
    with tarfile.open(tmp_path / "out" / "holdout13t.tgz") as tgz:
        assert len([n for n in tgz.getnames() if n.startswith("session/runs/")]) == 200
    done, calls = _run(tmp_path, BUDGET_S="100000")  # the same call again: nothing is missing
    assert done.returncode == 0 and not _runs(calls) and not [c for c in calls if "linkbw" in c]


def test_a_graph_the_guard_defers_is_measured_by_the_next_call(tmp_path):
    """469 s into T1 (bash's SECONDS), urand21ef4 (32 s) no longer fits 500 s: DEFERRED. T2 (the same command on the
    kept state) measures only it, without the microbenchmarks again."""
    graphs = "kron17 urand21ef4 urand19ef11"
    done, calls = _run(tmp_path, GRAPHS=graphs, SECONDS="469")
    assert done.returncode == 0 and "DEFERRED: urand21ef4" in done.stdout
    assert {re.search(r"--name (\S+)", c)[1] for c in _runs(calls)} == {"kron17", "urand19ef11"}
    done, calls = _run(tmp_path, GRAPHS=graphs)
    assert done.returncode == 0 and "DEFERRED" not in done.stdout
    assert {re.search(r"--name (\S+)", c)[1] for c in _runs(calls)} == {"urand21ef4"} and len(_runs(calls)) == 8
    assert not [c for c in calls if "linkbw" in c]


def _tgzs(tmp_path: Path, checksum: str | None = None) -> Path:
    """The call's files as derive reads them: holdout13t.tgz (the train graphs' metadata and roots, the v12
    archive's; `checksum` replaces kron17.w8's) and three empty passes."""
    d, stage = tmp_path / "back", tmp_path / "stage"
    (stage / "session" / "runs").mkdir(parents=True)
    shutil.copytree(V12 / "session" / "graphs", stage / "session" / "graphs")
    if checksum:
        p = stage / "session" / "graphs" / "kron17.w8.json"
        p.write_text(json.dumps(json.loads(p.read_text()) | {"checksum": checksum}, indent=2))
    d.mkdir()
    with tarfile.open(d / "holdout13t.tgz", "w:gz") as t:
        t.add(stage / "session", "session")
    for p in (1, 2, 3):
        with tarfile.open(d / f"holdout13_p{p}.tgz", "w:gz") as t:
            t.add(stage / "session" / "runs", "session/runs")
    return d


def test_the_derive_assembles_each_pass_with_the_fresh_train_session(tmp_path):
    done, calls = _run(tmp_path, PARTS="derive", TGZS=str(_tgzs(tmp_path)))
    train = tmp_path / "ho13h" / "train"
    assert (train / "workloads").resolve() == (V12 / "workloads").resolve(), done.stdout + done.stderr
    combines = [c for c in calls if c.startswith("-m model.holdout_combine")]
    assert len(combines) == 3 and all(f"--train-session {train}/session" in c and "--same-gpu" in c for c in combines)
    judged = [c for c in calls if c.startswith("-m model.holdout --split v13") and "--derive-only" not in c]
    assert len(judged) == 6
    for c in judged:
        assert {Path(w).name for w in re.findall(rf"{re.escape(str(train))}/workloads/(\w+)", c)} == set(TRAIN)
    assert [c for c in calls if c.startswith("-m model.holdout_passes --split v13")]
    # each held-out graph's files beside its metadata (pass 1's combined graphs/): model.holdout reads both there
    derives = [c for c in calls if "--derive-only" in c]
    assert len(derives) == 4 and all(f"--graphs {tmp_path}/ho13h/p1/combined/graphs " in c for c in derives), derives


def test_the_derive_refuses_a_train_graph_other_than_the_archives(tmp_path):
    done, calls = _run(tmp_path, PARTS="derive", TGZS=str(_tgzs(tmp_path, checksum="0123456789abcdef")))
    assert "kron17.w8: checksum" in done.stdout and not [c for c in calls if "holdout_combine" in c]


# --- model.holdout_combine --same-gpu (SYNTHETIC sessions: the v12 archive's tables, copied here) ---

UUID = "GPU-8f1c2a3b-0000-4000-8000-000000000001"
_call = partial(t11._call, held=HELD, again=(), src=V12 / "session")


def _sessions(tmp_path, train_uuid=UUID, call_uuid=UUID, call_gpu=None) -> tuple[Path, Path]:
    """A train session (the v12 archive's, copied) and a call, each with host.txt's `nvidia-smi -L` line."""
    train = tmp_path / "train"
    shutil.copytree(V12 / "session", train)
    call = _call(tmp_path)
    for s, uuid in ((train, train_uuid), (call, call_uuid)):
        if uuid:
            (s / "host.txt").write_text(f"Sat Nov 28 2026\nGPU 0: NVIDIA H100 80GB HBM3 (UUID: {uuid})\n")
    if call_gpu:
        for p in (call / "runs").glob("*.csv"):
            pd.read_csv(p).assign(gpu=call_gpu).to_csv(p, index=False)
    return train, call


def test_the_same_gpu_combination(tmp_path):
    train, call = _sessions(tmp_path)
    record = holdout_combine.combine(hs13, train, call, tmp_path / "c", log=lambda m: None, gpu=True)
    assert record["gpu"] == {"name": "NVIDIA H100 80GB HBM3", "uuid": UUID}
    assert json.loads((tmp_path / "c" / "combined.json").read_text())["gpu"]["uuid"] == UUID


@pytest.mark.parametrize(
    "case, match",
    [({"call_uuid": UUID.replace("1", "2")}, "not the same GPU UUID"), ({"call_uuid": None}, "not the same GPU UUID"),
     ({"call_gpu": "NVIDIA H200"}, "not the same GPU:")],
)  # fmt: skip
def test_the_same_gpu_combination_refuses(tmp_path, case, match):
    train, call = _sessions(tmp_path, **case)
    out = tmp_path / "c"
    args = ["--split", "v13", "--call", str(call), "--out", str(out), "--train-session", str(train), "--same-gpu"]
    done = subprocess.run(["python", "-m", "model.holdout_combine", *args], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and match in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_the_archived_h100_train_session_is_refused_under_v13h(tmp_path):
    """v13's registered train table (the v12 archive's session: no host.txt, H100 runs) beside an H200 call."""
    _, call = _sessions(tmp_path, call_gpu="NVIDIA H200")
    with pytest.raises(holdout_combine.HoldoutError, match="not the same GPU"):
        holdout_combine.combine(hs13, V12 / "session", call, tmp_path / "c", log=lambda m: None, gpu=True)


@pytest.mark.parametrize(
    "case, match",
    [("missing", "urand19ef9: no"), ("stray", "not in split v13"), ("leak", "have runs in the train session")],
)
def test_the_same_gpu_combination_refuses_a_held_out_graph_in_the_train_session(tmp_path, case, match):
    t11.assert_combination_refuses(tmp_path, case, match, "v13", HELD, V12 / "session", _call, extra=("--same-gpu",))
