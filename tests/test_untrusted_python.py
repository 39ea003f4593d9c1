"""Graph files from outside, in the Python readers: each class of defect, crafted with a repaired checksum, is
refused with one line naming the file, by every path that reads a graph (issue: untrusted graph files)."""

import struct

import numpy as np
import pytest
from crafted import craft, id_beyond_v, repair, small_graph

from emogi import csr, dataset_lock
from emogi.csr import GraphFormatError, read_csr, verify_csr
from emogi.datasets import bel, degree_histogram, roots


def test_every_reader_refuses_an_id_beyond_v(tmp_path, capsys):
    path = id_beyond_v(tmp_path / "bad.csr")
    message = "bad.csr: neighbour id 3 at edge 1 (a neighbour of vertex 0) is >= V = 3"
    for read in (read_csr, verify_csr, lambda p: read_csr(p, verify_checksum=False)):
        with pytest.raises(GraphFormatError, match=message.replace("(", r"\(").replace(")", r"\)")):
            read(path)
    out = tmp_path / "out"
    commands = [
        lambda: csr.main(["info", str(path)]),
        lambda: roots.main([str(path), "--count", "1", "--seed", "1", "--out", str(out)]),
        lambda: degree_histogram.main([str(path), "--name", "g", "--out", str(out)]),
        lambda: bel.main(["export", str(path), "--out", str(out)]),
    ]
    for command in commands:
        assert command() == 1
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err
    assert not list(tmp_path.glob("out*"))


@pytest.mark.parametrize("index_bytes", [4, 8])
def test_the_largest_id_of_the_width_is_refused(tmp_path, index_bytes):
    path = small_graph(tmp_path / "g.csr", index_bytes)
    craft(path, **{f"at_{8192 + 2 * index_bytes}": (2 ** (8 * index_bytes) - 1, index_bytes)})
    with pytest.raises(GraphFormatError, match="at edge 2 \\(a neighbour of vertex 1\\)"):
        read_csr(path)


@pytest.mark.parametrize(
    "field, value",
    [
        ("num_edges", 2**61),
        ("num_edges", 2**62),
        ("num_edges", 2**64 - 1),
        ("num_edges", (2**64 - 8192) // 8 + 2),  # the edge section's end wraps to a small number in 64 bits
        ("num_vertices", 2**61),
        ("num_vertices", 2**64 - 1),
    ],
)
def test_huge_counts_are_refused_before_reading(tmp_path, field, value):
    path = craft(small_graph(tmp_path / "g.csr"), **{field: value})
    with pytest.raises(GraphFormatError, match="overflow 64 bits|truncated"):
        read_csr(path)


def test_a_flipped_flag_breaks_the_checksum(tmp_path):
    """Version 2's checksum covers the header: undirected cannot silently become directed."""
    path = craft(small_graph(tmp_path / "g.csr"), fix_checksum=False, flags=1 | 2)
    with pytest.raises(GraphFormatError, match="corrupt: checksum"):
        read_csr(path)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"reserved0": 1}, "reserved header field at byte 20 is 0x1, must be 0"),
        ({"reserved1": 1}, "reserved header field at byte 48"),
        ({"reserved2": 2**63}, "reserved header field at byte 56"),
        ({"at_100": (1, 1)}, "header block byte 100 is not zero"),
        ({"at_4095": (1, 1)}, "header block byte 4095 is not zero"),
        ({"flags": 1 | 8}, "unknown flag bits 0x8"),
        ({"at_4128": (1, 1)}, "padding after the offsets is not zero \\(byte 4128\\)"),
        ({"at_8216": (1, 1)}, "padding after the edges is not zero \\(byte 8216\\)"),
        ({"at_4104": (4, 8)}, "offsets decrease at vertex 1 \\(4 -> 3\\)"),
    ],
)
def test_header_and_padding_fields_are_checked(tmp_path, change, message):
    path = craft(small_graph(tmp_path / "g.csr"), **change)
    with pytest.raises(GraphFormatError, match=message):
        read_csr(path, verify_checksum=False)


# ------------------------------------------------------------------ version 1 files


