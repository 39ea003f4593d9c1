"""Issue 24's held-out validation v13 (docs/holdout-v13.md): the registered split (the v12 combined session's 25
graphs train, four new seed-35 graphs held out, none of an earlier split; a held-out graph in a fit set refused), term
v12 unchanged (split v13 judged with model/gpu_work_v12.py, a held-out graph never reaching a fit, on the archived
v12 session), the session assembled from two (model/holdout_combine.py, the train graphs' runs from the v12
archive's combined session, on synthetic call folders made in the test), the design: every held-out cell measured
by 3 separate processes (the device script, dry-run with a stand-in python3) and judged on the median over the
passes of each pass's min (model/holdout_passes.py, on synthetic 3-pass tables and on the processes repeat's
archived cells), the figure and report section, and no archive of the call yet."""

import json
import os
import re
import subprocess
import tarfile
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from emogi.passes_archive import packed_passes
from model import gpu_work_v12, holdout, holdout_combine, holdout_passes
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
from model import holdout_split_v12 as hs12
from model import holdout_split_v13 as hs13
from tests import test_holdout_v11 as t11
from tests.holdout_checks import assert_archived_judgement, assert_fit_set_and_provenance
from tests.same_tables import assert_same_tables
from tests.test_holdout_v4 import (
    script_graph_lines,
    session,  # noqa: F401  (the tiny synthetic session, a module fixture)
)

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE_V12 = ROOT / "archive" / "holdout-v12-h100-2026-11-28"
PROCESSES = ROOT / "archive" / "holdout-v12-processes-h100-2026-11-28"
TRAIN = sorted(hs12.GRAPHS)
HELD = ["kron19ef13", "kron19ef9", "urand19ef13", "urand19ef9"]
EARLIER = (hs, hs3, hs4, hs5, hs6, hs7, hs8, hs9, hs10, hs11, hs12)


def test_the_split_is_the_registered_one():
    assert sorted(g for g, e in hs13.GRAPHS.items() if e["split"] == hs13.TRAIN) == TRAIN and len(TRAIN) == 25
    assert sorted(g for g, e in hs13.GRAPHS.items() if e["split"] == hs13.HELD_OUT) == HELD
    for g in TRAIN:  # made as the v5 to v12 sessions made them
        assert hs13.GRAPHS[g]["source"] == hs12.GRAPHS[g]["source"], g
    earlier = {g: e for sp in EARLIER for g, e in sp.GRAPHS.items()}
    assert not set(HELD) & set(earlier)  # no name of an earlier split ...
    made = {(s["kind"], s["scale"], s["edge_factor"], s.get("seed")) for s in (e["source"] for e in earlier.values())
            if "kind" in s}  # fmt: skip
    src = [hs13.GRAPHS[g]["source"] for g in HELD]
    assert not {(s["kind"], s["scale"], s["edge_factor"]) for s in src} & {m[:3] for m in made}  # ... nor its size
    assert {hs13.seed_of(g) for g in HELD} == {35} and 35 not in {e["source"].get("seed") for e in earlier.values()}
    assert sorted((s["kind"], s["scale"], s["edge_factor"]) for s in src) == [
        ("kron", 19, 9), ("kron", 19, 13), ("urand", 19, 9), ("urand", 19, 13)]  # fmt: skip
    trained = [hs13.GRAPHS[g]["source"] for g in TRAIN]
    for kind in ("kron", "urand"):  # inside the train range of edge factors and scales, per family
        mine = [s for s in trained if s["kind"] == kind]
        for s in (s for s in src if s["kind"] == kind):
            assert min(t["edge_factor"] for t in mine) <= s["edge_factor"] <= max(t["edge_factor"] for t in mine)
            assert min(t["scale"] for t in mine) <= s["scale"] <= max(t["scale"] for t in mine)
    assert hs13.REMEASURED == () and hs13.TRAIN_SESSION == "archive/holdout-v12-h100-2026-11-28"
    assert hs13.WIDTHS_OF == {} and hs13.ALGORITHMS_OF == {} and hs13.STATISTIC == "min"
    assert (hs13.PASSES, hs13.PASS_STATISTIC) == (3, "median")
    assert hs13.RUN_ORDER == "rounds" and (hs13.TARGET_MEDIAN, hs13.TARGET_WORST) == (0.05, 0.15)
    assert holdout.SPLITS["v13"] is hs13 and hs13 in holdout.V12_TERM and hs13 in holdout.V8_FLOOR


