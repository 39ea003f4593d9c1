"""A directed graph's transpose file (emogi.csr_transpose, docs/graph-format.md "Transpose"): the in-lists against
scipy and a brute force, the file's header tying it to its graph, the refusals (another graph's transpose, a
missing one, an undirected graph), the directed generator, and where the workflow needs a transpose."""

import json
import struct
import sys

import numpy as np
import pytest
import scipy.sparse as sp

from conftest import run
from emogi import csr, csr_transpose
from emogi.csr_checks import GraphFormatError
from emogi.csr_header import FLAG_DIRECTED, FLAG_TRANSPOSE, TRANSPOSES_AT
from emogi.datasets import sources
from emogi.datasets.generators import generate
from graphs import write_directed, write_lists


def brute_force(lists, num_vertices):
    ins = [[] for _ in range(num_vertices)]
    for u in range(num_vertices):
        for v in lists.get(u, []):
            ins[v].append(u)
    return ins


def arrays(lists, num_vertices, dtype=np.uint64):
    offsets = np.r_[0, np.cumsum([len(lists.get(v, [])) for v in range(num_vertices)])].astype(np.uint64)
    edges = np.array([u for v in range(num_vertices) for u in lists.get(v, [])], dtype=dtype)
    return offsets, edges


RANDOM = np.random.default_rng(11)
CASES = {
    "no_edges": ({}, 4),
    "single_vertex": ({}, 1),
    "empty_lists_between": ({1: [3], 4: [0, 1, 3]}, 6),
    "duplicates_and_self_loop": ({0: [0, 2, 2], 2: [1]}, 3),
    "random": ({v: sorted(RANDOM.choice(60, RANDOM.integers(0, 9), replace=False).tolist()) for v in range(60)}, 60),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
@pytest.mark.parametrize("keys", [True, False])
def test_in_lists_match_a_brute_force_and_scipy(case, dtype, keys, monkeypatch):
    monkeypatch.setattr(csr_transpose, "_BLOCK_EDGES", 5)  # many blocks: lists cross block boundaries
    if not keys:  # the path of graphs with more than 2^32 vertices: a stable sort of the destinations
        monkeypatch.setattr(csr_transpose, "_KEY_VERTICES", 0)
    lists, n = CASES[case]
    offsets, edges = arrays(lists, n, dtype)
    t_offsets, t_edges = csr_transpose.transpose_arrays(offsets, edges, n)
    assert t_edges.dtype == dtype and t_offsets.dtype == np.uint64
    got = [t_edges[t_offsets[v] : t_offsets[v + 1]].tolist() for v in range(n)]
    assert got == brute_force(lists, n)
    if len(edges):
        a = sp.csr_matrix((np.ones(len(edges)), edges.astype(np.int64), offsets.astype(np.int64)), shape=(n, n))
        at = sp.csr_matrix(a.T)
        at.sort_indices()
        assert np.array_equal(np.diff(at.indptr), np.diff(t_offsets.astype(np.int64)))
        assert set(zip(*at.nonzero(), strict=True)) == {(v, u) for v in range(n) for u in got[v]}


def test_the_transpose_of_the_transpose_is_the_graph():
    g = generate("kron", 9, 8, seed=4, directed=True)
    t_offsets, t_edges = csr_transpose.transpose_arrays(g.offsets, g.edges, g.num_vertices)
    assert g.directed and not np.array_equal(t_offsets, g.offsets)  # a directed graph: in-lists differ
    back_offsets, back_edges = csr_transpose.transpose_arrays(t_offsets, t_edges, g.num_vertices)
    assert np.array_equal(back_offsets, g.offsets) and np.array_equal(back_edges, g.edges)


def test_progress_lines(monkeypatch):
    monkeypatch.setattr(csr_transpose, "_BLOCK_EDGES", 100)
    g = generate("urand", 8, 4, seed=2, directed=True)
    lines = []
    csr_transpose.transpose_arrays(g.offsets, g.edges, g.num_vertices, lines.append)
    assert lines[-2] == f"transpose: keys for 100% of {g.num_edges} edges"
    assert lines[-1] == f"transpose: sorting {g.num_edges} keys" and len(lines) == 11


def test_the_directed_generator_keeps_one_direction():
    d, u = generate("urand", 8, 4, seed=2, directed=True), generate("urand", 8, 4, seed=2)
    assert d.directed and not u.directed and d.num_edges < u.num_edges
    pairs = set(zip(np.repeat(np.arange(d.num_vertices), np.diff(d.offsets.astype(np.int64))), d.edges.tolist()))
    assert any((v, w) not in pairs for w, v in pairs)  # not symmetric


def test_the_generators_command_line_makes_a_directed_graph(tmp_path):
    out, meta = tmp_path / "d.csr", tmp_path / "d.json"
    args = ["--kind", "urand", "--scale", 8, "--edge-factor", 4, "--seed", 2, "--directed", "--out", out]
    done = run([sys.executable, "-m", "emogi.datasets.generators", *args, "--meta", meta])
    assert done.returncode == 0, done.stderr
    g, want = csr.read_csr(out), generate("urand", 8, 4, seed=2, directed=True)
    assert g.directed and np.array_equal(g.offsets, want.offsets) and np.array_equal(g.edges, want.edges)
    assert json.loads(meta.read_text())["source"]["symmetrized"] is False


def test_the_file_beside_the_graph_names_its_graph(tmp_path):
    path = write_directed(tmp_path / "g.w8.csr", "kron", 8)
    t_path = tmp_path / "g.w8.t.csr"
    assert csr_transpose.transpose_path(path) == t_path and t_path.exists()
    assert csr_transpose.transpose_path(tmp_path / "noext") == tmp_path / "noext.t.csr"
    g = csr.read_csr(path)
    t = csr_transpose.read_transpose(g)
    assert t.header.flags == FLAG_DIRECTED | FLAG_TRANSPOSE and t.header.transposes == g.header.checksum
    assert (t.num_vertices, t.num_edges, t.index_bytes, t.has_weights) == (g.num_vertices, g.num_edges, 8, False)
    assert csr.read_header(t_path).to_dict()["transposes"] == f"{g.header.checksum:016x}"
    assert not list(tmp_path.glob(".*.tmp"))  # written under a temporary name, then renamed


def test_a_transpose_of_another_graph_is_refused(tmp_path):
    one = write_directed(tmp_path / "one.csr", "kron", 8, seed=1)
    two = write_directed(tmp_path / "two.csr", "kron", 8, seed=2)
    g = csr.read_csr(one)
    with pytest.raises(GraphFormatError, match="not the transpose of .*one.csr: it transposes the graph with checksum"):
        csr_transpose.read_transpose(g, tmp_path / "two.t.csr")
    with pytest.raises(GraphFormatError, match="not a transpose file"):
        csr_transpose.read_transpose(g, two)
    (tmp_path / "one.t.csr").unlink()
    with pytest.raises(GraphFormatError, match=r"has no transpose at .*one.t.csr: make it with python -m emogi.csr"):
        csr_transpose.read_transpose(g)


def test_transposes_is_reserved_without_the_flag(tmp_path):
    path = write_lists(tmp_path / "g.csr", {0: [1]}, 2)
    data = bytearray(path.read_bytes())
    struct.pack_into("<Q", data, TRANSPOSES_AT, 7)
    struct.pack_into("<Q", data, 40, csr.buffer_checksum(bytes(data)))
    path.write_bytes(bytes(data))
    with pytest.raises(GraphFormatError, match="reserved header field at byte 48 is 0x7"):
        csr.read_csr(path)


def test_the_command_line(tmp_path):
    path = write_directed(tmp_path / "g.csr", "urand", 8, transpose=False)
    done = run([sys.executable, "-m", "emogi.csr", "transpose", path])
    assert done.returncode == 0 and (tmp_path / "g.t.csr").exists(), done.stderr
    csr.verify_csr(tmp_path / "g.t.csr")
    undirected = write_lists(tmp_path / "u.csr", {0: [1], 1: [0]}, 2, directed=False)
    done = run([sys.executable, "-m", "emogi.csr", "transpose", undirected, "--out", tmp_path / "u.t.csr"])
    assert done.returncode == 1 and "is undirected: its lists are their own transpose" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "u.t.csr").exists()
    done = run([sys.executable, "-m", "emogi.csr", "transpose", tmp_path / "g.t.csr"])
    assert done.returncode == 1 and "is itself a transpose" in done.stderr