def make_v1(path, payload_ok=True):
    """A version-1 file: the same layout, version 1, checksum over the payload only."""
    data = bytearray(path.read_bytes())
    data[8:12] = struct.pack("<I", 1)
    if not payload_ok:
        data[8192 + 8 : 8192 + 16] = struct.pack("<Q", 3)  # an id >= V under a valid version-1 checksum
    import xxhash

    data[40:48] = struct.pack("<Q", xxhash.xxh3_64_intdigest(bytes(data[4096:])))
    path.write_bytes(bytes(data))
    return path


def test_version_1_is_refused_with_the_way_to_upgrade(tmp_path, capsys):
    path = make_v1(small_graph(tmp_path / "old.csr"))
    with pytest.raises(GraphFormatError, match="format version 1.*python -m emogi.csr upgrade FILE"):
        read_csr(path)
    assert csr.main(["upgrade", str(path)]) == 0
    g = verify_csr(path)
    assert g.header.version == 2 and g.edges.tolist() == [1, 2, 0] and g.weights.tolist() == [5, 6, 7]
    assert path.read_bytes() == small_graph(tmp_path / "new.csr").read_bytes()  # what a writer makes today
    assert csr.main(["upgrade", str(path)]) == 0 and "version 2 already" in capsys.readouterr().out


def test_a_damaged_version_1_file_is_not_upgraded(tmp_path, capsys):
    path = make_v1(small_graph(tmp_path / "old.csr"), payload_ok=False)
    before = path.read_bytes()
    assert csr.main(["upgrade", str(path)]) == 1
    assert "neighbour id 3" in capsys.readouterr().err and path.read_bytes() == before


# ------------------------------------------------------------------ the dataset lock


def test_the_lock_records_a_fully_checked_file_and_catches_another(tmp_path, monkeypatch):
    path = small_graph(tmp_path / "g.csr")
    assert dataset_lock.main(["add", str(path)]) == 0
    entry = dataset_lock.find_locked(path)
    assert entry.bytes == path.stat().st_size and entry.digest == dataset_lock.file_digest(path)
    lines = (tmp_path / "datasets.lock").read_text().splitlines()
    assert lines[-1] == f"{entry.digest}  {entry.bytes}  g.csr"

    def no_checks(*args):
        raise AssertionError("a locked file is not checked again")

    with monkeypatch.context() as m:  # a match stands in for the structural checks and the checksum
        m.setattr(csr, "check_structure", no_checks)
        m.setattr(csr, "buffer_checksum", no_checks)
        assert read_csr(path).edges.tolist() == [1, 2, 0]

    small_graph(path, weights=False)  # a valid file, but not the graph that was locked
    with pytest.raises(GraphFormatError, match="differs from its entry in the dataset lock"):
        read_csr(path)
    verify_csr(path)  # a full check ignores the lock
    assert dataset_lock.main(["check", str(path)]) == 1


def test_the_lock_refuses_to_record_a_bad_file(tmp_path, capsys):
    path = id_beyond_v(tmp_path / "bad.csr")
    assert dataset_lock.main(["add", str(path)]) == 1
    assert "neighbour id 3" in capsys.readouterr().err and not (tmp_path / "datasets.lock").exists()


def test_the_lock_digest_is_sha256_of_block_digests(monkeypatch):
    import hashlib

    monkeypatch.setattr(dataset_lock, "DIGEST_BLOCK", 5)
    data = bytes(range(12))
    blocks = [hashlib.sha256(data[i : i + 5]).digest() for i in (0, 5, 10)]
    assert dataset_lock.digest_of(data) == hashlib.sha256(b"".join(blocks)).hexdigest()
    assert dataset_lock.digest_of(b"") == hashlib.sha256(b"").hexdigest()


def test_repair_is_what_the_writer_computes(tmp_path):
    path = small_graph(tmp_path / "g.csr")
    data = bytearray(path.read_bytes())
    data[40:48] = bytes(8)
    assert bytes(repair(data)) == path.read_bytes()
    assert np.array_equal(read_csr(path).offsets, [0, 2, 3, 3])
