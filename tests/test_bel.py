"""EMOGI `.bel` interop: export then import gives the same graph, and the exported files read, with the
artifact's reader semantics (bfs.cu / sssp.cu main()), as the same graph."""

import json
import re
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from emogi.csr import GraphFormatError, read_csr, write_csr
from emogi.datasets import bel
from emogi.datasets.weights import csr_weights

REPO = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ the artifact's reader, written out in numpy


def artifact_read(prefix: str):
    """What the artifact reads from `<prefix>.bel`: .col count is V + 1 (then vertex_count--), V + 1 offsets;
    .dst count E, E u64 ids; .val count E, E u32 weights. Trailing bytes are never looked at."""

    def words(path, dtype):
        raw = Path(path).read_bytes()
        count, _ignored = struct.unpack_from("<QQ", raw)
        return count, np.frombuffer(raw, dtype=dtype, offset=16)

    vertex_count, col = words(prefix + ".bel.col", "<u8")
    vertex_count -= 1
    offsets = col[: vertex_count + 1]
    edge_count, dst = words(prefix + ".bel.dst", "<u8")
    weights = None
    if Path(prefix + ".bel.val").exists():
        weight_count, val = words(prefix + ".bel.val", "<u4")
        weights = val[:weight_count]
    return vertex_count, offsets, dst[:edge_count], weights


def small_graph(seed=3, num_vertices=300, directed=True):
    """Random directed lists with isolated vertices and one self-loop (import must keep lists as they are)."""
    rng = np.random.default_rng(seed)
    degs = rng.integers(0, 12, size=num_vertices)
    degs[rng.random(num_vertices) < 0.2] = 0
    lists = [np.sort(rng.choice(num_vertices, size=d, replace=False)) for d in degs]
    lists[5] = np.array([5])
    offsets = np.concatenate([[0], np.cumsum([len(x) for x in lists])]).astype(np.uint64)
    edges = np.concatenate(lists).astype(np.uint64)
    return offsets, edges


def undirected_graph():
    pairs = np.array([(0, 1), (1, 2), (2, 0), (3, 4)])
    src = np.concatenate([pairs[:, 0], pairs[:, 1]])
    dst = np.concatenate([pairs[:, 1], pairs[:, 0]])
    order = np.lexsort((dst, src))
    offsets = np.searchsorted(src[order], np.arange(6)).astype(np.uint64)
    return offsets, dst[order].astype(np.uint64)


# ------------------------------------------------------------------ export: the artifact's semantics


@pytest.mark.parametrize("index_bytes", [4, 8])
def test_export_reads_back_with_artifact_semantics(tmp_path, index_bytes):
    offsets, edges = small_graph()
    weights = csr_weights(offsets, edges, seed=7)
    dtype = np.uint32 if index_bytes == 4 else np.uint64
    write_csr(tmp_path / "g.csr", offsets, edges.astype(dtype), weights, directed=True)
    assert bel.main(["export", str(tmp_path / "g.csr"), "--out", str(tmp_path / "g")]) == 0

    vertex_count, got_offsets, got_edges, got_weights = artifact_read(str(tmp_path / "g"))
    assert vertex_count == len(offsets) - 1
    np.testing.assert_array_equal(got_offsets, offsets)
    np.testing.assert_array_equal(got_edges, edges)
    np.testing.assert_array_equal(got_weights, weights)
    # Nothing past what the artifact reads: the header counts are exact, not merely large enough.
    assert (tmp_path / "g.bel.col").stat().st_size == 16 + 8 * len(offsets)
    assert (tmp_path / "g.bel.dst").stat().st_size == 16 + 8 * len(edges)
    assert (tmp_path / "g.bel.val").stat().st_size == 16 + 4 * len(edges)
    assert struct.unpack_from("<Q", (tmp_path / "g.bel.col").read_bytes())[0] == len(offsets)  # V + 1, not V


def test_export_accepts_artifact_style_prefix_and_drops_stale_weights(tmp_path):
    offsets, edges = small_graph()
    write_csr(tmp_path / "g.csr", offsets, edges)
    (tmp_path / "g.bel.val").write_bytes(b"stale")
    written = bel.export_bel(read_csr(tmp_path / "g.csr"), tmp_path / "g.bel")
    assert sorted(p.name for p in written.values()) == ["g.bel.col", "g.bel.dst"]
    assert not (tmp_path / "g.bel.val").exists()


# ------------------------------------------------------------------ round trip


