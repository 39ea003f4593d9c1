"""LAW (WebGraph BV) to CSR: the real cnr-2000 graph converted and checked against decodings the converter does
not use (`webgraph to ascii` parsed line by line in Python, and the bindings' successor iterators), plus the
converter's own checks and refusals on small hand-made inputs."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from emogi.csr import read_csr
from emogi.datasets import law
from emogi.datasets.weights import HIGH, LOW, csr_weights

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "law-cnr-2000"
NODES, ARCS = 325_557, 3_216_152  # cnr-2000.properties


def _tools():
    try:
        cli = law.webgraph_cli()
        law._bindings()
        return cli, ""
    except law.LawError as e:
        return None, str(e)


CLI, MISSING = _tools()
if CLI is None and os.environ.get("EMOGI_REQUIRE_WEBGRAPH"):  # CI sets it where it installs the tools
    raise RuntimeError(f"EMOGI_REQUIRE_WEBGRAPH is set but {MISSING}")
needs_tools = pytest.mark.skipif(CLI is None, reason=MISSING)


def _convert(data: Path, out: Path, *extra) -> dict:
    meta = out.with_suffix(".json")
    assert law.main(["--basename", str(data / "cnr-2000"), "--out", str(out), "--meta", str(meta), *extra]) == 0
    return json.loads(meta.read_text())


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    """cnr-2000 converted from a fresh copy of the test data (whose .ef is of the old version)."""
    work = tmp_path_factory.mktemp("law")
    data = work / "data"
    shutil.copytree(DATA, data)
    meta = _convert(data, work / "cnr.w8.csr", "--weights-seed", "3")
    return data, read_csr(work / "cnr.w8.csr"), meta


@pytest.fixture(scope="module")
def ascii_reference(converted):
    """Per-node successor lists from `webgraph to ascii` (one line per node), split by plain Python."""
    data = converted[0]
    text = subprocess.run([CLI, "to", "ascii", str(data / "cnr-2000")], capture_output=True, check=True).stdout
    rows = [line.split() for line in text.splitlines()]
    nodes = np.array([int(r[0]) for r in rows])
    degrees = np.array([len(r) - 1 for r in rows])
    successors = np.array([x for r in rows for x in r[1:]]).astype(np.int64)
    return nodes, degrees, successors


# ------------------------------------------------------------------ the real graph


@needs_tools
def test_counts_match_properties(converted):
    _, graph, meta = converted
    assert graph.num_vertices == NODES
    assert graph.num_edges + meta["conversion"]["self_loops_removed"] == ARCS
    assert meta["conversion"]["self_loops_removed"] > 0
    assert graph.directed and graph.header.directed and meta["directed"] is True
    assert meta["source"]["nodes"] == NODES and meta["source"]["arcs"] == ARCS
    assert meta["index_bytes"] == 8 and meta["has_weights"]


@needs_tools
def test_lists_match_the_ascii_dump(converted, ascii_reference):
    _, graph, meta = converted
    nodes, degrees, successors = ascii_reference
    np.testing.assert_array_equal(nodes, np.arange(NODES))
    assert degrees.sum() == ARCS
    sources = np.repeat(np.arange(NODES), degrees)
    loops = sources == successors
    assert loops.sum() == meta["conversion"]["self_loops_removed"]
    kept_degrees = np.bincount(sources[~loops], minlength=NODES)
    np.testing.assert_array_equal(graph.degrees(), kept_degrees)
    np.testing.assert_array_equal(graph.edges, successors[~loops])


def assert_matches_the_bindings(graph, basename, count: int, seed: int) -> None:
    """`count` random lists and the longest one equal the WebGraph bindings' successors, self-loops dropped."""
    import webgraph

    bv = webgraph.BvGraph(str(basename))
    sample = np.random.default_rng(seed).choice(graph.num_vertices, size=count, replace=False).tolist()
    sample.append(int(np.argmax(graph.degrees())))
    for v in sample:
        expected = [s for s in bv.successors(v) if s != v]
        assert graph.edges[graph.offsets[v] : graph.offsets[v + 1]].tolist() == expected, v


@needs_tools
def test_lists_match_the_bindings_on_sampled_nodes(converted):
    data, graph, _ = converted
    assert_matches_the_bindings(graph, data / "cnr-2000", 300, seed=0)


@needs_tools
def test_old_ef_is_rebuilt_once(converted, tmp_path):
    data, _, meta = converted
    assert meta["conversion"]["ef_rebuilt"] is True
    assert (data / "cnr-2000.ef").read_bytes() != (DATA / "cnr-2000.ef").read_bytes()
    assert subprocess.run([CLI, "check", "ef", str(data / "cnr-2000")], capture_output=True).returncode == 0
    again = _convert(data, tmp_path / "again.csr")
    assert again["conversion"]["ef_rebuilt"] is False


@needs_tools
def test_weights_come_from_the_recorded_seed(converted):
    _, graph, meta = converted
    assert meta["weights"]["source"] == "generated" and meta["weights"]["seed"] == 3
    np.testing.assert_array_equal(graph.weights, csr_weights(graph.offsets, graph.edges, 3))
    assert graph.weights.min() >= LOW and graph.weights.max() <= HIGH


