"""The microbenchmark and model figures on SYNTHETIC tables (made up in tmp dirs; never written to results/).

Each figure runs once (in-process, as its CLI), writes a PNG and a CSV, and the CSV's numbers are checked
against an independent pandas computation from the tables. Missing inputs must fail with a FigureDataError that
names the figure and the table.
"""

from __future__ import annotations

import importlib
import json
import math

import numpy as np
import pandas as pd
import pytest

from emogi.schema import CONCURRENCY_COLUMNS, LATENCY_COLUMNS
from emogi.tables import default_launch, throttled
from figures import style
from tests.synthetic_model import write_synthetic_model
from tests.synthetic_tables import (
    CONC_WARPS,
    LAT_FOOTPRINTS,
    REPO,
    SWEPT_FOOTPRINTS,
    run_script,
    write_synthetic_tables,
)

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    base = tmp_path_factory.mktemp("micro")
    tables = write_synthetic_tables(base / "tables")
    return {**tables, **write_synthetic_model(base / "model", tables), "out": base / "figures"}


def draw(name: str, inputs: dict, *args) -> dict:
    """Run figures/<name>.py's main as its CLI would; returns the PNG and CSV paths."""
    out = inputs["out"]
    out.mkdir(exist_ok=True)
    png, csv = out / f"{name}.png", out / f"{name}.csv"
    module = importlib.import_module(f"figures.{name}")
    assert (
        module.main([*map(str, args), "--source", str(inputs["source"]), "--out", str(png), "--out-csv", str(csv)]) == 0
    )
    assert png.read_bytes()[:8] == PNG and png.stat().st_size > 20_000
    frame = pd.read_csv(csv)
    assert len(frame) > 0
    return {"png": png, "csv": csv, "frame": frame}


FIGURES = {  # name -> the arguments it needs (keys of `inputs`)
    "fig_copy_bandwidth": ["link"],
    "fig_zero_copy_toy": ["toy", "toy_profile", "link"],
    "fig_latency": ["latency"],
    "fig_concurrency": ["concurrency", "latency", "parameters"],
    "fig_footprint_cliff": ["concurrency"],
    "fig_runtime_vs_transfer_size": ["amplification", "parameters"],
    "fig_added_latency": ["predictions", "parameters", "summary"],
    "fig_model_vs_measured": ["predictions", "summary"],
}


def args_for(name: str, inputs: dict, **replace) -> list:
    out = []
    for key in FIGURES[name]:
        out += [f"--{key.replace('_', '-')}", replace.get(key, inputs[key])]
    return out


@pytest.fixture(scope="module")
def drawn(inputs):
    return {name: draw(name, inputs, *args_for(name, inputs)) for name in FIGURES}


# --- every figure ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(FIGURES))
def test_writes_png_and_csv_without_leftovers(drawn, name):
    assert drawn[name]["png"].is_file() and drawn[name]["csv"].is_file()
    assert not list(drawn[name]["png"].parent.glob(".*")), "temporary files left behind"


def test_copy_bandwidth_numbers(drawn, inputs):
    got = drawn["fig_copy_bandwidth"]["frame"]
    link = pd.read_csv(inputs["link"])
    g = link.groupby(["direction", "host_memory", "size_bytes"])["gbps"]
    for r in got.itertuples():
        key = (r.direction, r.host_memory, r.size_bytes)
        assert r.gbps == pytest.approx(g.median()[key], rel=1e-5)
        assert r.gbps_q25 == pytest.approx(g.quantile(0.25)[key], rel=1e-5)
        assert r.gbps_q75 == pytest.approx(g.quantile(0.75)[key], rel=1e-5)
    pinned = link[(link.direction == "h2d") & (link.host_memory == "pinned")].groupby("size_bytes").gbps.median()
    assert np.allclose(got["W_gbps"], pinned.max(), rtol=1e-5)
    assert set(got["W_size_bytes"]) == {pinned.idxmax()}
    assert len(got) == link.groupby(["direction", "host_memory", "size_bytes"]).ngroups
    assert got["size_bytes"].min() == 4096 and got["size_bytes"].max() == 1 << 30  # 4 KiB ... 1 GiB


