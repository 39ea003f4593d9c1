"""The figure scripts on small SYNTHETIC tables (tests/synthetic_tables.py: made up in tmp dirs; never written to
results/): Figs. 9 and 8, the tables' loading and the source label.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from emogi.schema import PROFILE_COLUMNS, RUN_COLUMNS, VARIANTS
from figures import inputs, style
from tests.synthetic_tables import EDGE_BYTES, GRAPHS, REPO, run_script, write_synthetic_tables

FIG09 = REPO / "figures" / "fig09_speedup_over_uvm.py"
FIG08 = REPO / "figures" / "fig08_pcie_bandwidth.py"


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return write_synthetic_tables(tmp_path_factory.mktemp("tables"))


# --- fig09 ------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fig09_out(tables, tmp_path_factory):
    """One CLI run writing PNG, PDF and CSV (each run costs seconds: a fresh interpreter and matplotlib)."""
    out = tmp_path_factory.mktemp("fig09")
    p = {"png": out / "fig09.png", "pdf": out / "fig09.pdf", "csv": out / "fig09.csv", "dir": out}
    r = run_script(
        FIG09,
        "--runs",
        tables["runs"],
        "--source",
        tables["source"],
        "--out",
        p["png"],
        p["pdf"],
        "--out-csv",
        p["csv"],
    )
    assert r.returncode == 0, r.stderr
    return p


def test_fig09_writes_png_pdf_and_csv(fig09_out):
    assert fig09_out["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and fig09_out["png"].stat().st_size > 10_000
    assert fig09_out["pdf"].read_bytes()[:4] == b"%PDF"
    assert len(pd.read_csv(fig09_out["csv"])) == len(GRAPHS) * len(EDGE_BYTES) * len(VARIANTS) * 3
    assert not list(fig09_out["dir"].glob(".*")), "temporary files left behind"


def test_fig09_speedups_match_independent_computation(tables, fig09_out):
    got = pd.read_csv(fig09_out["csv"])
    runs = pd.read_csv(tables["runs"])
    runs = runs[runs["max_warps"] == 0]  # throttled runs are not times of the configuration
    per_root = runs.groupby(["graph", "edge_bytes", "variant", "mode", "root"])["time_ms"].median()
    t = per_root.groupby(level=[0, 1, 2, 3]).mean()
    n = 0
    for row in got.itertuples():
        baseline = min(t[(row.graph, row.edge_bytes, v, "uvm")] for v in VARIANTS)
        expected = baseline / t[(row.graph, row.edge_bytes, row.variant, row.mode)]
        assert row.speedup == pytest.approx(expected, rel=1e-5)
        assert row.uvm_baseline_ms == pytest.approx(baseline, rel=1e-5)
        n += 1
    assert n == len(got) > 0
    assert set(got["mode"]) == {"zerocopy", "zerocopy-pinned", "device"}


def test_fig09_baseline_is_fastest_uvm_variant(tables):
    """Make merged the fastest in uvm mode for one graph: the baseline must follow it (never inflate)."""
    from importlib import import_module

    fig09 = import_module("figures.fig09_speedup_over_uvm")
    runs = pd.read_csv(tables["runs"])
    sel = (runs.graph == GRAPHS[0]) & (runs["mode"] == "uvm") & (runs.variant == "merged")
    runs.loc[sel, "time_ms"] /= 10
    out = fig09.speedups(runs)
    first = out[out.graph == GRAPHS[0]]
    assert set(first["uvm_baseline_variant"]) == {"merged"}
    assert set(out[out.graph == GRAPHS[1]]["uvm_baseline_variant"]) == {"naive"}


# --- fig08 ------------------------------------------------------------------------------------------------
def test_fig08_writes_png_and_csv(tables, tmp_path):
    png, csv = tmp_path / "fig08.png", tmp_path / "fig08.csv"
    r = run_script(
        FIG08,
        "--profile",
        tables["profile"],
        "--link",
        tables["link"],
        "--source",
        tables["source"],
        "--out",
        png,
        "--out-csv",
        csv,
    )
    assert r.returncode == 0, r.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    got = pd.read_csv(csv)
    assert set(got["mode"]) == {"zerocopy", "zerocopy-pinned", "uvm"}

    prof = pd.read_csv(tables["profile"])
    prof = prof[prof["max_warps"] == 0]
    for row in got.itertuples():
        sel = prof[
            (prof.graph == row.graph)
            & (prof.edge_bytes == row.edge_bytes)
            & (prof.variant == row.variant)
            & (prof["mode"] == row.mode)
        ]
        assert row.pcie_read_gbps == pytest.approx(sel.pcie_read_bytes.sum() / sel.gpu_time_ns.sum(), rel=1e-5)
    link = pd.read_csv(tables["link"])
    pinned = link[(link.direction == "h2d") & (link.host_memory == "pinned")]
    assert np.allclose(got["peak_gbps"], pinned.groupby("size_bytes").gbps.median().max())


# --- missing / empty tables -------------------------------------------------------------------------------
@pytest.mark.parametrize("state", ["missing", "zero-bytes", "header-only"])
def test_load_table_no_data(tmp_path, state):
    path = tmp_path / "runs.csv"
    if state == "zero-bytes":
        path.write_text("")
    elif state == "header-only":
        path.write_text(",".join(RUN_COLUMNS) + "\n")
    with pytest.raises(inputs.FigureDataError) as e:
        inputs.load_table(path, "runs", "fig09")
    msg = str(e.value)
    assert msg.startswith("figure fig09 has no data: ")
    assert str(path) in msg and "'runs' table" in msg
    assert ("is missing" if state == "missing" else "is empty") in msg


def test_load_table_lacking_columns(tmp_path):
    path = tmp_path / "link.csv"
    path.write_text("direction,gbps\nh2d,1.0\n")
    with pytest.raises(inputs.FigureDataError, match="figure fig08.*link table lacks columns"):
        inputs.load_table(path, "link", "fig08")


def test_fig09_cli_reports_missing_table(tables, tmp_path):
    r = run_script(FIG09, "--runs", tmp_path / "nope.csv", "--source", tables["source"], "--out", tmp_path / "x.png")
    assert r.returncode != 0
    assert "figure fig09 has no data" in r.stderr and "'runs' table" in r.stderr
    assert not (tmp_path / "x.png").exists()


def test_fig08_cli_reports_empty_profile(tables, tmp_path):
    empty = tmp_path / "profile.csv"
    empty.write_text(",".join(PROFILE_COLUMNS) + "\n")
    r = run_script(
        FIG08, "--profile", empty, "--link", tables["link"], "--source", tables["source"], "--out", tmp_path / "x.png"
    )
    assert r.returncode != 0
    assert "figure fig08 has no data" in r.stderr and "'profile' table" in r.stderr


# --- the source label -------------------------------------------------------------------------------------
def test_source_label_fresh():
    src = {"source": "fresh", "gpu": "NVIDIA H100 80GB HBM3", "date": "2026-11-20"}
    assert inputs.source_label(src) == "fresh measurements on NVIDIA H100 80GB HBM3, 2026-11-20"


def test_source_label_archive():
    src = {"source": "archive", "archive_id": "h100-2026-11-20", "gpu": "NVIDIA H100 80GB HBM3", "date": "2026-11-20"}
    assert inputs.source_label(src) == "archived measurements from NVIDIA H100 80GB HBM3 on 2026-11-20"


@pytest.mark.parametrize("src", [{"source": "fresh", "gpu": "X"}, {"source": "guess", "gpu": "X", "date": "d"}])
def test_source_label_rejects_incomplete(src):
    with pytest.raises(inputs.FigureDataError):
        inputs.source_label(src)


def test_save_is_atomic_and_by_extension(tmp_path):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([0, 1])
    out = style.save(fig, [tmp_path / "a.png", tmp_path / "a.pdf"])
    assert [p.name for p in out] == ["a.png", "a.pdf"]
    assert (tmp_path / "a.pdf").read_bytes()[:4] == b"%PDF"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf", "a.png"]
    with pytest.raises(ValueError, match="format"):
        style.save(plt.figure(), tmp_path / "a.jpeg2")
