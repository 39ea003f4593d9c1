"""BFS roots: distinct, with out-edges, uniform, reproducible."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from emogi.csr import write_csr
from emogi.datasets.roots import pick_roots

REPO = Path(__file__).resolve().parents[1]


def offsets_from_degrees(degrees):
    return np.concatenate([[0], np.cumsum(degrees)]).astype(np.uint64)


@pytest.fixture
def offsets():
    rng = np.random.default_rng(0)
    deg = rng.integers(1, 5, size=1000)
    deg[rng.random(1000) < 0.5] = 0  # half of the vertices without out-edges
    return offsets_from_degrees(deg)


def test_roots_have_out_edges_and_are_distinct(offsets):
    roots = pick_roots(offsets, 64, seed=1)
    assert roots.dtype == np.uint64 and len(roots) == 64
    assert len(np.unique(roots)) == 64
    deg = np.diff(offsets.astype(np.int64))
    assert np.all(deg[roots.astype(np.int64)] > 0)


def test_deterministic(offsets):
    np.testing.assert_array_equal(pick_roots(offsets, 64, seed=1), pick_roots(offsets, 64, seed=1))
    assert not np.array_equal(pick_roots(offsets, 64, seed=1), pick_roots(offsets, 64, seed=2))


def test_too_few_candidates():
    offsets = offsets_from_degrees([0, 3, 0, 1, 0])
    assert sorted(pick_roots(offsets, 2, seed=0).tolist()) == [1, 3]  # all of them
    with pytest.raises(ValueError, match="only 2 .* out-edges"):
        pick_roots(offsets, 3, seed=0)


def test_uniform_over_candidates():
    # 10 candidates among 20 vertices, 3 roots per seed, 3000 seeds: each candidate expected 900 times
    # (sd = sqrt(3000 * 0.3 * 0.7) ~ 25); non-candidates never.
    deg = [1, 0] * 10
    offsets = offsets_from_degrees(deg)
    counts = np.zeros(20, np.int64)
    for seed in range(3000):
        counts[pick_roots(offsets, 3, seed).astype(np.int64)] += 1
    assert np.all(counts[1::2] == 0)
    assert np.all(np.abs(counts[0::2] - 900) < 125), counts


def test_cli(tmp_path, offsets):
    edges = np.zeros(int(offsets[-1]), np.uint32)  # ids don't matter for roots; all point at vertex 0
    write_csr(tmp_path / "g.csr", offsets, edges, directed=True)
    out = tmp_path / "roots.txt"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "emogi.datasets.roots",
            str(tmp_path / "g.csr"),
            "--count",
            "8",
            "--seed",
            "7",
            "--out",
            str(out),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    lines = out.read_text().splitlines()
    assert [int(x) for x in lines] == pick_roots(offsets, 8, seed=7).tolist()
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "emogi.datasets.roots",
            str(tmp_path / "g.csr"),
            "--count",
            "100000",
            "--seed",
            "7",
            "--out",
            str(tmp_path / "r2.txt"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 1 and "out-edges" in r.stderr and not (tmp_path / "r2.txt").exists()
