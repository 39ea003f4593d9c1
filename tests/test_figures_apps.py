"""Figs. 11 and 12 (the applications of EMOGI §5.4) on SYNTHETIC apps tables (tests/synthetic_tables.py), and the
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
from tests.synthetic_tables import GRAPHS, run_figure, synthetic_app_ms, write_synthetic_tables

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


def _fig11_drawn(table, source_path):
    import json

    from figures import fig11_applications as fig11

    f = fig11.draw(table, json.loads(Path(source_path).read_text()))
    f.canvas.draw()
    return f


def test_fig11_names_each_bars_variant_and_the_uvm_baseline_apart(tables):
    """Issue 26: the fastest variant's short name sat under the UVM time, reading as if UVM had run it. Now each
    fastest and device bar carries its own variant's name, the tick under a group names the UVM baseline's
    variant (and its time), and a key spells every short name out."""
    from figures import fig11_applications as fig11
    from figures import style

    table = fig11.speedups(pd.read_csv(tables["apps"]))
    # a group whose UVM baseline is not the fastest zero-copy variant: the two names must not be confused
    table.loc[table["algorithm"] == "bfs", "uvm_baseline_variant"] = "merged-aligned"
    f = _fig11_drawn(table, tables["source"])
    texts = [t.get_text() for t in f.texts]
    for ax, graph in zip(f.axes, dict.fromkeys(table["graph"])):
        rows = table[table["graph"] == graph]
        on_bars = sorted(t.get_text() for t in ax.texts if t.get_rotation() == 90)
        named = rows[rows["bar"].isin(fig11.NAMED_BARS)]
        assert on_bars == sorted(style.variant_short(v) for v in named["variant"])
        ticks = [t.get_text() for t in ax.get_xticklabels()]
        for algorithm, tick in zip(fig11.apps_lib.algorithms_in(rows), ticks):
            g = rows[rows["algorithm"] == algorithm]
            base = g["uvm_baseline_variant"].iloc[0]
            assert tick.splitlines()[1] == f"UVM ({style.variant_short(base)})", tick
            assert fig11.apps_lib.time_text(g["uvm_baseline_ms"].iloc[0]) in tick
            fastest = g.loc[g["bar"] == "fastest", "variant"]
            if len(fastest) and fastest.iloc[0] != base:  # the fastest variant is named on its bar only
                assert style.variant_short(fastest.iloc[0]) not in tick
    key = "\n".join(texts)
    for v in set(table["variant"]) | set(table["uvm_baseline_variant"]):
        if style.variant_short(v) != style.variant_name(v):
            assert f"{style.variant_short(v)} = {style.variant_name(v)}" in key


def test_fig11_a_name_too_long_for_its_bar_goes_above_it(tables):
    from figures import fig11_applications as fig11

    table = fig11.speedups(pd.read_csv(tables["apps"]))
    graph = table["graph"].iloc[0]
    low = (table["graph"] == graph) & (table["algorithm"] == "bfs")
    table.loc[low & (table["bar"] == "emogi"), "speedup"] = 0.01
    table.loc[low & (table["bar"] == "fastest"), "speedup"] = 0.0105  # a stub of a bar on a five-decade axis
    table.loc[(table["bar"] == "device"), "speedup"] = 1000.0
    f = _fig11_drawn(table, tables["source"])
    ax = f.axes[0]
    bottom = ax.transData.transform((0, 0.0105))[1]
    stub = [t for t in ax.texts if t.get_rotation() == 90 and t.get_window_extent().x0 < ax.bbox.x0 + ax.bbox.width / 4]
    assert len(stub) == 2  # BFS's fastest and device bars
    fastest_name = min(stub, key=lambda t: t.get_window_extent().x0)
    assert fastest_name.get_window_extent().y0 > bottom  # above the bar's top, not across it


def test_every_variant_has_a_short_name_and_a_label():
    """Fig. 11 writes any variant's short name on a bar and spells it out in its key (emogi/registry.yaml)."""
    from emogi.schema import ALL_VARIANTS
    from figures import style

    for v in ALL_VARIANTS:
        assert v in style.VARIANT_NAMES, f"emogi/registry.yaml: variant {v} needs a style label"
        assert len(style.variant_short(v)) <= len(style.variant_name(v))
