"""Issue 24's held-out validation v8 (docs/holdout-v7-v10.md, "GPU-work term v8 and held-out validation v8"): the
registered split (no held-out graph in training), the cells' statistic a parameter of the judge (the min for v8,
the median as before for v2-v7), the term v8 (direction-optimizing BFS fitted per degree class) on synthetic tables
(made-up counts and times, never archived), the archived v7 judgement unchanged, the device script's
structure, and the figure and report section."""

import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model import gpu_work_v4 as v4
from model import gpu_work_v6 as v6
from model import gpu_work_v8 as v8
from model import holdout
from model import holdout_split as hs
from model import holdout_split_v3 as hs3
from model import holdout_split_v4 as hs4
from model import holdout_split_v5 as hs5
from model import holdout_split_v6 as hs6
from model import holdout_split_v7 as hs7
from model import holdout_split_v8 as hs8
from model.presets import MEASURED, get_preset
from tests.holdout_checks import PARAMETERS, assert_archived_judgement, assert_fit_set_and_provenance
from tests.test_holdout_v4 import (
    script_graph_lines,
    session,  # noqa: F401  (the tiny synthetic session, a module fixture)
)
from tests.test_holdout_v5 import _synthetic as v5_synthetic

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE_V7 = ROOT / "archive" / "holdout-v7-h100-2026-11-27"
TRAIN = ["kron17", "kron19ef12", "kron19ef8", "kron20ef4", "kron20ef6", "urand17", "urand19ef12", "urand20ef6",
         "urand20ef8", "urand21ef4"]  # fmt: skip
HELD = ["kron19ef10", "kron20ef5", "urand19ef10", "urand20ef5"]


def test_the_split_is_the_registered_one():
    assert sorted(g for g, e in hs8.GRAPHS.items() if e["split"] == hs8.TRAIN) == TRAIN
    assert sorted(g for g, e in hs8.GRAPHS.items() if e["split"] == hs8.HELD_OUT) == HELD
    earlier = {**hs.GRAPHS, **hs3.GRAPHS, **hs4.GRAPHS, **hs5.GRAPHS, **hs6.GRAPHS, **hs7.GRAPHS}
    assert not set(HELD) & set(earlier)
    assert {hs8.seed_of(g) for g in HELD} == {30} and 30 not in {e["source"].get("seed") for e in earlier.values()}
    for g in TRAIN:  # made as the v6 and v7 sessions made them
        assert hs8.GRAPHS[g]["source"] == hs7.GRAPHS[g]["source"], g
    assert {g for g, e in hs7.GRAPHS.items() if e["split"] == hs7.HELD_OUT} <= set(TRAIN)
    src = [hs8.GRAPHS[g]["source"] for g in HELD]
    assert sorted((s["kind"], s["scale"], s["edge_factor"]) for s in src) == [
        ("kron", 19, 10), ("kron", 20, 5), ("urand", 19, 10), ("urand", 20, 5)]  # fmt: skip
    assert sum(g.startswith("kron") for g in TRAIN) == 5 and sum(g.startswith("urand") for g in TRAIN) == 5
    assert hs8.WIDTHS_OF == {} and hs8.ALGORITHMS_OF == {} and hs8.STATISTIC == "min"
    assert (hs8.TARGET_MEDIAN, hs8.TARGET_WORST) == (0.05, 0.15)
    assert holdout.SPLITS["v8"] is hs8


def test_no_held_out_graph_in_training():
    made = {"type": "generator", "kind": "kron", "scale": 20, "edge_factor": 5, "seed": 30,
            "initiator": {"a": 0.57, "b": 0.19, "c": 0.19, "d": 0.05}}  # fmt: skip
    refused = (*HELD, "kron20", "urand20", "kron21ef4", "urand20ef4")
    assert_fit_set_and_provenance(hs8, TRAIN, "kron17", refused, "kron20ef5", made, {"seed": 29}, hs7, "kron20ef6")


# --- the statistic, a parameter of the judge (made-up runs) ---


def _runs(times):
    return pd.DataFrame([{"graph": "kron17", "algorithm": "bfs", "variant": "merged-aligned", "mode": "device",
                          "edge_bytes": 8, "root": 1, "time_ms": t, "verified": True, "gpu": "synthetic",
                          "date": "2026-11-27", "commit": "0", "iterations": 3} for t in times])  # fmt: skip


