"""The kernel benchmark (`snakemake bench`, workflow/rules/bench.smk and emogi.bench): its graphs made by the study's
rules and equal to the in-memory generator, the plan of cells, the summary's rates and bytes, the refusals at
start-up, and on a GPU one small end-to-end run whose every row is verified."""

import importlib.util
import json
import os
import re
import shutil
import sys

import numpy as np
import pandas as pd
import pytest

from conftest import REPO, run
from emogi import bench, csr, schema, workflow
from emogi.datasets import generators, roots
from test_workflow import snakemake

# config.yaml's bench.algorithms: the study's four (SpMV, issue 22, is not in the default bench).
BENCH_ALGORITHMS = ("bfs", "sssp", "cc", "pagerank")
BENCH = {
    "graphs": ["kron:21", "urand:21"],
    "seed": 24,
    "widths": [8, 4],
    "algorithms": list(BENCH_ALGORITHMS),
    "modes": list(schema.PLAIN_MODES),
    "variants": [],
    "roots": 2,
    "reps": 2,
    "warmup": 1,
    "profile": False,
}


def bench_config(path, **bench_keys):
    path.write_text("bench:\n" + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in bench_keys.items()))
    return path.name


# ---------------------------------------------------------------------------------------------- graphs


def test_bench_graphs_are_made_by_the_studys_rules_and_equal_the_in_memory_generator(workdir):
    config = bench_config(workdir / "b.yaml", graphs=["kron:11"], seed=5, roots=2)
    done = snakemake(
        workdir,
        "resources/graphs/kron11.w8.csr",
        "resources/graphs/kron11.w4.csr",
        "results/bench/roots/kron11.txt",
        "--configfile",
        config,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    for rule in ("generate_graph", "narrow_graph", "bench_roots"):
        assert f"rule {rule}:" in done.stdout + done.stderr
    want = generators.generate("kron", 11, 16, 5, weights_seed=5)
    wide, narrow = (csr.read_csr(workdir / f"resources/graphs/kron11.w{w}.csr") for w in (8, 4))
    for got in (wide, narrow):
        assert np.array_equal(got.offsets, want.offsets) and np.array_equal(got.edges, want.edges)
        assert np.array_equal(got.weights, want.weights)
    assert narrow.edges.dtype == np.uint32 and wide.edges.dtype == np.uint64
    picked = [int(r) for r in (workdir / "results/bench/roots/kron11.txt").read_text().split()]
    assert picked == roots.pick_roots(want.offsets, 2, 5).tolist()  # the roots the bench always drew


def test_bench_graphs_are_study_graph_specs():
    specs = bench.graph_specs(BENCH, {"kron23": {"source": "generator", "generator": "kron", "scale": 23}})
    assert specs == {
        name: {"source": "generator", "generator": kind, "scale": 21, "edge_factor": 16, "seed": 24, "weights_seed": 24}
        for name, kind in (("kron21", "kron"), ("urand21", "urand"))
    }
    # a study graph that is the same GAP graph is made once, for both
    same = {"urand21": {"generator": "urand", "scale": 21, "seed": 24, "weights_seed": 24, "paper": "GU"}}
    assert list(bench.graph_specs(BENCH, same)) == ["kron21"]
    with pytest.raises(ValueError, match=re.escape("config graphs.kron21 makes with another seed, weights_seed")):
        bench.graph_specs(BENCH, {"kron21": {"generator": "kron", "scale": 21, "seed": 21, "weights_seed": 21}})


# ---------------------------------------------------------------------------------------------- the plan


def test_cells_follow_the_table_order_graph_width_algorithm():
    assert bench.cells(BENCH)[:5] == [
        ("bfs", "kron21", 8),
        ("sssp", "kron21", 8),
        ("cc", "kron21", 8),
        ("pagerank", "kron21", 8),
        ("bfs", "kron21", 4),
    ]
    assert len(bench.cells(BENCH)) == 16
    assert bench.run_parts(BENCH)[-1] == "results/bench/runs/pagerank.urand21.w4.csv"
    assert bench.profile_parts(BENCH) == []
    profiled = {**BENCH, "profile": True}
    assert bench.profile_parts(profiled)[0] == "results/bench/profiles/bfs.kron21.w8.csv"
    assert bench.profile_parts({**profiled, "modes": ["device", "uvm"]}) == []  # nothing read from host memory
    assert bench.host_modes(schema.ALL_MODES) == ["zerocopy", "zerocopy-pinned", "zerocopy-registered", "auto"]
    variants = bench.variants_by_algorithm(["bfs", "cc"], "merged-aligned,afforest")
    assert bench.run_args(variants, "bfs", "g.csr", "g", bench.roots_file("bfs", "g")) == (
        "--algorithm bfs --graph g.csr --name g --variants merged-aligned --roots-file results/bench/roots/g.txt"
    )
    assert bench.run_args(variants, "cc", "g.csr", "g", bench.roots_file("cc", "g")).endswith(
        "--variants merged-aligned,afforest"
    )  # CC and PageRank start from no root


def test_named_variants_go_to_the_algorithms_that_have_them():
    assert bench.variants_by_algorithm(["bfs", "cc"], "") == {
        "bfs": schema.VARIANTS_OF["bfs"],
        "cc": schema.VARIANTS_OF["cc"],
    }
    picked = bench.variants_by_algorithm(["bfs", "cc", "pagerank"], "merged-aligned,afforest,gauss-seidel")
    assert picked == {
        "bfs": ("merged-aligned",),
        "cc": ("merged-aligned", "afforest"),
        "pagerank": ("merged-aligned", "gauss-seidel"),
    }
    with pytest.raises(ValueError, match=re.escape("no chosen algorithm has variant(s) afforest")):
        bench.variants_by_algorithm(["bfs"], "naive,afforest")
    with pytest.raises(ValueError, match="applies to bfs, sssp"):
        bench.variants_by_algorithm(["bfs", "sssp", "cc"], "afforest")


def test_the_plan_times_every_cell_in_one_gpu_job_per_algorithm_graph_and_width(workdir):
    done = snakemake(workdir, "-n", "-p", "bench")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    jobs = dict(re.findall(r"^(\w+)\s+(\d+)$", out, re.MULTILINE))
    assert jobs["bench_run"] == "16" and jobs["bench_link"] == "1" and jobs["bench"] == "1"
    assert "generate_graph" in jobs and "narrow_graph" in jobs and "bench_profile" not in jobs
    assert "/tmp/emogi" not in out  # W is measured into results/bench/link.csv
    assert (
        "--algorithm cc --graph resources/graphs/urand21.w4.csr --name urand21 --variants "
        + ",".join(schema.VARIANTS_OF["cc"])
        + " --modes "
        + ",".join(schema.PLAIN_MODES)
        + " --reps 2"
    ) in out
    assert "--roots-file results/bench/roots/kron21.txt" in out


def test_bench_target_passes_its_profile_switch(workdir):
    for value, profiled in ((False, False), (True, True)):
        config = bench_config(workdir / "b.yaml", profile=value, modes=["device", "zerocopy"])
        done = snakemake(workdir, "-n", "-p", "bench", "--configfile", config)
        assert done.returncode == 0, done.stderr
        assert "python3 -m emogi.bench summary" in done.stdout
        assert ("python3 -m emogi.profile run" in done.stdout) == profiled
        if profiled:  # only the modes that read host memory are profiled
            assert "--modes zerocopy > logs/bench/profile_bfs.kron21.w8.log" in done.stdout


def test_variant_no_algorithm_has_is_refused_at_start_up(workdir):
    config = bench_config(workdir / "b.yaml", algorithms=["bfs"], variants=["gauss-seidel"])
    done = snakemake(workdir, "-n", "bench", "--configfile", config)
    assert done.returncode != 0 and "no chosen algorithm has variant(s) gauss-seidel" in done.stdout + done.stderr


def test_bench_without_a_gpu_refuses_before_building_anything(workdir, tmp_path):
    """`snakemake bench` where nvidia-smi is missing stops at start-up with the reason on one line: no build, no
    graph, no table (it used to compile the kernels for a minute and then fail)."""
    bare = tmp_path / "bin"
    bare.mkdir()
    if shutil.which("which"):  # the SLURM executor plugin, where installed, runs `which sacct` as snakemake loads it
        (bare / "which").symlink_to(shutil.which("which"))
    env = {"PATH": str(bare), "HOME": os.environ.get("HOME", str(tmp_path)), "PYTHONPATH": str(workdir)}
    done = run([sys.executable, "-m", "snakemake", "--cores", "2", "bench"], cwd=workdir, env=env)
    assert done.returncode != 0
    reason = [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("bench: ")]
    assert len(reason) == 1 and "none is usable here (nvidia-smi not found)" in reason[0], done.stderr[-2000:]
    for made in ("build", "resources", "results"):
        assert not (workdir / made).exists(), made
    assert workflow.bench_refusal(["results/bench/roots/kron21.txt"]) is None  # the CPU's part may be made
    assert workflow.wants_bench(["bench"]) and workflow.wants_bench(["results/bench/summary.csv"])
    assert not workflow.wants_bench([]) and not workflow.wants_bench(["all", "results/tables/runs.csv"])


# ---------------------------------------------------------------------------------------------- the numbers


def test_summary_counts_weights_for_sssp_only():
    runs = pd.DataFrame(
        {
            "algorithm": ["bfs", "bfs", "bfs", "sssp"],
            "graph": "g",
            "edge_bytes": [8, 8, 8, 4],
            "variant": "merged",
            "mode": "zerocopy",
            "time_ms": [10.0, 30.0, 20.0, 10.0],
            "edges_traversed": [1e6, 1e6, 1e6, 2e6],
        }
    )
    s = bench.summarise(runs, w_gbps=1.0).set_index("algorithm")
    assert s.loc["bfs", "runs"] == 3 and s.loc["bfs", "median_ms"] == 20.0
    assert (s.loc["bfs", "min_ms"], s.loc["bfs", "max_ms"]) == (10.0, 30.0)
    assert s.loc["bfs", "edges_per_s"] == pytest.approx(5e7)
    assert s.loc["bfs", "gbps"] == pytest.approx(0.4)  # 8 B per edge
    assert s.loc["sssp", "gbps"] == pytest.approx(2e8 * 8 / 1e9)  # 4 B id + 4 B weight
    assert s.loc["sssp", "fraction_of_w"] == pytest.approx(1.6)


def test_fetched_ratio_joins_the_profile_root_by_root():
    # BFS: two roots whose lists need 8 and 16 MB; CC: no root (empty in both tables)
    runs = pd.DataFrame(
        {
            "algorithm": ["bfs"] * 4 + ["cc"] * 2,
            "graph": "g",
            "edge_bytes": 8,
            "variant": "merged-aligned",
            "mode": "zerocopy",
            "root": [1, 1, 2, 2, np.nan, np.nan],
            "time_ms": [1.0, 3.0, 2.0, 2.0, 4.0, 4.0],
            "edges_traversed": [1e6, 1e6, 2e6, 2e6, 5e6, 5e6],
        }
    )
    profile = pd.DataFrame(
        {
            "algorithm": ["bfs", "bfs", "cc"],
            "graph": "g",
            "edge_bytes": 8,
            "variant": "merged-aligned",
            "mode": "zerocopy",
            "root": pd.array([1, 2, None], dtype="Int64"),
            "sysmem_read_sectors": [0.25e6 * 1.5, 0.5e6 * 1.0, 1.25e6 * 1.2],
        }
    )
    s = bench.summarise(runs, w_gbps=10.0, profile=profile).set_index("algorithm")
    assert s.loc["bfs", "fetched_ratio"] == pytest.approx((12e6 + 16e6) / 24e6)  # summed over the roots
    assert s.loc["cc", "fetched_ratio"] == pytest.approx(1.2)
    assert s.loc["cc", "fetched_fraction_of_w"] == pytest.approx(s.loc["cc", "fraction_of_w"] * 1.2)
    # without a profile the columns are there and empty
    assert bench.summarise(runs, w_gbps=10.0)["fetched_ratio"].isna().all()


def test_link_limit_is_the_best_median_pinned_upload():
    link = pd.DataFrame(
        {
            "direction": ["h2d"] * 4 + ["d2h", "h2d"],
            "size_bytes": [1, 1, 1, 2, 2, 2],
            "host_memory": ["pinned"] * 5 + ["pageable"],
            "gbps": [50.0, 52.0, 51.0, 53.0, 90.0, 99.0],
        }
    )
    assert bench.link_limit(link) == 53.0
    with pytest.raises(ValueError, match="no pinned host-to-device rows"):
        bench.link_limit(link[link["host_memory"] == "pageable"])


def test_summary_gathers_the_cells_and_prints_the_table(tmp_path):
    cell = {
        "gpu": "H",
        "driver": "d",
        "cuda": "c",
        "commit": "x",
        "date": "t",
        "graph": "kron10",
        "edge_bytes": 8,
        "variant": "merged-aligned",
    }
    parts = []
    for algorithm, root in (("bfs", 3), ("cc", None)):
        parts.append(tmp_path / f"{algorithm}.csv")
        pd.DataFrame(
            {
                **cell,
                "algorithm": algorithm,
                "mode": ["zerocopy", "uvm"],
                "root": root,
                "time_ms": [1.0, 2.0],
                "edges_traversed": 1e6,
                "verified": True,
            }
        ).to_csv(parts[-1], index=False)
    link = pd.DataFrame({"direction": "h2d", "host_memory": "pinned", "size_bytes": [1, 2], "gbps": [40.0, 50.0]})
    link.to_csv(tmp_path / "link.csv", index=False)
    (tmp_path / "provenance.json").write_text(json.dumps({"gpu": "H", "loads_in_flight": 4}))
    profile = tmp_path / "profile.csv"
    pd.DataFrame(
        {**cell, "algorithm": "bfs", "mode": ["zerocopy"], "root": [3], "sysmem_read_sectors": [0.25e6 * 1.1]}
    ).to_csv(profile, index=False)
    out = tmp_path / "out"
    done = run(
        [
            sys.executable,
            "-m",
            "emogi.bench",
            "summary",
            "--runs",
            *parts,
            "--link",
            tmp_path / "link.csv",
            "--provenance",
            tmp_path / "provenance.json",
            "--profiles",
            profile,
            "--out-dir",
            out,
        ],
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert "link limit W = 50.0 GB/s" in done.stderr and "fraction_of_w" in done.stdout
    runs, summary = pd.read_csv(out / "runs.csv"), pd.read_csv(out / "summary.csv")
    assert len(runs) == 4 and list(runs["algorithm"]) == ["bfs", "bfs", "cc", "cc"]
    assert list(summary.columns) == bench.SUMMARY_COLUMNS and len(summary) == 4
    assert (summary["loads_in_flight"] == 4).all() and float((out / "link_limit_gbps.txt").read_text()) == 50.0
    s = summary.set_index(["algorithm", "mode"])
    assert s.loc[("bfs", "zerocopy"), "fetched_ratio"] == pytest.approx(1.1)
    assert s.loc[("bfs", "zerocopy"), "fraction_of_w"] == pytest.approx(8e9 / 1e9 / 50.0)
    assert s[["fetched_ratio"]].drop(("bfs", "zerocopy")).isna().all().all()


# ---------------------------------------------------------------------------------------------- on a GPU

# the bench target runs through snakemake: a device without its wheels (EMOGI_WHEELS=none) skips these two
needs_snakemake = pytest.mark.skipif(
    importlib.util.find_spec("snakemake") is None, reason="snakemake is not installed: carry its wheels (.whl/)"
)


@pytest.mark.gpu
@needs_snakemake
def test_bench_end_to_end(emogi_binary, workdir):
    config = bench_config(
        workdir / "b.yaml", binary=str(emogi_binary), graphs=["kron:10", "urand:10"], widths=[8, 4], roots=1, reps=1
    )
    done = snakemake(workdir, "bench", "--configfile", config)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    out = workdir / "results" / "bench"
    runs, summary = pd.read_csv(out / "runs.csv"), pd.read_csv(out / "summary.csv")
    assert runs["verified"].all() and set(runs["algorithm"]) == set(BENCH_ALGORITHMS)
    assert set(summary["mode"]) == set(schema.PLAIN_MODES) and set(summary["edge_bytes"]) == {4, 8}
    # the whole matrix: every variant of every algorithm in every mode at both widths on both graphs
    assert len(summary) == 2 * 2 * len(schema.PLAIN_MODES) * sum(len(schema.VARIANTS_OF[a]) for a in BENCH_ALGORITHMS)
    assert (summary["gbps"] > 0).all() and runs["gpu"].notna().all()
    assert "fraction_of_w" in done.stdout
    assert float((out / "link_limit_gbps.txt").read_text()) > 0


@pytest.mark.gpu
@needs_snakemake
@pytest.mark.skipif(shutil.which("ncu") is None, reason="Nsight Compute (ncu) not installed")
def test_bench_profile_counts_the_bytes_fetched(emogi_binary, workdir):
    config = bench_config(
        workdir / "b.yaml",
        binary=str(emogi_binary),
        graphs=["kron:12"],
        widths=[8],
        roots=1,
        reps=1,
        modes=["device", "zerocopy"],
        variants=["merged-aligned"],
        profile=True,
    )
    done = snakemake(workdir, "bench", "--configfile", config)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    out = workdir / "results" / "bench"
    s = pd.read_csv(out / "summary.csv").set_index(["algorithm", "mode"])
    # every algorithm's zero-copy run fetched at least the lists it needed, and not much more: merged+aligned
    # loads only the sectors of the lists (partial ones at the ends, where neighbours may share one)
    assert s.xs("zerocopy", level="mode")["fetched_ratio"].between(1.0, 1.6).all(), s
    assert s.xs("device", level="mode")["fetched_ratio"].isna().all()  # not profiled: reads no host memory
    assert len(list((out / "profiles").glob("*.ncu-rep"))) == 4
