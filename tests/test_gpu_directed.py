"""On a GPU, directed graphs: every algorithm x variant x memory mode that applies agrees with its CPU reference on
small directed generated graphs (kron and urand, 8- and 4-byte ids), direction-optimizing BFS's bottom-up steps
reading the transpose file beside the graph in the run's memory mode; CC is refused, as are a missing transpose
and one of another graph, each in one line."""

import numpy as np
import pytest
from test_gpu_algorithms import VARIANTS, roots_of, run_matrix

from conftest import run
from emogi import csr, schema
from emogi.csr_transpose import transpose_path
from emogi.trace_derive import bfs_levels
from graphs import write_directed

pytestmark = pytest.mark.gpu

ALPHA, BETA = 15, 18  # Beamer's switch, as bfs_frontier.cuh


def bottom_up_levels(path, root) -> int:
    """The levels direction-optimizing BFS takes bottom-up from `root` (the kernel's switch, on the out-lists)."""
    g = csr.read_csr(path)
    degree = np.diff(np.asarray(g.offsets, dtype=np.int64))
    unexplored, previous, bottom_up, count = g.num_edges, 0, False, 0
    for frontier in bfs_levels(np.asarray(g.offsets, dtype=np.int64), g.edges, root):
        size, edges = int(frontier.sum()), int(degree[frontier].sum())
        unexplored -= edges
        if not bottom_up and edges > unexplored // ALPHA and size > previous:
            bottom_up = True
        elif bottom_up and size < g.num_vertices // BETA and size < previous:
            bottom_up = False
        previous = size
        count += bottom_up
    return count


@pytest.fixture(scope="module")
def directed_graphs(tmp_path_factory):
    root = tmp_path_factory.mktemp("directed")
    return [
        write_directed(root / "kron12.w8.csr", "kron", 12, edge_factor=16),
        write_directed(root / "kron12.w4.csr", "kron", 12, dtype=np.uint32, edge_factor=16),
        write_directed(root / "urand12.w8.csr", "urand", 12, edge_factor=16),
    ]


@pytest.mark.parametrize("algorithm", sorted(set(VARIANTS) - {"cc"}))
def test_every_variant_and_mode_agrees_with_the_reference(emogi_binary, directed_graphs, tmp_path, algorithm):
    for path in directed_graphs:
        assert csr.read_header(path).directed
        if algorithm == "bfs":  # the roots run_matrix takes do go bottom-up: the transpose is read
            assert any(bottom_up_levels(path, r) for r in roots_of(path)), path
        rows = run_matrix(emogi_binary, path, algorithm, tmp_path)
        assert rows["verified"].all(), path
        assert set(rows["variant"]) == set(VARIANTS[algorithm]), path
        assert set(rows["mode"]) == set(schema.PLAIN_MODES), path
        placed = rows.attrs["stderr"].count("placed the in-lists")
        assert placed == (len(schema.PLAIN_MODES) if algorithm == "bfs" else 0), path


def test_bottom_up_steps_read_the_transpose_file(emogi_binary, directed_graphs, tmp_path):
    """A forged transpose (the out-lists, paired by header) spoils exactly the bottom-up steps: the run fails."""
    g = csr.read_csr(directed_graphs[0])
    root = next(r for r in roots_of(directed_graphs[0]) if bottom_up_levels(directed_graphs[0], r))
    path = tmp_path / "g.csr"
    csr.write_csr(path, g.offsets, g.edges, g.weights, directed=True)
    csr.write_csr(tmp_path / "g.t.csr", g.offsets, g.edges, None, directed=True, transposes=csr.file_checksum(path))
    args = [emogi_binary, "run", "--algorithm", "bfs", "--graph", path, "--roots", root, "--reps", 1, "--warmup", 0]
    done = run([*args, "--variants", "frontier", "--modes", "device", "--out", tmp_path / "ok.csv"])
    assert done.returncode == 0, done.stderr[-2000:]  # top-down only: the transpose is not read
    done = run([*args, "--variants", "direction-optimizing", "--modes", "zerocopy", "--out", tmp_path / "x.csv"])
    assert done.returncode == 1 and "BFS result mismatch" in done.stderr, done.stderr[-2000:]


def test_what_does_not_apply_is_refused_in_one_line(emogi_binary, directed_graphs, tmp_path):
    path, other = directed_graphs[0], directed_graphs[2]
    bare = tmp_path / "bare.csr"
    g = csr.read_csr(path)
    csr.write_csr(bare, g.offsets, g.edges, g.weights, directed=True)  # no transpose beside it
    base = [emogi_binary, "run", "--roots", roots_of(path)[0], "--out", tmp_path / "x.csv"]
    do = ["--algorithm", "bfs", "--variants", "direction-optimizing"]
    cases = [
        (["--algorithm", "cc", "--graph", path], "is directed: connected components are defined here for undirected"),
        ([*do, "--graph", bare], "has no transpose at " + str(tmp_path / "bare.t.csr") + ": make it with python -m"),
        ([*do, "--graph", path, "--transpose", transpose_path(other)], "not the transpose of"),
        ([*do, "--graph", path, "--modes", "uvm-capped", "--uvm-capacity", "2M"], "uvm-capped: direction-optimizing"),
        ([*do, "--graph", path, "--modes", "zerocopy", "--trace-out", tmp_path / "t"], "--trace-out: direction-opt"),
    ]
    for args, says in cases:
        done = run([*base, *args])
        assert done.returncode == 1 and says in done.stderr, (args, done.stderr[-2000:])
        assert len(done.stderr.strip().splitlines()) <= 2, done.stderr  # the error (after at most the graph line)
    ok = run([*base, "--algorithm", "bfs", "--variants", "merged-aligned", "--graph", bare, "--modes", "device"])
    assert ok.returncode == 0, ok.stderr[-2000:]  # variants that read no in-lists need no transpose