def test_the_statistic_is_a_parameter_of_the_judge():
    runs = _runs([10.0, 11.0, 30.0, 10.5, 12.0])
    quiet = {"log": lambda m: None}
    for sp in (hs, hs3, hs4, hs5, hs6, hs7):  # v2-v7: the median, and no spread columns (their archives unchanged)
        c = holdout.cells_of(runs, sp=sp, **quiet)
        assert c["measured_ms"].item() == 11.0 and "spread" not in c, sp.NAME if hasattr(sp, "NAME") else sp
    c = holdout.cells_of(runs, sp=hs8, **quiet)  # v8: the min, its slowest run and spread beside it
    assert c["measured_ms"].item() == 10.0 and c["slowest_ms"].item() == 30.0 and c["spread"].item() == 2.0
    assert holdout.cells_of(runs, sp=hs8, stat="median", **quiet)["measured_ms"].item() == 11.0
    assert holdout.cells_of(runs, sp=hs7, stat="min", **quiet)["measured_ms"].item() == 10.0
    with pytest.raises(holdout.HoldoutError, match="statistic"):
        holdout.cells_of(runs, sp=hs8, stat="mean", **quiet)
    assert holdout.STATISTICS == ("median", "min")


# --- the degree classes and the DO BFS fit per class (synthetic tables: made-up counts and costs) ---

C = 18e6  # bytes, an L2 capacity like the H100 sessions' (made up here)
SKEWED = dict(zip(v8.PARAMS, (0.01, 1e-7, 2e-7, 1e-8, 3e-8, 2e-4, 3e-7, 0.0), strict=True))  # ms: made up
UNIFORM = dict(zip(v8.PARAMS, (0.02, 3e-7, 1e-7, 4e-8, 1e-8, 1e-4, 6e-7, 0.0), strict=True))  # ms: made up
TRUE_LINK = (0.9, 0.2)  # η, g: made up


def test_the_degree_class_from_the_metadata():
    assert v8.degree_class({"max_degree": 15846, "avg_degree_nonisolated": 41.34}) == "skewed"  # kron17's
    assert v8.degree_class({"max_degree": 90, "avg_degree_nonisolated": 32.0}) == "uniform"
    assert v8.degree_class({"max_degree": 300, "avg_degree_nonisolated": 10.0}) == "skewed"  # exactly 30
    with pytest.raises(ValueError, match="max_degree"):
        v8.degree_class({"avg_degree_nonisolated": 10.0})
    for f in sorted((ARCHIVE_V7 / "session" / "graphs").glob("*.json")):  # the v7 session's real metadata
        want = "skewed" if f.name.startswith("kron") else "uniform"
        assert v8.degree_class(json.loads(f.read_text())) == want, f.name


def _do_bfs_cells(rng, params):
    """Made-up DO BFS and merged-aligned BFS workloads on every graph of split v8; the DO BFS times from SKEWED's
    costs on kron graphs and UNIFORM's on urand graphs, merged-aligned's from SKEWED's everywhere."""
    vertices, ma, ma_l = v5_synthetic(rng, hs8.GRAPHS)
    do, do_l = ma.assign(variant="direction-optimizing"), ma_l.assign(variant="direction-optimizing")
    work, launches = pd.concat([ma, do], ignore_index=True), pd.concat([ma_l, do_l], ignore_index=True)
    ni = {g: int(v * 0.7) for g, v in vertices.items()}  # made up
    classes = {g: "skewed" if g.startswith("kron") else "uniform" for g in vertices}
    mu = v8.mu_table(work, vertices, C)
    t = pd.concat([work.assign(mode=m) for m in hs8.MODES], ignore_index=True)
    x = v6.totals(launches, t, mu, ni)
    uniform_do = (t["variant"] == "direction-optimizing") & t["graph"].str.startswith("urand")
    cost = np.where(uniform_do.to_numpy()[:, None], [UNIFORM[p] for p in v8.PARAMS], [SKEWED[p] for p in v8.PARAMS])
    transfer, serial = v4.link_features(t, launches, params, vertices)
    t["measured_ms"] = (x * cost).sum(axis=1) + TRUE_LINK[0] * transfer + TRUE_LINK[1] * serial
    cells = t[[*holdout.CELL, "measured_ms"]].assign(reps=5, gpu="synthetic", date="2026-11-27", commit="0",
                                                     iterations_min=5, iterations_max=9)  # fmt: skip
    return cells, work, launches, {"vertices": vertices, "capacity": C, "nonisolated": ni, "classes": classes}


