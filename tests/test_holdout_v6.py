"""Issue 24's held-out validation v6 (docs/holdout-v3-v6.md, "GPU-work term v6 and held-out validation v6"): the
registered split (no held-out graph in training), the term v6 (v5's floor with isolated vertices priced apart and
Gauss-Seidel's warp steps) on synthetic rows and a synthetic table (made-up counts and times, never archived), the
judge with --split v6 on it, v6's fit on the archived v5 session (in sample: the exploration's numbers, roughly),
the archived v5 judgement unchanged by v6, the device script's structure, and the figure and report section."""

import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from figures.fig_holdout import split_graphs_text
from model import gpu_work_v4 as v4
from model import gpu_work_v6 as v6
from model import holdout
from model import holdout_split as hs
from model import holdout_split_v3 as hs3
from model import holdout_split_v4 as hs4
from model import holdout_split_v5 as hs5
from model import holdout_split_v6 as hs6
from model.presets import MEASURED, get_preset
from tests.holdout_checks import (
    PARAMETERS,
    assert_archived_judgement,
    assert_fit_set_and_provenance,
    judge_archived_session,
)
from tests.test_holdout_v4 import (
    script_graph_lines,
    session,  # noqa: F401  (the tiny synthetic session, a module fixture)
)
from tests.test_holdout_v5 import _synthetic as v5_synthetic

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE_V5 = ROOT / "archive" / "holdout-v5-h100-2026-11-27"
TRAIN = ["kron17", "kron19ef24", "kron20", "kron20ef8", "kron21ef4", "urand17", "urand19ef24", "urand19ef8", "urand20",
         "urand20ef4"]  # fmt: skip
HELD = ["kron19ef8", "kron20ef4", "urand20ef8", "urand21ef4"]


def test_the_split_is_the_registered_one():
    assert sorted(g for g, e in hs6.GRAPHS.items() if e["split"] == hs6.TRAIN) == TRAIN
    assert sorted(g for g, e in hs6.GRAPHS.items() if e["split"] == hs6.HELD_OUT) == HELD
    # every held-out graph is new: no earlier split lists it, and its seed (28) made no earlier graph
    earlier = {**hs.GRAPHS, **hs3.GRAPHS, **hs4.GRAPHS, **hs5.GRAPHS}
    assert not set(HELD) & set(earlier)
    assert {hs6.seed_of(g) for g in HELD} == {28} and 28 not in {e["source"].get("seed") for e in earlier.values()}
    # the train graphs are split v5's (its six held-out ones among them), made as the v5 session made them
    for g in TRAIN:
        assert hs6.GRAPHS[g]["source"] == hs5.GRAPHS[g]["source"], g
    assert {"kron20ef8", "kron21ef4", "urand20ef4"} <= set(TRAIN) and set(hs5.GRAPHS) - set(TRAIN) == {
        "kron18", "urand18", "urand21ef8", "rmat21ef24"}  # fmt: skip
    # the held-out graphs at the edge factors 4 and 8, both generators, Graph500's initiator
    src = [hs6.GRAPHS[g]["source"] for g in HELD]
    assert {(s["kind"], s["edge_factor"]) for s in src} == {(k, e) for k in ("kron", "urand") for e in (4, 8)}
    assert all(hs6.GRAPHS[g]["source"]["initiator"] == hs.GRAPH500 for g in HELD if g.startswith("kron"))
    assert hs6.WIDTHS_OF == {} and hs6.ALGORITHMS_OF == {}
    assert (hs6.TARGET_MEDIAN, hs6.TARGET_WORST) == (0.05, 0.15)
    assert holdout.SPLITS["v6"] is hs6


def test_no_held_out_graph_in_training():
    assert not {g for g, e in hs6.GRAPHS.items() if e["split"] == hs6.TRAIN} & set(HELD)
    made = {"type": "generator", "kind": "kron", "scale": 20, "edge_factor": 4, "seed": 28,
            "initiator": {"a": 0.57, "b": 0.19, "c": 0.19, "d": 0.05}}  # fmt: skip
    refused = (*HELD, "kron18", "urand21ef8", "rmat21ef24", "kron22")
    assert_fit_set_and_provenance(hs6, TRAIN, "kron20", refused, "kron20ef4", made, {"seed": 27}, hs5, "kron21ef4")


# --- the term on synthetic rows and a synthetic table (made-up counts and costs) ---

C = 18e6  # bytes, an L2 capacity like the H100 sessions' (made up here)
TRUE = dict(zip(v6.PARAMS, (0.01, 1e-7, 2e-7, 1e-8, 3e-8, 2e-4, 3e-7, 0.0), strict=True))  # ms: made up; r 0 (BFS)
TRUE_LINK = (0.9, 0.2)  # η, g: made up
ROOTS = (1, 2, 3)


