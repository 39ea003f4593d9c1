"""The kernel benchmark (emogi.bench): graphs built the same as the in-memory generator, the summary's rates
and bytes, and on a GPU one small end-to-end run whose every row is verified."""
import re
import shutil
import sys

import numpy as np
import pandas as pd
import pytest

from conftest import REPO, run
from emogi import bench, csr, schema
from emogi.datasets import generators


def test_bench_graphs_equal_the_in_memory_generator(tmp_path):
    paths = bench.make_graph("kron", 11, 5, tmp_path, [8, 4])
    want = generators.generate("kron", 11, 16, 5, weights_seed=5)
    wide, narrow = csr.read_csr(paths[8]), csr.read_csr(paths[4])
    for got in (wide, narrow):
        assert np.array_equal(got.offsets, want.offsets) and np.array_equal(got.edges, want.edges)
        assert np.array_equal(got.weights, want.weights)
    assert narrow.edges.dtype == np.uint32 and wide.edges.dtype == np.uint64
    mtime = paths[8].stat().st_mtime_ns
    bench.make_graph("kron", 11, 5, tmp_path, [8])  # kept, not rebuilt
    assert paths[8].stat().st_mtime_ns == mtime


def test_summary_counts_weights_for_sssp_only():
    runs = pd.DataFrame({"algorithm": ["bfs", "bfs", "bfs", "sssp"], "graph": "g", "edge_bytes": [8, 8, 8, 4],
                         "variant": "merged", "mode": "zerocopy", "time_ms": [10.0, 30.0, 20.0, 10.0],
                         "edges_traversed": [1e6, 1e6, 1e6, 2e6]})
    s = bench.summarise(runs, w_gbps=1.0).set_index("algorithm")
    assert s.loc["bfs", "runs"] == 3 and s.loc["bfs", "median_ms"] == 20.0
    assert (s.loc["bfs", "min_ms"], s.loc["bfs", "max_ms"]) == (10.0, 30.0)
    assert s.loc["bfs", "edges_per_s"] == pytest.approx(5e7)
    assert s.loc["bfs", "gbps"] == pytest.approx(0.4)          # 8 B per edge
    assert s.loc["sssp", "gbps"] == pytest.approx(2e8 * 8 / 1e9)  # 4 B id + 4 B weight
    assert s.loc["sssp", "fraction_of_w"] == pytest.approx(1.6)


def test_fetched_ratio_joins_the_profile_root_by_root():
    # BFS: two roots whose lists need 8 and 16 MB; CC: no root (empty in both tables)
    runs = pd.DataFrame({"algorithm": ["bfs"] * 4 + ["cc"] * 2, "graph": "g", "edge_bytes": 8,
                         "variant": "merged-aligned", "mode": "zerocopy", "root": [1, 1, 2, 2, np.nan, np.nan],
                         "time_ms": [1.0, 3.0, 2.0, 2.0, 4.0, 4.0],
                         "edges_traversed": [1e6, 1e6, 2e6, 2e6, 5e6, 5e6]})
    profile = pd.DataFrame({"algorithm": ["bfs", "bfs", "cc"], "graph": "g", "edge_bytes": 8,
                            "variant": "merged-aligned", "mode": "zerocopy",
                            "root": pd.array([1, 2, None], dtype="Int64"),
                            "sysmem_read_sectors": [0.25e6 * 1.5, 0.5e6 * 1.0, 1.25e6 * 1.2]})
    s = bench.summarise(runs, w_gbps=10.0, profile=profile).set_index("algorithm")
    assert s.loc["bfs", "fetched_ratio"] == pytest.approx((12e6 + 16e6) / 24e6)  # summed over the roots
    assert s.loc["cc", "fetched_ratio"] == pytest.approx(1.2)
    assert s.loc["cc", "fetched_fraction_of_w"] == pytest.approx(s.loc["cc", "fraction_of_w"] * 1.2)
    # without a profile the columns are there and empty
    assert bench.summarise(runs, w_gbps=10.0)["fetched_ratio"].isna().all()


