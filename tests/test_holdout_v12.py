"""Issue 24's held-out validation v12 (docs/holdout-v12.md): the registered split (the v11 combined session's 21
graphs train, four new seed-34 graphs held out, none of an earlier split; a held-out graph in a fit set refused), the
term v12 (model/gpu_work_v12.py: v8's floor, v4's link terms and a cost per list; its link costs recovered from
made-up times, and a graph marked held out on the archived v11 session never reaching either fit), the session
assembled from two (model/holdout_combine.py: the train graphs' runs from the v11 archive's combined session, the
held-out graphs' only from the call, on synthetic call folders made in the test), the archived v11 judgement
unchanged, the device script (only the held-out graphs), and the figure and report section."""

import glob
import json
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model import gpu_work_v12, holdout, holdout_combine
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
from model.presets import MEASURED, get_preset
from tests import test_holdout_v8 as t8
from tests import test_holdout_v11 as t11
from tests.holdout_checks import assert_archived_judgement, assert_fit_set_and_provenance
from tests.test_holdout_v4 import (
    script_graph_lines,
    session,  # noqa: F401  (the tiny synthetic session, a module fixture)
)
from tests.test_holdout_v9 import assert_judged_with_v8s_term, assert_rounds_script

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE_V11 = ROOT / "archive" / "holdout-v11-h100-2026-11-28"
TRAIN = sorted(hs11.GRAPHS)
HELD = ["kron19ef11", "kron19ef7", "urand19ef11", "urand19ef7"]
EARLIER = (hs, hs3, hs4, hs5, hs6, hs7, hs8, hs9, hs10, hs11)


def test_the_split_is_the_registered_one():
    assert sorted(g for g, e in hs12.GRAPHS.items() if e["split"] == hs12.TRAIN) == TRAIN and len(TRAIN) == 21
    assert sorted(g for g, e in hs12.GRAPHS.items() if e["split"] == hs12.HELD_OUT) == HELD
    for g in TRAIN:  # made as the v5 to v11 sessions made them
        assert hs12.GRAPHS[g]["source"] == hs11.GRAPHS[g]["source"], g
    earlier = {g: e for sp in EARLIER for g, e in sp.GRAPHS.items()}
    assert not set(HELD) & set(earlier)  # no name of an earlier split ...
    made = {(s["kind"], s["scale"], s["edge_factor"], s.get("seed")) for s in (e["source"] for e in earlier.values())
            if "kind" in s}  # fmt: skip
    src = [hs12.GRAPHS[g]["source"] for g in HELD]
    assert not {(s["kind"], s["scale"], s["edge_factor"], s["seed"]) for s in src} & made  # ... nor graph
    assert not {(s["kind"], s["scale"], s["edge_factor"]) for s in src} & {m[:3] for m in made}  # nor its size
    assert {hs12.seed_of(g) for g in HELD} == {34} and 34 not in {e["source"].get("seed") for e in earlier.values()}
    assert sorted((s["kind"], s["scale"], s["edge_factor"]) for s in src) == [
        ("kron", 19, 7), ("kron", 19, 11), ("urand", 19, 7), ("urand", 19, 11)]  # fmt: skip
    trained = [hs12.GRAPHS[g]["source"] for g in TRAIN]
    for kind in ("kron", "urand"):  # inside the train range of edge factors and scales, per family
        mine = [s for s in trained if s["kind"] == kind]
        for s in (s for s in src if s["kind"] == kind):
            assert min(t["edge_factor"] for t in mine) <= s["edge_factor"] <= max(t["edge_factor"] for t in mine)
            assert min(t["scale"] for t in mine) <= s["scale"] <= max(t["scale"] for t in mine)
    assert hs12.REMEASURED == ()
    assert hs12.TRAIN_SESSION == "archive/holdout-v11-h100-2026-11-28" and (ROOT / hs12.TRAIN_SESSION).is_dir()
    assert hs12.WIDTHS_OF == {} and hs12.ALGORITHMS_OF == {} and hs12.STATISTIC == "min"
    assert hs12.RUN_ORDER == "rounds" and (hs12.TARGET_MEDIAN, hs12.TARGET_WORST) == (0.05, 0.15)
    assert holdout.SPLITS["v12"] is hs12 and hs12 in holdout.V8_FLOOR and hs12 not in holdout.V8_TERM


def test_no_held_out_graph_in_training():
    made = {"type": "generator", "kind": "urand", "scale": 19, "edge_factor": 11, "seed": 34}
    refused = (*HELD, "kron19ef8", "kron20")
    assert_fit_set_and_provenance(
        hs12, TRAIN, "kron17", refused, "urand19ef11", made, {"seed": 33}, hs11, "urand19ef14"
    )


