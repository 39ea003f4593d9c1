"""Issue 24's held-out validation v5 (docs/holdout-v3-v6.md, "GPU-work term v5 and held-out validation v5"): the
registered split, the term v5 (v4's floor and a cost per list) on a synthetic table (made-up counts and
times, never archived), the judge with --split v5 on it, the archived v4 judgement unchanged by v5 (v2's and v3's:
tests/test_holdout_v3.py and tests/test_holdout_v3_report.py), and the device script's structure."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from figures.fig_holdout import split_graphs_text
from model import gpu_work_v4 as v4
from model import gpu_work_v5 as v5
from model import holdout
from model import holdout_split as hs
from model import holdout_split_v3 as hs3
from model import holdout_split_v4 as hs4
from model import holdout_split_v5 as hs5
from model.presets import MEASURED, get_preset
from tests.holdout_checks import PARAMETERS, assert_archived_judgement, assert_fit_set_and_provenance
from tests.test_holdout_v4 import (
    script_graph_lines,
    session,  # noqa: F401  (the tiny synthetic session, a module fixture)
)

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE_V4 = ROOT / "archive" / "holdout-v4-h100-2026-11-27"
TRAIN = ["kron17", "kron18", "kron20", "rmat21ef24", "urand17", "urand18", "urand20", "urand21ef8"]
HELD = ["kron19ef24", "kron20ef8", "kron21ef4", "urand19ef24", "urand19ef8", "urand20ef4"]


def test_the_split_is_the_registered_one():
    assert sorted(g for g, e in hs5.GRAPHS.items() if e["split"] == hs5.TRAIN) == TRAIN
    assert sorted(g for g, e in hs5.GRAPHS.items() if e["split"] == hs5.HELD_OUT) == HELD
    # every held-out graph is new: no earlier split lists it, and its seed (27) made no earlier graph
    earlier = {**hs.GRAPHS, **hs3.GRAPHS, **hs4.GRAPHS}
    assert not set(HELD) & set(earlier)
    assert {hs5.seed_of(g) for g in HELD} == {27} and 27 not in {e["source"].get("seed") for e in earlier.values()}
    # the train graphs are those an earlier session made (same seed and generator arguments), measured again
    for g in TRAIN:
        assert hs5.GRAPHS[g]["source"] == hs4.GRAPHS[g]["source"], g
    # the edge-factor gap: held-out graphs at 4, 8 and 24, both generators, scales 19-21
    src = [hs5.GRAPHS[g]["source"] for g in HELD]
    assert {(s["kind"], s["edge_factor"]) for s in src} == {(k, e) for k in ("kron", "urand") for e in (4, 8, 24)}
    assert {s["scale"] for s in src} == {19, 20, 21}
    assert all(hs5.GRAPHS[g]["source"]["initiator"] == hs.GRAPH500 for g in HELD if g.startswith("kron"))
    assert hs5.WIDTHS_OF == {} and hs5.ALGORITHMS_OF == {}
    assert (hs5.TARGET_MEDIAN, hs5.TARGET_WORST) == (0.05, 0.15)
    assert holdout.SPLITS["v5"] is hs5


def test_a_held_out_graph_in_the_fit_set_is_refused():
    made = {"type": "generator", "kind": "kron", "scale": 21, "edge_factor": 4, "seed": 27,
            "initiator": {"a": 0.57, "b": 0.19, "c": 0.19, "d": 0.05}}  # fmt: skip
    refused = (*HELD, "kron19", "urand19", "kron22", "rmat22ef32")
    assert_fit_set_and_provenance(
        hs5, TRAIN, "kron18", refused, "kron21ef4", made, {"edge_factor": 8}, hs4, "urand21ef8"
    )


# --- the term on a synthetic table (made-up counts and costs) ---

C = 18e6  # bytes, an L2 capacity like the H100 sessions' (made up here)
TRUE = dict(zip(v5.PARAMS, (0.01, 2e-7, 1e-8, 3e-8, 2e-4, 3e-7), strict=True))  # ms: made up
TRUE_LINK = (0.9, 0.2)  # η, g: made up
ROOTS = (1, 2, 3)


def test_the_per_list_cost_counts_lists_not_entries():
    """Two made-up launches of one cell with the same entries, one in twice the lists: only q·lists differs."""
    rows = pd.DataFrame({"graph": "g", "algorithm": "bfs", "variant": "merged-aligned", "edge_bytes": 8, "root": 1,
                         "launch": [0, 1], "lists": [1000.0, 2000.0], "entries": 32000.0, "grid": 4096.0,
                         "walk": 40.0, "weight": [1.0, 0.5]})  # fmt: skip
    x = v5.columns(rows, {("g", "bfs"): 0.25})
    assert x.tolist() == [[1, 4096, 32000, 8000, 40, 1000], [0.5, 2048, 16000, 4000, 20, 1000]]
    assert v5.totals(rows, rows.iloc[:1], {("g", "bfs"): 0.25}).tolist() == [[1.5, 6144, 48000, 12000, 60, 2000]]
    # the fit recovers made-up costs from 12 made-up cells' totals, and a column 0 in every cell stays 0
    tot = np.random.default_rng(3).uniform(1, 2, (12, 6)) * [10, 1e6, 3e7, 1e7, 400, 1e6]
    p = np.array([TRUE[k] for k in v5.PARAMS])
    assert v5.fit_group(tot, tot @ p) == pytest.approx(p, rel=1e-6)
    tot[:, 3] = 0
    assert v5.fit_group(tot, tot @ p)[3] == 0


def _synthetic(rng, graphs=None):
    """Made-up workloads and launches of BFS merged-aligned (3 roots, both widths) on every graph of split v5 (or of
    the registry `graphs`): never archived."""
    graphs = hs5.GRAPHS if graphs is None else graphs
    vertices = {g: int(rng.integers(10**5, 10**7)) for g in graphs}  # μ > 0 past 4.5 M
    work, launches = [], []
    for g in graphs:
        for w in (8, 4):
            for r in ROOTS:
                key = {"graph": g, "algorithm": "bfs", "variant": "merged-aligned", "edge_bytes": w, "root": r}
                n = int(rng.integers(3, 9))
                lists = rng.integers(10**4, vertices[g], n).astype(float)
                counts = {"launch": np.arange(n), "lists": lists, "entries": lists * rng.uniform(2, 60, n),
                          "grid": np.full(n, vertices[g]), "walk": rng.integers(1, 500, n)}  # fmt: skip
                launches.append(pd.DataFrame({**key, **counts}))
                d = float(rng.uniform(40, 120))
                work.append(key | {"checksum": "0", "derived_width": 8, "launches": n, "fidelity": "exact",
                                   "bytes_needed": 1e8, "requests": 1e6, "D_bytes": 1e6 * d, "d_bytes": d,
                                   "chain_steps": 10, "trace_s": 0.0, "refused": ""})  # fmt: skip
    return vertices, pd.DataFrame(work), pd.concat(launches, ignore_index=True)


def _cells(vertices, work, launches, params):
    mu = v5.mu_table(work, vertices, C)
    t = pd.concat([work.assign(mode=m) for m in hs5.MODES], ignore_index=True)
    floor = v5.totals(launches, t, mu) @ np.array([TRUE[p] for p in v5.PARAMS])
    transfer, serial = v4.link_features(t, launches, params, vertices)
    t["measured_ms"] = floor + TRUE_LINK[0] * transfer + TRUE_LINK[1] * serial
    return t[[*holdout.CELL, "measured_ms"]].assign(reps=3, gpu="synthetic", date="2026-11-27", commit="0")


def test_the_v5_judge_recovers_the_costs_and_never_fits_a_held_out_cell():
    params = get_preset(MEASURED, PARAMETERS)
    vertices, work, launches = _synthetic(np.random.default_rng(5))
    cells = _cells(vertices, work, launches, params)
    table, costs = holdout.judge(cells, work, launches, params, log=lambda m: None, sp=hs5, vertices=vertices,
                                 capacity=C)  # fmt: skip
    assert len(table) == len(cells) and set(table["graph"]) == set(hs5.GRAPHS)
    assert table["error"].abs().max() < 1e-6  # held-out cells too: the costs are the true ones
    for p, want in TRUE.items():
        assert costs[p].to_numpy() == pytest.approx(want, rel=1e-4), p
    assert costs[["eta", "g"]].to_numpy() == pytest.approx(np.tile(TRUE_LINK, (2, 1)), rel=1e-4)
    assert set(costs["train_cells"]) == {len(TRAIN) * len(ROOTS)}
    # the held-out cells' times never reach the fit: changed wildly, the costs stay
    wild = cells.assign(measured_ms=np.where(cells["graph"].isin(HELD), cells["measured_ms"] * 7, cells["measured_ms"]))
    _, again = holdout.judge(wild, work, launches, params, log=lambda m: None, sp=hs5, vertices=vertices, capacity=C)
    pd.testing.assert_frame_equal(costs, again)
    # and a fit set holding a held-out graph is refused
    with pytest.raises(hs5.SplitError, match="fit set"):
        v5.fit_costs(cells.assign(split=hs5.TRAIN), launches, v5.mu_table(cells, vertices, C), hs5.TRAIN,
                     hs5.check_fit_set)  # fmt: skip


def test_the_archived_v4_judgement_is_unchanged(tmp_path, monkeypatch):
    """As the archive's commands.sh judges it (relative paths), the same tables."""
    out = tmp_path / "v4"
    assert_archived_judgement(ARCHIVE_V4, "v4", out, monkeypatch)
    assert json.loads((out / "source.json").read_text())["split"] == "v4"


