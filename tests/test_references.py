"""The CPU references every GPU run is verified against: SSSP, CC and the PageRank check, against scipy/numpy.
No GPU needed (BFS: tests/test_kernels.py)."""

import json

import numpy as np
import pytest
from scipy.sparse.csgraph import connected_components, dijkstra

from conftest import run
from emogi.cpu_peer import spmv_x
from graphs import EDGE_CASES, numpy_pagerank, scipy_matrix, write_generated, write_lists, write_undirected

UNREACHED = 0xFFFFFFFF


def reference(binary, path, tmp_path, algorithm, dtype, **options):
    out = tmp_path / f"{algorithm}.bin"
    args = [binary, "reference", "--graph", path, "--algorithm", algorithm, "--out", out]
    for key, value in options.items():
        args += [f"--{key}", value]
    done = run(args)
    assert done.returncode == 0, done.stderr
    return np.fromfile(out, dtype=dtype), done.stdout


def check_values(binary, path, algorithm, vector, values, *options):
    """The binary's check of `vector` as `algorithm`'s result on `path` (written to the file `values` as it is)."""
    vector.tofile(values)
    return run([binary, "reference", "--graph", path, "--algorithm", algorithm, "--values", values, *options])


def scipy_distances(path, root):
    dist = dijkstra(scipy_matrix(path, weighted=True), indices=root)
    return np.where(np.isinf(dist), UNREACHED, dist).astype(np.uint32)


def min_vertex_labels(path):
    """Each vertex's component labelled by its smallest vertex id (scipy's labels, relabelled)."""
    _, labels = connected_components(scipy_matrix(path), directed=False)
    smallest = np.full(labels.max() + 1, np.iinfo(np.int64).max)
    np.minimum.at(smallest, labels, np.arange(len(labels)))
    return smallest[labels].astype(np.uint64)


def graph_cases(tmp_path):
    for name, spec in EDGE_CASES.items():
        yield name, write_undirected(tmp_path / f"{name}.csr", spec["pairs"], spec["num_vertices"])
    yield "kron10", write_generated(tmp_path / "kron10.csr", "kron", 10)
    yield "urand10_w4", write_generated(tmp_path / "urand10.csr", "urand", 10, dtype=np.uint32)


def test_sssp_matches_dijkstra(emogi_binary, tmp_path):
    for name, path in graph_cases(tmp_path):
        degrees = np.diff(scipy_matrix(path).indptr)
        for root in {0, int(np.argmax(degrees)), len(degrees) - 1}:
            dist, _ = reference(emogi_binary, path, tmp_path, "sssp", np.uint32, root=root)
            np.testing.assert_array_equal(dist, scipy_distances(path, root), err_msg=f"{name} root {root}")


def test_sssp_with_equal_weights_on_parallel_paths(emogi_binary, tmp_path):
    # Two routes of equal length (duplicate weights): the distance is unique even if the path is not.
    path = write_lists(tmp_path / "diamond.csr", {0: [1, 2], 1: [3], 2: [3]}, 4, weights_seed=None)
    from emogi import csr

    g = csr.read_csr(path)
    csr.write_csr(tmp_path / "w.csr", g.offsets, g.edges, np.array([5, 5, 7, 7], np.uint32), directed=True)
    dist, _ = reference(emogi_binary, tmp_path / "w.csr", tmp_path, "sssp", np.uint32, root=0)
    assert dist.tolist() == [0, 5, 5, 12]


def test_sssp_refuses_unweighted_graphs(emogi_binary, tmp_path):
    path = write_lists(tmp_path / "g.csr", {0: [1]}, 2)
    done = run(
        [emogi_binary, "reference", "--graph", path, "--algorithm", "sssp", "--root", 0, "--out", tmp_path / "d"]
    )
    assert done.returncode == 1 and "has no weights" in done.stderr


def test_cc_matches_scipy(emogi_binary, tmp_path):
    for name, path in graph_cases(tmp_path):
        labels, out = reference(emogi_binary, path, tmp_path, "cc", np.uint64)
        expected = min_vertex_labels(path)
        np.testing.assert_array_equal(labels, expected, err_msg=name)
        assert json.loads(out)["components"] == len(np.unique(expected))