def test_no_held_out_graph_in_training():
    """The fit set refuses a held-out graph, and the train table (the v12 archive's session and workloads) has none
    of them and exactly the train graphs."""
    made = {"type": "generator", "kind": "urand", "scale": 19, "edge_factor": 13, "seed": 35}
    refused = (*HELD, "kron19ef8", "kron20")
    assert_fit_set_and_provenance(
        hs13, TRAIN, "kron17", refused, "urand19ef13", made, {"seed": 34}, hs12, "urand19ef11"
    )
    assert holdout_combine.graphs_in(ROOT / hs13.TRAIN_SESSION / "session" / "runs") == set(TRAIN)
    assert {p.name for p in (ROOT / hs13.TRAIN_SESSION / "workloads").iterdir()} == set(TRAIN)


def test_the_v13_term_is_v12s_and_a_held_out_graph_reaches_no_fit(monkeypatch):
    """The archived v12 combined session judged with split v13, urand19ef11 marked held out (in a patched copy of
    the registry): term v12's link costs (h among them), and the held-out graph's times × 7 change no cost."""
    x = _session()
    graphs = {**hs13.GRAPHS, "urand19ef11": {**hs13.GRAPHS["urand19ef11"], "split": hs13.HELD_OUT}}
    monkeypatch.setattr(hs13, "GRAPHS", graphs)
    calls = []
    monkeypatch.setattr(gpu_work_v12, "predict_table", _spy(gpu_work_v12.predict_table, calls))
    table, costs = holdout.judge(x["cells"], x["wl"], x["la"], x["params"], log=lambda m: None, sp=hs13, **x["kw"])
    assert calls and set(table[table["split"] == hs13.HELD_OUT]["graph"]) == {"urand19ef11"}
    assert len(table) == 25 * 48 and {"eta", "h", "g"} <= set(costs.columns)
    wild = x["cells"].assign(measured_ms=np.where(x["cells"]["graph"] == "urand19ef11", x["cells"]["measured_ms"] * 7,
                                                  x["cells"]["measured_ms"]))  # fmt: skip
    _, again = holdout.judge(wild, x["wl"], x["la"], x["params"], log=lambda m: None, sp=hs13, **x["kw"])
    pd.testing.assert_frame_equal(costs, again)


def _spy(fn, calls):
    def spy(*a, **k):
        calls.append(1)
        return fn(*a, **k)

    return spy


def _session() -> dict:
    """The archived v12 combined session as model.holdout reads it (tests/test_holdout_v12.py's, another archive)."""
    import glob

    from model.presets import MEASURED, get_preset

    a = ARCHIVE_V12
    cells = holdout.cells_of(holdout.read_runs(a / "session"), log=lambda *_: None, sp=hs13)
    wl, la = holdout.read_workloads(*sorted(glob.glob(str(a / "workloads" / "*"))))
    metas = {g: json.loads((a / "session" / "graphs" / f"{g}.w8.json").read_text()) for g in set(cells.graph)}
    vertices = {g: m["num_vertices"] for g, m in metas.items()}
    kw = {"vertices": vertices, "capacity": json.loads((a / "source.json").read_text())["l2_bytes"],
          "nonisolated": {g: v - metas[g].get("isolated_vertices", 0) for g, v in vertices.items()},
          "classes": {g: holdout.gpu_work_v8.degree_class(m) for g, m in metas.items()}}  # fmt: skip
    return {"cells": cells, "wl": wl, "la": la, "kw": kw,
            "params": get_preset(MEASURED, a / "session" / "parameters.json")}  # fmt: skip


