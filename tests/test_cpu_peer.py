"""The CPU peer (emogi.cpu_peer): on small graphs its BFS, SSSP, CC and PageRank agree with the project's references
(the `emogi reference` command and emogi_cpu's PageRank), and bad input is one line. Needs python-graphblas and
graphblas-algorithms (envs/requirements.txt); networkit, the other candidate measured, only where installed."""

import csv
import io

import numpy as np
import pytest

from emogi import cpu_peer
from graphs import EDGE_CASES, write_generated, write_undirected

pytest.importorskip("graphblas_algorithms")


def peer_rows(capsys, *args):
    rc = cpu_peer.main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return list(csv.DictReader(io.StringIO(out)))


def test_canonical_labels_name_each_class_by_its_smallest_vertex():
    labels = np.array([7, 3, 7, 3, 9])
    assert cpu_peer.canonical_labels(labels).tolist() == [0, 1, 0, 1, 4]


@pytest.mark.parametrize("library", ["graphblas", "networkit"])
def test_every_algorithm_matches_the_references(emogi_binary, tmp_path, capsys, library):
    if library == "networkit":
        pytest.importorskip("networkit")
    graphs = [write_generated(tmp_path / "kron10.csr", "kron", 10, dtype=np.uint32)]
    for name in ("isolated_and_components", "star"):
        spec = EDGE_CASES[name]
        graphs.append(write_undirected(tmp_path / f"{name}.csr", spec["pairs"], spec["num_vertices"]))
    for path in graphs:
        rows = peer_rows(
            capsys, "--graph", path, "--library", library, "--roots", "0,1", "--reps", 1, "--emogi", emogi_binary
        )
        assert [r["algorithm"] for r in rows] == ["bfs", "bfs", "sssp", "sssp", "cc", "pagerank"], path
        assert {r["check"] for r in rows} == {"ok"}, rows
        assert all(float(r["median_ms"]) >= 0 and int(r["threads"]) >= 1 for r in rows)


def test_bad_input_is_one_line(emogi_binary, tmp_path, capsys):
    path = write_undirected(tmp_path / "g.csr", [(0, 1)], 2)
    for args, words in [
        (["--algorithms", "bfs,triangles"], "unknown algorithm 'triangles'"),
        (["--reps", "0"], "--reps must be at least 1"),
        (["--emogi", tmp_path / "nowhere"], "no emogi binary"),
    ]:
        assert cpu_peer.main(["--graph", str(path), *map(str, args)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("cpu_peer: error:") and words in err and err.count("\n") == 1, err
    assert cpu_peer.main(["--graph", str(tmp_path / "missing.csr"), "--no-check"]) == 1
    assert "cpu_peer: error:" in capsys.readouterr().err


def test_spmv_matches_the_reference(emogi_binary, tmp_path, capsys):
    """CF'17's case study on the CPU: GraphBLAS's y = A·x equals the reference's, weighted or not."""
    graphs = [write_generated(tmp_path / "kron10.csr", "kron", 10, dtype=np.uint32)]
    spec = EDGE_CASES["isolated_and_components"]
    graphs.append(write_undirected(tmp_path / "iso.csr", spec["pairs"], spec["num_vertices"]))
    for path in graphs:
        rows = peer_rows(capsys, "--graph", path, "--algorithms", "spmv", "--reps", 1, "--emogi", emogi_binary)
        assert [(r["algorithm"], r["check"]) for r in rows] == [("spmv", "ok")], rows
