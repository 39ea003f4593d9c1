"""On a GPU: each microbenchmark verifies its own work (copies compared, chases ending on the host-computed
line) and reports numbers with the physical ordering the model relies on."""

import shutil
import sys

import numpy as np
import pandas as pd
import pytest

from conftest import run
from emogi import csr
from graphs import EDGE_CASES, write_generated, write_undirected
from tests.profiled import profile

pytestmark = pytest.mark.gpu


def micro(binary, tmp_path, command, *args):
    out = tmp_path / f"{command}.csv"
    done = run([binary, command, *args, "--out", out])
    assert done.returncode == 0, done.stderr[-3000:]
    return pd.read_csv(out)


def test_toy_copies_are_verified_and_merging_pays(emogi_binary, tmp_path):
    t = micro(
        emogi_binary, tmp_path, "toy", "--bytes", "256M", "--modes", "zerocopy,zerocopy-pinned,device", "--reps", "2"
    )
    assert len(t) == 3 * 3 * 2 * 2 and t["verified"].all()
    g = t.groupby(["mode", "pattern", "element_bytes"]).gbps.median()
    for mode in ("zerocopy", "zerocopy-pinned"):
        # 128-byte requests instead of 32-byte ones: the paper's 3-4x (EMOGI Fig. 4)
        assert g[(mode, "merged-aligned", 8)] > 2 * g[(mode, "strided", 8)]
        # no host-memory copy beats device memory
        assert g[(mode, "merged-aligned", 8)] < g[("device", "merged-aligned", 8)]


def test_chase_latency_orders_device_before_host(emogi_binary, tmp_path):
    t = micro(
        emogi_binary,
        tmp_path,
        "chase",
        "--modes",
        "device,zerocopy,zerocopy-pinned",
        "--footprints",
        "4M,256M",
        "--steps",
        "5000",
        "--reps",
        "2",
    )
    assert len(t) == 3 * 2 * 2 and t["verified"].all()
    lat = t.groupby(["mode", "footprint_bytes"]).latency_ns.median()
    for footprint in (4 << 20, 256 << 20):
        assert lat[("device", footprint)] < lat[("zerocopy", footprint)]
        # a dependent read over PCIe takes between 0.3 and 10 microseconds on any current system
        assert 300 < lat[("zerocopy", footprint)] < 10_000 and 300 < lat[("zerocopy-pinned", footprint)] < 10_000


def test_concurrency_follows_littles_law_at_low_load(emogi_binary, tmp_path):
    c = micro(
        emogi_binary,
        tmp_path,
        "concurrency",
        "--modes",
        "zerocopy",
        "--footprints",
        "256M",
        "--request-bytes",
        "128",
        "--warps",
        "1,16,256,2048",
        "--reads-per-warp",
        "1",
        "--reps",
        "2",
    )
    lat = micro(
        emogi_binary, tmp_path, "chase", "--modes", "zerocopy", "--footprints", "256M", "--steps", "5000", "--reps", "2"
    ).latency_ns.median()
    rate = c.groupby("warps").mrps.median()
    assert rate.is_monotonic_increasing
    # one warp, one read in flight: about one read per latency (N = T L / d = 1)
    assert 0.5 < rate[1] * 1e6 * lat * 1e-9 < 2.0
    assert (c.gbps <= 100).all()  # nothing beats a PCIe 5/6 x16 link


def aligned_walk_requests(path):
    """Lines and sectors merged+aligned's walks touch, counted here independently of request_count.hpp: its steps
    begin on line boundaries and span whole lines, so a list costs one request per line it touches."""
    g = csr.read_csr(path)
    entry = np.dtype(g.edges.dtype).itemsize
    begin, end = np.asarray(g.offsets[:-1], np.int64) * entry, np.asarray(g.offsets[1:], np.int64) * entry
    full = end > begin
    lines = (end[full] - 1) // 128 - begin[full] // 128 + 1
    sectors = (end[full] - 1) // 32 - begin[full] // 32 + 1
    return int(lines.sum()), int(sectors.sum())


