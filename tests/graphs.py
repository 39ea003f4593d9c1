"""Small graphs for the kernel tests: edge cases and random ones, written in the project's CSR format."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from emogi import csr
from emogi.datasets.generators import build_csr, generate
from emogi.datasets.weights import csr_weights


def write_lists(path, lists, num_vertices, dtype=np.uint64, directed=True, weights_seed=None):
    """A CSR file from {vertex: [neighbours]} (order kept); weights from emogi.datasets.weights when a seed is given."""
    degrees = [len(lists.get(v, [])) for v in range(num_vertices)]
    offsets = np.concatenate([[0], np.cumsum(degrees)]).astype(np.uint64)
    edges = np.array([u for v in range(num_vertices) for u in lists.get(v, [])], dtype=dtype)
    weights = None if weights_seed is None else csr_weights(offsets, edges, weights_seed)
    csr.write_csr(path, offsets, edges, weights, directed=directed)
    return path


def write_registered(path, source):
    """A split's graph file as the device scripts make it: the generator's command line with the split's `source`
    (kind, scale, edge factor, seed; the weights' seed the same), so that its checksum is the archived one."""
    seed, how = str(source["seed"]), ["--kind", source["kind"], "--scale", str(source["scale"])]
    cmd = [sys.executable, "-m", "emogi.datasets.generators", *how, "--edge-factor", str(source["edge_factor"]),
           "--seed", seed, "--weights-seed", seed, "--out", str(path)]  # fmt: skip
    subprocess.run(cmd, check=True, cwd=Path(__file__).resolve().parents[1], stdout=subprocess.DEVNULL)
    return path


def write_undirected(path, pairs, num_vertices, dtype=np.uint64, weights_seed=1):
    """Symmetric, deduplicated, self-loops dropped (as the generators make graphs)."""
    pairs = np.asarray(pairs, dtype=np.uint64).reshape(-1, 2)
    offsets, edges = build_csr(pairs[:, 0], pairs[:, 1], num_vertices, index_dtype=dtype)
    csr.write_csr(path, offsets, edges, csr_weights(offsets, edges, weights_seed), directed=False)
    return path


def write_generated(path, kind, scale, dtype=np.uint64, seed=3, edge_factor=8):
    g = generate(kind, scale, edge_factor, seed, index_dtype=dtype)
    csr.write_csr(path, g.offsets, g.edges, csr_weights(g.offsets, g.edges, seed), directed=False)
    return path


def write_directed(path, kind, scale, dtype=np.uint64, seed=3, edge_factor=8, transpose=True):
    """A generated graph with each pair one directed edge (the generators' --directed), with weights, and its
    transpose beside it (G.t.csr) unless `transpose` is False."""
    g = generate(kind, scale, edge_factor, seed, index_dtype=dtype, directed=True)
    csr.write_csr(path, g.offsets, g.edges, csr_weights(g.offsets, g.edges, seed), directed=True)
    if transpose:
        from emogi.csr_transpose import write_transpose

        write_transpose(path)
    return path


# name -> (writer args): the edge cases every algorithm is checked on.
EDGE_CASES = {
    "single_vertex": dict(pairs=[], num_vertices=1),
    "isolated_and_components": dict(pairs=[(0, 1), (1, 2), (3, 4), (6, 7), (7, 8), (8, 6)], num_vertices=10),
    "self_loops_and_duplicates": dict(pairs=[(0, 0), (0, 1), (1, 0), (0, 1), (1, 2), (2, 2)], num_vertices=3),
    "star": dict(pairs=[(0, v) for v in range(1, 300)], num_vertices=301),
}


def streamed_suite(root, directed=False):
    """The streamed tests' graphs in `root`: kron12 and urand12 (8-byte ids, weights), kron12 at 4-byte ids, kron12
    without weights (SpMV's values are then 1), with `directed` a directed kron12 (no transpose), and a star whose
    hub's list (999 entries) is longer than the smallest blocks."""
    kron = write_generated(root / "kron12.w8.csr", "kron", 12)
    g = csr.read_csr(kron)
    plain = root / "kron12.plain.csr"
    csr.write_csr(plain, g.offsets, g.edges, None, directed=False)
    suite = [kron, write_generated(root / "urand12.w8.csr", "urand", 12)]
    suite += [write_generated(root / "kron12.w4.csr", "kron", 12, dtype=np.uint32), plain]
    if directed:
        suite.append(write_directed(root / "kron12.directed.csr", "kron", 12, transpose=False))
    return suite + [write_undirected(root / "star.csr", [(0, v) for v in range(1, 1000)], 1001)]


def scipy_matrix(path, weighted=False):
    g = csr.read_csr(path)
    n = g.num_vertices
    data = np.asarray(g.weights, dtype=np.float64) if weighted else np.ones(g.num_edges)
    return sp.csr_matrix(
        (data, np.asarray(g.edges, dtype=np.int64), np.asarray(g.offsets, dtype=np.int64)), shape=(n, n)
    )


def numpy_pagerank(path, alpha=0.85, iterations=500):
    """The fixed point x = (1 - alpha) + alpha * P^T x of the artifact's unnormalised PageRank, in float64."""
    g = csr.read_csr(path)
    A = scipy_matrix(path)
    degree = np.diff(np.asarray(g.offsets)).astype(np.float64)
    share = np.divide(1.0, degree, out=np.zeros_like(degree), where=degree > 0)
    x = np.full(g.num_vertices, 1.0 - alpha)
    for _ in range(iterations):
        x = (1.0 - alpha) + alpha * (A.T @ (x * share))
    return x
