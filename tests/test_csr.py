"""The CSR file format: the reader and writer against a file built by hand from docs/graph-format.md."""

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import xxhash

from emogi import csr, csr_checks
from emogi.csr import CSRGraph, GraphFormatError, describe, narrow_edges, read_csr, read_header, write_csr

REPO = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ the spec, written out independently


def _pad4k(b: bytes) -> bytes:
    return b + bytes(-len(b) % 4096)


def spec_checksum(data: bytes) -> int:
    """XXH3-64 of the whole file with the checksum field (bytes 40..47) read as zero (version 2)."""
    return xxhash.xxh3_64_intdigest(data[:40] + bytes(8) + data[48:], seed=0)


def spec_bytes(
    offsets,
    edges,
    index_bytes,
    weights=None,
    directed=False,
    *,
    magic=b"EMOGICSR",
    version=2,
    flags=None,
    checksum=None,
    num_vertices=None,
    num_edges=None,
) -> bytes:
    """A graph file assembled field by field from the spec's tables (no code from emogi.csr)."""
    offsets, edges = [int(x) for x in offsets], [int(x) for x in edges]
    body = _pad4k(struct.pack(f"<{len(offsets)}Q", *offsets))  # offsets at 4096
    edge_bytes = struct.pack(f"<{len(edges)}{'I' if index_bytes == 4 else 'Q'}", *edges)
    if weights is None:
        body += edge_bytes  # the file ends with the edges
    else:
        body += _pad4k(edge_bytes) + struct.pack(f"<{len(weights)}I", *[int(w) for w in weights])
    if flags is None:
        flags = (1 if weights is not None else 0) | (2 if directed else 0)
    nv = len(offsets) - 1 if num_vertices is None else num_vertices
    ne = len(edges) if num_edges is None else num_edges

    def head(checksum):
        return (
            magic
            + struct.pack("<IIII", version, flags, index_bytes, 0)
            + struct.pack("<QQQ", nv, ne, checksum)
            + bytes(16)
            + bytes(4096 - 64)
        )

    if checksum is None:
        checksum = spec_checksum(head(0) + body)
    return head(checksum) + body


def random_graph(rng, num_vertices, max_degree):
    """Offsets/edges of a random directed multigraph-free structure (sorted, distinct neighbours)."""
    degs = rng.integers(0, max_degree + 1, size=num_vertices)
    degs[rng.random(num_vertices) < 0.2] = 0  # some isolated vertices
    lists = [np.sort(rng.choice(num_vertices, size=min(d, num_vertices), replace=False)) for d in degs]
    offsets = np.concatenate([[0], np.cumsum([len(x) for x in lists])]).astype(np.uint64)
    edges = np.concatenate(lists + [np.empty(0, np.int64)]).astype(np.uint64)
    return offsets, edges


def write_bytes(path, data):
    Path(path).write_bytes(data)
    return path


# ------------------------------------------------------------------ round trip and byte layout


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
@pytest.mark.parametrize("with_weights", [False, True])
@pytest.mark.parametrize("directed", [False, True])
def test_round_trip_matches_spec_bytes(tmp_path, dtype, with_weights, directed):
    rng = np.random.default_rng(5)
    # 700 vertices: the offsets (5608 bytes) spill past one page, so the edges start at 12288, not 8192.
    offsets, edges = random_graph(rng, 700, 9)
    edges = edges.astype(dtype)
    weights = rng.integers(0, 2**32, size=len(edges), dtype=np.uint32) if with_weights else None
    path = tmp_path / "g.csr"
    header = write_csr(path, offsets, edges, weights, directed=directed)

    expected = spec_bytes(offsets, edges, np.dtype(dtype).itemsize, weights, directed)
    assert path.read_bytes() == expected
    assert header.file_size == len(expected) == path.stat().st_size
    assert header.edges_offset == 12288

    g = read_csr(path)
    assert g.offsets.dtype == np.uint64 and g.edges.dtype == dtype
    np.testing.assert_array_equal(g.offsets, offsets)
    np.testing.assert_array_equal(g.edges, edges)
    if with_weights:
        assert g.weights.dtype == np.uint32
        np.testing.assert_array_equal(g.weights, weights)
    else:
        assert g.weights is None
    assert g.directed is directed
    assert (g.num_vertices, g.num_edges, g.index_bytes) == (700, len(edges), np.dtype(dtype).itemsize)
    assert not g.edges.flags.writeable  # mapped read-only

    h = read_header(path)
    assert (h.version, h.index_bytes, h.num_vertices, h.num_edges) == (2, np.dtype(dtype).itemsize, 700, len(edges))
    assert h.has_weights is with_weights and h.directed is directed
    assert h.checksum == spec_checksum(expected)