def test_the_v8_judge_fits_do_bfs_per_degree_class(monkeypatch):
    params = get_preset(MEASURED, PARAMETERS)
    cells, work, launches, kw = _do_bfs_cells(np.random.default_rng(8), params)
    table, costs = holdout.judge(cells, work, launches, params, log=lambda m: None, sp=hs8, **kw)
    assert len(table) == len(cells) and table["error"].abs().max() < 1e-6
    got = costs.set_index(["variant", "class", "edge_bytes"]).sort_index()
    want_of = {("direction-optimizing", "skewed"): SKEWED, ("direction-optimizing", "uniform"): UNIFORM,
               ("merged-aligned", ""): SKEWED}  # fmt: skip
    assert sorted(set(got.index.droplevel(2))) == sorted(want_of)
    for (variant, cls), want in want_of.items():
        for p, w in want.items():
            assert got.loc[(variant, cls), p].to_numpy() == pytest.approx(w, rel=1e-4, abs=1e-12), (variant, cls, p)
    assert (got.loc[("direction-optimizing", "uniform"), "train_cells"] == 5 * 3).all()  # 5 train graphs × 3 roots
    # pooled (v7's fit, on split v8's graphs), the two classes' DO BFS cannot both be met
    monkeypatch.setattr(hs7, "GRAPHS", hs8.GRAPHS)
    t7, _ = holdout.judge(cells, work, launches, params, log=lambda m: None, sp=hs7,
                          **{k: v for k, v in kw.items() if k != "classes"})  # fmt: skip
    assert t7[t7["variant"] == "direction-optimizing"]["error"].abs().max() > 0.01
    # the held-out cells' times never reach the fit
    wild = cells.assign(measured_ms=np.where(cells["graph"].isin(HELD), cells["measured_ms"] * 7, cells["measured_ms"]))
    pd.testing.assert_frame_equal(costs, holdout.judge(wild, work, launches, params, log=lambda m: None, sp=hs8,
                                                       **kw)[1])  # fmt: skip


# --- the archived v7 session (real H100 data): its judgement unchanged ---


def test_the_archived_v7_judgement_is_unchanged(tmp_path, monkeypatch):
    """As the archive's commands.sh judges it, the same tables (the median stays v2-v7's statistic)."""
    assert_archived_judgement(ARCHIVE_V7, "v7", tmp_path / "v7", monkeypatch)


# --- the device script ---

SCRIPT = ROOT / "tools" / "device" / "holdout_v8.sh"


def test_the_device_script_makes_what_the_split_registers():
    """tools/device/holdout_v8.sh's tables agree with model/holdout_split_v8.py; the held-out graphs come last; 5
    repetitions after 1 warm-up; the estimates on a warm build within the registered ~390 s and with a fresh one
    the guard; it refuses to measure without EMOGI_COMMIT."""
    lines = script_graph_lines(SCRIPT, hs8.GRAPHS)
    text = SCRIPT.read_text()
    assert sorted(n for n, *_ in lines[: len(TRAIN)]) == TRAIN
    assert sorted(n for n, *_ in lines[len(TRAIN) :]) == HELD
    warm = 66 + sum(int(e) for *_, e in lines) + 3
    budget = int(re.search(r"BUDGET_S=\$\{BUDGET_S:-(\d+)\}", text).group(1))
    assert warm <= 390 and warm + 32 < budget <= 480
    split_session = text.index(". tools/device/holdout_split_s")
    assert "REPS=${REPS:-5}" in text and text.index("REPS=${REPS:-5}") < split_session
    assert "WARMUP=${WARMUP:-1}" in text and text.index("WARMUP=${WARMUP:-1}") < split_session
    assert "SPLIT=v8 TGZ=holdout8 ST=${H8:-/tmp/ho8}" in text and text.rstrip().endswith("split_main")
    env = {k: v for k, v in os.environ.items() if k != "EMOGI_COMMIT"}
    done = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env | {"OUT": "/nonexistent"}, capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 2 and "EMOGI_COMMIT" in done.stdout


# --- the figure and report section (drawn from tests/test_holdout_v4.py's tiny synthetic session, its registry
# standing in for split v8 too: made-up times, never archived) ---


def test_the_v8_figure_and_section_from_a_judgement(session, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    from figures import fig_holdout_v8
    from figures.fig_holdout import split_graphs_text
    from tests.test_holdout_v4 import judged_figure

    monkeypatch.setattr(hs8, "GRAPHS", hs4.GRAPHS)  # the fixture's tiny registry
    section = judged_figure(fig_holdout_v8, "v8", session, tmp_path)
    assert "GPU-work term v8" in section["text"] and "seed 30" in section["text"]
    assert "the min of 5" in section["text"] and "spread over 20%" in section["text"]
    monkeypatch.undo()
    assert split_graphs_text(fig_holdout_v8.hs8.GRAPHS, set(HELD)).startswith("train: none; held out: kron20ef5")
    assert json.dumps(section)  # serialisable for the report