@pytest.mark.parametrize("index_bytes,weighted", [(8, True), (4, True), (8, False)])
def test_export_import_round_trip(tmp_path, index_bytes, weighted):
    offsets, edges = small_graph()
    weights = csr_weights(offsets, edges, seed=11) if weighted else None
    write_csr(tmp_path / "a.csr", offsets, edges, weights, directed=True)
    assert bel.main(["export", str(tmp_path / "a.csr"), "--out", str(tmp_path / "a")]) == 0
    assert (
        bel.main(
            [
                "import",
                str(tmp_path / "a"),
                "--out",
                str(tmp_path / "b.csr"),
                "--meta",
                str(tmp_path / "b.json"),
                "--index-bytes",
                str(index_bytes),
            ]
        )
        == 0
    )

    b = read_csr(tmp_path / "b.csr")
    assert b.index_bytes == index_bytes
    assert b.directed  # detected: random directed lists are not symmetric
    np.testing.assert_array_equal(b.offsets, offsets)
    np.testing.assert_array_equal(b.edges, edges)
    if weighted:
        np.testing.assert_array_equal(b.weights, weights)
    else:
        assert b.weights is None
    meta = json.loads((tmp_path / "b.json").read_text())
    assert meta["directed"] is True and meta["source"]["directedness"].startswith("detected")
    assert meta["num_edges"] == len(edges)
    assert meta["weights"] == ({"source": "dataset", "file": str(tmp_path / "a.bel.val")} if weighted else None)


def test_import_detects_undirected_and_generates_weights_from_seed(tmp_path):
    offsets, edges = undirected_graph()
    write_csr(tmp_path / "u.csr", offsets, edges)
    bel.export_bel(read_csr(tmp_path / "u.csr"), tmp_path / "u")
    assert (
        bel.main(
            [
                "import",
                str(tmp_path / "u"),
                "--out",
                str(tmp_path / "u2.csr"),
                "--meta",
                str(tmp_path / "u2.json"),
                "--weights-seed",
                "5",
            ]
        )
        == 0
    )
    g = read_csr(tmp_path / "u2.csr")
    assert not g.directed
    np.testing.assert_array_equal(g.weights, csr_weights(offsets, edges, seed=5))
    assert json.loads((tmp_path / "u2.json").read_text())["weights"]["seed"] == 5


def test_import_directedness_flag_overrides_detection(tmp_path):
    offsets, edges = undirected_graph()
    write_csr(tmp_path / "u.csr", offsets, edges)
    bel.export_bel(read_csr(tmp_path / "u.csr"), tmp_path / "u")
    assert bel.main(["import", str(tmp_path / "u"), "--out", str(tmp_path / "d.csr"), "--directed"]) == 0
    assert read_csr(tmp_path / "d.csr").directed


def test_is_symmetric_counts_multiplicity():
    # 0->1 twice but 1->0 once: the same neighbour sets, not the same edge multiset.
    assert not bel.is_symmetric(np.array([0, 2, 3], np.uint64), np.array([1, 1, 0], np.uint64))
    assert bel.is_symmetric(*undirected_graph())


# ------------------------------------------------------------------ refusals


def _header_only(path, count):
    Path(path).write_bytes(struct.pack("<QQ", count, 0))


def test_four_byte_import_refused_for_2_pow_32_vertices(tmp_path, capsys):
    # Headers alone claim V = 2^32 (V + 1 offsets) and no edges; the refusal comes before any size check or map.
    _header_only(tmp_path / "huge.bel.col", 2**32 + 1)
    _header_only(tmp_path / "huge.bel.dst", 0)
    with pytest.raises(GraphFormatError, match="do not fit 4-byte edges"):
        bel.read_bel(tmp_path / "huge", index_bytes=4)
    assert (
        bel.main(
            ["import", str(tmp_path / "huge"), "--out", str(tmp_path / "h.csr"), "--index-bytes", "4", "--directed"]
        )
        == 1
    )
    assert "error:" in capsys.readouterr().err and not (tmp_path / "h.csr").exists()
    # One vertex fewer fits: the same headers then fail only on the (missing) data.
    _header_only(tmp_path / "huge.bel.col", 2**32)
    with pytest.raises(GraphFormatError, match="should have"):
        bel.read_bel(tmp_path / "huge", index_bytes=4)


