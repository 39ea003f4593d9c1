"""fig_added_latency (CXL paper Fig. 11's analogue) on SYNTHETIC tables (tests/synthetic_tables.py and
tests/synthetic_model.py: made up in tmp dirs; never written to results/): the model lines, the throttled runs,
the delayed runs of a synthetic latency_emulation table and their flat limit, the archived data, the CLI as a
script and the figure on the model's own outputs. The other microbenchmark and model figures are in
test_figures_micro.py, whose in-process `draw` this uses.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from emogi.schema import LATENCY_EMULATION_COLUMNS
from tests.synthetic_model import write_synthetic_model
from tests.synthetic_tables import LAT_FOOTPRINTS, REPO, run_script, write_synthetic_tables
from tests.test_figures_micro import PNG, args_for, draw


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    base = tmp_path_factory.mktemp("added-latency")
    tables = write_synthetic_tables(base / "tables")
    return {**tables, **write_synthetic_model(base / "model", tables), "out": base / "figures"}


@pytest.fixture(scope="module")
def drawn(inputs):
    return {"fig_added_latency": draw("fig_added_latency", inputs, *args_for("fig_added_latency", inputs))}


def _requests_per_warp(variant, edge_bytes):  # the model's documented assumption (model.predict)
    lines = math.ceil(32 * edge_bytes / 128)
    return {"naive": 32, "merged": lines + 1, "merged-aligned": lines}[variant]


def test_added_latency_numbers(drawn, inputs):
    from model.fit import load_parameters, params_for

    got = drawn["fig_added_latency"]["frame"]
    pred = pd.read_csv(inputs["predictions"])
    parameters = load_parameters(inputs["parameters"])
    keys = ["graph", "variant", "mode", "edge_bytes"]
    base = pred[pred.max_warps == 0].set_index(keys)
    model, emu = got[got.kind == "model"], got[got.kind == "emulated"]
    assert len(model.groupby(keys)) == len(base)
    for r in model.itertuples():
        b = base.loc[(r.graph, r.variant, r.mode, r.edge_bytes)]
        p = params_for(parameters, r.mode, min(LAT_FOOTPRINTS))  # model.predict's 'sweep' footprint

        def t(L):
            T = min(p.S_miops * b.d_bytes / 1e3, p.N_max * b.d_bytes / L / 1e3, p.W_gbps)
            return b.D_bytes / T / 1e6 + b.floor_ms  # rule 'sum'

        assert r.normalised == pytest.approx(t(p.L_us + r.added_us) / t(p.L_us), rel=1e-5)
        if r.added_us == 0:  # our reading of the model lands on the model's own prediction
            assert r.runtime_ms == pytest.approx(b.predicted_ms, rel=1e-5)
    assert model.added_us.min() == 0 and model.added_us.max() == pytest.approx(5.0)
    thr = pred[pred.max_warps > 0]
    assert len(emu) == len(thr) > 0
    for r in emu.itertuples():
        b = base.loc[(r.graph, r.variant, r.mode, r.edge_bytes)]
        m = thr[
            (thr.graph == r.graph)
            & (thr.variant == r.variant)
            & (thr["mode"] == r.mode)
            & (thr.edge_bytes == r.edge_bytes)
            & (thr.max_warps == r.max_warps)
        ].iloc[0]
        p = params_for(parameters, r.mode, min(LAT_FOOTPRINTS))
        n = _requests_per_warp(r.variant, r.edge_bytes) * r.max_warps
        assert r.r == _requests_per_warp(r.variant, r.edge_bytes)
        assert r.added_us == pytest.approx(p.L_us * p.N_max / min(p.N_max, n) - p.L_us, rel=1e-5, abs=1e-12)
        assert r.normalised == pytest.approx(m.measured_ms / b.measured_ms, rel=1e-5)
        assert r.predicted_normalised == pytest.approx(m.predicted_ms / b.predicted_ms, rel=1e-5)
        assert bool(r.shown) == (r.added_us <= 5.0)


def test_added_latency_reads_per_warp_override(inputs, tmp_path):
    out = draw(
        "fig_added_latency",
        dict(inputs, out=tmp_path),
        *args_for("fig_added_latency", inputs),
        "--reads-per-warp",
        "4",
        "--max-added-us",
        "3",
    )["frame"]
    emu = out[out.kind == "emulated"]
    assert set(emu["r"]) == {4.0} and set(emu["r_source"]) == {"--reads-per-warp"}
    assert out[out.kind == "model"].added_us.max() == pytest.approx(3.0)


# --- measured added latency: the latency_emulation table -------------------------------------------------------
DELAYS_NS = (0, 500, 1000, 2000, 4000)
EMULATED = ("synth-kron", "merged-aligned", "zerocopy", 8)  # the throttle's graph, variant, allocation, width


def write_synthetic_latency_emulation(path, inputs, bfs_scale: float = 1.0):
    """A made-up latency_emulation table (emogi.schema) for EMULATED: the chase adds 90% of each requested delay
    (the wait is not all latency); the BFS slows down as the model line says, times `bfs_scale`."""
    from model.fit import load_parameters, params_for
    from model.whatif import runtime_vs_added_latency

    pred = pd.read_csv(inputs["predictions"])
    graph, variant, mode, width = EMULATED
    b = pred[
        (pred.graph == graph)
        & (pred.variant == variant)
        & (pred["mode"] == mode)
        & (pred.edge_bytes == width)
        & (pred.max_warps == 0)
    ].iloc[0]
    p = params_for(load_parameters(inputs["parameters"]), mode, min(LAT_FOOTPRINTS))
    rows = []
    prov = {"gpu": "SYNTHETIC-GPU", "driver": "0", "cuda": "0", "commit": "test", "date": "2000-01-01"}
    common = {**prov, "graph": graph, "mode": mode, "edge_bytes": width, "footprint_bytes": 1 << 31}
    for ns in DELAYS_NS:
        for rep, wobble in enumerate((0.99, 1.0, 1.01)):
            lat = (1300.0 + 0.9 * ns) * wobble
            rows.append({**common, "kind": "chase", "variant": "", "requested_ns": ns, "root": None, "rep": rep,
                         "time_ms": lat * 20000 / 1e6, "latency_ns": lat, "verified": True})  # fmt: skip
        t = runtime_vs_added_latency(b.D_bytes, b.d_bytes, p, [0.9 * ns / 1e3], floor_ms=b.floor_ms)
        for root in (1, 7):
            for rep in range(2):
                rows.append({**common, "kind": "bfs", "variant": variant, "requested_ns": ns, "root": root,
                             "rep": rep, "time_ms": float(t["runtime_ms"].iloc[0]) * (bfs_scale if ns else 1.0),
                             "latency_ns": None, "verified": True})  # fmt: skip
    frame = pd.DataFrame(rows)[LATENCY_EMULATION_COLUMNS]
    frame.to_csv(path, index=False)
    return path


def test_added_latency_measured_points_at_several_added_latencies(inputs, tmp_path):
    """Issue 26: measured points lie along the added-latency axis, each at the latency the chase measured under
    its delay (median at D minus median at 0), never at one inferred from the BFS's own throughput."""
    table = write_synthetic_latency_emulation(tmp_path / "latency_emulation.csv", inputs)
    args = [*args_for("fig_added_latency", inputs), "--latency-emulation", table]
    got = draw("fig_added_latency", dict(inputs, out=tmp_path), *args)["frame"]
    delayed = got[got.kind == "delayed"]
    assert len(delayed) == len(DELAYS_NS) and delayed["shown"].all()
    assert delayed["added_us"].nunique() == len(DELAYS_NS) and (delayed["added_us"] > 0.1).sum() >= 2
    # x: the chase's median latency at D minus at 0 (1.3 us + 0.9 D), not the requested D
    assert np.allclose(delayed["added_us"], [0.9 * ns / 1e3 for ns in DELAYS_NS])
    assert np.allclose(delayed["requested_us"], [ns / 1e3 for ns in DELAYS_NS])
    assert (delayed["added_lo_us"] <= delayed["added_us"]).all()
    assert (delayed["added_hi_us"] >= delayed["added_us"]).all()
    # y: the BFS at D over the BFS at 0; made to follow the model, so the rings sit on the points
    assert np.allclose(delayed["normalised"], delayed["predicted_normalised"], rtol=1e-6)
    # the model lines reach past the largest measured point
    assert got[got.kind == "model"]["added_us"].max() >= delayed["added_hi_us"].max()
    # the same delays with a BFS twice as slow under delay: y changes, x does not
    slow = write_synthetic_latency_emulation(tmp_path / "slow.csv", inputs, bfs_scale=2.0)
    args = [*args_for("fig_added_latency", inputs), "--latency-emulation", slow]
    again = draw("fig_added_latency", dict(inputs, out=tmp_path), *args)["frame"]
    again = again[again.kind == "delayed"]
    assert np.allclose(again["added_us"], delayed["added_us"])
    assert not np.allclose(again["normalised"], delayed["normalised"])


