"""Figs. 11 and 12 (the applications of EMOGI §5.4) on SYNTHETIC apps tables (tests/test_figures.py), and the
measure wrapper's refusal to run CC on a directed graph."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from emogi import csr, measure
from emogi.schema import APP_COLUMNS
from tests.test_figures import GRAPHS, run_figure, synthetic_app_ms, write_synthetic_tables

REPO = Path(__file__).resolve().parents[1]
FIG11 = REPO / "figures" / "fig11_applications.py"
FIG12 = REPO / "figures" / "fig12_edge_width.py"


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return write_synthetic_tables(tmp_path_factory.mktemp("apps"), micro=False)


def draw(script, apps, source, out_dir):
    return run_figure(script, {"apps": apps}, source, out_dir)


def test_fig11_speedups_over_the_fastest_uvm_variant(tables, tmp_path):
    done, png, csv_path = draw(FIG11, tables["apps"], tables["source"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert png.stat().st_size > 10_000
    out = pd.read_csv(csv_path)
    assert set(out["algorithm"]) == {"bfs", "sssp", "cc", "pagerank"} and set(out["edge_bytes"]) == {8}
    # computed independently: per root the median over reps, then the mean over roots
    apps = pd.read_csv(tables["apps"])
    apps["root"] = apps["root"].fillna(-1)

    def time_of(graph, algorithm, variant, mode):
        sel = apps[
            (apps["graph"] == graph)
            & (apps["algorithm"] == algorithm)
            & (apps["variant"] == variant)
            & (apps["mode"] == mode)
            & (apps["edge_bytes"] == 8)
        ]
        return sel.groupby("root")["time_ms"].median().mean()

    for graph in GRAPHS:
        for algorithm, fast in (("sssp", "frontier"), ("cc", "afforest"), ("pagerank", "frontier")):
            uvm = min(time_of(graph, algorithm, v, "uvm") for v in ("merged-aligned", fast))
            rows = out[(out["graph"] == graph) & (out["algorithm"] == algorithm)].set_index("bar")
            assert rows.loc["emogi", "variant"] == "merged-aligned" and rows.loc["emogi", "mode"] == "zerocopy"
            assert rows.loc["emogi", "speedup"] == pytest.approx(
                uvm / time_of(graph, algorithm, "merged-aligned", "zerocopy"), rel=1e-5
            )
            assert rows.loc["fastest", "variant"] == fast
            assert rows.loc["fastest", "speedup"] == pytest.approx(
                uvm / time_of(graph, algorithm, fast, "zerocopy"), rel=1e-5
            )
            assert rows.loc["device", "mode"] == "device"


def test_fig11_leaves_out_a_fastest_bar_that_is_emogi_itself(tables, tmp_path):
    apps = pd.read_csv(tables["apps"])
    only_paper = apps[apps["variant"] == "merged-aligned"]
    path = tmp_path / "apps.csv"
    only_paper.to_csv(path, index=False)
    done, _, csv_path = draw(FIG11, path, tables["source"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert set(pd.read_csv(csv_path)["bar"]) == {"emogi", "device"}


def test_fig11_with_an_application_missing_on_one_graph(tables, tmp_path):
    """CC is skipped on directed graphs: that graph's panel has no CC bars, the other graph's has them."""
    apps = pd.read_csv(tables["apps"])
    path = tmp_path / "apps.csv"
    apps[~((apps["graph"] == GRAPHS[1]) & (apps["algorithm"] == "cc"))].to_csv(path, index=False)
    for script in (FIG11, FIG12):
        done, png, csv_path = draw(script, path, tables["source"], tmp_path)
        assert done.returncode == 0, done.stderr
        out = pd.read_csv(csv_path)
        assert set(out[out["graph"] == GRAPHS[1]]["algorithm"]) == {"bfs", "sssp", "pagerank"}
        assert "cc" in set(out[out["graph"] == GRAPHS[0]]["algorithm"])


def test_fig11_without_uvm_names_the_missing_baseline(tables, tmp_path):
    apps = pd.read_csv(tables["apps"])
    path = tmp_path / "apps.csv"
    apps[apps["mode"] != "uvm"].to_csv(path, index=False)
    done, png, _ = draw(FIG11, path, tables["source"], tmp_path)
    assert done.returncode != 0 and "no uvm runs" in done.stderr and not png.exists()


def test_fig12_speedup_and_byte_ratio(tables, tmp_path):
    done, png, csv_path = draw(FIG12, tables["apps"], tables["source"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert png.stat().st_size > 10_000
    out = pd.read_csv(csv_path).set_index(["graph", "algorithm"])
    for g_i, graph in enumerate(GRAPHS):
        for algorithm in ("bfs", "sssp", "cc", "pagerank"):
            row = out.loc[(graph, algorithm)]
            # the made-up 4-byte runs are 1.6x faster (within the 3% noise of the synthetic reps)
            assert row["speedup"] == pytest.approx(1.6, rel=0.06)
            assert row["speedup"] == pytest.approx(row["time_8_ms"] / row["time_4_ms"], rel=1e-5)
            assert row["time_8_ms"] == pytest.approx(
                synthetic_app_ms(g_i, algorithm, "merged-aligned", "zerocopy", 8), rel=0.06
            )
            assert row["byte_ratio"] == (1.5 if algorithm == "sssp" else 2.0)


def test_fig12_needs_both_widths(tables, tmp_path):
    apps = pd.read_csv(tables["apps"])
    path = tmp_path / "apps.csv"
    apps[apps["edge_bytes"] == 8].to_csv(path, index=False)
    done, png, _ = draw(FIG12, path, tables["source"], tmp_path)
    assert done.returncode != 0 and "4- and 8-byte" in done.stderr and not png.exists()


@pytest.mark.parametrize("script", [FIG11, FIG12])
@pytest.mark.parametrize("state", ["empty", "missing"])
def test_an_archive_without_applications_gives_a_page_saying_so(tables, tmp_path, script, state):
    path = tmp_path / "apps.csv"
    if state == "empty":
        path.write_text(",".join(APP_COLUMNS) + "\n")
    done, png, csv_path = draw(script, path, tables["source"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert png.exists() and pd.read_csv(csv_path).empty


def test_measure_skips_cc_on_a_directed_graph(tmp_path, capsys):
    offsets = np.array([0, 1, 2, 2], dtype=np.uint64)
    edges = np.array([1, 2], dtype=np.uint64)
    directed, undirected = tmp_path / "d.csr", tmp_path / "u.csr"
    csr.write_csr(directed, offsets, edges, directed=True)
    csr.write_csr(undirected, np.array([0, 1, 2], dtype=np.uint64), np.array([1, 0], dtype=np.uint64))
    assert "directed" in measure.skip_reason("run", ["--algorithm", "cc", "--graph", str(directed)])
    assert measure.skip_reason("run", ["--algorithm", "cc", "--graph", str(undirected)]) == ""
    assert measure.skip_reason("run", ["--algorithm", "sssp", "--graph", str(directed)]) == ""
    out = tmp_path / "apps.csv"
    # the binary is never started: the skip comes first, and the table is header-only
    measure.main(
        [
            "run",
            "--binary",
            str(tmp_path / "no-such-binary"),
            "--out",
            str(out),
            "--",
            "--algorithm",
            "cc",
            "--graph",
            str(directed),
        ]
    )
    assert list(pd.read_csv(out).columns) == APP_COLUMNS and pd.read_csv(out).empty
    assert "skipped" in capsys.readouterr().err


@pytest.mark.gpu
@pytest.mark.parametrize("algorithm", ["sssp", "pagerank"])
def test_measure_run_writes_the_apps_table(emogi_binary, tmp_path, algorithm):
    """On a GPU: the workflow's measure_app command, end to end on a small graph (rows verified and stamped)."""
    from graphs import write_generated

    graph = write_generated(tmp_path / "kron10.w4.csr", "kron", 10, dtype=np.uint32)
    roots = tmp_path / "roots.txt"
    from emogi.datasets.roots import pick_roots

    roots.write_text("".join(f"{r}\n" for r in pick_roots(csr.read_csr(graph).offsets, 2, 7)))
    out = tmp_path / "apps.csv"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "emogi.measure",
            "run",
            "--binary",
            str(emogi_binary),
            "--out",
            str(out),
            "--",
            "--algorithm",
            algorithm,
            "--graph",
            str(graph),
            "--name",
            "kron10",
            "--roots-file",
            str(roots),
            "--variants",
            "merged-aligned,frontier",
            "--modes",
            "zerocopy,uvm",
            "--reps",
            "2",
            "--warmup",
            "0",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = pd.read_csv(out)
    assert list(rows.columns) == APP_COLUMNS and rows["verified"].all()
    assert set(rows["algorithm"]) == {algorithm} and set(rows["edge_bytes"]) == {4}
    assert len(rows) == 2 * 2 * 2 * (2 if algorithm == "sssp" else 1)  # variants x modes x reps (x roots)
    assert rows["gpu"].notna().all() and rows["commit"].notna().all()


def test_check_apps_names_each_problem():
    from emogi.workflow import check_apps

    good = {
        "enabled": True,
        "modes": ["device", "zerocopy", "uvm"],
        "edge_bytes": [8, 4],
        "roots": 2,
        "variants": {"bfs": ["merged-aligned"], "sssp": ["merged-aligned", "frontier"]},
    }
    assert check_apps({"apps": good, "roots": {"count": 8}}) == []
    bad = dict(good, modes=["device"], edge_bytes=[8], roots=9, variants={"sssp": ["frontier"]})
    problems = check_apps({"apps": bad, "roots": {"count": 8}})
    assert len(problems) == 4
    assert any("zerocopy, uvm" in p for p in problems) and any("sssp lack merged-aligned" in p for p in problems)
    assert any("lacks 4" in p for p in problems) and any("apps.roots is 9" in p for p in problems)
    assert check_apps({"apps": dict(bad, enabled=False), "roots": {"count": 8}}) == []