def test_zero_copy_toy_numbers(drawn, inputs):
    got = drawn["fig_zero_copy_toy"]["frame"]
    toy, prof = pd.read_csv(inputs["toy"]), pd.read_csv(inputs["toy_profile"])
    link = pd.read_csv(inputs["link"])
    peak = link[(link.direction == "h2d") & (link.host_memory == "pinned")].groupby("size_bytes").gbps.median().max()
    assert len(got) == 3 * 3 * 2  # patterns x allocations x element widths
    for r in got.itertuples():
        t = toy[(toy.pattern == r.pattern) & (toy["mode"] == r.mode) & (toy.element_bytes == r.element_bytes)]
        assert r.timed_gbps == pytest.approx(t.gbps.median(), rel=1e-5)
        p = prof[(prof.pattern == r.pattern) & (prof["mode"] == r.mode) & (prof.element_bytes == r.element_bytes)]
        if r.mode == "device":
            assert math.isnan(r.pcie_read_gbps) and math.isnan(r.fraction_of_peak)
            continue
        assert r.pcie_read_gbps == pytest.approx(p.pcie_read_bytes.sum() / p.gpu_time_ns.sum(), rel=1e-5)
        assert r.avg_request_bytes == pytest.approx(
            32 * p.sysmem_read_sectors.sum() / p.sysmem_read_requests.sum(), rel=1e-5
        )
        assert r.fraction_of_peak == pytest.approx(t.gbps.median() / peak, rel=1e-5)


def test_zero_copy_toy_without_profile(inputs, tmp_path):
    """toy_profile is optional: timing bars alone, request sizes left blank."""
    out = draw("fig_zero_copy_toy", dict(inputs, out=tmp_path), "--toy", inputs["toy"], "--link", inputs["link"])
    assert out["frame"]["pcie_read_gbps"].isna().all() and out["frame"]["timed_gbps"].notna().all()


def test_latency_numbers(drawn, inputs):
    got = drawn["fig_latency"]["frame"]
    lat = pd.read_csv(inputs["latency"])
    med = lat.groupby(["mode", "footprint_bytes"]).latency_ns.median() / 1e3
    assert len(got) == len(med)
    for r in got.itertuples():
        assert r.latency_us == pytest.approx(med[(r.mode, r.footprint_bytes)], rel=1e-5)
    assert list(dict.fromkeys(got["mode"])) == ["zerocopy", "zerocopy-pinned", "device"]


def test_concurrency_numbers(drawn, inputs):
    got = drawn["fig_concurrency"]["frame"]
    conc, lat = pd.read_csv(inputs["concurrency"]), pd.read_csv(inputs["latency"])
    params = json.loads(inputs["parameters"].read_text())
    # default panels: the smallest and largest swept footprint per zero-copy allocation; no device panels
    assert set(got["mode"]) == {"zerocopy", "zerocopy-pinned"}
    assert set(got["footprint_bytes"]) == set(SWEPT_FOOTPRINTS)
    keys = ["mode", "footprint_bytes", "request_bytes", "warps", "reads_per_warp"]
    med = conc.groupby(keys).gbps.median()
    L = lat.groupby(["mode", "footprint_bytes"]).latency_ns.median() / 1e3
    for r in got.itertuples():
        T = med[(r.mode, r.footprint_bytes, r.request_bytes, r.warps, r.reads_per_warp)]
        assert r.gbps == pytest.approx(T, rel=1e-5)
        assert r.in_flight == r.warps * r.reads_per_warp
        assert r.N_little == pytest.approx(T * 1e9 * L[(r.mode, r.footprint_bytes)] * 1e-6 / r.request_bytes, rel=1e-5)
    assert np.allclose(got["W_gbps"], params["W_gbps"]["value"]) and np.allclose(got["N_max"], params["N_max"]["value"])
    assert len(got) == 2 * 2 * 4 * len(CONC_WARPS) * 2