def test_isolated_vertices_and_gauss_seidel_steps_are_counted_apart():
    """Made-up launches of a graph of 1000 vertices, 400 of them non-isolated: the grid's non-isolated threads and
    lists are min(·, 400); warp steps max(lists, N/32) on Gauss-Seidel launches only."""
    rows = pd.DataFrame({"graph": "g", "algorithm": ["cc", "cc", "pagerank", "pagerank"],
                         "variant": ["merged-aligned", "merged-aligned", "gauss-seidel", "merged-aligned"],
                         "edge_bytes": 8, "root": -1, "launch": 0, "lists": [1000.0, 300.0, 100.0, 400.0],
                         "entries": [6400.0, 6400.0, 6400.0, 6400.0], "grid": 1000.0, "walk": 7.0,
                         "weight": [1.0, 1.0, 0.5, 1.0]})  # fmt: skip
    mu = {("g", "cc"): 0.25, ("g", "pagerank"): 0.0}
    x = v6.columns(rows, mu, {"g": 400})
    assert x.tolist() == [[1, 1000, 400, 6400, 1600, 7, 400, 0], [1, 1000, 400, 6400, 1600, 7, 300, 0],
                          [0.5, 500, 200, 3200, 0, 3.5, 50, 100], [1, 1000, 400, 6400, 0, 7, 400, 0]]  # fmt: skip
    # without isolated vertices the non-isolated columns equal the grid and the lists
    y = v6.columns(rows, mu, {"g": 1000})
    assert (y[:, 2] == y[:, 1]).all() and y[:, 6].tolist() == [1000, 300, 50, 400]


def _synthetic(rng):
    """tests/test_holdout_v5.py's made-up workloads and launches (BFS merged-aligned, 3 roots, both widths) on every
    graph of split v6, and a made-up share of isolated vertices each; never archived."""
    vertices, work, launches = v5_synthetic(rng, hs6.GRAPHS)
    nonisolated = {g: int(v * rng.uniform(0.4, 1.0)) for g, v in vertices.items()}
    return vertices, nonisolated, work, launches


def test_the_v6_judge_recovers_the_costs_and_never_fits_a_held_out_cell():
    params = get_preset(MEASURED, PARAMETERS)
    vertices, ni, work, launches = _synthetic(np.random.default_rng(6))
    mu = v6.mu_table(work, vertices, C)
    t = pd.concat([work.assign(mode=m) for m in hs6.MODES], ignore_index=True)
    floor = v6.totals(launches, t, mu, ni) @ np.array([TRUE[p] for p in v6.PARAMS])
    transfer, serial = v4.link_features(t, launches, params, vertices)
    t["measured_ms"] = floor + TRUE_LINK[0] * transfer + TRUE_LINK[1] * serial
    cells = t[[*holdout.CELL, "measured_ms"]].assign(reps=3, gpu="synthetic", date="2026-11-27", commit="0",
                                                     iterations_min=5, iterations_max=9)  # fmt: skip
    kw = {"log": lambda m: None, "sp": hs6, "vertices": vertices, "capacity": C, "nonisolated": ni}
    table, costs = holdout.judge(cells, work, launches, params, **kw)
    assert len(table) == len(cells) and set(table["graph"]) == set(hs6.GRAPHS)
    assert table["error"].abs().max() < 1e-6  # held-out cells too: the costs are the true ones
    for p, want in TRUE.items():
        assert costs[p].to_numpy() == pytest.approx(want, rel=1e-4, abs=1e-12), p
    assert costs[["eta", "g"]].to_numpy() == pytest.approx(np.tile(TRUE_LINK, (2, 1)), rel=1e-4)
    assert set(costs["train_cells"]) == {len(TRAIN) * len(ROOTS)}
    assert (table["iterations_min"] == 5).all() and (table["iterations_max"] == 9).all()  # beside every error
    # the held-out cells' times never reach the fit: changed wildly, the costs stay
    wild = cells.assign(measured_ms=np.where(cells["graph"].isin(HELD), cells["measured_ms"] * 7, cells["measured_ms"]))
    _, again = holdout.judge(wild, work, launches, params, **kw)
    pd.testing.assert_frame_equal(costs, again)
    with pytest.raises(hs6.SplitError, match="fit set"):
        v6.fit_costs(cells.assign(split=hs6.TRAIN), launches, mu, ni, hs6.TRAIN, hs6.check_fit_set)


# --- the archived v5 session (real H100 data, archive/holdout-v5-h100-2026-11-27) ---


def test_the_archived_v5_judgement_is_unchanged(tmp_path, monkeypatch):
    """As the archive's commands.sh judges it, the same tables (v6 reuses v5's sums and fit)."""
    assert_archived_judgement(ARCHIVE_V5, "v5", tmp_path / "v5", monkeypatch)
    assert json.loads((tmp_path / "v5" / "source.json").read_text())["split"] == "v5"