def test_the_archived_v12_judgement_is_unchanged(tmp_path, monkeypatch):
    """v12's archived judgement, as its commands.sh makes it, the same tables (split v13 shares its term)."""
    assert_archived_judgement(ARCHIVE_V12, "v12", tmp_path / "v12", monkeypatch)


# --- the session assembled from two (SYNTHETIC call folders: the v12 archive's tables copied under other names,
# made here, never archived) ---

_call = partial(t11._call, held=HELD, again=(), src=ARCHIVE_V12 / "session")  # nothing measured again


def test_the_combined_session_takes_train_runs_from_v12_and_held_out_ones_from_the_call(tmp_path):
    call, out = _call(tmp_path), tmp_path / "combined"
    record = holdout_combine.combine(hs13, ARCHIVE_V12 / "session", call, out, log=lambda m: None)
    t11.assert_train_session_kept(out, ARCHIVE_V12 / "session", 29 * 8)  # v12's held out among its train tables
    assert {g for g, w in record["graphs"].items() if w == "call"} == set(HELD) and record["remeasured"] == []


@pytest.mark.parametrize(
    "case, match",
    [("missing", "urand19ef9: no"), ("stray", "not in split v13"), ("leak", "have runs in the train session")],
)
def test_the_combination_refuses(tmp_path, case, match):
    t11.assert_combination_refuses(tmp_path, case, match, "v13", HELD, ARCHIVE_V12 / "session", _call)


# --- the passes' statistic (SYNTHETIC judged tables made here, and the processes repeat's archived cells) ---


def _judged(measured: list[float], predicted: list[float], train=(2.0, 3.0)) -> pd.DataFrame:
    """A judged table as model.holdout writes it: two train cells and one held-out cell per value."""
    rows = [{"split": "train", "graph": "kron17", "algorithm": "cc", "variant": "afforest", "mode": "device",
             "edge_bytes": 8, "root": np.nan, "measured_ms": t, "predicted_ms": t * 1.01} for t in train]  # fmt: skip
    rows[1]["algorithm"] = "pagerank"
    for i, (m, p) in enumerate(zip(measured, predicted, strict=True)):
        rows.append({"split": "held-out", "graph": "kron19ef9", "algorithm": "bfs", "variant": "merged-aligned",
                     "mode": "zerocopy", "edge_bytes": 8, "root": float(i), "measured_ms": m,
                     "predicted_ms": p})  # fmt: skip
    t = pd.DataFrame(rows)
    return t.assign(error=t["predicted_ms"] / t["measured_ms"] - 1, reps=5, slowest_ms=t["measured_ms"] * 1.1,
                    spread=0.1, date="2026-11-28T00:00:00Z", commit="abc")  # fmt: skip


def test_a_held_out_cell_is_the_median_of_its_passes_mins():
    """Each pass's judged measured is its min; the cell's is the median over the passes, the error against the
    registered prediction; a pass lacking a cell leaves the median of the others; the train cells unchanged."""
    passes = [_judged([1.0, 4.0], [1.0, 4.4]), _judged([1.3, 5.0], [1.0, 4.4]), _judged([0.9, 4.2], [1.0, 4.4])]
    passes[2] = passes[2].iloc[:-1]  # pass 3 lacks the second cell
    t = holdout_passes.combine(passes, "train")
    held = t[t["split"] == "held-out"].reset_index(drop=True)
    assert held["measured_ms"].tolist() == [1.0, 4.5] and held["passes"].tolist() == [3, 2]
    assert held["error"].tolist() == pytest.approx([0.0, 4.4 / 4.5 - 1])
    assert held["process_range"].tolist() == pytest.approx([1.3 / 0.9 - 1, 5.0 / 4.0 - 1])
    assert held[["m_p1", "m_p2"]].iloc[1].tolist() == [4.0, 5.0] and np.isnan(held["m_p3"].iloc[1])
    assert held["reps"].tolist() == [15, 10] and held["slowest_ms"].iloc[1] == pytest.approx(5.5)
    pd.testing.assert_frame_equal(t[t["split"] == "train"][passes[0].columns].reset_index(drop=True),
                                  passes[0][passes[0]["split"] == "train"].reset_index(drop=True))  # fmt: skip
    s = holdout.summary(t)
    assert s[(s["split"] == "held-out") & (s["mode"] == "all")]["worst"].iloc[0] == pytest.approx(0.1 / 4.5)