def test_concurrency_chosen_footprints_and_interpolated_latency(inputs, tmp_path):
    """--footprints picks panels; a footprint the chase did not measure gets L interpolated in log footprint."""
    conc = pd.read_csv(inputs["concurrency"])
    lat = pd.read_csv(inputs["latency"])
    lat = lat[lat.footprint_bytes != 1 << 33]  # 8 GiB not chased: L between 4 GiB and ... clamped at 4 GiB
    lat = lat[~((lat.footprint_bytes == 1 << 28) & (lat["mode"] == "zerocopy"))]  # 256 MiB: between 64 MiB and 1 GiB
    lat_path = tmp_path / "latency.csv"
    lat.to_csv(lat_path, index=False)
    out = draw(
        "fig_concurrency",
        dict(inputs, out=tmp_path),
        "--concurrency",
        inputs["concurrency"],
        "--latency",
        lat_path,
        "--footprints",
        1 << 28,
        1 << 33,
    )["frame"]
    assert "W_gbps" in out and out["W_gbps"].isna().all()  # no --parameters: no model lines
    zc = out[(out["mode"] == "zerocopy") & (out.footprint_bytes == 1 << 28)]
    med = lat[lat["mode"] == "zerocopy"].groupby("footprint_bytes").latency_ns.median() / 1e3
    expected = np.interp(28, [26, 30], [med[1 << 26], med[1 << 30]])
    assert zc["L_us"].iloc[0] == pytest.approx(expected, rel=1e-5) and zc["L_interpolated"].all()
    big = out[(out["mode"] == "zerocopy") & (out.footprint_bytes == 1 << 33)]
    assert big["L_us"].iloc[0] == pytest.approx(med[1 << 32], rel=1e-5)  # clamped at the largest chased
    assert len(conc) > 0


def test_footprint_cliff_numbers(drawn, inputs):
    got = drawn["fig_footprint_cliff"]["frame"]
    conc = pd.read_csv(inputs["concurrency"])
    conc = conc[conc["mode"].isin(["zerocopy", "zerocopy-pinned"]) & conc.request_bytes.isin([32, 128])]
    assert set(got["request_bytes"]) == {32, 128}
    for r in got.itertuples():
        c = conc[
            (conc["mode"] == r.mode)
            & (conc.footprint_bytes == r.footprint_bytes)
            & (conc.request_bytes == r.request_bytes)
        ]
        top = (c.warps * c.reads_per_warp).max()
        assert r.in_flight == top == CONC_WARPS[-1] * 4
        at = c[(c.warps * c.reads_per_warp) == top]
        assert r.gbps == pytest.approx(at.gbps.median(), rel=1e-5)
        assert r.mrps == pytest.approx(at.mrps.median(), rel=1e-5)
    pinned = got[(got["mode"] == "zerocopy-pinned") & (got.request_bytes == 128)].set_index("footprint_bytes").gbps
    assert pinned[1 << 33] < 0.3 * pinned[1 << 28]  # the synthetic cliff is there


def test_runtime_vs_transfer_size_numbers(drawn, inputs):
    from model.fit import load_parameters, params_for
    from model.presets import get_preset

    got = drawn["fig_runtime_vs_transfer_size"]["frame"]
    amp = pd.read_csv(inputs["amplification"])
    D = amp.groupby(["graph", "edge_bytes", "alignment_bytes"]).bytes_fetched.mean()
    ours = params_for(load_parameters(inputs["parameters"]), "zerocopy", max(LAT_FOOTPRINTS))
    hw = {"preset pcie4-x16": get_preset("pcie4-x16")}
    hw.update({h: ours for h in set(got["hardware"]) if h.startswith("ours")})
    assert len(hw) == 2
    for r in got.itertuples():
        p = hw[r.hardware]
        assert r.D_bytes == pytest.approx(D[(r.graph, r.edge_bytes, r.d_bytes)], rel=1e-5)
        little = p.N_max * r.d_bytes / p.L_us / 1e3
        T = min(p.S_miops * r.d_bytes / 1e3, little, p.W_gbps)
        assert r.T_gbps == pytest.approx(T, rel=1e-5)
        assert r.t_ms == pytest.approx(r.D_bytes / T / 1e6, rel=1e-5)
        assert r.d_opt_bytes == pytest.approx(p.W_gbps * 1e3 / min(p.S_miops, p.N_max / p.L_us), rel=1e-5)
    assert got["d_bytes"].min() == 32 and got["d_bytes"].max() == 4096