def test_col_header_holding_v_instead_of_v_plus_1_is_refused(tmp_path):
    offsets, edges = small_graph()
    write_csr(tmp_path / "g.csr", offsets, edges)
    bel.export_bel(read_csr(tmp_path / "g.csr"), tmp_path / "g")
    col = tmp_path / "g.bel.col"
    raw = bytearray(col.read_bytes())
    struct.pack_into("<Q", raw, 0, len(offsets) - 1)  # what the faulty converter writes
    col.write_bytes(bytes(raw))
    with pytest.raises(GraphFormatError, match="V instead of V \\+ 1"):
        bel.read_bel(tmp_path / "g")


@pytest.mark.parametrize(
    "damage,message",
    [
        (lambda p: (p / "g.bel.dst").write_bytes((p / "g.bel.dst").read_bytes()[:-8]), "should have"),
        (lambda p: (p / "g.bel.dst").unlink(), "missing"),
        (lambda p: (p / "g.bel.val").write_bytes(struct.pack("<QQ", 1, 0) + bytes(4)), "counts 1 weights"),
    ],
)
def test_damaged_files_are_refused(tmp_path, damage, message):
    offsets, edges = small_graph()
    write_csr(tmp_path / "g.csr", offsets, edges, csr_weights(offsets, edges, 1), directed=True)
    bel.export_bel(read_csr(tmp_path / "g.csr"), tmp_path / "g")
    damage(tmp_path)
    with pytest.raises(GraphFormatError, match=message):
        bel.read_bel(tmp_path / "g")


def test_dataset_weights_win_over_a_seed(tmp_path):
    # The workflow passes --weights-seed to every converter; a .val file's own weights must still be kept.
    offsets, edges = small_graph()
    weights = csr_weights(offsets, edges, 1)
    write_csr(tmp_path / "g.csr", offsets, edges, weights, directed=True)
    bel.export_bel(read_csr(tmp_path / "g.csr"), tmp_path / "g")
    assert (
        bel.main(
            [
                "import",
                str(tmp_path / "g"),
                "--out",
                str(tmp_path / "x.csr"),
                "--meta",
                str(tmp_path / "x.json"),
                "--weights-seed",
                "2",
            ]
        )
        == 0
    )
    np.testing.assert_array_equal(read_csr(tmp_path / "x.csr").weights, weights)
    assert json.loads((tmp_path / "x.json").read_text())["weights"]["source"] == "dataset"


def test_cli_runs_as_module(tmp_path):
    offsets, edges = undirected_graph()
    write_csr(tmp_path / "u.csr", offsets, edges)
    done = subprocess.run(
        [sys.executable, "-m", "emogi.datasets.bel", "export", str(tmp_path / "u.csr"), "--out", str(tmp_path / "u")],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "emogi.datasets.bel",
            "import",
            str(tmp_path / "missing"),
            "--out",
            str(tmp_path / "x.csr"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and done.stderr.startswith("error:") and "missing.bel.col" in done.stderr


@pytest.mark.parametrize(
    "part, at, value, message",
    [
        (
            "col",
            16 + 8 * 10,
            10**6,
            r"g.bel.col \(with 1294 edges in g.bel.dst\): bad offsets: offsets decrease at",
        ),
        ("col", 16, 5, "g.bel.col .*offsets\\[0\\] = 5, must be 0"),
        ("dst", 16 + 8 * 3, 300, r"g.bel.dst: neighbour id 300 at edge 3 \(a neighbour of vertex 0\) is >= V = 300"),
    ],
)
@pytest.mark.parametrize("directed", [None, "--directed"])
def test_damaged_lists_are_refused_before_the_symmetry_check_naming_the_input(
    tmp_path, capsys, part, at, value, message, directed
):
    """Directedness left automatic used to run the symmetry check on damaged offsets (a ValueError traceback);
    errors named the output .csr. Now the input is checked first and named."""
    offsets, edges = small_graph()
    write_csr(tmp_path / "g.csr", offsets, edges, directed=True)
    bel.export_bel(read_csr(tmp_path / "g.csr"), tmp_path / "g")
    path = tmp_path / f"g.bel.{part}"
    raw = bytearray(path.read_bytes())
    struct.pack_into("<Q", raw, at, value)
    path.write_bytes(bytes(raw))
    args = ["import", str(tmp_path / "g"), "--out", str(tmp_path / "out.csr")] + ([directed] if directed else [])
    assert bel.main(args) == 1
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1 and "Traceback" not in err and "out.csr" not in lines[0], err
    assert re.search(message, lines[0]), lines[0]
    assert not (tmp_path / "out.csr").exists()