def test_the_v12_floor_is_v8s(monkeypatch):
    """Split v12's floor is v8's (tests/test_holdout_v9.py, assert_judged_with_v8s_term)."""
    assert_judged_with_v8s_term(hs12, HELD, 12, monkeypatch)


def test_the_statistic_is_v8s():
    c = holdout.cells_of(t8._runs([10.0, 11.0, 30.0, 10.5, 12.0]), sp=hs12, log=lambda m: None)
    assert c["measured_ms"].item() == 10.0 and c["spread"].item() == 2.0


def test_the_link_fit_recovers_made_up_costs():
    """η, h, g ≥ 0 from made-up zero-copy times (floor + the three columns · p): recovered; a zero column stays 0."""
    rng = np.random.default_rng(12)
    x = rng.uniform(0.1, 5.0, size=(12, 3))
    floor = rng.uniform(0.5, 2.0, size=12)
    p = np.array([0.8, 0.3, 0.2])
    assert gpu_work_v12.fit_link_group(floor, x, floor + x @ p) == pytest.approx(p, rel=1e-9)
    x[:, 1] = 0.0
    got = gpu_work_v12.fit_link_group(floor, x, floor + x @ p)
    assert got[1] == 0.0 and got[[0, 2]] == pytest.approx(p[[0, 2]], rel=1e-9)


def _v11_session() -> dict:
    cells = holdout.cells_of(holdout.read_runs(ARCHIVE_V11 / "session"), log=lambda *_: None, sp=hs12)
    wl, la = holdout.read_workloads(*sorted(glob.glob(str(ARCHIVE_V11 / "workloads" / "*"))))
    metas = {g: json.loads((ARCHIVE_V11 / "session" / "graphs" / f"{g}.w8.json").read_text()) for g in set(cells.graph)}
    vertices = {g: m["num_vertices"] for g, m in metas.items()}
    kw = {"vertices": vertices, "capacity": json.loads((ARCHIVE_V11 / "source.json").read_text())["l2_bytes"],
          "nonisolated": {g: v - metas[g].get("isolated_vertices", 0) for g, v in vertices.items()},
          "classes": {g: holdout.gpu_work_v8.degree_class(m) for g, m in metas.items()}}  # fmt: skip
    return {"cells": cells, "wl": wl, "la": la, "kw": kw,
            "params": get_preset(MEASURED, ARCHIVE_V11 / "session" / "parameters.json")}  # fmt: skip


def test_the_v12_judge_on_the_archived_session_keeps_a_held_out_graph_out_of_both_fits(monkeypatch):
    """The archived v11 combined session judged with split v12, urand19ef14 marked held out (in a patched copy of
    the registry): zero-copy = floor + transfer + chain, the link costs carry h (≥ 0, some > 0), and the held-out
    graph's times × 7 change no cost (neither the floor's nor the link's)."""
    x = _v11_session()
    graphs = {**hs12.GRAPHS, "urand19ef14": {**hs12.GRAPHS["urand19ef14"], "split": hs12.HELD_OUT}}
    monkeypatch.setattr(hs12, "GRAPHS", graphs)
    table, costs = holdout.judge(x["cells"], x["wl"], x["la"], x["params"], log=lambda m: None, sp=hs12, **x["kw"])
    assert set(table[table["split"] == hs12.HELD_OUT]["graph"]) == {"urand19ef14"} and len(table) == 21 * 48
    zc = table[table["mode"] == "zerocopy"]
    assert (zc["predicted_ms"] - zc["floor_ms"] - zc["transfer_ms"] - zc["chain_ms"]).abs().max() < 1e-9
    dev = table[table["mode"] == "device"]
    assert (dev["predicted_ms"] == dev["floor_ms"]).all() and (dev[["transfer_ms", "chain_ms"]] == 0).all().all()
    assert {"eta", "h", "g"} <= set(costs.columns) and (costs[["eta", "h", "g"]].fillna(0) >= 0).all().all()
    assert (costs["h"] > 0).sum() >= 8
    wild = x["cells"].assign(measured_ms=np.where(x["cells"]["graph"] == "urand19ef14", x["cells"]["measured_ms"] * 7,
                                                  x["cells"]["measured_ms"]))  # fmt: skip
    _, again = holdout.judge(wild, x["wl"], x["la"], x["params"], log=lambda m: None, sp=hs12, **x["kw"])
    pd.testing.assert_frame_equal(costs, again)


