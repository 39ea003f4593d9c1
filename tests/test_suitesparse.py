"""emogi.datasets.suitesparse: SuiteSparse-layout Matrix Market archives to CSR, checked against scipy.sparse.

The archives are written here with plain text formatting (not with fast_matrix_market), and the expected
graphs are built with scipy.sparse from the same triplets.
"""

import hashlib
import io
import json
import sys
import tarfile
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from emogi.csr import read_csr
from emogi.datasets import download, matrix_market
from emogi.datasets import suitesparse as ss
from emogi.datasets.weights import csr_weights
from tests.conftest import run
from tests.local_http import LocalHTTPServer

REPO = Path(__file__).resolve().parent.parent


def mm_text(field, symmetry, n, rows, cols, values=None, ncols=None) -> bytes:
    """A Matrix Market coordinate file; rows and cols 0-based here, written 1-based."""
    head = f"%%MatrixMarket matrix coordinate {field} {symmetry}\n% written by the test\n"
    head += f"{n} {ncols or n} {len(rows)}\n"
    if values is None:
        body = "".join(f"{r + 1} {c + 1}\n" for r, c in zip(rows, cols))
    else:
        body = "".join(f"{r + 1} {c + 1} {v!r}\n" for r, c, v in zip(rows, cols, values.tolist()))
    return (head + body).encode()


def make_archive(path, members: dict) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return Path(path)


def lower_triangle(n, entries, diagonal, seed):
    """Unique strictly-lower (i > j) positions plus `diagonal` diagonal ones, as SuiteSparse stores them."""
    rng = np.random.default_rng(seed)
    flat = rng.choice(n * n, size=4 * entries, replace=False)
    i, j = flat // n, flat % n
    keep = i > j
    i, j = i[keep][:entries], j[keep][:entries]
    d = rng.choice(n, size=diagonal, replace=False)
    return np.concatenate([i, d]), np.concatenate([j, d])


def scipy_reference(n, rows, cols, values, symmetric):
    a = sp.coo_matrix((values, (rows, cols)), shape=(n, n)).tocsr()
    if symmetric:
        a = (a + a.T).tocsr()  # the doubled diagonal goes next
    a.setdiag(0)
    a.eliminate_zeros()
    a.sort_indices()
    return a


def assert_same_graph(graph, ref, with_weights=True):
    np.testing.assert_array_equal(graph.offsets, ref.indptr)
    np.testing.assert_array_equal(graph.edges, ref.indices)
    if with_weights:
        np.testing.assert_array_equal(graph.weights, ref.data)


def weight_of(graph, u, v):
    lo, hi = int(graph.offsets[u]), int(graph.offsets[u + 1])
    return int(graph.weights[lo + int(np.flatnonzero(graph.edges[lo:hi] == v)[0])])


@pytest.fixture
def gap_like(tmp_path):
    """A small GAP-style archive: symmetric, integer weights 1..255, diagonal entries, an aux file first."""
    n = 300
    rows, cols = lower_triangle(n, 2000, diagonal=5, seed=3)
    values = np.random.default_rng(4).integers(1, 256, len(rows))
    members = {
        "GAP-tiny/GAP-tiny_sources.mtx": mm_text("integer", "general", 4, [0, 1], [0, 0], np.array([7, 9]), ncols=1),
        "GAP-tiny/GAP-tiny.mtx": mm_text("integer", "symmetric", n, rows, cols, values),
    }
    (tmp_path / "www").mkdir()
    archive = make_archive(tmp_path / "www" / "GAP-tiny.tar.gz", members)
    return archive, scipy_reference(n, rows, cols, values, symmetric=True)


