"""Recorded traces without a GPU: a trace file written by the binary's own writer (kernels/src/trace_file.cpp, through
emogi_host_tests) loads into emogi.traces' Trace with its launches, parts and caveats; a trace from another graph,
a truncated file and something else are refused in one line."""

import numpy as np
import pytest

from conftest import run
from emogi import csr
from graphs import write_generated

pytest.importorskip("emogi.traces", reason="emogi.traces (the trace format) is on the oom branch until it is merged")
from emogi.trace_recording import load_recorded, main  # noqa: E402
from emogi.traces import TraceError, load_trace  # noqa: E402


@pytest.fixture
def graph(tmp_path):
    return write_generated(tmp_path / "kron8.csr", "kron", 8)


def write_trace(binary, path, graph_path, checksum=None):
    header = csr.read_header(graph_path)
    checksum = f"{header.checksum:016x}" if checksum is None else checksum
    args = ["write-trace", path, header.num_vertices, header.num_edges, checksum, header.index_bytes]
    done = run([binary.parent / "emogi_host_tests", *args])
    assert done.returncode == 0, done.stdout + done.stderr
    return path


def test_a_recorded_trace_loads_with_its_launches_and_parts(emogi_binary, graph, tmp_path):
    trace = load_recorded(write_trace(emogi_binary, tmp_path / "t.trace", graph), csr.read_csr(graph))
    g = csr.read_csr(graph)
    degree = np.diff(np.asarray(g.offsets, dtype=np.int64))
    v = np.arange(g.num_vertices)
    assert trace.num_launches == 3 and trace.labels == ["launch 0", "launch 1", "launch 2"]
    for i in range(3):  # every (i + 2)-th vertex, those with an empty list dropped
        np.testing.assert_array_equal(trace.mask(i), (v % (i + 2) == 0) & (degree > 0))
    assert 0 not in trace.parts
    first, count = trace.parts[1]  # entry 1 of each list
    assert (first == 1).all() and np.array_equal(count, np.minimum(1, degree[trace.mask(1)] - 1))
    first, count = trace.parts[2]  # the entries from 2 on
    assert (first == 2).all() and np.array_equal(count, np.maximum(degree[trace.mask(2)] - 2, 0))
    assert trace.source == "recorded" and trace.fidelity == "approximate" and "stops early" in trace.note
    assert trace.graph == 'g "quoted"' and trace.algorithm == "cc" and trace.root == -1 and trace.edge_bytes == 8


def test_convert_writes_a_trace_the_model_reads(emogi_binary, graph, tmp_path):
    raw = write_trace(emogi_binary, tmp_path / "t.trace", graph)
    assert main(["convert", str(raw), "--graph", str(graph), "--out", str(tmp_path / "t.npz")]) == 0
    back = load_trace(tmp_path / "t.npz", csr.read_csr(graph))
    assert back.num_launches == 3 and back.source == "recorded" and back.labels[2] == "launch 2"


def test_a_trace_from_another_graph_is_refused(emogi_binary, graph, tmp_path):
    raw = write_trace(emogi_binary, tmp_path / "t.trace", graph, checksum="0123456789abcdef")
    with pytest.raises(TraceError, match="does not belong to graph") as e:
        load_recorded(raw, csr.read_csr(graph))
    assert "\n" not in str(e.value)
    other = write_generated(tmp_path / "urand8.csr", "urand", 8)
    with pytest.raises(TraceError, match="recorded on a graph of V = "):
        load_recorded(write_trace(emogi_binary, tmp_path / "u.trace", graph), csr.read_csr(other))


def test_a_truncated_or_foreign_file_is_refused(emogi_binary, graph, tmp_path):
    raw = write_trace(emogi_binary, tmp_path / "t.trace", graph)
    data = raw.read_bytes()
    (tmp_path / "cut.trace").write_bytes(data[32:])
    with pytest.raises(TraceError, match="truncated"):
        load_recorded(tmp_path / "cut.trace", csr.read_csr(graph))
    with pytest.raises(TraceError, match="not a recorded trace"):
        load_recorded(graph, csr.read_csr(graph))
    assert main(["convert", str(graph), "--graph", str(graph), "--out", str(tmp_path / "x.npz")]) == 1
    assert not (tmp_path / "x.npz").exists()