def test_hand_written_file_is_read(tmp_path):
    # 0 -> {1, 2}, 1 -> {}, 2 -> {0}, 3 -> {} ; weights 7, 8, 9; 4-byte ids, directed
    data = spec_bytes([0, 2, 2, 3, 3], [1, 2, 0], 4, weights=[7, 8, 9], directed=True)
    assert len(data) == 4096 + 4096 + 4096 + 12  # header, offsets page, edges page, weights
    path = write_bytes(tmp_path / "hand.csr", data)
    g = read_csr(path)
    assert g.offsets.tolist() == [0, 2, 2, 3, 3]
    assert g.edges.tolist() == [1, 2, 0] and g.edges.dtype == np.uint32
    assert g.weights.tolist() == [7, 8, 9]
    assert g.directed and g.degrees().tolist() == [2, 0, 1, 0]

    d = describe(g)
    assert d == {
        "num_vertices": 4,
        "num_edges": 3,
        "index_bytes": 4,
        "directed": True,
        "has_weights": True,
        "isolated_vertices": 2,
        "max_degree": 2,
        "avg_degree_nonisolated": 1.5,
        "edge_list_bytes": 12,
        "file_bytes": len(data),
        "checksum": f"{spec_checksum(data):016x}",
    }
    # The in-memory graph (no file behind it) describes to the same checksum.
    assert describe(CSRGraph(np.array(g.offsets), np.array(g.edges), np.array(g.weights), True)) == d


def test_empty_edge_list(tmp_path):
    path = tmp_path / "empty.csr"
    write_csr(path, np.zeros(4, np.uint64), np.empty(0, np.uint64))
    assert path.read_bytes() == spec_bytes([0, 0, 0, 0], [], 8)
    g = read_csr(path)
    assert g.num_edges == 0 and g.num_vertices == 3 and g.edges.dtype == np.uint64
    assert describe(g)["isolated_vertices"] == 3


def test_chunked_streaming(tmp_path, monkeypatch):
    """Checksums, offset checks and writes across many small chunks (what multi-GB files exercise)."""
    monkeypatch.setattr(csr, "_CHUNK_BYTES", 1000)  # not a multiple of 8 or of the page
    monkeypatch.setattr(csr_checks, "_BLOCK", 125)  # the threaded, blocked checks on a small graph
    offsets, edges = random_graph(np.random.default_rng(1), 500, 20)
    path = tmp_path / "g.csr"
    write_csr(path, offsets, edges.astype(np.uint32))
    assert path.read_bytes() == spec_bytes(offsets, edges, 4)
    np.testing.assert_array_equal(read_csr(path).edges, edges)
    # A decrease exactly at a block boundary (blocks of 125 offsets) must be found.
    # Without the one-entry overlap between blocks, the pair (124, 125) would be split and missed.
    bad = np.arange(501, dtype=np.uint64)
    bad[125] = 123
    with pytest.raises(GraphFormatError, match="decrease at vertex 124"):
        csr.check_offsets(bad, 500, "x")
    # Of several bad ids in several blocks, the first is reported, whichever thread finds it.
    ids = np.zeros(1000, np.uint64)
    ids[[130, 700, 999]] = [7, 9, 8]
    with pytest.raises(GraphFormatError, match="neighbour id 7 at edge 130 is >= V = 5"):
        csr.check_edge_ids(ids, 5, "x")


# ------------------------------------------------------------------ rejections


def test_truncated(tmp_path):
    data = spec_bytes([0, 1, 2], [1, 0], 8)
    short = write_bytes(tmp_path / "short.csr", data[:-1])
    with pytest.raises(GraphFormatError, match=r"short\.csr.*truncated"):
        read_csr(short)
    tiny = write_bytes(tmp_path / "tiny.csr", data[:100])
    with pytest.raises(GraphFormatError, match=r"tiny\.csr.*truncated"):
        read_header(tiny)