def test_download_and_convert_end_to_end_matches_scipy(gap_like, tmp_path):
    archive, ref = gap_like
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    with LocalHTTPServer(archive.parent) as server:
        got = download.download(
            server.url(archive.name),
            tmp_path / "dl" / archive.name,
            digest,
            archive.stat().st_size,
            "GAP-tiny",
            backoff_s=0.01,
        )
    for width, dtype in ((8, np.uint64), (4, np.uint32)):
        out, meta = tmp_path / f"g.w{width}.csr", tmp_path / f"g.w{width}.json"
        ss.convert(got, out, meta, index_bytes=width)
        graph = read_csr(out)
        assert graph.edges.dtype == dtype and not graph.directed
        assert_same_graph(graph, ref)
        info = json.loads(meta.read_text())
        assert info["weights"]["source"] == "dataset"
        assert info["conversion"]["self_loops_removed"] == 5
        assert info["conversion"]["duplicate_edges_merged"] == 0
        assert info["source"]["matrix_market"] == {
            "member": "GAP-tiny/GAP-tiny.mtx",
            "field": "integer",
            "symmetry": "symmetric",
            "stored_entries": 2005,
        }
        assert info["num_edges"] == ref.nnz and info["index_bytes"] == width


def test_chunk_boundaries_of_in_place_unpacking(gap_like, tmp_path, monkeypatch):
    archive, ref = gap_like
    monkeypatch.setattr(ss, "_CHUNK", 7)  # many chunks: every in-place compaction crosses boundaries
    for width in (4, 8):
        graph = ss.convert(archive, tmp_path / f"c{width}.csr", index_bytes=width)
        assert_same_graph(graph, ref)


@pytest.mark.parametrize("read_block", [4 << 20, 100])
def test_long_header_is_read_once_and_handed_to_the_parser(tmp_path, monkeypatch, read_block):
    # The header is read off the one-pass stream before the body, then given back to fmm ahead of the rest:
    # many comment lines (more than fmm's first 1 KiB read) and a blank line must not lose or repeat a byte.
    monkeypatch.setattr(matrix_market, "_READ_BLOCK", read_block)
    rows, cols, values = np.array([1, 2, 2]), np.array([0, 0, 1]), np.array([3, 4, 5])
    text = mm_text("integer", "symmetric", 3, rows, cols, values)
    banner, rest = text.split(b"\n", 1)
    comments = b"".join(b"%% comment line %d of a long SuiteSparse header\n" % i for i in range(60))
    archive = make_archive(tmp_path / "h.tar.gz", {"h/h.mtx": banner + b"\n" + comments + b"\n" + rest})
    graph = ss.convert(archive, tmp_path / "h.csr")
    assert_same_graph(graph, scipy_reference(3, rows, cols, values, symmetric=True))


def test_general_pattern_matrix_is_directed_with_generated_weights(tmp_path):
    n = 200
    rng = np.random.default_rng(5)
    flat = rng.choice(n * n, size=1500, replace=False)
    rows, cols = flat // n, flat % n
    archive = make_archive(tmp_path / "web.tar.gz", {"web/web.mtx": mm_text("pattern", "general", n, rows, cols)})
    out, meta = tmp_path / "web.csr", tmp_path / "web.json"
    graph = ss.convert(archive, out, meta, weights_seed=11)
    ref = scipy_reference(n, rows, cols, np.ones(len(rows)), symmetric=False)
    assert graph.directed and read_csr(out).directed
    assert_same_graph(graph, ref, with_weights=False)
    np.testing.assert_array_equal(graph.weights, csr_weights(graph.offsets, graph.edges, 11))
    info = json.loads(meta.read_text())
    assert info["weights"]["source"] == "generated" and info["weights"]["seed"] == 11
    assert "pattern" in info["weights"]["reason"]
    assert info["conversion"]["symmetrized"] is False