# --- the device script ---

SCRIPT = ROOT / "tools" / "device" / "holdout_v5.sh"


def test_the_device_script_makes_what_the_split_registers():
    """tools/device/holdout_v5.sh's tables (seed, generator arguments, the session's list, the estimates) agree with
    model/holdout_split_v5.py; the held-out graphs come last; the estimates fit the guard and one device call."""
    lines = script_graph_lines(SCRIPT, hs5.GRAPHS)  # each graph as split v5 registers it
    text = SCRIPT.read_text()
    assert sorted(n for n, *_ in lines[: len(TRAIN)]) == TRAIN
    assert sorted(n for n, *_ in lines[len(TRAIN) :]) == HELD
    # build (~32 s) and microbenchmarks (55 s) in v4's session, then every estimate: inside the guard, which stays
    # under 8 minutes
    total = 90 + sum(int(e) for *_, e in lines)
    budget = int(re.search(r"BUDGET_S=\$\{BUDGET_S:-(\d+)\}", text).group(1))
    assert total < budget <= 480
    lib = (ROOT / "tools" / "device" / "holdout_split_session.sh").read_text()  # every algorithm at both widths
    assert 'ALGORITHMS="bfs sssp cc pagerank"' in lib and 'WIDTHS="8 4"' in lib
    assert "SPLIT=v5 TGZ=holdout5 ST=${H5:-/tmp/ho5}" in text and text.rstrip().endswith("split_main")


# --- the figure and report section (drawn from tests/test_holdout_v4.py's tiny synthetic session, its registry
# standing in for split v5 too: made-up times, never archived) ---


def test_the_v5_figure_and_section_from_a_judgement(session, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    from figures import fig_holdout_v5
    from tests.test_holdout_v4 import judged_figure

    monkeypatch.setattr(hs5, "GRAPHS", hs4.GRAPHS)  # the fixture's tiny registry
    section = judged_figure(fig_holdout_v5, "v5", session, tmp_path)
    assert "GPU-work term v5" in section["text"] and "edge factors 4, 8 and 24" in section["text"]
    assert "train: kron8, urand8, kron10, urand10, kron11, urand11; held out: kron9, urand9)" in section["text"]
    monkeypatch.undo()
    assert split_graphs_text(fig_holdout_v5.hs5.GRAPHS, set(HELD)).startswith(
        "train: none; held out: urand20ef4, kron21ef4"
    )
