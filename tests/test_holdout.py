"""Issue 24's held-out validation (docs/predictor.md, "Held-out validation (issue 24)"): the registered split, and the
judge end to end on a tiny synthetic session (graphs from tests/graphs.py, a runs table made here from known costs
and noise: made-up times, never archived)."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model import holdout
from model import holdout_split as hs
from tests.holdout_checks import PARAMETERS, make_tiny_cells, run_row, tiny_registry, write_session


def test_the_split_is_the_registered_one():
    train = sorted(g for g, e in hs.GRAPHS.items() if e["split"] == hs.TRAIN)
    held = sorted(g for g, e in hs.GRAPHS.items() if e["split"] == hs.HELD_OUT)
    assert train == ["kron20", "kron21", "kron22", "urand20", "urand21", "urand22"]
    assert held == ["cnr2000", "kron23", "kron24", "rmat21ef64", "urand23", "urand24"]
    assert hs.TARGET_MEDIAN == 0.05 and hs.TARGET_WORST == 0.15


def test_a_held_out_graph_in_the_fit_set_is_refused():
    hs.check_fit_set(["kron20", "urand22", "kron21"])
    for bad in ("kron23", "urand24", "rmat21ef64", "cnr2000", "kron19"):
        with pytest.raises(hs.SplitError, match="fit set"):
            hs.check_fit_set(["kron20", bad])


def test_a_graph_is_checked_against_how_it_was_made():
    made = {"type": "generator", "kind": "kron", "scale": 21, "edge_factor": 64, "seed": 24,
            "initiator": {"a": 0.45, "b": 0.15, "c": 0.15, "d": 0.25}}  # fmt: skip
    assert hs.split_of("rmat21ef64", made) == hs.HELD_OUT
    with pytest.raises(hs.SplitError, match="initiator"):
        hs.split_of("rmat21ef64", made | {"initiator": {"a": 0.57, "b": 0.19, "c": 0.19}})
    with pytest.raises(hs.SplitError, match="seed"):
        hs.split_of("kron21", {"type": "generator", "kind": "kron", "scale": 21, "edge_factor": 16, "seed": 1})
    assert hs.split_of("urand20", {"type": "generator", "kind": "urand", "scale": 20, "edge_factor": 16, "seed": 24})
    assert hs.split_of("cnr2000", {"format": "webgraph-bv", "basename": "cnr-2000"}) == hs.HELD_OUT
    with pytest.raises(hs.SplitError, match="not in the registered split"):
        hs.split_of("kron25")


# --- a tiny synthetic session: graphs of scales 8-11 registered in place of the real split, a runs table made
# here from known GPU-work costs (max form) and the link model, with 1% noise: made-up times, never archived ---

ROOT = Path(__file__).resolve().parents[1]
TINY = {"kron8": ("train", 24), "kron9": ("train", 24), "urand8": ("train", 24), "urand9": ("train", 24),
        "kron10": ("held-out", 24), "urand10": ("held-out", 24)}  # fmt: skip
TRUE_COSTS = (0.0, 2e-5, 4e-6, 3e-4)  # a, b, c, s in ms; a = 0.01 for frontier


def _fabricate_runs(gdir: Path, rdir: Path, rng, cells: pd.DataFrame) -> pd.DataFrame:
    """The runs table of the session: each cell's workload derived as the judge derives it, its device time from
    TRUE_COSTS, its zero-copy time from the link model; each cell's 3 reps share one draw of 1% noise."""
    from model.graph_predict import floor_ms, predict
    from model.presets import MEASURED, get_preset

    params = get_preset(MEASURED, PARAMETERS)
    metas = holdout.read_metadata(gdir, TINY, [4, 8])
    work, launches = holdout.derive_workloads(cells, gdir, metas, jobs=1, log=lambda m: None)
    rows = []
    for c in cells.merge(work, on=holdout.WORK).itertuples(index=False):
        p = list(TRUE_COSTS)
        if c.variant == "frontier":
            p[0] = 0.01
        per = launches.merge(pd.DataFrame([{k: getattr(c, k) for k in holdout.WORK}]), on=holdout.WORK)
        w = c._asdict() | {"floor_ms": floor_ms(per, p)}
        truth = predict(w, c.mode, params)
        noise = float(rng.normal(0, 0.01))
        rows += [run_row(c, rep, truth * (1 + noise), truth, noise=noise) for rep in range(3)]
    return write_session(pd.DataFrame(rows), rdir, hidden=("truth_ms", "noise"))


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setattr(hs, "GRAPHS", tiny_registry(TINY))
    base = tmp_path_factory.mktemp("holdout")
    cells = make_tiny_cells(base / "graphs", TINY, hs)
    runs = _fabricate_runs(base / "graphs", base / "session", np.random.default_rng(24), cells)
    yield base, runs
    mp.undo()