def test_the_passes_judge_refuses_what_cannot_be_one_judgement():
    ok = _judged([1.0], [1.0])
    with pytest.raises(holdout_passes.PassError, match="registered prediction differs"):
        holdout_passes.combine([ok, _judged([1.0], [1.1])], "train")
    with pytest.raises(holdout_passes.PassError, match="train cells differ"):
        holdout_passes.combine([ok, _judged([1.0], [1.0], train=(2.0, 3.5))], "train")
    own = holdout_passes.combine([ok, _judged([1.2], [1.1]), _judged([1.1], [1.3])], "train", same_prediction=False)
    assert own["predicted_ms"].iloc[-1] == pytest.approx(1.1) and own["measured_ms"].iloc[-1] == pytest.approx(1.1)
    # each pass's own link: its train predictions differ from pass 1's too (the same measured train cells)
    other_link = _judged([1.2], [1.1]).assign(predicted_ms=lambda t: t["predicted_ms"] * 1.02)
    own = holdout_passes.combine([ok, other_link], "train", same_prediction=False)
    assert own[own["split"] == "train"]["predicted_ms"].tolist() == ok[ok["split"] == "train"]["predicted_ms"].tolist()
    with pytest.raises(holdout_passes.PassError, match="train cells differ"):  # another train session, own link
        holdout_passes.combine([ok, _judged([1.0], [1.0], train=(2.0, 3.5))], "train", same_prediction=False)


def test_the_passes_cli_writes_the_judgement_and_refuses_another_split(tmp_path):
    dirs = []
    for i, m in enumerate((1.0, 1.2, 0.9), 1):
        d = tmp_path / f"p{i}"
        d.mkdir()
        _judged([m], [1.0]).to_csv(d / "holdout_cells.csv", index=False)
        (d / "source.json").write_text(json.dumps({"split": "v13", "commit": f"c{i}"}))
        dirs.append(str(d))
    assert holdout_passes.main(["--judged", *dirs, "--out-dir", str(tmp_path / "out")]) == 0
    cells = pd.read_csv(tmp_path / "out" / "holdout_cells.csv")
    assert cells["measured_ms"].iloc[-1] == 1.0 and cells["passes"].iloc[-1] == 3
    src = json.loads((tmp_path / "out" / "source.json").read_text())
    assert src["commit"] == "c1,c2,c3" and "median over the passes" in src["statistic"]
    stats = set(pd.read_csv(tmp_path / "out" / "passes_summary.csv")["statistic"])
    assert stats == {"p1", "p2", "p3", "median over passes"}
    (tmp_path / "p1" / "source.json").write_text(json.dumps({"split": "v12", "commit": "c1"}))
    assert holdout_passes.main(["--judged", *dirs, "--out-dir", str(tmp_path / "bad")]) == 2


