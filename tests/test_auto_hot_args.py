"""--auto-hot, without a GPU: hottest-first without the file, the file without hottest-first, a file of the wrong
size and a missing one each stop `emogi run` with one line, before it needs the GPU, and write nothing."""

import numpy as np
import pytest

from conftest import run
from graphs import write_generated

V = 1 << 10


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    return write_generated(tmp_path_factory.mktemp("hot") / "urand10.csr", "urand", 10, edge_factor=8)


@pytest.fixture
def counts(tmp_path):
    """Read counts of the right size (V uint32) and one vertex short."""
    np.arange(V, dtype="<u4").tofile(tmp_path / "ok.u32")
    np.arange(V - 1, dtype="<u4").tofile(tmp_path / "short.u32")
    return tmp_path


def run_auto(binary, graph, tmp_path, *options):
    return run(
        [binary, "run", "--algorithm", "cc", "--graph", graph, "--modes", "auto", "--out", tmp_path / "x.csv", *options]
    )


@pytest.mark.parametrize(
    "options,message",
    [
        (("--auto-order", "hottest-first"), "--auto-order hottest-first needs --auto-hot PATH"),
        (("--auto-hot", "ok.u32"), "--auto-hot applies to --auto-order hottest-first only"),
        (("--auto-order", "longest-first", "--auto-hot", "ok.u32"), "applies to --auto-order hottest-first only"),
        (
            ("--auto-order", "hottest-first", "--auto-hot", "short.u32"),
            f"short.u32 holds {4 * (V - 1)} bytes, expected {4 * V} (one uint32 per vertex, V = {V})",
        ),
        (("--auto-order", "hottest-first", "--auto-hot", "gone.u32"), "cannot read --auto-hot file"),
    ],
)
def test_bad_hot_files_are_refused_in_one_line(emogi_binary, graph, counts, options, message):
    options = [str(counts / o) if o.endswith(".u32") else o for o in options]
    done = run_auto(emogi_binary, graph, counts, *options)
    assert done.returncode == 1 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (counts / "x.csv").exists()


def test_a_file_of_the_right_size_is_accepted(emogi_binary, graph, counts):
    done = run_auto(emogi_binary, graph, counts, "--auto-order", "hottest-first", "--auto-hot", counts / "ok.u32")
    assert "--auto-hot" not in done.stderr and "hottest-first" not in done.stderr, done.stderr  # runs, or no GPU