def test_the_judge_recovers_the_costs_and_reports_the_errors(session, capsys):
    base, runs = session
    out = base / "judged"
    assert holdout.main(["--runs", str(base / "session"), "--graphs", str(base / "graphs"),
                         "--out-dir", str(out)]) == 0  # fmt: skip
    table = pd.read_csv(out / "holdout_cells.csv")
    truth = runs.groupby(holdout.CELL[:-1] + ["root"], dropna=False)[["truth_ms", "noise"]].first().reset_index()
    truth["root"] = truth["root"].fillna(-1).astype(int)
    both = table.merge(truth, on=holdout.CELL)
    assert len(both) == len(table) == len(truth)  # every fabricated cell judged
    assert set(table["split"]) == {"train", "held-out"}
    # the fit recovers the costs: every prediction, held-out cells included, within 3% of the noiseless truth
    assert (both["predicted_ms"] / both["truth_ms"] - 1).abs().max() < 0.03
    # and the judge reports the errors the noise made: predicted / measured - 1 = 1 / (1 + noise) - 1
    assert np.allclose(both["error"], both["predicted_ms"] / both["measured_ms"] - 1)
    assert (both["error"] - (1 / (1 + both["noise"]) - 1)).abs().max() < 0.03
    s = pd.read_csv(out / "holdout_summary.csv")
    held = both[both["split"] == "held-out"]
    for algorithm, g in held.groupby("algorithm"):
        row = s[(s["split"] == "held-out") & (s["algorithm"] == algorithm) & (s["mode"] == "all")].iloc[0]
        assert row["cells"] == len(g)
        assert row["median"] == pytest.approx(g["error"].abs().median())
        assert row["worst"] == pytest.approx(g["error"].abs().max())
    costs = pd.read_csv(out / "holdout_costs.csv")
    assert set(costs["form"]) == {"max", "sum"} and (costs["train_cells"] >= 2).all()
    fitted = costs[costs["form"] == "max"]  # the per-vertex and per-entry costs, where identifiable, come back
    assert abs(np.median(fitted["b_ms"]) / TRUE_COSTS[1] - 1) < 0.1
    assert abs(np.median(fitted["c_ms"]) / TRUE_COSTS[2] - 1) < 0.1
    source = json.loads((out / "source.json").read_text())
    assert source["gpu"] == "synthetic (test)" and source["source"] == "fresh"
    # judged again from the written workloads, without the graph files' traces: the same table
    again = base / "again"
    assert holdout.main(["--runs", str(base / "session"), "--graphs", str(base / "graphs"), "--out-dir", str(again),
                         "--workloads", str(out)]) == 0  # fmt: skip
    assert pd.read_csv(again / "holdout_cells.csv").equals(table)
    # the figure, from the judged table
    from tests.synthetic_tables import run_figure

    done, png, csv_path = run_figure(ROOT / "figures" / "fig_holdout.py", {"holdout": out / "holdout_cells.csv"},
                                     out / "source.json", base)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert png.stat().st_size > 0 and len(pd.read_csv(csv_path)) == len(table)
    # and from one --derive-only per graph, as tools/device/holdout_study.sh runs them
    for name in ("kron9", "urand10"):
        assert holdout.main(["--runs", str(base / "session"), "--graphs", str(base / "graphs"), "--derive-only",
                             "--only", name, "--out-dir", str(base / "work" / name)]) == 0  # fmt: skip
    assert set(pd.read_csv(base / "work" / "kron9" / "workloads.csv")["graph"]) == {"kron9"}


def _refused(args, capsys, out: Path, match: str):
    assert holdout.main([*map(str, args), "--out-dir", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and match in err and "\n" not in err
    assert not out.exists()  # nothing written


def test_bad_input_is_one_line_exit_2_and_nothing_written(session, tmp_path, capsys):
    import shutil

    base, _ = session
    runs = tmp_path / "runs"
    shutil.copytree(base / "session", runs)
    first = sorted((runs / "runs").glob("*.csv"))[0]
    pd.read_csv(first).drop(columns=["verified"]).to_csv(first, index=False)
    _refused(["--runs", runs, "--graphs", base / "graphs"], capsys, tmp_path / "o1", "lacks column(s) ['verified']")

    graphs = tmp_path / "graphs"
    shutil.copytree(base / "graphs", graphs)
    meta = graphs / "kron10.w8.json"  # a held-out graph whose file is not the one its metadata describes
    m = json.loads(meta.read_text())
    meta.write_text(json.dumps(m | {"checksum": "0123456789abcdef"}))
    _refused(["--runs", base / "session", "--graphs", graphs], capsys, tmp_path / "o2", "differs from its metadata")

    meta.write_text(json.dumps(m | {"source": m["source"] | {"seed": 1}}))
    _refused(["--runs", base / "session", "--graphs", graphs], capsys, tmp_path / "o3", "made otherwise")


def test_a_held_out_cell_labelled_train_never_reaches_the_fit(session):
    base, _ = session
    cells = holdout.cells_of(holdout.read_runs(base / "session"), log=lambda m: None)
    metas = holdout.read_metadata(base / "graphs", set(cells["graph"]), [4, 8])
    work, launches = holdout.derive_workloads(cells, base / "graphs", metas, log=lambda m: None)
    table = cells.merge(work, on=holdout.WORK).assign(split=hs.TRAIN)  # kron10, urand10 mislabelled
    with pytest.raises(hs.SplitError, match="kron10"):
        holdout.fit_costs(table, launches)