@pytest.mark.parametrize("directed", [False, True])
def test_pagerank_check_accepts_the_fixed_point_and_rejects_others(emogi_binary, tmp_path, directed):
    path = write_generated(tmp_path / "k.csr", "kron", 9)
    if directed:  # keep only edges u -> v with u < v: a directed graph with dangling vertices
        from emogi import csr

        g = csr.read_csr(path)
        src = np.repeat(np.arange(g.num_vertices), np.diff(np.asarray(g.offsets)).astype(np.int64))
        keep = src < np.asarray(g.edges)
        lists = {}
        for s, d in zip(src[keep], np.asarray(g.edges)[keep]):
            lists.setdefault(int(s), []).append(int(d))
        path = write_lists(tmp_path / "d.csr", lists, g.num_vertices, directed=True)
    x = numpy_pagerank(path)
    values = tmp_path / "x.f32"

    def check(vector):
        return check_values(
            emogi_binary, path, "pagerank", vector.astype(np.float32), values, "--out", tmp_path / "unused"
        )

    done = check(x)
    assert done.returncode == 0 and json.loads(done.stdout)["ok"], done.stderr
    # Short of the fixed point by more than the tolerance somewhere: rejected.
    low = x.copy()
    low[np.argmax(x)] -= 0.01
    assert check(low).returncode == 3
    # Above the fixed point (a negative residual): rejected.
    high = x.copy()
    high[0] += 0.01
    assert check(high).returncode == 3


def test_pagerank_check_allows_float32_rounding_by_in_degree(emogi_binary, tmp_path):
    """A hub's value is a float32 sum of one push per in-neighbour per round: the check allows in-degree x 2^-24
    of the magnitudes there (Higham's bound), and keeps 1e-4 elsewhere."""

    def star_check(leaves, relative):
        path = write_undirected(tmp_path / f"star{leaves}.csr", [(0, v) for v in range(1, leaves + 1)], leaves + 1)
        x = numpy_pagerank(path)
        x[0] *= 1 + relative
        values = tmp_path / "x.f32"
        return check_values(
            emogi_binary, path, "pagerank", x.astype(np.float32), values, "--out", tmp_path / "unused"
        ).returncode

    assert star_check(1 << 20, 2e-3) == 0  # 2^20 in-neighbours: up to 2^-4 allowed, of value + pushed
    assert star_check(1 << 20, 0.2) == 3
    assert star_check(1000, 2e-3) == 3  # 1000 in-neighbours: the 1e-4 floor


@pytest.mark.parametrize("weighted", [True, False])
def test_spmv_matches_scipy(emogi_binary, tmp_path, weighted):
    """y = A x with the weights as values (or 1 without them), against scipy's product in float64."""
    for name, path in graph_cases(tmp_path):
        if not weighted:  # the same lists without a weights section
            from emogi import csr

            g = csr.read_csr(path)
            path = tmp_path / f"{name}.unweighted.csr"
            csr.write_csr(path, g.offsets, g.edges, None, directed=False)
        y, _ = reference(emogi_binary, path, tmp_path, "spmv", np.float64)
        A = scipy_matrix(path, weighted=weighted)
        np.testing.assert_allclose(y, A @ spmv_x(A.shape[0]), rtol=1e-12, err_msg=name)


def test_spmv_check_accepts_scipys_product_and_rejects_others(emogi_binary, tmp_path):
    path = write_generated(tmp_path / "k.csr", "kron", 9)
    A = scipy_matrix(path, weighted=True)
    y = A @ spmv_x(A.shape[0])
    values = tmp_path / "y.f64"

    def check(vector):
        return check_values(emogi_binary, path, "spmv", vector.astype(np.float64), values)

    done = check(y)
    assert done.returncode == 0 and json.loads(done.stdout)["ok"], done.stderr
    off = y.copy()
    off[int(np.argmax(y))] *= 1 + 1e-6  # a millionth off where the row is longest: rejected, naming the vertex
    bad = check(off)
    assert bad.returncode == 3 and f"vertex {int(np.argmax(y))}" in bad.stderr
    assert check(y[:-1]).returncode != 0  # too few values