def test_the_statistic_reproduces_the_processes_repeats_median_of_3():
    """The processes repeat's archived cells (each pass's min, v12's registered prediction) put together by
    model.holdout_passes give its archived judgement of the median over passes (judgements.csv, median3)."""
    cells = pd.read_csv(PROCESSES / "cells.csv")
    base = cells.drop(columns=[f"m_p{i}" for i in (1, 2, 3)])
    base = base.assign(split="held-out", reps=5, slowest_ms=np.nan, date="", commit="4b490a8")
    passes = [base.assign(measured_ms=cells[f"m_p{i}"]) for i in (1, 2, 3)]
    s = holdout.summary(holdout_passes.combine(passes, "train"))
    s = s[s["mode"] == "all"].set_index("algorithm")
    j = pd.read_csv(PROCESSES / "judgements.csv")
    j = j[(j["statistic"] == "median3") & (j["link"] == "registered")].set_index("algorithm")
    for a in ("bfs", "sssp", "cc", "pagerank", "all"):
        assert s.loc[a, "median"] == pytest.approx(j.loc[a, "median"], abs=5e-5), a
        assert s.loc[a, "worst"] == pytest.approx(j.loc[a, "worst"], abs=5e-5), a


# --- the device script ---

SCRIPT = ROOT / "tools" / "device" / "holdout_v13.sh"


def test_the_device_script_tables_agree_with_the_split():
    """Only the four held-out graphs, seed 35; 5 repetitions after 1 warm-up in rounds order; 3 passes; the registered
    ~444 s on a warm build (3 × (59 s start + the estimates + 3 s pack)), a fresh build (+32 s) under the call's
    guard; the train session the split's; it refuses to measure without EMOGI_COMMIT."""
    lines = script_graph_lines(SCRIPT, hs13.GRAPHS)
    assert [n for n, *_ in lines] == ["kron19ef9", "kron19ef13", "urand19ef9", "urand19ef13"]
    text = SCRIPT.read_text()
    per_pass = 59 + sum(int(e) for *_, e in lines) + 3
    budget = int(re.search(r"BUDGET_S=\$\{BUDGET_S:-(\d+)\}", text).group(1))
    assert per_pass == 148 and 3 * per_pass == 444 and 3 * per_pass + 32 < budget <= 540
    for want in ("REPS=${REPS:-5}", "WARMUP=${WARMUP:-1}", "RUN_ORDER=${RUN_ORDER:-rounds}", "PASSES=${PASSES:-3}",
                 f"TRAIN=${{TRAIN:-{hs13.TRAIN_SESSION}}}", "SPLIT=v13 TGZ_BASE=holdout13"):  # fmt: skip
        assert want in text, want
    assert text.rstrip().endswith("passes_main") and "--split v12" not in text
    env = {k: v for k, v in os.environ.items() if k not in ("EMOGI_COMMIT", "RUN_ORDER")}
    done = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env | {"OUT": "/nonexistent"}, capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 2 and "EMOGI_COMMIT" in done.stdout


def _dry_run(tmp_path, **env) -> tuple[subprocess.CompletedProcess, list[str], Path]:
    """holdout_v13.sh's session part with a stand-in python3 that records its arguments (nothing measured)."""
    bin_, out, calls = tmp_path / "bin", tmp_path / "out", tmp_path / "calls.txt"
    bin_.mkdir()
    (bin_ / "python3").write_text(f'#!/bin/bash\necho "$PASS $*" >> {calls}\n')
    (bin_ / "python3").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("RUN_ORDER", "PASS", "IN_PASS", "CALL_T0")} | {
        "PATH": f"{bin_}:{os.environ['PATH']}", "EMOGI_COMMIT": "abc1234", "EMOGI_WHEELS": "none",
        "EMOGI_BINARY": "/bin/true", "OUT": str(out), "H13": str(tmp_path / "state"), **env}  # fmt: skip
    done = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env, capture_output=True, text=True)
    return done, calls.read_text().splitlines() if calls.exists() else [], out


