"""model/pagerank_sweeps.py: Jacobi rounds against a plain matrix loop, the fixed point every order reaches, and
Gauss-Seidel order reading fewer lists."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from conftest import REPO, run
from emogi.datasets.generators import generate
from graphs import write_generated, write_lists
from model.pagerank_sweeps import SWEEP_COLUMNS, push_pagerank, sweeps_table

ALPHA, TOL = 0.85, 1e-3


def push_matrix(offsets, edges):
    """P[u, v] = alpha / deg(v) for an edge v -> u."""
    offsets = np.asarray(offsets, dtype=np.int64)
    n = len(offsets) - 1
    degree = np.diff(offsets)
    sources = np.repeat(np.arange(n), degree)
    weights = ALPHA / degree[sources]
    return sp.csr_matrix((weights, (np.asarray(edges, dtype=np.int64), sources)), shape=(n, n))


def plain_jacobi(offsets, edges):
    """The artifact's rounds written as matrix products: (rounds that pushed, list entries read)."""
    P = push_matrix(offsets, edges)
    degree = np.diff(np.asarray(offsets, dtype=np.int64))
    residual = np.full(len(degree), 1 - ALPHA)
    rounds = read = 0
    while True:
        take = residual > TOL
        if not (take & (degree > 0)).any():
            return rounds, read
        taken = np.where(take, residual, 0.0)
        residual = np.where(take, 0.0, residual) + P @ taken
        rounds += 1
        read += int(degree[take].sum())


@pytest.fixture(scope="module")
def kron12():
    g = generate("kron", 12, index_dtype=np.uint32)
    return g.offsets, g.edges


def test_one_block_is_the_jacobi_round(kron12):
    run_ = push_pagerank(*kron12, blocks=1)
    assert (run_["rounds"], run_["entries_read"]) == plain_jacobi(*kron12)


@pytest.mark.parametrize("blocks,decay", [(1, 0.0), (7, 0.0), (256, 0.0), (1, 0.5), (256, 0.7)])
def test_every_order_stops_at_the_fixed_point(kron12, blocks, decay):
    offsets, edges = kron12
    out = push_pagerank(offsets, edges, blocks=blocks, decay=decay)
    x, r = out["value"], out["residual"]
    assert r.min() >= 0 and r.max() <= TOL
    # what is left is exactly the fixed-point residual of the values: (1 - alpha) + P x - x
    np.testing.assert_allclose((1 - ALPHA) + push_matrix(offsets, edges) @ x - x, r, atol=1e-12)


def test_gauss_seidel_order_reads_fewer_lists(kron12):
    table = sweeps_table(*kron12, "kron12", [1, 64])
    assert list(table.columns) == SWEEP_COLUMNS
    jacobi, gauss_seidel = table["sweeps"]
    assert gauss_seidel < 0.75 * jacobi  # about 1.8x fewer on GAP graphs (docs/kernels.md)


def test_edge_cases():
    # vertex 2 has no out-edges: it absorbs what reaches it and pushes nothing; vertex 3 is isolated
    offsets, edges = np.array([0, 2, 3, 3, 3], dtype=np.uint64), np.array([1, 2, 0], dtype=np.uint32)
    for blocks in (1, 2, 4):
        out = push_pagerank(offsets, edges, blocks=blocks)
        assert out["residual"].max() <= TOL and out["value"][3] == pytest.approx(1 - ALPHA)
    single = push_pagerank(np.array([0, 0], dtype=np.uint64), np.array([], dtype=np.uint32))
    assert single["rounds"] == 0 and single["entries_read"] == 0
    with pytest.raises(ValueError, match="blocks must lie in"):
        push_pagerank(offsets, edges, blocks=5)
    with pytest.raises(ValueError, match="decay must lie in"):
        push_pagerank(offsets, edges, decay=1.0)


def test_a_decaying_threshold_waits_to_push(kron12):
    # decay 0.5: every vertex pushes its 0.15 first; the second pass takes only residuals above 0.15 / 4
    jacobi = push_pagerank(*kron12, blocks=1)
    waiting = push_pagerank(*kron12, blocks=1, decay=0.5)
    E = int(kron12[0][-1])
    assert jacobi["per_round"][0] == waiting["per_round"][0] == E  # every list, once
    assert waiting["per_round"][1] < jacobi["per_round"][1]
    assert sum(waiting["per_round"]) == waiting["entries_read"] and waiting["rounds"] == len(waiting["per_round"])


def test_cli_writes_the_table_and_refuses_bad_input(tmp_path):
    path = write_generated(tmp_path / "u.csr", "urand", 10, dtype=np.uint32)
    out = tmp_path / "sweeps.csv"
    done = run(
        [
            sys.executable,
            "-m",
            "model.pagerank_sweeps",
            "--graph",
            path,
            "--blocks",
            "1,32",
            "--decays",
            "0,0.6",
            "--out",
            out,
        ],
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(out)
    assert list(zip(table["blocks"], table["decay"])) == [(1, 0), (1, 0.6), (32, 0), (32, 0.6)]
    assert (table["max_residual"] <= TOL).all()
    bad = run(
        [sys.executable, "-m", "model.pagerank_sweeps", "--graph", path, "--blocks", "0", "--out", tmp_path / "x.csv"],
        cwd=REPO,
    )
    assert bad.returncode == 2 and "blocks must lie in" in bad.stderr and not (tmp_path / "x.csv").exists()
    broken = write_lists(tmp_path / "b.csr", {0: [1]}, 2)
    broken.write_bytes(broken.read_bytes()[:-4])
    bad = run([sys.executable, "-m", "model.pagerank_sweeps", "--graph", broken, "--out", tmp_path / "y.csv"], cwd=REPO)
    assert bad.returncode == 2 and "model.pagerank_sweeps:" in bad.stderr and not (tmp_path / "y.csv").exists()
