"""On a GPU: every BFS variant x memory mode x edge width agrees with the CPU reference; the managed-memory
guard refuses before allocating; the link probe and the profiler produce physically sensible numbers."""

import shutil

import numpy as np
import pandas as pd
import pytest

from conftest import run
from emogi import csr, schema
from emogi.datasets import generators
from tests.profiled import profile

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    """Small kron and urand graphs in both edge widths, with roots that have out-edges."""
    root = tmp_path_factory.mktemp("graphs")
    made = {}
    for kind, seed in (("kron", 3), ("urand", 4)):
        g = generators.generate(kind, 14, 16, seed)
        wide = root / f"{kind}.w8.csr"
        csr.write_csr(wide, g.offsets, g.edges, directed=g.directed)
        narrow = root / f"{kind}.w4.csr"
        csr.write_csr(narrow, g.offsets, g.edges.astype(np.uint32), directed=g.directed)
        degrees = np.diff(g.offsets)
        roots = np.flatnonzero(degrees)[[0, len(degrees) // 3 % np.count_nonzero(degrees), -1]]
        made[kind] = (wide, narrow, [int(r) for r in roots])
    return made


def bfs(binary, graph, root, *options, out):
    """`emogi bfs` on `graph` from `root` with `options`, its table to `out`."""
    return run([binary, "bfs", "--graph", graph, "--roots", root, *options, "--out", out])


@pytest.mark.parametrize("kind", ["kron", "urand"])
@pytest.mark.parametrize("width", [4, 8])
def test_every_variant_and_mode_is_verified(emogi_binary, graphs, tmp_path, kind, width):
    wide, narrow, roots = graphs[kind]
    out = tmp_path / "runs.csv"
    done = run(
        [
            emogi_binary,
            "bfs",
            "--graph",
            narrow if width == 4 else wide,
            "--name",
            kind,
            "--roots",
            ",".join(map(str, roots)),
            "--reps",
            "2",
            "--warmup",
            "1",
            "--out",
            out,
        ]
    )
    assert done.returncode == 0, done.stderr
    rows = pd.read_csv(out)
    bfs_variants = set(schema.VARIANTS_OF["bfs"])  # the default: every BFS variant
    assert len(rows) == len(bfs_variants) * len(schema.MODES) * len(roots) * 2
    assert set(rows["variant"]) == bfs_variants and set(rows["mode"]) == set(schema.MODES)
    assert rows["verified"].all() and (rows["edge_bytes"] == width).all() and (rows["time_ms"] > 0).all()
    # levels and edges come from the CPU reference of each root: identical across variants and modes
    assert (rows.groupby("root")[["levels", "edges_traversed"]].nunique() == 1).all().all()


def test_a_wrong_result_fails_the_run(emogi_binary, graphs, tmp_path):
    """Verification can fail: one depth flipped before the check must stop the run and leave no table."""
    wide, _, roots = graphs["kron"]
    options = ["--modes", "device", "--variants", "merged", "--test-corrupt-result"]
    done = bfs(emogi_binary, wide, roots[0], *options, out=tmp_path / "x.csv")
    assert done.returncode == 1 and "BFS result mismatch" in done.stderr and "1 vertices differ" in done.stderr
    assert not (tmp_path / "x.csv").exists()


def test_roots_without_out_edges_are_refused(emogi_binary, graphs, tmp_path):
    wide, _, _ = graphs["kron"]
    isolated = int(np.flatnonzero(np.diff(csr.read_csr(wide).offsets) == 0)[0])
    done = bfs(emogi_binary, wide, str(isolated), out=tmp_path / "x.csv")
    assert done.returncode == 1 and "not a vertex with out-edges" in done.stderr
    assert not (tmp_path / "x.csv").exists()


# uvm modes only: zero-copy's managed memory stays on the host, so a budget does not count it
# (test_gpu_budget.py::test_zero_copy_runs_at_a_budget_below_the_lists).
@pytest.mark.parametrize("mode", ["uvm", "uvm-warm"])
def test_managed_guard_refuses_before_allocating(emogi_binary, graphs, tmp_path, mode):
    wide, _, roots = graphs["urand"]
    done = bfs(emogi_binary, wide, roots[0], "--modes", mode, "--gpu-memory-budget", "1M", out=tmp_path / "x.csv")
    assert done.returncode == 1
    assert "refusing to allocate" in done.stderr and "--allow-managed-oversubscription" in done.stderr
    assert not (tmp_path / "x.csv").exists()


def test_pinned_mode_is_not_limited_by_the_managed_guard(emogi_binary, graphs, tmp_path):
    wide, _, roots = graphs["urand"]
    options = ["--modes", "zerocopy-pinned", "--gpu-memory-budget", "1M", "--reps", "1"]
    done = bfs(emogi_binary, wide, roots[0], *options, out=tmp_path / "x.csv")
    assert done.returncode == 0, done.stderr


def test_link_probe(emogi_binary, tmp_path):
    done = run([emogi_binary, "linkbw", "--sizes", "1M,64M", "--reps", "3", "--out", tmp_path / "link.csv"])
    assert done.returncode == 0, done.stderr
    rows = pd.read_csv(tmp_path / "link.csv")
    assert len(rows) == 2 * 2 * 2 * 3
    # any PCIe or NVLink link moves between 1 and 1000 GB/s
    assert rows["gbps"].between(1, 1000).all()


@pytest.mark.skipif(shutil.which("ncu") is None, reason="Nsight Compute (ncu) not installed")
def test_profile_counters_are_physical(emogi_binary, graphs, tmp_path):
    wide, _, roots = graphs["kron"]
    args = ["--graph", wide, "--name", "kron", "--roots", roots[0]]
    args += ["--variants", "naive,merged-aligned", "--modes", "device,zerocopy,uvm"]
    p = profile(emogi_binary, "bfs", tmp_path / "r.ncu-rep", tmp_path / "profile.csv", *args)
    p = p.set_index(["variant", "mode"])
    edge_bytes = csr.read_header(wide).num_edges * 8
    # zero-copy reads come from system memory; merged+aligned makes requests larger than the naive 32-byte ones
    assert (
        p.loc[("merged-aligned", "zerocopy"), "avg_request_bytes"] > p.loc[("naive", "zerocopy"), "avg_request_bytes"]
    )
    assert 32 <= p.loc[("naive", "zerocopy"), "avg_request_bytes"] <= 128
    assert p.loc[("merged-aligned", "zerocopy"), "pcie_read_bytes"] > 0.5 * edge_bytes
    # device mode reads no system memory
    assert p.loc[("merged-aligned", "device"), "sysmem_read_sectors"] == 0
    # cold UVM migrates pages over the link: at least the bytes a zero-copy run fetches
    assert p.loc[("merged-aligned", "uvm"), "pcie_read_bytes"] > 0.5 * edge_bytes


@pytest.mark.skipif(shutil.which("ncu") is None, reason="Nsight Compute (ncu) not installed")
def test_profile_launches_add_up_to_the_run(emogi_binary, graphs, tmp_path):
    """`emogi.profile run --launches`: one row per kernel launch (a level's list build and expansion), which sum
    to the run's own row."""
    wide, _, roots = graphs["kron"]
    launches = tmp_path / "launches.csv"
    args = ["--algorithm", "bfs", "--graph", wide, "--name", "kron", "--roots", roots[0]]
    args += ["--variants", "frontier", "--modes", "zerocopy"]
    table = profile(
        emogi_binary, "run", tmp_path / "r.ncu-rep", tmp_path / "profile.csv", *args, options=["--launches", launches]
    )
    run_row, per_launch = table.iloc[0], pd.read_csv(launches)
    assert len(per_launch) == run_row["launches"] > 2 and list(per_launch["launch"]) == list(range(len(per_launch)))
    assert per_launch["kernel"].str.contains("expand_worklist").any()
    for column in ("sysmem_read_sectors", "pcie_read_bytes", "gpu_time_ns"):
        assert per_launch[column].sum() == pytest.approx(run_row[column])
    assert (per_launch["graph"] == "kron").all() and per_launch["gpu"].notna().all()