@pytest.mark.parametrize("kind,dtype", [("kron", np.uint64), ("urand", np.uint32), ("star", np.uint64)])
def test_lists_reads_every_list_once_and_counts_its_requests(emogi_binary, tmp_path, kind, dtype):
    if kind == "star":  # a hub list over many lines, and empty lists
        path = write_undirected(tmp_path / "g.csr", EDGE_CASES["star"]["pairs"], EDGE_CASES["star"]["num_vertices"])
    else:
        path = write_generated(tmp_path / "g.csr", kind, 12, dtype=dtype)
    t = micro(
        emogi_binary,
        tmp_path,
        "lists",
        "--graph",
        path,
        "--modes",
        "device,zerocopy,zerocopy-pinned",
        "--variants",
        "naive,merged,merged-aligned,chunked",
        "--reps",
        "2",
    )
    assert len(t) == 3 * 4 * 2 and t["verified"].all()  # every run's list sums matched the CPU's
    g = csr.read_csr(path)
    assert (t.list_bytes == g.num_edges * np.dtype(dtype).itemsize).all()
    counts = t.groupby("variant")[["requests", "sectors"]].first()
    assert counts.loc["merged-aligned"].tolist() == list(aligned_walk_requests(path))
    assert counts.loc["chunked"].tolist() == counts.loc["merged-aligned"].tolist()  # same walk of each list
    # unaligned steps split lines (and sectors) between them: more requests
    assert counts.loc["merged", "requests"] >= counts.loc["merged-aligned", "requests"]
    assert counts.loc["merged", "sectors"] >= counts.loc["merged-aligned", "sectors"]
    assert t[t.variant == "naive"].requests.isna().all()  # a thread per list: not counted
    # whole first and last lines: the same lines, each asked for whole, the neighbours' entries dropped
    w = micro(
        emogi_binary,
        tmp_path,
        "lists",
        "--graph",
        path,
        "--modes",
        "zerocopy",
        "--whole-lines",
        "--variants",
        "merged-aligned,chunked",
        "--reps",
        "1",
    )
    assert set(w.variant) == {"merged-aligned+whole-lines", "chunked+whole-lines"} and w["verified"].all()
    assert (w.requests == counts.loc["merged-aligned", "requests"]).all()
    assert (w.sectors >= counts.loc["merged-aligned", "sectors"]).all() and (w.sectors <= 4 * w.requests).all()


@pytest.mark.skipif(shutil.which("ncu") is None, reason="Nsight Compute (ncu) not installed")
def test_toy_profile_sees_request_sizes(emogi_binary, tmp_path):
    args = ["--bytes", "64M", "--modes", "zerocopy", "--elements", "8"]
    p = profile(emogi_binary, "toy", tmp_path / "t.ncu-rep", tmp_path / "toy_profile.csv", *args).set_index("pattern")
    assert p.loc["strided", "avg_request_bytes"] < 40  # 32-byte sectors, one per request
    assert p.loc["merged-aligned", "avg_request_bytes"] > 120  # whole 128-byte lines
    assert 40 < p.loc["merged-misaligned", "avg_request_bytes"] < 120
    assert (p["pcie_read_bytes"] >= 64 << 20).all()  # at least the array crossed the link


def test_throttled_bfs_is_verified_and_slower(emogi_binary, tmp_path):
    from emogi import csr
    from emogi.datasets import generators

    g = generators.generate("urand", 16, 16, 5)
    path = tmp_path / "g.csr"
    csr.write_csr(path, g.offsets, g.edges)
    rows = []
    for warps in (0, 64):
        rows.append(
            micro(
                emogi_binary,
                tmp_path,
                "bfs",
                "--graph",
                path,
                "--roots",
                "1",
                "--variants",
                "merged-aligned",
                "--modes",
                "zerocopy",
                "--max-warps",
                str(warps),
                "--reps",
                "2",
            )
        )
    t = pd.concat(rows)
    assert t["verified"].all() and set(t["max_warps"]) == {0, 64}
    med = t.groupby("max_warps").time_ms.median()
    assert med[64] > med[0]