def test_added_latency_flat_limit_against_the_allowance(inputs, tmp_path):
    from figures.latency_delayed import FLAT
    from model.littles_law import max_L

    table = write_synthetic_latency_emulation(tmp_path / "latency_emulation.csv", inputs)
    args = [*args_for("fig_added_latency", inputs), "--latency-emulation", table]
    got = draw("fig_added_latency", dict(inputs, out=tmp_path), *args)["frame"]
    flat = got[got.kind == "flat"]
    assert len(flat) == 1
    delayed = got[got.kind == "delayed"].sort_values("added_us")
    above = delayed[delayed.normalised > FLAT].iloc[0]
    below = delayed[delayed.added_us < above.added_us].iloc[-1]
    at = below.added_us + (FLAT - below.normalised) * (above.added_us - below.added_us) / (
        above.normalised - below.normalised
    )
    r = flat.iloc[0]
    assert r.chase_L0_us == pytest.approx(1.3) and r.flat_limit_us == pytest.approx(1.3 + at, rel=1e-4)
    pred = pd.read_csv(inputs["predictions"])
    d = pred[(pred.graph == "synth-kron") & (pred.variant == "merged-aligned") & (pred["mode"] == "zerocopy")]
    d = d[(d.edge_bytes == 8) & (d.max_warps == 0)].d_bytes.iloc[0]
    assert r.N_max == 640.0  # the synthetic parameters: N_max 640, W 52 GB/s
    assert r.allowance_us == pytest.approx(max_L(640.0, d, 52.0), rel=1e-4) == pytest.approx(640 * d / 52e3, rel=1e-4)
    assert r.flat_over_allowance == pytest.approx(r.flat_limit_us / r.allowance_us, rel=1e-4)