def test_unknown_algorithm_is_refused(tmp_path):
    done = run([sys.executable, "-m", "emogi.bench", "--binary", "nonexistent", "--algorithms", "bfs,dfs",
                "--out-dir", tmp_path], cwd=REPO)
    assert done.returncode == 2 and "unknown algorithm(s) ['dfs']" in done.stderr
    assert not list(tmp_path.iterdir())


def test_named_variants_go_to_the_algorithms_that_have_them():
    assert bench.variants_by_algorithm(["bfs", "cc"], "") == {"bfs": schema.VARIANTS_OF["bfs"],
                                                              "cc": schema.VARIANTS_OF["cc"]}
    picked = bench.variants_by_algorithm(["bfs", "cc", "pagerank"], "merged-aligned,afforest,gauss-seidel")
    assert picked == {"bfs": ("merged-aligned",), "cc": ("merged-aligned", "afforest"),
                      "pagerank": ("merged-aligned", "gauss-seidel")}
    with pytest.raises(ValueError, match=re.escape("no chosen algorithm has variant(s) afforest")):
        bench.variants_by_algorithm(["bfs"], "naive,afforest")
    with pytest.raises(ValueError, match="applies to bfs, sssp"):
        bench.variants_by_algorithm(["bfs", "sssp", "cc"], "afforest")


def test_variant_no_algorithm_has_is_refused_before_any_work(tmp_path):
    done = run([sys.executable, "-m", "emogi.bench", "--binary", "nonexistent", "--algorithms", "bfs",
                "--variants", "gauss-seidel", "--out-dir", tmp_path], cwd=REPO)
    assert done.returncode == 2 and "no chosen algorithm has variant(s) gauss-seidel" in done.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.gpu
def test_bench_end_to_end(emogi_binary, tmp_path):
    out = tmp_path / "bench"
    done = run([sys.executable, "-m", "emogi.bench", "--binary", emogi_binary, "--graphs", "kron:10,urand:10",
                "--widths", "8,4", "--roots", "1", "--reps", "1", "--graph-dir", tmp_path / "graphs",
                "--out-dir", out], cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    runs, summary = pd.read_csv(out / "runs.csv"), pd.read_csv(out / "summary.csv")
    assert runs["verified"].all() and set(runs["algorithm"]) == set(bench.ALGORITHMS)
    assert set(summary["mode"]) == set(bench.MODES.split(",")) and set(summary["edge_bytes"]) == {4, 8}
    assert (summary["gbps"] > 0).all() and runs["gpu"].notna().all()
    assert "fraction_of_w" in done.stdout


@pytest.mark.gpu
@pytest.mark.skipif(shutil.which("ncu") is None, reason="Nsight Compute (ncu) not installed")
def test_bench_profile_counts_the_bytes_fetched(emogi_binary, tmp_path):
    out = tmp_path / "bench"
    done = run([sys.executable, "-m", "emogi.bench", "--binary", emogi_binary, "--graphs", "kron:12",
                "--widths", "8", "--roots", "1", "--reps", "1", "--modes", "device,zerocopy",
                "--variants", "merged-aligned", "--profile", "--graph-dir", tmp_path / "graphs", "--out-dir", out],
               cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    s = pd.read_csv(out / "summary.csv").set_index(["algorithm", "mode"])
    # every algorithm's zero-copy run fetched at least the lists it needed, and not much more: merged+aligned
    # loads only the sectors of the lists (partial ones at the ends, where neighbours may share one)
    assert s.xs("zerocopy", level="mode")["fetched_ratio"].between(1.0, 1.6).all(), s
    assert s.xs("device", level="mode")["fetched_ratio"].isna().all()  # not profiled: reads no host memory
    assert len(list((out / "profiles").glob("*.ncu-rep"))) == 4


def test_bench_without_a_gpu_says_so_before_any_work(tmp_path):
    done = run([sys.executable, "-m", "emogi.bench", "--binary", "unused", "--graph-dir", tmp_path / "graphs",
                "--out-dir", tmp_path / "out"], cwd=REPO, env={"PATH": str(tmp_path), "PYTHONPATH": str(REPO)})
    assert done.returncode == 2 and "none is usable here (nvidia-smi not found)" in done.stderr
    assert not list(tmp_path.iterdir())  # no graph folder, no tables