def test_which_runs_need_a_transpose(tmp_path):
    law, gen = {"source": "law", "catalog": "x"}, {"generator": "kron", "scale": 4, "seed": 1}
    do, plain = ["merged-aligned", "direction-optimizing"], ["merged-aligned"]
    in_lists = ["direction-optimizing"]
    assert sources.needs_transpose("sk", law, {}, tmp_path / "none.csr", do, in_lists)
    assert not sources.needs_transpose("sk", law, {}, tmp_path / "none.csr", plain, in_lists)
    assert not sources.needs_transpose("k", gen, {}, tmp_path / "none.csr", do, in_lists)
    assert sources.needs_transpose("k", {**gen, "directed": True}, {}, tmp_path / "none.csr", do, in_lists)
    assert "--directed" in sources.generator_args({**gen, "directed": True})
    ss = {"source": "suitesparse", "catalog": "c"}
    assert sources.needs_transpose("s", ss, {"c": {"directed": True}}, tmp_path / "none.csr", do, in_lists)
    bel = {"source": "bel", "prefix": "p"}  # detected when imported: the graph file's header decides
    assert not sources.needs_transpose("b", bel, {}, tmp_path / "none.csr", do, in_lists)
    made = write_lists(tmp_path / "b.csr", {0: [1]}, 2, directed=True)
    assert sources.needs_transpose("b", bel, {}, made, do, in_lists)


def test_emogi_run_refuses_before_the_gpu_in_one_line(emogi_binary, tmp_path):
    """What direction-optimizing BFS on a directed graph cannot do is said before any GPU work (no GPU needed)."""
    path = write_directed(tmp_path / "g.csr", "kron", 8)
    other = write_directed(tmp_path / "o.csr", "urand", 8)
    bare = write_directed(tmp_path / "bare.csr", "kron", 8, transpose=False)
    base = [emogi_binary, "run", "--algorithm", "bfs", "--roots", 1, "--out", tmp_path / "x.csv"]
    do = ["--variants", "direction-optimizing"]
    cases = [
        ([*do, "--graph", bare], f"has no transpose at {tmp_path / 'bare.t.csr'}: make it with python -m emogi.csr"),
        ([*do, "--graph", path, "--transpose", tmp_path / "o.t.csr"], "not the transpose of"),
        ([*do, "--graph", path, "--transpose", other], "not a transpose file"),
        ([*do, "--graph", path, "--modes", "uvm-capped", "--uvm-capacity", "2M"], "uvm-capped: direction-optimizing"),
        (["--graph", path, "--modes", "zerocopy", "--trace-out", tmp_path / "t"], "--trace-out: direction-optimizing"),
    ]
    for args, says in cases:
        done = run([*base, *args])
        assert done.returncode == 1 and says in done.stderr, (args, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