def test_added_latency_archive_has_measured_points_off_zero(tmp_path):
    """Issue 26's figure test on the archived data (the no-GPU path's default archive, `latest`): the delayed
    runs give measured points at more than one added latency, each at the chase's measurement."""
    from emogi import archive
    from figures.latency_delayed import load_latency_emulation, measured_delays

    archive.restore("latest", tmp_path)
    delays = measured_delays(load_latency_emulation(tmp_path / "latency_emulation.csv", "fig_added_latency"))
    off_zero = delays[delays["added_ns"] > 100]
    assert off_zero["added_ns"].round(-1).nunique() >= 2, delays
    assert (off_zero["normalised"] > 1).all()  # every delay slows the BFS down, if only a little


def test_added_latency_says_when_nothing_is_delayed(drawn):
    """The archived studies have no latency_emulation rows: no delayed points, and the figure says so."""
    got = drawn["fig_added_latency"]["frame"]
    assert not (got.kind == "delayed").any()


def test_cli_as_a_script(inputs, tmp_path):
    """The workflow runs the scripts in a fresh interpreter from the repo root."""
    png, csv = tmp_path / "f.png", tmp_path / "f.csv"
    r = run_script(
        REPO / "figures" / "fig_added_latency.py",
        *args_for("fig_added_latency", inputs),
        "--source",
        inputs["source"],
        "--out",
        png,
        "--out-csv",
        csv,
    )
    assert r.returncode == 0, r.stderr
    assert "warning" not in r.stderr
    assert png.read_bytes()[:8] == PNG and len(pd.read_csv(csv)) > 0


# --- the real model on the synthetic tables -------------------------------------------------------------------
def test_figures_on_the_models_own_outputs(inputs, tmp_path):
    """model.fit and model.predict on the synthetic tables, then the model figures: the added-latency lines must
    start on the model's own predictions (same parameters footprint, same rule)."""
    fit = pytest.importorskip("model.fit")
    predict = pytest.importorskip("model.predict")
    t = {k: pd.read_csv(inputs[k]) for k in ("runs", "profile", "link", "latency", "concurrency")}
    params = fit.fit(t["link"], t["latency"], t["concurrency"], n_boot=50)
    table, summary = predict.predict(t["runs"], t["profile"], params)
    paths = {
        "parameters": tmp_path / "parameters.json",
        "predictions": tmp_path / "predictions.csv",
        "summary": tmp_path / "summary.json",
    }
    paths["parameters"].write_text(json.dumps(params))
    table.to_csv(paths["predictions"], index=False)
    paths["summary"].write_text(json.dumps(summary))
    mine = dict(inputs, **paths, out=tmp_path)
    got = draw("fig_added_latency", mine, *args_for("fig_added_latency", mine))["frame"]
    at0 = got[(got.kind == "model") & (got.added_us == 0)]
    assert np.allclose(at0["runtime_ms"], at0["table_predicted_ms"], rtol=1e-5)
    draw("fig_model_vs_measured", mine, *args_for("fig_model_vs_measured", mine))
    draw("fig_concurrency", mine, *args_for("fig_concurrency", mine))