@needs_tools
def test_four_byte_ids_hold_the_same_graph(converted, tmp_path):
    data, wide, _ = converted
    meta = _convert(data, tmp_path / "cnr.w4.csr", "--index-bytes", "4", "--weights-seed", "3")
    narrow = read_csr(tmp_path / "cnr.w4.csr")
    assert narrow.index_bytes == 4 and meta["index_bytes"] == 4
    np.testing.assert_array_equal(narrow.offsets, wide.offsets)
    np.testing.assert_array_equal(narrow.edges, wide.edges)
    np.testing.assert_array_equal(narrow.weights, wide.weights)


@needs_tools
def test_small_dump_chunks_give_the_same_file(converted, tmp_path, monkeypatch):
    data, wide, _ = converted
    monkeypatch.setattr(law, "DUMP_CHUNK_BYTES", 1 << 20)  # ~40 chunks, many lists split between two
    _convert(data, tmp_path / "chunked.csr", "--weights-seed", "3")
    assert read_csr(tmp_path / "chunked.csr").header.checksum == wide.header.checksum


# ------------------------------------------------------------------ refusals (no tools needed)


def _properties(folder: Path, nodes: int, arcs: int, graphclass="it.unimi.dsi.webgraph.BVGraph") -> Path:
    (folder / "g.properties").write_text(f"#BVGraph properties\nnodes={nodes}\narcs={arcs}\ngraphclass={graphclass}\n")
    return folder / "g"


def test_four_byte_ids_refused_from_properties_alone(tmp_path, capsys):
    basename = _properties(tmp_path, 2**32, 0)  # no .graph: the refusal must come before any decoding
    assert law.main(["--basename", str(basename), "--out", str(tmp_path / "g.csr"), "--index-bytes", "4"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error:") and "do not fit 4-byte edges" in err
    assert not (tmp_path / "g.csr").exists()
    # 2^32 - 1 nodes fit 4 bytes: the same input now fails later, for the missing .graph or the tools.
    _properties(tmp_path, 2**32 - 1, 0)
    assert (
        law.main(
            [
                "--basename",
                str(basename),
                "--out",
                str(tmp_path / "g.csr"),
                "--index-bytes",
                "4",
                "--ignore-memory-check",
                "--webgraph",
                sys.executable,
            ]
        )
        == 1
    )
    assert "4-byte" not in capsys.readouterr().err


def test_not_a_bv_graph_or_no_properties(tmp_path):
    with pytest.raises(law.LawError, match="is not a WebGraph BVGraph"):
        law.read_properties(_properties(tmp_path, 5, 5, graphclass="it.unimi.dsi.webgraph.ArcListASCIIGraph"))
    with pytest.raises(law.LawError, match="--basename must name the graph without suffix"):
        law.read_properties(tmp_path / "nothing")


def test_missing_tool_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.delenv("WEBGRAPH_CLI", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(law.LawError, match="cargo install webgraph-cli --version 0.5.0 --locked"):
        law.webgraph_cli()


def test_memory_check_refuses_before_decoding(tmp_path, monkeypatch):
    monkeypatch.setattr(law, "available_memory_bytes", lambda: 2**30)
    basename = _properties(tmp_path, 1000, 10**9)
    with pytest.raises(law.LawError, match="--ignore-memory-check"):
        law.convert(basename, tmp_path / "g.csr")


# ------------------------------------------------------------------ the dump checks, on hand-made dumps


def _writer(degrees):
    degrees = np.array(degrees)
    return law.ArcWriter(degrees, np.zeros(degrees.sum(), np.uint64), "test")


def test_arc_writer_drops_self_loops_across_chunks():
    w = _writer([3, 0, 2])  # node 0: 0 1 2 (0->0 a self-loop), node 2: 0 2 (2->2 a self-loop)
    w.add(b"0\t0\n0\t1\n")
    w.add(b"0\t2\n2\t0\n2\t2\n")
    assert w.arcs_read == 5 and w.written == 3
    np.testing.assert_array_equal(w.edges[: w.written], [1, 2, 0])
    np.testing.assert_array_equal(np.concatenate(w.loop_nodes), [0, 2])


@pytest.mark.parametrize(
    "chunks,message",
    [
        ([b"0\t1\n1\t0\n1\t2\n"], "disagree about the lists"),  # node 0 has 2 arcs by the degrees
        ([b"0\t2\n0\t1\n1\t0\n"], "node 0 is not strictly increasing"),
        ([b"0\t1\n", b"0\t1\n1\t0\n"], "node 0 is not strictly increasing"),  # a duplicate across chunks
        ([b"0\t1\n0\t3\n1\t0\n"], "outside 0..2"),
        ([b"0\t1\t5\n"], "is not 'src<TAB>dst'"),
        ([b"0\t1\n0\t2\n1\t0\n2\t0\n"], "more than the 3 arcs"),
    ],
)
def test_arc_writer_rejects_damaged_dumps(chunks, message):
    w = _writer([2, 1, 0])
    with pytest.raises(law.LawError, match=message):
        for chunk in chunks:
            w.add(chunk)


def test_cli_runs_as_module(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "emogi.datasets.law",
            "--basename",
            str(tmp_path / "missing"),
            "--out",
            str(tmp_path / "g.csr"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 1 and done.stderr.startswith("error:") and "missing.properties" in done.stderr
