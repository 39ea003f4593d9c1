"""The figure scripts on small SYNTHETIC tables (made up here, in tmp dirs; never written to results/).

`write_synthetic_tables` is shared with test_report.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from emogi.schema import LINK_COLUMNS, MODES, PROFILE_COLUMNS, RUN_COLUMNS, VARIANTS
from figures import style

REPO = Path(__file__).resolve().parents[1]
FIG09 = REPO / "figures" / "fig09_speedup_over_uvm.py"
FIG08 = REPO / "figures" / "fig08_pcie_bandwidth.py"

SYNTHETIC_PROVENANCE = {"gpu": "SYNTHETIC-GPU (test data)", "driver": "0.0", "cuda": "0.0", "commit": "synthetic",
                        "date": "2000-01-01"}
GRAPHS = ("synth-kron", "synth-urand")
EDGE_BYTES = (4, 8)
ROOTS = (1, 7, 42)
REPS = 3


def write_synthetic_tables(folder: Path, source: str = "fresh") -> dict:
    """Write runs.csv, profile.csv, link.csv and source.json of made-up numbers into `folder`; return the paths."""
    rng = np.random.default_rng(0)
    folder.mkdir(parents=True, exist_ok=True)
    # made-up shape: device fastest, uvm slowest, merged-aligned < merged < naive in the zero-copy modes
    mode_ms = {"device": 2.0, "zerocopy": 12.0, "zerocopy-pinned": 14.0, "uvm": 40.0}
    variant_f = {"naive": 4.0, "merged": 1.2, "merged-aligned": 1.0}
    rows = []
    for g_i, graph in enumerate(GRAPHS):
        for w in EDGE_BYTES:
            for v in VARIANTS:
                for m in MODES:
                    vf = variant_f[v] if m in ("zerocopy", "zerocopy-pinned") else 1 + 0.1 * VARIANTS.index(v)
                    for root in ROOTS:
                        for rep in range(REPS):
                            t = mode_ms[m] * vf * (1 + 0.5 * g_i) * (w / 4) * (1 + root / 100)
                            t *= 1 + 0.05 * rng.standard_normal()
                            rows.append({**SYNTHETIC_PROVENANCE, "graph": graph, "algorithm": "bfs", "variant": v,
                                         "mode": m, "edge_bytes": w, "root": root, "rep": rep, "time_ms": t,
                                         "edges_traversed": 1000, "levels": 5, "verified": True})
    runs = pd.DataFrame(rows, columns=RUN_COLUMNS)

    bw = {"naive": 4.0, "merged": 10.0, "merged-aligned": 11.0}  # made-up GB/s in the zero-copy modes
    req = {"naive": 34.0, "merged": 90.0, "merged-aligned": 110.0}
    rows = []
    for graph in GRAPHS:
        for w in EDGE_BYTES:
            for v in VARIANTS:
                for m in MODES:
                    gbps = {"device": 0.01, "uvm": 9.0}.get(m, bw[v] * (0.95 if m == "zerocopy-pinned" else 1))
                    time_ns = 5e6 * w
                    read = gbps * time_ns
                    d = req[v] if m != "device" else np.nan
                    requests = read / d if m != "device" else 0
                    rows.append({**SYNTHETIC_PROVENANCE, "graph": graph, "algorithm": "bfs", "variant": v, "mode": m,
                                 "edge_bytes": w, "root": ROOTS[0], "launches": 5,
                                 "sysmem_read_sectors": requests * d / 32 if requests else 0,
                                 "sysmem_read_requests": requests, "pcie_read_bytes": read,
                                 "pcie_write_bytes": requests * 16, "gpu_time_ns": time_ns,
                                 "avg_request_bytes": d, "pcie_read_gbps": gbps})
    profile = pd.DataFrame(rows, columns=PROFILE_COLUMNS)

    rows = []
    for direction in ("h2d", "d2h"):
        for host in ("pinned", "pageable"):
            for size, top in ((1 << 20, 8.0), (1 << 24, 12.0), (1 << 28, 12.5)):
                for rep in range(5):
                    g = top * (1.0 if host == "pinned" else 0.6) + 0.1 * rep
                    rows.append({**SYNTHETIC_PROVENANCE, "direction": direction, "host_memory": host,
                                 "size_bytes": size, "rep": rep, "time_ms": size / g / 1e6, "gbps": g})
    link = pd.DataFrame(rows, columns=LINK_COLUMNS)

    paths = {name: folder / f"{name}.csv" for name in ("runs", "profile", "link")}
    runs.to_csv(paths["runs"], index=False)
    profile.to_csv(paths["profile"], index=False)
    link.to_csv(paths["link"], index=False)
    paths["source"] = folder / "source.json"
    src = {"source": source, "archive_id": "synthetic-archive" if source == "archive" else None,
           "gpu": SYNTHETIC_PROVENANCE["gpu"], "driver": "0.0", "cuda": "0.0", "link": "SYNTHETIC link",
           "commit": "synthetic", "date": "2000-01-01", "command": "pytest (synthetic tables)"}
    paths["source"].write_text(json.dumps(src))
    return paths


def run_script(script: Path, *args) -> subprocess.CompletedProcess:
    """Run a figure script the way the workflow does (a fresh interpreter, repo root as cwd)."""
    return subprocess.run([sys.executable, str(script), *map(str, args)], cwd=REPO, capture_output=True, text=True)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return write_synthetic_tables(tmp_path_factory.mktemp("tables"))


# --- fig09 ------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fig09_out(tables, tmp_path_factory):
    """One CLI run writing PNG, PDF and CSV (each run costs seconds: a fresh interpreter and matplotlib)."""
    out = tmp_path_factory.mktemp("fig09")
    p = {"png": out / "fig09.png", "pdf": out / "fig09.pdf", "csv": out / "fig09.csv", "dir": out}
    r = run_script(FIG09, "--runs", tables["runs"], "--source", tables["source"], "--out", p["png"], p["pdf"],
                   "--out-csv", p["csv"])
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
    r = run_script(FIG08, "--profile", tables["profile"], "--link", tables["link"], "--source", tables["source"],
                   "--out", png, "--out-csv", csv)
    assert r.returncode == 0, r.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    got = pd.read_csv(csv)
    assert set(got["mode"]) == {"zerocopy", "zerocopy-pinned", "uvm"}

    prof = pd.read_csv(tables["profile"])
    for row in got.itertuples():
        sel = prof[(prof.graph == row.graph) & (prof.edge_bytes == row.edge_bytes) & (prof.variant == row.variant)
                   & (prof["mode"] == row.mode)]
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
    with pytest.raises(style.FigureDataError) as e:
        style.load_table(path, "runs", "fig09")
    msg = str(e.value)
    assert msg.startswith("figure fig09 has no data: ")
    assert str(path) in msg and "'runs' table" in msg
    assert ("is missing" if state == "missing" else "is empty") in msg


def test_load_table_lacking_columns(tmp_path):
    path = tmp_path / "link.csv"
    path.write_text("direction,gbps\nh2d,1.0\n")
    with pytest.raises(style.FigureDataError, match="figure fig08.*link table lacks columns"):
        style.load_table(path, "link", "fig08")


def test_fig09_cli_reports_missing_table(tables, tmp_path):
    r = run_script(FIG09, "--runs", tmp_path / "nope.csv", "--source", tables["source"], "--out", tmp_path / "x.png")
    assert r.returncode != 0
    assert "figure fig09 has no data" in r.stderr and "'runs' table" in r.stderr
    assert not (tmp_path / "x.png").exists()


def test_fig08_cli_reports_empty_profile(tables, tmp_path):
    empty = tmp_path / "profile.csv"
    empty.write_text(",".join(PROFILE_COLUMNS) + "\n")
    r = run_script(FIG08, "--profile", empty, "--link", tables["link"], "--source", tables["source"],
                   "--out", tmp_path / "x.png")
    assert r.returncode != 0
    assert "figure fig08 has no data" in r.stderr and "'profile' table" in r.stderr


# --- the source label -------------------------------------------------------------------------------------
def test_source_label_fresh():
    src = {"source": "fresh", "gpu": "NVIDIA H100 80GB HBM3", "date": "2026-11-20"}
    assert style.source_label(src) == "fresh measurements on NVIDIA H100 80GB HBM3, 2026-11-20"


def test_source_label_archive():
    src = {"source": "archive", "archive_id": "h100-2026-11-20", "gpu": "NVIDIA H100 80GB HBM3",
           "date": "2026-11-20"}
    assert style.source_label(src) == "archived measurements from NVIDIA H100 80GB HBM3 on 2026-11-20"


@pytest.mark.parametrize("src", [{"source": "fresh", "gpu": "X"}, {"source": "guess", "gpu": "X", "date": "d"}])
def test_source_label_rejects_incomplete(src):
    with pytest.raises(style.FigureDataError):
        style.source_label(src)


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