def test_runtime_vs_transfer_size_other_preset_and_unknown(inputs, tmp_path):
    out = draw(
        "fig_runtime_vs_transfer_size",
        dict(inputs, out=tmp_path),
        *args_for("fig_runtime_vs_transfer_size", inputs),
        "--preset",
        "pcie3-x16",
    )["frame"]
    assert "preset pcie3-x16" in set(out["hardware"])
    from figures import fig_runtime_vs_transfer_size as fig

    with pytest.raises(SystemExit, match="unknown hardware preset 'nope'"):
        fig.main(
            [
                *map(str, args_for("fig_runtime_vs_transfer_size", inputs)),
                "--preset",
                "nope",
                "--source",
                str(inputs["source"]),
                "--out",
                str(tmp_path / "x.png"),
            ]
        )


def test_model_vs_measured_numbers(drawn, inputs):
    got = drawn["fig_model_vs_measured"]["frame"]
    pred = pd.read_csv(inputs["predictions"])
    assert len(got) == len(pred)
    merged = got.merge(pred, on=["graph", "variant", "mode", "edge_bytes", "max_warps"], suffixes=("", "_p"))
    assert len(merged) == len(pred)
    assert np.allclose(merged["ratio"], merged["predicted_ms_p"] / merged["measured_ms_p"], rtol=1e-5)
    assert np.allclose(merged["rel_error_check"], merged["rel_error_p"], rtol=1e-5, atol=1e-9)
    assert (merged["within_25"] == (merged["rel_error_p"].abs() <= 0.25)).all()


def _tick_labels(ax, axis: str) -> list:
    """The tick labels drawn inside the axis limits (major and minor), with their extents."""
    a = getattr(ax, f"{axis}axis")
    lo, hi = sorted(getattr(ax, f"get_{axis}lim")())
    ticks = a.get_major_ticks() + a.get_minor_ticks()
    out = []
    for t in ticks:
        label = t.label1
        if t.get_loc() is None or not lo <= t.get_loc() <= hi or not label.get_visible() or not label.get_text():
            continue
        out.append((label.get_text(), label.get_window_extent()))
    return out


def test_model_vs_measured_ticks_one_format_no_overlap(inputs):
    """Issue 26: on an axis spanning about a decade (36 to 450 ms, as in the archive) matplotlib labelled the minor
    ticks 3x10^2 and 4x10^2 on top of each other beside plain major labels: one plain-number format, no overlap."""
    from figures import fig_model_vs_measured as fig

    measured = np.array([48.0, 52.0, 60.0, 85.0, 140.0, 270.0, 300.0])
    pred = pd.DataFrame(
        {
            "graph": "kron23",
            "algorithm": "bfs",
            "variant": ["merged-aligned"] * 5 + ["naive"] * 2,
            "mode": "zerocopy",
            "edge_bytes": 8,
            "max_warps": [0, 0, 512, 256, 128, 0, 0],
            "footprint_bytes": 1 << 31,
            "measured_ms": measured,
            "predicted_ms": measured * 1.05,
            "rel_error": 0.05,
            "bound": "W",
        }
    )
    source = json.loads(inputs["source"].read_text())
    f = fig.draw(fig.model_vs_measured(pred, {"median_abs_error": 0.05}), source)
    f.canvas.draw()
    ax = f.axes[0]
    for axis in ("x", "y"):
        labels = _tick_labels(ax, axis)
        assert len(labels) >= 3, (axis, labels)
        for text, _ in labels:  # plain numbers (50, 100, 300), no mathtext powers of ten
            assert float(text.replace("\u2212", "-")) > 0, (axis, text)
        boxes = sorted((box for _, box in labels), key=lambda b: b.x0 if axis == "x" else b.y0)
        for a, b in zip(boxes, boxes[1:]):
            assert (b.x0 > a.x1) if axis == "x" else (b.y0 > a.y1), (axis, [t for t, _ in labels])


# --- missing inputs: a clear error naming figure and table ------------------------------------------------------
MAIN_TABLE = {
    "fig_copy_bandwidth": "link",
    "fig_zero_copy_toy": "toy",
    "fig_latency": "latency",
    "fig_concurrency": "concurrency",
    "fig_footprint_cliff": "concurrency",
    "fig_runtime_vs_transfer_size": "amplification",
    "fig_added_latency": "predictions",
    "fig_model_vs_measured": "predictions",
}