@pytest.mark.parametrize("chunk", [1 << 20, 1, 2])  # tiny chunks: duplicates across chunk boundaries
def test_duplicates_keep_the_smallest_weight_and_self_loops_go(tmp_path, monkeypatch, chunk):
    # (2,1) three times with weights 9, 4, 6, and once as (1,2) with 5 (mirrored onto (2,1) too): 4 wins.
    monkeypatch.setattr(ss, "_CHUNK", chunk)
    rows = np.array([1, 1, 0, 1, 2, 3])
    cols = np.array([0, 0, 1, 0, 2, 0])
    values = np.array([9, 4, 5, 6, 1, 8])
    archive = make_archive(tmp_path / "d.tar.gz", {"d/d.mtx": mm_text("integer", "symmetric", 4, rows, cols, values)})
    graph = ss.convert(archive, tmp_path / "d.csr", tmp_path / "d.json")
    assert graph.offsets.tolist() == [0, 2, 3, 3, 4]
    assert graph.edges.tolist() == [1, 3, 0, 0]
    assert weight_of(graph, 0, 1) == weight_of(graph, 1, 0) == 4
    assert weight_of(graph, 0, 3) == weight_of(graph, 3, 0) == 8
    conversion = json.loads((tmp_path / "d.json").read_text())["conversion"]
    assert conversion["self_loops_removed"] == 1
    assert conversion["duplicate_edges_merged"] == 10 - 4  # 5 off-diagonal entries, both directions, 4 edges left


def test_real_matrix_keeps_explicit_zeros_as_edges_and_generates_symmetric_weights(tmp_path):
    n = 50
    rows, cols = lower_triangle(n, 120, diagonal=0, seed=8)
    values = np.random.default_rng(9).uniform(5e-15, 3.0, len(rows))
    values[:3] = 0.0  # MOLIERE_2016's explicit zeros are edges
    archive = make_archive(tmp_path / "ML.tar.gz", {"ML/ML.mtx": mm_text("real", "symmetric", n, rows, cols, values)})
    g1 = ss.convert(archive, tmp_path / "a.csr", tmp_path / "a.json", weights_seed=1)
    g2 = ss.convert(archive, tmp_path / "b.csr", weights_seed=2)
    assert_same_graph(g1, scipy_reference(n, rows, cols, np.ones(len(rows)), symmetric=True), with_weights=False)
    assert g1.num_edges == 2 * 120
    assert g1.weights.min() >= 8 and g1.weights.max() <= 72
    assert all(weight_of(g1, u, v) == weight_of(g1, v, u) for u, v in zip(rows[:20], cols[:20]))
    assert not np.array_equal(g1.weights, g2.weights)  # the seed matters, and is recorded
    weights = json.loads((tmp_path / "a.json").read_text())["weights"]
    assert weights["source"] == "generated" and weights["seed"] == 1 and "real" in weights["reason"]


def test_integer_values_that_are_not_positive_fall_back_to_generated_weights(tmp_path):
    archive = make_archive(
        tmp_path / "z.tar.gz", {"z/z.mtx": mm_text("integer", "general", 3, [0, 1], [1, 2], np.array([0, 5]))}
    )
    ss.convert(archive, tmp_path / "z.csr", tmp_path / "z.json")
    weights = json.loads((tmp_path / "z.json").read_text())["weights"]
    assert weights["source"] == "generated" and "[0, 5]" in weights["reason"]


def test_main_matrix_found_whatever_the_archive_is_called(gap_like, tmp_path):
    archive, ref = gap_like
    renamed = archive.rename(tmp_path / "GK.tar.gz")  # no --name: <dir>/<dir>.mtx is the main matrix
    assert_same_graph(ss.convert(renamed, tmp_path / "r.csr"), ref)
    with pytest.raises(ss.DatasetError, match="no matrix file GAP-kron/GAP-kron.mtx .*GAP-tiny_sources.mtx"):
        ss.convert(renamed, tmp_path / "x.csr", name="GAP-kron")


