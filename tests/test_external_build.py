"""The streaming, memory-bounded CSR build: the same file for any bucket and worker count, the CSR scipy makes,
the memory limit kept, and no temporary files left behind, even when the build fails or is killed."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from test_generators import scipy_csr

from emogi.csr import graph_checksum, read_csr
from emogi.datasets import build_plan, external_build
from emogi.datasets.build_plan import MemoryLimitError, parse_bytes, plan_build
from emogi.datasets.external_build import build_csr_file
from emogi.datasets.generators import PairStream, generate

REPO = Path(__file__).resolve().parents[1]
QUIET = {"log": lambda msg: None}


class ArrayPairs:
    """A pair source over given arrays, in chunks (the protocol build_csr_file reads)."""

    def __init__(self, src, dst, chunk_pairs):
        self.src, self.dst, self.chunk_pairs = src.astype(np.uint32), dst.astype(np.uint32), chunk_pairs
        self.num_chunks = -(-len(src) // chunk_pairs)

    def chunk(self, k):
        sl = slice(k * self.chunk_pairs, (k + 1) * self.chunk_pairs)
        return self.src[sl], self.dst[sl]


# ------------------------------------------------------------------ correctness


@pytest.mark.parametrize("symmetrize", [True, False])
@pytest.mark.parametrize("buckets", [1, 3, 64])
def test_matches_scipy(tmp_path, symmetrize, buckets, monkeypatch):
    monkeypatch.setattr(external_build, "_BLOCK", 1000)  # duplicates straddle dedup blocks
    rng = np.random.default_rng(0)
    v = 500  # few vertices, many pairs: plenty of duplicates and self-loops
    src, dst = rng.integers(0, v, 20000), rng.integers(0, v, 20000)
    header = build_csr_file(
        tmp_path / "g.csr",
        ArrayPairs(src, dst, 3000),
        num_vertices=v,
        symmetrize=symmetrize,
        buckets=buckets,
        workers=3,
        **QUIET,
    ).header
    g = read_csr(tmp_path / "g.csr")
    indptr, indices = scipy_csr(src, dst, v, symmetrize)
    np.testing.assert_array_equal(g.offsets, indptr)
    np.testing.assert_array_equal(g.edges, indices)
    assert g.directed == (not symmetrize) and not g.has_weights and header.num_edges == len(indices)


def test_edge_cases(tmp_path):
    loops = ArrayPairs(np.array([3, 3]), np.array([3, 3]), 1)  # only self-loops: no edges at all
    build_csr_file(tmp_path / "a.csr", loops, num_vertices=5, weights_seed=1, buckets=2, **QUIET)
    g = read_csr(tmp_path / "a.csr")
    assert g.offsets.tolist() == [0] * 6 and g.num_edges == 0 and g.has_weights
    last = ArrayPairs(np.array([4]), np.array([0]), 1)  # the last vertex
    build_csr_file(tmp_path / "b.csr", last, num_vertices=5, buckets=4, **QUIET)
    g = read_csr(tmp_path / "b.csr")
    assert g.offsets.tolist() == [0, 1, 1, 1, 1, 2] and g.edges.tolist() == [4, 0]


@pytest.mark.parametrize("kind", ["kron", "urand"])
def test_same_file_for_any_bucket_and_worker_count(tmp_path, kind):
    """Streaming with many small buckets, one bucket, 1 or 3 workers, and the in-memory path: one checksum."""
    reference = graph_checksum(generate(kind, 12, 16, seed=3, weights_seed=5))
    for workers, buckets in ((1, 1), (3, 1), (1, 7), (3, 17), (2, None)):
        stream = PairStream(kind, 12, 16, seed=3)
        result = build_csr_file(
            tmp_path / "g.csr",
            stream,
            num_vertices=stream.num_vertices,
            weights_seed=5,
            workers=workers,
            buckets=buckets,
            **QUIET,
        )
        assert result.header.checksum == reference, (workers, buckets)
        assert read_csr(tmp_path / "g.csr").header.checksum == reference  # and the file verifies


def test_four_byte_edges_and_weights(tmp_path):
    stream = PairStream("kron", 11, 16, seed=1)
    build_csr_file(
        tmp_path / "g.csr", stream, num_vertices=stream.num_vertices, index_bytes=4, weights_seed=2, buckets=5, **QUIET
    )
    g, ref = read_csr(tmp_path / "g.csr"), generate("kron", 11, 16, seed=1, weights_seed=2)
    assert g.edges.dtype == np.uint32
    np.testing.assert_array_equal(g.edges, ref.edges)
    np.testing.assert_array_equal(g.weights, ref.weights)


# ------------------------------------------------------------------ the memory plan


def test_plan_picks_more_buckets_for_less_memory():
    args = dict(num_vertices=2**27, max_keys=2**32, chunk_pairs=2**20, table_bytes=2**29, workers=16)
    roomy = plan_build(memory_limit=64 << 30, **args)
    tight = plan_build(memory_limit=16 << 30, **args)
    assert roomy.buckets == 32  # enough buckets to keep 16 workers busy
    assert tight.buckets > roomy.buckets
    for plan in (roomy, tight):  # one bucket per worker fits beside the fixed costs
        per_bucket = build_plan.bucket_bytes(-(-(2**32) // plan.buckets), plan.bucket_vertices)
        assert plan.fixed_bytes + plan.workers * per_bucket <= plan.memory_limit
    with pytest.raises(MemoryLimitError, match="raise --memory-limit"):
        plan_build(memory_limit=1 << 30, **args)


def test_parse_bytes():
    assert parse_bytes("8G") == 8 << 30 and parse_bytes("512M") == 512 << 20 and parse_bytes("4096") == 4096
    assert parse_bytes("1.5GiB") == 3 << 29
    with pytest.raises(ValueError, match="not a size"):
        parse_bytes("lots")


PEAK_SCRIPT = """
import json, sys
from emogi.datasets.build_plan import peak_rss_bytes
from emogi.datasets.external_build import build_csr_file
from emogi.datasets.generators import PairStream
stream = PairStream("urand", 19, 16, seed=1, chunk_pairs=1 << 16)
base = peak_rss_bytes()
r = build_csr_file(sys.argv[1], stream, num_vertices=stream.num_vertices, weights_seed=1, workers=2,
                   memory_limit=int(sys.argv[2]), buckets=int(sys.argv[3]) or None, log=lambda m: None)