def test_trailing_bytes(tmp_path):
    path = write_bytes(tmp_path / "long.csr", spec_bytes([0, 1, 2], [1, 0], 8) + b"\0")
    with pytest.raises(GraphFormatError, match="trailing"):
        read_csr(path)


def test_wrong_magic(tmp_path):
    path = write_bytes(tmp_path / "m.csr", spec_bytes([0, 1, 2], [1, 0], 8, magic=b"EMOGICSX"))
    with pytest.raises(GraphFormatError, match=r"m\.csr.*not an EMOGI CSR file"):
        read_csr(path)
    text = write_bytes(tmp_path / "t.csr", b"hello, this is not a graph\n" * 200)
    with pytest.raises(GraphFormatError, match="not an EMOGI CSR file"):
        read_csr(text)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"version": 3}, "unknown version 3"),
        ({"version": 1}, "format version 1, whose checksum does not cover the header.*python -m emogi.csr upgrade"),
        ({"flags": 8}, "unknown flag"),
    ],
)
def test_unknown_version_or_flag(tmp_path, kwargs, message):
    path = write_bytes(tmp_path / "v.csr", spec_bytes([0, 1, 2], [1, 0], 8, **kwargs))
    with pytest.raises(GraphFormatError, match=message):
        read_csr(path)


def test_bad_index_bytes(tmp_path):
    # 2-byte ids: the payload is laid out as if they were, so only the field is wrong.
    data = bytearray(spec_bytes([0, 1, 2], [1, 0], 4))
    data[16:20] = struct.pack("<I", 2)
    path = write_bytes(tmp_path / "w.csr", bytes(data))
    with pytest.raises(GraphFormatError, match="bad index_bytes 2"):
        read_csr(path)


def test_flipped_payload_byte(tmp_path):
    data = bytearray(spec_bytes([0, 1, 2], [1, 0], 8, weights=[5, 6]))
    good = spec_checksum(bytes(data))
    data[3 * 4096 + 1] ^= 0x10  # inside the weights
    bad = spec_checksum(bytes(data))
    path = write_bytes(tmp_path / "flip.csr", bytes(data))
    with pytest.raises(GraphFormatError) as err:
        read_csr(path)
    msg = str(err.value)
    assert "flip.csr" in msg and "corrupt: checksum" in msg
    assert f"{bad:016x}" in msg and f"{good:016x}" in msg
    read_csr(path, verify_checksum=False)  # structure is still fine; only the checksum notices


@pytest.mark.parametrize(
    "offsets, message",
    [
        ([1, 1, 2], r"offsets\[0\] = 1"),
        ([0, 2, 1], "decrease at vertex 1"),
        ([0, 1, 1], r"offsets\[V\] = 1, must equal E = 2"),
    ],
)
def test_bad_offsets(tmp_path, offsets, message):
    # Valid checksum and sizes, so the structural check is what has to catch it.
    path = write_bytes(tmp_path / "o.csr", spec_bytes(offsets, [1, 0], 8))
    with pytest.raises(GraphFormatError, match=r"o\.csr.*" + message):
        read_csr(path)


def test_edge_id_out_of_range(tmp_path):
    """Every read checks the ids, the checksum check or not: a valid checksum says nothing about them."""
    path = write_bytes(tmp_path / "e.csr", spec_bytes([0, 1, 2], [1, 2], 8))
    for read in (read_csr, csr.verify_csr, lambda p: read_csr(p, verify_checksum=False)):
        with pytest.raises(
            GraphFormatError, match=r"e\.csr: neighbour id 2 at edge 1 \(a neighbour of vertex 1\) is >= V = 2"
        ):
            read(path)


# ------------------------------------------------------------------ writer safety


def _leftovers(folder):
    return sorted(p.name for p in Path(folder).iterdir())


@pytest.mark.parametrize(
    "offsets, edges",
    [
        (np.array([0, 2, 1], np.uint64), np.array([1, 0], np.uint64)),  # decreasing offsets
        (np.array([0, 1, 3], np.uint64), np.array([1, 0], np.uint64)),  # does not end at E
        (np.array([0, 1, 2], np.uint64), np.array([1, 0], np.int64)),  # signed ids: no width
        (np.array([0, 1, 2], np.uint64), np.array([1, 5], np.uint32)),  # id >= V
    ],
)
def test_invalid_input_writes_nothing(tmp_path, offsets, edges):
    with pytest.raises(GraphFormatError):
        write_csr(tmp_path / "g.csr", offsets, edges)
    assert _leftovers(tmp_path) == []