@pytest.mark.parametrize(
    "members, message",
    [
        ({"m/m.mtx": mm_text("pattern", "general", 3, [0], [1], ncols=4)}, "must be square"),
        ({"m/m.mtx": b"%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1.0 2.0\n"}, "complex values"),
        ({"m/m.mtx": b"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"}, "coordinate matrix"),
        ({"m/m.mtx": b"%%MatrixMarket matrix coordinate pattern general\n3 3 4\n1 2\n"}, "announces 4 entries"),
        ({"m/m.mtx": b"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1    2\n"}, "unreadable Matrix Market"),
        ({"m/m_aux.mtx": b"x"}, "no matrix file"),
    ],
)
def test_bad_matrices_are_rejected_with_the_reason(tmp_path, members, message):
    archive = make_archive(tmp_path / "m.tar.gz", members)
    with pytest.raises(ss.DatasetError, match=message):
        ss.convert(archive, tmp_path / "m.csr")
    assert not (tmp_path / "m.csr").exists()


@pytest.mark.parametrize("read_block", [4 << 20, 256])  # the damage seen on opening, or while reading entries
def test_damaged_archives_are_rejected(gap_like, tmp_path, monkeypatch, read_block):
    archive, _ = gap_like
    monkeypatch.setattr(matrix_market, "_READ_BLOCK", read_block)
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
    with pytest.raises(ss.DatasetError, match="download it again"):
        ss.convert(cut, tmp_path / "c.csr", name="GAP-tiny")
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"not gzip at all" * 100)
    with pytest.raises(ss.DatasetError, match="not a readable tar archive"):
        ss.convert(junk, tmp_path / "j.csr")


def test_memory_estimate_stops_early_and_can_be_overridden(gap_like, tmp_path):
    archive, ref = gap_like
    with pytest.raises(ss.DatasetError, match="needs about .* --ignore-memory-check"):
        ss.convert(archive, tmp_path / "m.csr", available=1)
    assert not (tmp_path / "m.csr").exists()
    assert_same_graph(ss.convert(archive, tmp_path / "m.csr", available=1, check_memory=False), ref)
    # the paper's largest: ~60 GB for GAP-kron (nnz = half the collection's nonzeros), more for MOLIERE_2016
    kron = ss.estimated_peak_bytes(134217726, 4223264644 // 2, "integer", True)
    moliere = ss.estimated_peak_bytes(30239687, 6669254694 // 2, "real", True)
    assert 55e9 < kron < 70e9 and moliere > kron


def test_key_layout_packs_the_papers_graphs_and_refuses_what_does_not_fit():
    urand = ss.KeyLayout.fitting(134217728, 255)  # GAP-urand: V = 2^27, weights 1..255
    assert (urand.vertex_bits, urand.weight_bits) == (27, 8)
    assert ss.KeyLayout.fitting(2**32, 2**32 - 1) is None
    with pytest.raises(ss.DatasetError, match="do not fit one 64-bit sort key"):
        ss.build_weighted_csr(np.array([0]), np.array([1]), 2**32, weights=np.array([2**32 - 1]))


def test_cli(gap_like, tmp_path):
    archive, ref = gap_like
    out, meta = tmp_path / "g.w8.csr", tmp_path / "g.w8.json"
    ok = run(
        [
            sys.executable,
            "-m",
            "emogi.datasets.suitesparse",
            "--archive",
            archive,
            "--out",
            out,
            "--meta",
            meta,
            "--weights-seed",
            3,
            "--name",
            "GAP-tiny",
        ],
        cwd=REPO,
    )
    assert ok.returncode == 0, ok.stderr
    assert "[suitesparse GAP-tiny]" in ok.stderr
    assert_same_graph(read_csr(out), ref)
    bad = run(
        [sys.executable, "-m", "emogi.datasets.suitesparse", "--archive", tmp_path / "missing.tar.gz", "--out", out],
        cwd=REPO,
    )
    assert bad.returncode == 1 and bad.stderr.startswith("error: ") and "missing.tar.gz" in bad.stderr