def test_v6_in_sample_on_the_v5_session(tmp_path, monkeypatch):
    """Every graph of the v5 session in the fit, as split v5 and as v6 (in sample, as the exploration,
    archive/gpu-work-v6-exploration-2026-11-27, which left one graph out in turn over three sessions): v6 lowers
    the device median (4.7% to 4.2% here; 6.4% to 6.1% there), takes kron21ef4's CC Merged+Aligned from over-
    to nearly exact (there −2.5% / −3.6%), and leaves kron19ef24's Gauss-Seidel, whose rounds vary (73-209 and
    120-150 over the repetitions, as the exploration's q2 read them), far under: out of the worst-cell target."""
    every = {g: {"split": hs.TRAIN, "source": e["source"]} for g, e in hs5.GRAPHS.items()}
    monkeypatch.setattr(hs5, "GRAPHS", every)
    monkeypatch.setattr(hs6, "GRAPHS", every)
    err = {}
    for split in ("v5", "v6"):
        c = judge_archived_session(ARCHIVE_V5, split, tmp_path / split, monkeypatch)
        err[split] = c.assign(abs=lambda f: f["error"].abs())
    dev5, dev6 = (err[s][err[s]["mode"] == "device"] for s in ("v5", "v6"))
    assert dev6["abs"].median() == pytest.approx(0.042, abs=0.005) and dev6["abs"].median() < dev5["abs"].median()
    zc6 = err["v6"][err["v6"]["mode"] == "zerocopy"]["abs"].median()
    assert zc6 == pytest.approx(0.0415, abs=0.005)
    cc = lambda d: d[(d["graph"] == "kron21ef4") & (d["algorithm"] == "cc") & (d["variant"] == "merged-aligned")]  # noqa: E731
    assert (cc(dev6)["abs"] < 0.05).all() and cc(dev5)["error"].max() > 0.1
    assert dev6[dev6["algorithm"] == "cc"]["abs"].max() < dev5[dev5["algorithm"] == "cc"]["abs"].max()
    gs = dev6[(dev6["graph"] == "kron19ef24") & (dev6["variant"] == "gauss-seidel")].set_index("edge_bytes")
    assert gs.loc[4, ["iterations_min", "iterations_max"]].tolist() == [73, 209]
    assert gs.loc[8, ["iterations_min", "iterations_max"]].tolist() == [120, 150]
    assert (gs["error"] < -0.4).all()
    assert "iterations_min" not in err["v5"]  # the older splits' tables are unchanged


# --- the device script ---

SCRIPT = ROOT / "tools" / "device" / "holdout_v6.sh"


def test_the_device_script_makes_what_the_split_registers():
    """tools/device/holdout_v6.sh's tables agree with model/holdout_split_v6.py; the held-out graphs come last; the
    estimates with a fresh build fit the guard and ~420 s; it refuses to measure without EMOGI_COMMIT."""
    lines = script_graph_lines(SCRIPT, hs6.GRAPHS)
    text = SCRIPT.read_text()
    assert sorted(n for n, *_ in lines[: len(TRAIN)]) == TRAIN
    assert sorted(n for n, *_ in lines[len(TRAIN) :]) == HELD
    # a fresh build (~32 s) and the v5 call's start to its first graph's first run (65 s), then every estimate
    total = 32 + 65 + sum(int(e) for *_, e in lines)
    budget = int(re.search(r"BUDGET_S=\$\{BUDGET_S:-(\d+)\}", text).group(1))
    assert total <= 420 < budget <= 480
    assert "SPLIT=v6 TGZ=holdout6 ST=${H6:-/tmp/ho6}" in text and text.rstrip().endswith("split_main")
    env = {k: v for k, v in os.environ.items() if k != "EMOGI_COMMIT"}
    done = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env | {"OUT": "/nonexistent"}, capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 2 and "EMOGI_COMMIT" in done.stdout


# --- the figure and report section (drawn from tests/test_holdout_v4.py's tiny synthetic session, its registry
# standing in for split v6 too: made-up times, never archived) ---


def test_the_v6_figure_and_section_from_a_judgement(session, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    from figures import fig_holdout_v6
    from tests.test_holdout_v4 import judged_figure

    monkeypatch.setattr(hs6, "GRAPHS", hs4.GRAPHS)  # the fixture's tiny registry
    section = judged_figure(fig_holdout_v6, "v6", session, tmp_path)
    assert "GPU-work term v6" in section["text"] and "seed 28" in section["text"]
    assert "train: kron8, urand8, kron10, urand10, kron11, urand11; held out: kron9, urand9)" in section["text"]
    assert "Gauss-Seidel PageRank in device memory, held out" in section["text"] and "rounds)" in section["text"]
    monkeypatch.undo()
    assert split_graphs_text(fig_holdout_v6.hs6.GRAPHS, set(HELD)).startswith(
        "train: none; held out: kron20ef4, kron19ef8"
    )