def test_the_script_measures_the_registered_set_in_three_passes(tmp_path):
    """Three passes, each its own process and state folder, each every held-out graph × algorithm × width once
    (device and zero-copy, 5 runs after 1 warm-up, rounds), the graph files shared; one tgz and one log per pass."""
    done, calls, out = _dry_run(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    runs = [c for c in calls if "emogi.measure run" in c]
    assert len(runs) == 3 * 4 * 4 * 2
    for p in (1, 2, 3):
        mine = [c for c in runs if c.startswith(f"{p} ")]
        assert len(mine) == 32 and all(f"/state/p{p}/session/runs/" in c for c in mine)
        assert all("--reps 5 --warmup 1 --run-order rounds" in c and "--modes device,zerocopy" in c for c in mine)
        assert {re.search(r"--name (\S+)", c).group(1) for c in mine} == set(HELD)
        assert all(f"{tmp_path}/state/graphs/" in c for c in mine)
    assert sorted(p.name for p in out.iterdir()) == [f"holdout13_p{p}.{x}" for p in (1, 2, 3) for x in ("log", "tgz")]
    assert [line.startswith(f"pass {p} rc 0") for p, line in enumerate(done.stdout.splitlines()[1:4], 1)] == [True] * 3


def test_the_guard_counts_the_whole_call(tmp_path):
    """A pass's clock starts at the call's start: 525 s into the call, no graph fits the 540 s guard in any pass."""
    import time

    done, calls, _ = _dry_run(tmp_path, CALL_T0=str(int(time.time()) - 525))
    assert done.returncode == 0 and not [c for c in calls if "emogi.measure run" in c]
    deferred = [line for line in done.stdout.splitlines() if re.match(r"pass [123]: DEFERRED", line)]
    assert len(deferred) == 12 and {d.split()[3] for d in deferred} == set(HELD)


# --- the figure and report section (drawn from tests/test_holdout_v4.py's tiny synthetic session, its registry
# standing in for split v13 too: made-up times, never archived) ---


def test_the_v13_figure_and_section_from_a_judgement(session, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    from figures import fig_holdout_v13
    from figures.fig_holdout import split_graphs_text
    from tests.test_holdout_v4 import judged_figure

    monkeypatch.setattr(hs13, "GRAPHS", hs4.GRAPHS)  # the fixture's tiny registry
    section = judged_figure(fig_holdout_v13, "v13", session, tmp_path)
    assert "GPU-work term v12" in section["text"] and "seed 35" in section["text"]
    assert "3 separate processes" in section["text"] and "median over the 3 processes" in section["text"]
    monkeypatch.undo()
    assert split_graphs_text(fig_holdout_v13.hs13.GRAPHS, set(HELD)).startswith("train: none; held out: kron19ef9")


ARCHIVE_V13H = ROOT / "archive" / "holdout-v13-h200-2026-11-28"
V13_TABLES = ("holdout_cells.csv", "holdout_summary.csv", "passes_summary.csv")


def judge_passes_archive(archive: Path, split: str, out: Path) -> None:
    """A passes archive judged again as its commands.sh judges it (from the repository root: each pass with the
    registered link and with its own, then the median over the passes) into `out`; its tables checked against the
    archived ones. Packed passes (passes.tgz) are unpacked under `out` first, as the workflow does."""
    a = archive.relative_to(ROOT)
    passes, packed = a / "passes", packed_passes(a)
    if packed:
        with tarfile.open(packed) as t:
            t.extractall(out / "packed", filter="data")
        passes = out / "packed" / "passes"
    wdirs = sorted(str(p) for p in (a / "workloads").glob("*"))
    judged, own = [], []
    for p in ("p1", "p2", "p3"):
        args = ["--split", split, "--runs", str(passes / p / "session"), "--workloads", *wdirs,
                "--archive-id", a.name]  # fmt: skip
        assert holdout.main([*args, "--out-dir", str(out / p)]) == 0
        link = ["--parameters", str(passes / p / "call_parameters.json")]
        assert holdout.main([*args, *link, "--out-dir", str(out / f"own_{p}")]) == 0
        judged.append(str(out / p)), own.append(str(out / f"own_{p}"))
    done = out / "judged"
    assert holdout_passes.main(["--split", split, "--judged", *judged, "--own", *own, "--out-dir", str(done)]) == 0
    assert_same_tables(done, archive, V13_TABLES)
    assert_same_tables(done / "judged_call_link", archive / "judged_call_link", V13_TABLES[:2])


def check_passes_archive(archive: Path, split: str, out: Path, commit: str, verdicts: dict,
                         recorded: str = "v13") -> None:  # fmt: skip
    """judge_passes_archive, then the source record (an H200 run judged as split `recorded` at `commit`) and the
    held-out verdicts per algorithm as the archive's README states them."""
    judge_passes_archive(archive, split, out)
    source = json.loads((archive / "source.json").read_text())
    assert source["gpu"] == "NVIDIA H200" and source["split"] == recorded and source["commit"] == commit
    held = pd.read_csv(archive / "holdout_summary.csv").query("split == 'held-out' and mode == 'all'")
    assert held.set_index("algorithm")["met"].to_dict() == verdicts


def gpus_of_calls(archive: Path) -> tuple[int, set]:
    """How many of the train session's and passes' tgz came back, and the GPU UUIDs their host.txt name."""
    tgzs = [archive / "train" / "holdout13t.tgz", *sorted((archive / "call").glob("holdout13_p*.tgz"))]
    uuids = set()
    for path in tgzs:
        with tarfile.open(path) as t:
            host = t.extractfile("session/host.txt").read().decode()
        found = re.findall(r"NVIDIA H200 \(UUID: (GPU-[0-9a-f-]+)\)", host)  # T2 adds its own line to T1's
        assert found, path
        uuids |= set(found)
    return len(tgzs), uuids


def test_the_archived_v13h_judgement_is_unchanged(tmp_path, monkeypatch):
    """The v13h call (H200, docs/holdout-v13.md "v13 on an H200"), judged again as its commands.sh judges it: each
    pass with the registered link and with its own, then the median over the passes; the archived tables. The
    verdicts: BFS and SSSP met, CC and PageRank not."""
    monkeypatch.chdir(ROOT)
    met = {"bfs": True, "cc": False, "pagerank": False, "sssp": True, "all": False}
    check_passes_archive(ARCHIVE_V13H, "v13", tmp_path, "f7fec6f", met)


def test_the_v13h_train_session_and_passes_share_one_gpu():
    """The train session and every pass, as they came back, name one GPU UUID (holdout_combine --same-gpu)."""
    count, uuids = gpus_of_calls(ARCHIVE_V13H)
    assert count == 4 and len(uuids) == 1


def test_the_workflow_judges_v13_only_where_its_archive_exists():
    """The passes' rule (each pass judged with --split v13, then model.holdout_passes) and the figure are in the
    workflow only with an archive/holdout-v13-* folder holding passes/p1/session/runs; the report's section is then
    left out (tests/test_workflow.py)."""
    model_rules = (ROOT / "workflow" / "rules" / "model.smk").read_text()
    figure_rules = (ROOT / "workflow" / "rules" / "figures.smk").read_text()
    assert 'HOLDOUT_PASS_SPLITS = ("v13", "v14", "v15", "v16")' in model_rules
    assert '(p / "passes/p1/session/runs").is_dir() or setup.packed_passes(p)' in model_rules
    assert "if HOLDOUT_PASS_ARCHIVES:\n\n    rule holdout_judge_passes:" in model_rules
    rule = model_rules[model_rules.index("rule holdout_judge_passes:") :]
    assert "python3 -m model.holdout --split {wildcards.split}" in rule and "python3 -m model.holdout_passes" in rule
    assert "--runs {params.passes_dir}/$p/session" in rule  # its graphs/ and micro/l2.csv by default
    assert 'split="|".join(HOLDOUT_PASS_ARCHIVES)' in rule
    assert "for s in HOLDOUT_PASS_ARCHIVES}\nfor _figure, _dir in HOLDOUT_SPLIT_FIGURES.items():" in figure_rules