print(json.dumps({"grew": r.peak_rss_bytes - base, "buckets": r.plan.buckets}))
"""


def peak_growth(tmp_path, limit, buckets=0):
    r = subprocess.run(
        [sys.executable, "-c", PEAK_SCRIPT, tmp_path / "g.csr", str(limit), str(buckets)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_memory_limit_is_kept(tmp_path):
    """2^19 vertices, 16 M directed keys (128 MiB): within a 64 MiB limit the build spreads over many buckets and
    grows its memory by less than the limit; as one bucket it needs more than the limit (the test can fail)."""
    limit = 64 << 20
    bounded = peak_growth(tmp_path, limit)
    assert bounded["buckets"] > 4
    assert bounded["grew"] <= limit, bounded
    unbounded = peak_growth(tmp_path, 1 << 40, buckets=1)
    assert unbounded["grew"] > 1.5 * limit, unbounded


# ------------------------------------------------------------------ temporary files


class FailingPairs(ArrayPairs):
    def chunk(self, k):
        if k == 5:
            raise RuntimeError("chunk 5 broke")
        return super().chunk(k)


def test_failure_leaves_no_files(tmp_path):
    rng = np.random.default_rng(1)
    pairs = FailingPairs(rng.integers(0, 100, 10000), rng.integers(0, 100, 10000), 1000)
    with pytest.raises(RuntimeError, match="chunk 5 broke"):
        build_csr_file(tmp_path / "g.csr", pairs, num_vertices=100, buckets=4, workers=2, **QUIET)
    assert list(tmp_path.iterdir()) == []


def test_killed_build_removes_its_files(tmp_path):
    out = tmp_path / "g.csr"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "emogi.datasets.generators",
            "--kind",
            "kron",
            "--scale",
            "20",
            "--out",
            str(out),
            "--buckets",
            "8",
            "--workers",
            "2",
        ],
        cwd=REPO,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not any(p.name.endswith(".buckets") for p in tmp_path.iterdir()):  # the build has started
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(timeout=120) != 0
    assert list(tmp_path.iterdir()) == []