@pytest.mark.skipif(shutil.which("ncu") is None, reason="Nsight Compute (ncu) not installed")
def test_concurrency_profile_sees_the_requested_sizes(emogi_binary, tmp_path):
    args = ["--modes", "zerocopy", "--footprints", "64M", "--request-bytes", "32,128", "--warps", "256"]
    args += ["--reads-per-warp", "1", "--iterations", "64"]
    p = profile(emogi_binary, "concurrency", tmp_path / "c.ncu-rep", tmp_path / "concurrency_profile.csv", *args)
    p = p.set_index("request_bytes")
    assert (p["reads"] == 256 * 64).all()
    assert 30 <= p.loc[32, "avg_request_bytes"] <= 34 and 120 <= p.loc[128, "avg_request_bytes"] <= 128
    # every read reaches host memory: at least one link request each
    assert (p["sysmem_read_requests"] >= p["reads"]).all()


def test_added_latency_emulation_is_measured_by_the_chase_and_slows_bfs(emogi_binary, tmp_path):
    """A wait of D after every read adds about D to the chase's dependent read (never less than half of it), and the
    BFS under the same wait stays verified and gets slower (emogi.latency_emulation runs both)."""
    graph = write_generated(tmp_path / "g.csr", "kron", 14)
    out = tmp_path / "emulation.csv"
    done = run(
        [
            sys.executable,
            "-m",
            "emogi.latency_emulation",
            "--binary",
            emogi_binary,
            "--graph",
            graph,
            "--name",
            "kron14",
            "--roots",
            "1",
            "--delays-ns",
            "0,2000",
            "--reps",
            "2",
            "--out",
            out,
        ]
    )
    assert done.returncode == 0, done.stderr[-3000:]
    t = pd.read_csv(out)
    assert t["verified"].all() and set(t["kind"]) == {"chase", "bfs"}
    chase = t[t["kind"] == "chase"].groupby("requested_ns")["latency_ns"].median()
    added = chase[2000] - chase[0]
    assert 1000 < added < 4000, chase.to_dict()
    bfs = t[t["kind"] == "bfs"].groupby("requested_ns")["time_ms"].median()
    assert bfs[2000] > bfs[0], bfs.to_dict()


def test_uvmfault_cold_runs_are_verified_and_faults_cost_per_block(emogi_binary, tmp_path):
    """Cold managed memory read once (64 MiB, far under the GPU's memory): every run checks its sum, each run is
    cold (no run of a pattern is 3x faster than the pattern's median, as a warm one at device speed would be; a slow
    outlier is not a warm run: validation 11's call had one), and touching one line per 64 KiB block costs more per
    byte needed than reading the blocks whole."""
    t = micro(emogi_binary, tmp_path, "uvmfault", "--bytes", "64M", "--list-bytes", "128,256", "--strides", "0,65536")
    assert len(t) == 2 * 2 * 2 * 3 and t["verified"].all()
    assert (t["touched_blocks"] == 1024).all()  # 64 MiB of 64 KiB blocks, each touched by every pattern
    g = t.groupby(["access", "list_bytes", "stride_bytes"]).time_ms
    assert (3 * g.min() > g.median()).all(), g.agg(["min", "median", "max"])
    # a cold 64 MiB read moves 64 MiB over a link of at most ~64 GB/s: at least ~1 ms, never device speed
    assert (t["time_ms"] > 0.5).all()
    per_byte = (t["time_ms"] / t["touched_bytes"]).groupby(t["stride_bytes"] == 65536).median()
    assert per_byte[True] > per_byte[False]
