"""Synthetic graphs: determinism, CSR invariants against scipy, and the statistics the models predict."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from emogi.csr import describe, graph_checksum, read_csr
from emogi.datasets import external_build, generators
from emogi.datasets.generators import PairStream, build_csr, generate, kronecker_edges, uniform_edges

REPO = Path(__file__).resolve().parents[1]


def scipy_csr(src, dst, num_vertices, symmetrize):
    """Reference CSR from scipy: drop self-loops, add the reverse pairs, merge duplicates, sort columns."""
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    keep = src != dst
    src, dst = src[keep], dst[keep]
    if symmetrize:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    m = sp.coo_matrix((np.ones(len(src), np.int8), (src, dst)), shape=(num_vertices, num_vertices)).tocsr()
    m.sum_duplicates()
    m.sort_indices()
    return m.indptr, m.indices


@pytest.fixture(scope="module")
def kron14():
    return generate("kron", 14, 16, seed=11)


@pytest.fixture(scope="module")
def urand14():
    return generate("urand", 14, 16, seed=11)


# ------------------------------------------------------------------ determinism


@pytest.mark.parametrize("fn", [kronecker_edges, uniform_edges])
def test_same_seed_same_pairs(fn):
    a = fn(12, 16, seed=3)
    b = fn(12, 16, seed=3)
    c = fn(12, 16, seed=4)
    assert all(x.dtype == np.uint32 for x in a)
    assert len(a[0]) == len(a[1]) == 16 * 2**12
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])


@pytest.mark.parametrize("fn", [kronecker_edges, uniform_edges])
def test_worker_count_does_not_change_output(fn):
    # 16 chunks of 4096 pairs, run serially and on 4 threads.
    one = fn(12, 16, seed=9, workers=1, chunk_pairs=4096)
    four = fn(12, 16, seed=9, workers=4, chunk_pairs=4096)
    np.testing.assert_array_equal(one[0], four[0])
    np.testing.assert_array_equal(one[1], four[1])
    # Every chunk draws from its own stream: no two chunks repeat each other.
    rows = one[0].reshape(16, 4096)
    assert len(np.unique(rows, axis=0)) == 16


def test_generate_deterministic():
    a, b = generate("urand", 10, 16, seed=5), generate("urand", 10, 16, seed=5)
    np.testing.assert_array_equal(a.offsets, b.offsets)
    np.testing.assert_array_equal(a.edges, b.edges)
    assert not np.array_equal(generate("urand", 10, 16, seed=6).edges, a.edges)


def test_unknown_kind():
    with pytest.raises(ValueError, match="kron.*urand"):
        generate("rmat", 10, 16, 1)


# ------------------------------------------------------------------ build_csr against scipy


@pytest.mark.parametrize("symmetrize", [True, False])
@pytest.mark.parametrize("chunk", [None, 1000])
def test_build_csr_matches_scipy(symmetrize, chunk, monkeypatch):
    if chunk:  # many small chunks: duplicates straddle chunk boundaries
        monkeypatch.setattr(generators, "_BUILD_CHUNK", chunk)
        monkeypatch.setattr(external_build, "_BLOCK", chunk)
    rng = np.random.default_rng(0)
    v = 500
    # Few vertices, many pairs: plenty of duplicates and self-loops to remove.
    src = rng.integers(0, v, 20000).astype(np.uint32)
    dst = rng.integers(0, v, 20000).astype(np.uint32)
    offsets, edges = build_csr(src, dst, v, symmetrize=symmetrize)
    indptr, indices = scipy_csr(src, dst, v, symmetrize)
    assert offsets.dtype == np.uint64 and edges.dtype == np.uint64
    np.testing.assert_array_equal(offsets, indptr)
    np.testing.assert_array_equal(edges, indices)
    o32, e32 = build_csr(src, dst, v, symmetrize=symmetrize, index_dtype=np.uint32)
    assert e32.dtype == np.uint32
    np.testing.assert_array_equal(e32, indices)


def test_build_csr_edge_cases():
    offsets, edges = build_csr(np.array([3, 3], np.uint32), np.array([3, 3], np.uint32), 5)  # only self-loops
    assert offsets.tolist() == [0] * 6 and len(edges) == 0
    offsets, edges = build_csr(np.array([4], np.uint32), np.array([0], np.uint32), 5)  # the last vertex
    assert offsets.tolist() == [0, 1, 1, 1, 1, 2] and edges.tolist() == [4, 0]
    with pytest.raises(ValueError, match="vertex ids"):
        build_csr(np.array([5], np.uint32), np.array([0], np.uint32), 5)


@pytest.mark.parametrize("name", ["kron14", "urand14"])
def test_generated_graph_invariants(name, request):
    g = request.getfixturevalue(name)
    v, off, e = g.num_vertices, g.offsets.astype(np.int64), g.edges.astype(np.int64)
    assert v == 2**14 and not g.directed and g.edges.dtype == np.uint64
    assert off[0] == 0 and off[-1] == len(e) and np.all(np.diff(off) >= 0)
    assert e.max() < v
    rows = np.repeat(np.arange(v), np.diff(off))
    assert not np.any(rows == e), "self-loop"
    # Within each list the ids strictly increase: sorted and without duplicates.
    same_row = rows[1:] == rows[:-1]
    assert np.all(e[1:][same_row] > e[:-1][same_row])
    a = sp.csr_matrix((np.ones(len(e), np.int8), e, off), shape=(v, v))
    assert (a != a.T).nnz == 0, "not symmetric"


# ------------------------------------------------------------------ statistics the models predict


def test_urand_edge_count_matches_birthday_bound(urand14):
    # n ordered pairs uniform over V^2; a given unordered pair {u, v}, u != v, is hit by one draw with
    # probability 2/V^2. E = 2 * expected number of distinct non-loop unordered pairs.
    v, n = 2**14, 16 * 2**14
    pairs = v * (v - 1) / 2
    expected = 2 * pairs * -math.expm1(n * math.log1p(-2 / v**2))
    # ~256 collisions and ~16 self-loops are expected: sd of E is about 2 * sqrt(272) ~ 33.
    assert abs(urand14.num_edges - expected) < 200, (urand14.num_edges, expected)


def test_urand_degrees_concentrate_around_32(urand14):
    d = urand14.degrees()
    # Degree ~ Binomial(2n, 1/V), about Poisson(32): mean 32, sd 5.66, P(0) ~ e^-32.
    assert abs(d.mean() - 32) < 0.1
    assert 5.2 < d.std() < 6.1
    assert np.count_nonzero(d == 0) == 0
    assert d.max() < 32 + 10 * 5.66


def test_kron_is_skewed(kron14, urand14):
    dk, du = kron14.degrees(), urand14.degrees()
    assert dk.max() > 10 * du.max()
    assert np.count_nonzero(dk == 0) > 0.1 * kron14.num_vertices  # many isolated vertices
    top = np.sort(dk)[::-1][: kron14.num_vertices // 100]
    assert top.sum() > 0.2 * kron14.num_edges  # the top 1% of vertices hold a large share of the edges
    # Duplicates concentrate on the dense corner, so kron loses more pairs than urand.
    assert kron14.num_edges < urand14.num_edges


def test_kron_quadrant_probabilities():
    """Without the id permutation every bit of (src, dst) follows the initiator (0.57, 0.19, 0.19, 0.05)."""
    scale = 10
    src, dst = kronecker_edges(scale, 256, seed=2, permute=False)  # 2^18 pairs
    n = len(src)
    for bit in range(scale):
        s = (src >> bit) & 1
        t = (dst >> bit) & 1
        freq = [np.count_nonzero((s == i) & (t == j)) / n for i, j in ((0, 0), (0, 1), (1, 0), (1, 1))]
        # sd of a frequency near 0.5 is < 0.001 with 2^18 pairs
        np.testing.assert_allclose(freq, [0.57, 0.19, 0.19, 0.05], atol=0.005)


def test_kron_permutation_relabels_only():
    plain = kronecker_edges(10, 16, seed=8, permute=False)
    perm = kronecker_edges(10, 16, seed=8, permute=True)
    assert not np.array_equal(plain[0], perm[0])
    # Same pairs up to a relabelling: a consistent map old id -> new id exists, and it is a bijection.
    old = np.concatenate(plain).astype(np.int64)
    new = np.concatenate(perm).astype(np.int64)
    mapping = np.full(2**10, -1)
    mapping[old] = new
    np.testing.assert_array_equal(mapping[old], new)
    seen = mapping[mapping >= 0]
    assert len(np.unique(seen)) == len(seen)


def test_chunks_are_independent_of_order():
    """A chunk is the same whoever makes it and whenever: what lets the streaming build run chunks in any order."""
    stream = PairStream("kron", 12, 16, seed=4, chunk_pairs=4096)
    src, dst = stream.all_pairs(workers=1)
    for k in (15, 3, 0):
        lo, hi = stream.bounds(k)
        s, d = PairStream("kron", 12, 16, seed=4, chunk_pairs=4096).chunk(k)
        np.testing.assert_array_equal(s, src[lo:hi])
        np.testing.assert_array_equal(d, dst[lo:hi])


def test_generate_with_weights_matches_csr_weights():
    g = generate("urand", 10, 16, seed=5, weights_seed=9)
    from emogi.datasets.weights import csr_weights

    np.testing.assert_array_equal(g.weights, csr_weights(g.offsets, g.edges, 9))
    assert g.weights.min() >= 8 and g.weights.max() <= 72


# ------------------------------------------------------------------ CLI


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "emogi.datasets.generators", *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_cli_writes_graph_and_metadata(tmp_path):
    out, meta = tmp_path / "urand10.w8.csr", tmp_path / "urand10.w8.json"
    r = run_cli(
        "--kind",
        "urand",
        "--scale",
        10,
        "--edge-factor",
        16,
        "--seed",
        3,
        "--weights-seed",
        4,
        "--out",
        out,
        "--meta",
        meta,
    )
    assert r.returncode == 0, r.stderr
    assert "plan:" in r.stderr and "written" in r.stderr
    g = read_csr(out)
    ref = generate("urand", 10, 16, seed=3, weights_seed=4)
    np.testing.assert_array_equal(g.offsets, ref.offsets)
    np.testing.assert_array_equal(g.edges, ref.edges)
    np.testing.assert_array_equal(g.weights, ref.weights)
    assert g.header.checksum == graph_checksum(ref)  # the in-memory path writes the very same file
    m = json.loads(meta.read_text())
    assert {k: m[k] for k in describe(g)} == describe(g)
    assert m["source"]["type"] == "generator" and m["source"]["kind"] == "urand" and m["source"]["seed"] == 3
    assert m["weights"] == {"low": 8, "high": 72, "seed": 4, "scheme": m["weights"]["scheme"]}
    assert m["has_weights"] and not m["directed"] and m["weights_bytes"] == 4 * m["num_edges"]
    assert m["file_bytes"] == out.stat().st_size and m["offsets_bytes"] == 8 * (2**10 + 1)
    assert m["build"]["plan"]["buckets"] >= 1 and m["build"]["peak_rss_bytes"] > 0
    assert m["generation_seconds"] >= 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([out.name, meta.name])  # no temporaries left


def test_cli_output_does_not_depend_on_workers_or_buckets(tmp_path):
    sums = set()
    for workers, buckets in ((1, 1), (2, 7), (3, 32)):
        out = tmp_path / f"k{workers}.csr"
        r = run_cli(
            "--kind", "kron", "--scale", 11, "--seed", 2, "--workers", workers, "--buckets", buckets, "--out", out
        )
        assert r.returncode == 0, r.stderr
        assert f"plan: {buckets} buckets" in r.stderr
        sums.add(read_csr(out).header.checksum)
    assert len(sums) == 1


def test_cli_index_bytes_4(tmp_path):
    out = tmp_path / "u.w4.csr"
    assert run_cli("--kind", "urand", "--scale", 9, "--seed", 1, "--index-bytes", 4, "--out", out).returncode == 0
    g = read_csr(out)
    ref = generate("urand", 9, 16, seed=1, weights_seed=1)
    assert g.edges.dtype == np.uint32 and g.has_weights
    np.testing.assert_array_equal(g.edges, ref.edges)
    np.testing.assert_array_equal(g.weights, ref.weights)


def test_cli_refuses_a_memory_limit_below_the_fixed_cost(tmp_path):
    r = run_cli("--kind", "urand", "--scale", 12, "--memory-limit", "1M", "--out", tmp_path / "g.csr")
    assert r.returncode == 1 and "memory limit" in r.stderr and "raise --memory-limit" in r.stderr
    assert not any(tmp_path.iterdir())