@pytest.mark.parametrize("name", list(FIGURES))
def test_missing_table_names_figure_and_table(inputs, tmp_path, name):
    table = MAIN_TABLE[name]
    module = importlib.import_module(f"figures.{name}")
    args = args_for(name, inputs, **{table: tmp_path / f"{table}.csv"})
    with pytest.raises(SystemExit) as e:
        module.main([*map(str, args), "--source", str(inputs["source"]), "--out", str(tmp_path / "x.png")])
    msg = str(e.value)
    assert f"figure {name} has no data" in msg and f"'{table}'" in msg and "is missing" in msg
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize(
    "name,table,columns",
    [
        ("fig_latency", "latency", LATENCY_COLUMNS),
        ("fig_concurrency", "latency", LATENCY_COLUMNS),
        ("fig_footprint_cliff", "concurrency", CONCURRENCY_COLUMNS),
    ],
)
def test_archive_without_table(inputs, tmp_path, name, table, columns):
    """An archive that lacks a table restores it header-only: the figure says which table is empty."""
    empty = tmp_path / f"{table}.csv"
    empty.write_text(",".join(columns) + "\n")
    r = run_script(
        REPO / "figures" / f"{name}.py",
        *args_for(name, inputs, **{table: empty}),
        "--source",
        inputs["source"],
        "--out",
        tmp_path / "x.png",
    )
    assert r.returncode != 0
    assert f"figure {name} has no data" in r.stderr and f"'{table}' table" in r.stderr and "is empty" in r.stderr


@pytest.mark.parametrize("name", ["fig_concurrency", "fig_runtime_vs_transfer_size", "fig_added_latency"])
def test_missing_parameters(inputs, tmp_path, name):
    module = importlib.import_module(f"figures.{name}")
    args = args_for(name, inputs, parameters=tmp_path / "parameters.json")
    with pytest.raises(SystemExit, match=f"figure {name} has no data: .*parameters.json is missing.*'parameters'"):
        module.main([*map(str, args), "--source", str(inputs["source"]), "--out", str(tmp_path / "x.png")])


def test_predictions_lacking_columns(inputs, tmp_path):
    bad = tmp_path / "predictions.csv"
    pd.read_csv(inputs["predictions"]).drop(columns=["floor_ms"]).to_csv(bad, index=False)
    from figures import fig_model_vs_measured as fig

    with pytest.raises(SystemExit, match="figure fig_model_vs_measured: .*lacks columns \\['floor_ms'\\]"):
        fig.main(
            [
                "--predictions",
                str(bad),
                "--summary",
                str(inputs["summary"]),
                "--source",
                str(inputs["source"]),
                "--out",
                str(tmp_path / "x.png"),
            ]
        )


# --- default launches only ---------------------------------------------------------------------------------------
def test_default_launch_and_throttled():
    f = pd.DataFrame({"max_warps": [0, 64, np.nan, 0, 1024], "x": range(5)})
    assert list(default_launch(f)["x"]) == [0, 2, 3]  # blank = the default launch
    assert list(throttled(f)["x"]) == [1, 4]
    old = pd.DataFrame({"x": [1, 2]})  # written before the column existed: all default launches
    assert default_launch(old).equals(old) and throttled(old).empty


def test_fig09_and_fig08_ignore_throttled_runs(inputs):
    from figures import fig08_pcie_bandwidth, fig09_speedup_over_uvm

    runs, profile, link = (pd.read_csv(inputs[k]) for k in ("runs", "profile", "link"))
    assert (runs.max_warps > 0).any() and (profile.max_warps > 0).any()
    assert fig09_speedup_over_uvm.speedups(runs).equals(fig09_speedup_over_uvm.speedups(default_launch(runs)))
    assert fig08_pcie_bandwidth.bandwidths(profile, link).equals(
        fig08_pcie_bandwidth.bandwidths(default_launch(profile), link)
    )
    slow = runs.copy()
    slow.loc[slow.max_warps > 0, "time_ms"] *= 1000  # throttled rows changing must change nothing
    assert fig09_speedup_over_uvm.speedups(slow).equals(fig09_speedup_over_uvm.speedups(runs))


def test_sizes():
    assert [style.fmt_size(b) for b in (32, 4096, 1 << 28, 1 << 30, 3 << 29)] == [
        "32 B",
        "4 KiB",
        "256 MiB",
        "1 GiB",
        "1.5 GiB",
    ]
    assert [style.fmt_size_compact(b) for b in (32, 1024, 4096)] == ["32", "1K", "4K"]
