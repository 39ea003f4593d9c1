"""Matrix Market corner cases from outside: each ends in one line naming the file (and the line where the parser
knows it), or, for values, in a rule recorded in the metadata; never a traceback or a silent change."""

import gzip
import json
import sys
from pathlib import Path

import pytest

from conftest import run
from emogi.csr import read_csr
from emogi.datasets import suitesparse as ss

REPO = Path(__file__).resolve().parent.parent
BANNER = "%%MatrixMarket matrix coordinate {} general\n"


def mtx(tmp_path, text, name="m.mtx"):
    path = tmp_path / name
    data = text.encode()
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return path


def convert_cli(source, out, *extra):
    cmd = [sys.executable, "-m", "emogi.datasets.suitesparse", "--archive", source, "--out", out, "--meta"]
    return run([*cmd, out.with_suffix(".json"), *extra], cwd=REPO)


def test_integer_values_that_are_not_integers_are_never_truncated(tmp_path):
    path = mtx(tmp_path, BANNER.format("integer") + "3 3 3\n1 2 5\n2 3 3.7\n3 1 9\n")
    graph = ss.convert(path, tmp_path / "g.csr", tmp_path / "g.json")
    weights = json.loads((tmp_path / "g.json").read_text())["weights"]
    assert weights["source"] == "generated"
    assert "entry 2 holds 3.7" in weights["reason"] and "not used as weights" in weights["reason"]
    assert graph.num_edges == 3 and set(graph.weights.tolist()) <= set(range(8, 73))


def test_integer_values_that_are_integers_are_kept_whatever_their_spelling(tmp_path):
    path = mtx(tmp_path, BANNER.format("integer") + "3 3 2\n1 2 1e2\n2 3 7.0\n")
    graph = ss.convert(path, tmp_path / "g.csr", tmp_path / "g.json")
    assert sorted(graph.weights.tolist()) == [7, 100]
    assert json.loads((tmp_path / "g.json").read_text())["weights"]["source"] == "dataset"


def test_a_value_beyond_64_bits_is_a_recorded_rule_not_a_traceback(tmp_path):
    path = mtx(tmp_path, BANNER.format("integer") + "3 3 2\n1 2 99999999999999999999999\n2 3 4\n")
    ss.convert(path, tmp_path / "g.csr", tmp_path / "g.json")
    reason = json.loads((tmp_path / "g.json").read_text())["weights"]["reason"]
    assert "outside 1..4294967295" in reason


@pytest.mark.parametrize(
    "text, message",
    [
        ("3 3 2\n1 99999999999999999999999\n2 3\n", "line 3: Integer out of range. (an index or a value beyond 64"),
        ("99999999999999999999 99999999999999999999 1\n1 2\n", "line 2: Integer out of range"),
        ("3 3 2\n1 5\n2 3\n", "line 3: Column index out of bounds"),
        ("3 3 2\n0 1\n2 3\n", "line 3: Row index out of bounds"),
        ("3 3 2\n1 x\n2 3\n", "line 3: Invalid integer value"),
        ("3 3 1\n1 2\n2 3\n", "line 4: Too many lines"),
        ("3 3 2\n1       2\n", "Truncated file"),
        ("3 3 1000000000000\n1 2\n", "line 2: the header announces 1000000000000 entries, but the 4 bytes"),
    ],
)
def test_bad_lines_are_one_line_errors_naming_file_and_line(tmp_path, text, message):
    path = mtx(tmp_path, BANNER.format("pattern") + text)
    with pytest.raises(ss.DatasetError, match=None) as err:
        ss.convert(path, tmp_path / "g.csr", check_memory=False)
    assert message in str(err.value) and "m.mtx" in str(err.value), str(err.value)
    done = convert_cli(path, tmp_path / "g.csr", "--ignore-memory-check")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    errors = [line for line in done.stderr.splitlines() if not line.startswith("[suitesparse")]  # progress aside
    assert len(errors) == 1 and errors[0].startswith("error: ") and message in errors[0], done.stderr
    assert not (tmp_path / "g.csr").exists()


def test_an_absurd_header_past_the_memory_check_is_one_line(tmp_path):
    """A compressed file's size is unknown, so only the allocation can fail: that is reported, not raised."""
    path = mtx(tmp_path, BANNER.format("pattern") + "3 3 1000000000000000\n1 2\n", "m.mtx.gz")
    done = convert_cli(path, tmp_path / "g.csr")
    assert done.returncode == 1 and "--ignore-memory-check" in done.stderr  # the estimate stops it first
    done = convert_cli(path, tmp_path / "g.csr", "--ignore-memory-check")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    errors = [line for line in done.stderr.splitlines() if not line.startswith("[suitesparse")]
    assert len(errors) == 1 and "not enough memory for the 1000000000000000 entries its header announces" in errors[0]


def test_a_good_file_still_converts(tmp_path):
    path = mtx(tmp_path, BANNER.format("integer") + "% a comment\n3 3 2\n1 2 4\n\n2 3 6\n")
    ss.convert(path, tmp_path / "g.csr")
    assert read_csr(tmp_path / "g.csr").weights.tolist() == [4, 6]


def test_a_nul_byte_is_refused_before_the_parser_crashes_on_it(tmp_path):
    """fast_matrix_market 1.7.6 dies with SIGSEGV on a NUL byte in the entries (tools/fuzz/matrix_market_fuzz.py
    found it); the converter refuses the file first. In a subprocess, so that a regression fails, not crashes."""
    path = tmp_path / "m.mtx"
    path.write_bytes(b"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 2\x003\n2 3 4\n")
    done = convert_cli(path, tmp_path / "g.csr")
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "m.mtx, line 3: a NUL byte (byte 57); not a text Matrix Market file" in done.stderr


@pytest.mark.parametrize("tail", [b"12 7 6.", b"12 7 ", b"12 7 6 6", b"12 7\t"])
def test_a_last_line_with_extra_fields_and_no_line_break_is_read(tmp_path, tail):
    """fast_matrix_market 1.7.6 dies with SIGSEGV on such a last line (found by the fuzzer); the reader supplies
    the missing line break, after which the extra field is ignored like on any other line. In a subprocess."""
    path = tmp_path / "m.mtx"
    path.write_bytes(b"%%MatrixMarket matrix coordinate pattern general\n17 17 2\n1 2\n" + tail)
    done = convert_cli(path, tmp_path / "g.csr")
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert read_csr(tmp_path / "g.csr").edges.tolist() == [1, 6]


def test_running_out_of_memory_while_building_is_one_line(tmp_path, monkeypatch):
    """2^32 vertices pass the header checks and need 32 GiB of offsets: past --ignore-memory-check on a smaller
    machine that is a DatasetError (the fuzzer's harness reached the build without convert()'s handling)."""
    path = mtx(tmp_path, BANNER.format("pattern") + "3 3 1\n1 2\n")

    def no_memory(*args):
        raise MemoryError("Unable to allocate 32.0 GiB")

    monkeypatch.setattr(ss, "_graph_from_matrix", no_memory)
    with pytest.raises(ss.DatasetError, match="m.mtx: not enough memory to build the graph"):
        ss.convert(path, tmp_path / "g.csr", check_memory=False)