def test_the_archived_v11_judgement_is_unchanged(tmp_path, monkeypatch):
    """v11's combined session, as its archive's commands.sh judges it, the same tables (split v12 leaves it)."""
    assert_archived_judgement(ARCHIVE_V11, "v11", tmp_path / "v11", monkeypatch)


# --- the session assembled from two (SYNTHETIC call folders: the v11 archive's tables copied under other names,
# made here, never archived) ---


_call = partial(t11._call, held=HELD, again=(), src=ARCHIVE_V11 / "session")  # nothing measured again


def test_the_combined_session_takes_train_runs_from_v11_and_held_out_ones_from_the_call(tmp_path):
    call, out = _call(tmp_path), tmp_path / "combined"
    record = holdout_combine.combine(hs12, ARCHIVE_V11 / "session", call, out, log=lambda m: None)
    t11.assert_train_session_kept(out, ARCHIVE_V11 / "session", 25 * 8)  # v11's held out among its train tables
    for p in (call / "runs").glob("*.csv"):
        assert (out / "runs" / p.name).read_bytes() == p.read_bytes(), p.name
    assert {g for g, w in record["graphs"].items() if w == "call"} == set(HELD) and record["remeasured"] == []
    assert record["link"]["call"]["W_gbps"] == 40.0 and record["link"]["train session"]["W_gbps"] == 53.2355
    assert len(pd.read_csv(out / "drift.csv")) == 0
    cells = holdout.cells_of(holdout.read_runs(out), log=lambda m: None, sp=hs12)
    assert set(cells["graph"]) == set(TRAIN) | set(HELD) and len(cells) == 25 * 48


@pytest.mark.parametrize(
    "case, match",
    [("missing", "urand19ef7: no"), ("stray", "not in split v12"), ("leak", "have runs in the train session")],
)
def test_the_combination_refuses(tmp_path, case, match):
    """A held-out graph the call lacks, a graph the split does not list, a held-out graph in the train session: one
    line, exit 2, nothing written."""
    t11.assert_combination_refuses(tmp_path, case, match, "v12", HELD, ARCHIVE_V11 / "session", _call)


# --- the device script ---

SCRIPT = ROOT / "tools" / "device" / "holdout_v12.sh"


def test_the_device_script_measures_only_the_held_out_graphs():
    """holdout_v12.sh (assert_rounds_script, no train graph): only the four held-out graphs, the registered ~146 s
    on a warm build (v11's measured 59 s start + the estimates + the last pack), a fresh build (+32 s) under the
    guard; the train session the split's; the v12 judge, combination and figure."""
    assert_rounds_script(SCRIPT, hs12, [], HELD, 59, 146, 480)
    lines = script_graph_lines(SCRIPT, hs12.GRAPHS)
    assert [n for n, *_ in lines] == ["kron19ef7", "kron19ef11", "urand19ef7", "urand19ef11"]
    assert 59 + sum(int(e) for *_, e in lines) + 3 == 146
    text = SCRIPT.read_text()
    held = " ".join(n for n, *_ in lines)
    assert f"TRAIN=${{TRAIN:-{hs12.TRAIN_SESSION}}}" in text and f'HELD_GRAPHS="{held}"' in text
    assert "SPLIT=v12 TGZ=holdout12" in text and "--split v11" not in text and "holdout_combined.sh" in text
    shared = (ROOT / "tools" / "device" / "holdout_combined.sh").read_text()
    assert 'model.holdout_combine --split "$SPLIT"' in shared and '"figures.fig_holdout_$SPLIT"' in shared


# --- the figure and report section (drawn from tests/test_holdout_v4.py's tiny synthetic session, its registry
# standing in for split v12 too: made-up times, never archived) ---


def test_the_v12_figure_and_section_from_a_judgement(session, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    from figures import fig_holdout_v12
    from figures.fig_holdout import split_graphs_text
    from tests.test_holdout_v4 import judged_figure

    monkeypatch.setattr(hs12, "GRAPHS", hs4.GRAPHS)  # the fixture's tiny registry
    section = judged_figure(fig_holdout_v12, "v12", session, tmp_path)
    assert "GPU-work term v12" in section["text"] and "seed 34" in section["text"]
    assert "v11 combined session" in section["text"] and "the min of 5" in section["text"]
    monkeypatch.undo()
    assert split_graphs_text(fig_holdout_v12.hs12.GRAPHS, set(HELD)).startswith("train: none; held out: kron19ef7")