def test_failure_during_write_removes_temp(tmp_path, monkeypatch):
    seen = []
    real_replace = os.replace

    def failing_replace(src, dst):
        seen.append(Path(src).name)
        assert Path(src).exists() and Path(src).parent == tmp_path
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk on fire"):
        write_csr(tmp_path / "g.csr", np.array([0, 1, 2], np.uint64), np.array([1, 0], np.uint64))
    assert seen and seen[0].startswith(".g.csr") and seen[0].endswith(".tmp")
    assert _leftovers(tmp_path) == []

    # An existing file under the final name survives a failed rewrite untouched.
    monkeypatch.setattr(os, "replace", real_replace)
    write_csr(tmp_path / "g.csr", np.array([0, 1, 2], np.uint64), np.array([1, 0], np.uint64))
    before = (tmp_path / "g.csr").read_bytes()
    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError):
        write_csr(tmp_path / "g.csr", np.array([0, 0, 0], np.uint64), np.array([], np.uint64))
    assert (tmp_path / "g.csr").read_bytes() == before
    assert _leftovers(tmp_path) == ["g.csr"]


# ------------------------------------------------------------------ narrowing


def test_narrow(tmp_path):
    offsets, edges = random_graph(np.random.default_rng(3), 300, 8)
    write_csr(tmp_path / "w8.csr", offsets, edges)
    g4 = narrow_edges(read_csr(tmp_path / "w8.csr"))
    assert g4.edges.dtype == np.uint32
    np.testing.assert_array_equal(g4.edges, edges)
    np.testing.assert_array_equal(g4.offsets, offsets)


def test_narrow_refuses_2_to_the_32_vertices():
    # A zero-stride view: 2^32 + 1 offsets (V = 2^32) without allocating them.
    offsets = np.broadcast_to(np.uint64(0), (2**32 + 1,))
    huge = CSRGraph(offsets, np.empty(0, np.uint64))
    assert huge.num_vertices == 2**32
    with pytest.raises(GraphFormatError, match="4-byte"):
        narrow_edges(huge)
    csr.check_index_width(2**32 - 1, 4)  # the largest V that fits
    with pytest.raises(GraphFormatError):
        csr.check_index_width(2**32, 4)


# ------------------------------------------------------------------ CLI


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "emogi.csr", *map(str, args)], cwd=REPO, capture_output=True, text=True, timeout=120
    )


def test_cli_info_verify_narrow(tmp_path):
    offsets, edges = random_graph(np.random.default_rng(4), 200, 6)
    path = tmp_path / "g.csr"
    write_csr(path, offsets, edges)

    r = _cli("info", path)
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["header"]["num_vertices"] == 200 and info["describe"]["num_edges"] == len(edges)
    assert info["describe"]["isolated_vertices"] == int(np.sum(np.diff(offsets.astype(np.int64)) == 0))

    r = _cli("verify", path)
    assert r.returncode == 0, r.stderr

    r = _cli("narrow", path, "--out", tmp_path / "g4.csr", "--meta", tmp_path / "g4.json")
    assert r.returncode == 0, r.stderr
    g4 = csr.verify_csr(tmp_path / "g4.csr")
    assert g4.index_bytes == 4
    np.testing.assert_array_equal(g4.edges, edges)
    meta = json.loads((tmp_path / "g4.json").read_text())
    assert meta["index_bytes"] == 4 and meta["edge_list_bytes"] == 4 * len(edges)
    assert meta["file_bytes"] == (tmp_path / "g4.csr").stat().st_size

    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    r = _cli("verify", path)
    assert r.returncode == 1 and "checksum" in r.stderr and "g.csr" in r.stderr
    r = _cli("info", tmp_path / "missing.csr")
    assert r.returncode == 1


def test_cli_reports_expected_failures_in_one_line(tmp_path, capsys):
    """emogi.cli.exit_status: a bad input is 'error: ...' and status 1; a bug still raises."""
    from emogi.cli import exit_status

    (tmp_path / "bad.csr").write_bytes(b"not a graph")
    assert csr.main(["verify", str(tmp_path / "bad.csr")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "bad.csr" in err and "Traceback" not in err
    assert exit_status(lambda: None, (OSError,)) == 0
    with pytest.raises(ZeroDivisionError):
        exit_status(lambda: 1 / 0, (OSError,))
