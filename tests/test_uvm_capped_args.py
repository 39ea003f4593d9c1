"""uvm-capped's options, without a GPU: a missing, zero, sub-chunk or oversized --uvm-capacity, a bad
--uvm-sublaunches and either option without the mode each stop `emogi run` with one line, before it needs the GPU,
and write nothing."""

import numpy as np
import pytest

from conftest import run
from emogi import csr
from graphs import write_generated


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    """urand14, edge factor 16: a ~4 MiB edge list (8-byte ids) and ~2 MiB of weights."""
    return write_generated(tmp_path_factory.mktemp("capped") / "urand14.csr", "urand", 14, edge_factor=16)


def run_capped(binary, graph, tmp_path, algorithm, *options, modes="uvm-capped"):
    args = [binary, "run", "--algorithm", algorithm, "--graph", graph, "--modes", modes, "--out", tmp_path / "x.csv"]
    if algorithm in ("bfs", "sssp"):
        args += ["--roots", int(np.argmax(np.diff(np.asarray(csr.read_csr(graph).offsets))))]
    return run([*args, *options])


@pytest.mark.parametrize(
    "options,message",
    [
        ((), "uvm-capped needs --uvm-capacity SIZE"),
        (("--uvm-capacity", "0"), "--uvm-capacity 0 holds no 2 MiB chunk"),
        (("--uvm-capacity", "1M"), "--uvm-capacity 1M holds no 2 MiB chunk"),
        (("--uvm-capacity", "1G"), "--uvm-capacity 1G is more than the 4."),
        (("--uvm-capacity", "2M", "--uvm-sublaunches", "0"), "--uvm-sublaunches must lie in 1..1048576, not 0"),
        (("--uvm-capacity", "lots"), "not a size: 'lots'"),
    ],
)
def test_bad_capacities_are_refused_in_one_line(emogi_binary, graph, tmp_path, options, message):
    done = run_capped(emogi_binary, graph, tmp_path, "bfs", *options)
    assert done.returncode == 1 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize("options", [("--uvm-capacity", "2M"), ("--uvm-sublaunches", "4")])
def test_the_options_need_the_mode(emogi_binary, graph, tmp_path, options):
    done = run_capped(emogi_binary, graph, tmp_path, "pagerank", *options, modes="uvm,zerocopy")
    assert done.returncode == 1 and "apply to the uvm-capped mode only" in done.stderr, done.stderr
    assert not (tmp_path / "x.csv").exists()


def test_the_capacity_bound_counts_the_weights_sssp_reads(emogi_binary, graph, tmp_path):
    """Between the edge list's size and the edges' and weights' together: too much for BFS, not for SSSP."""
    header = csr.read_header(graph)
    capacity = header.num_edges * 8 + header.num_edges * 2
    bfs = run_capped(emogi_binary, graph, tmp_path, "bfs", "--uvm-capacity", capacity)
    assert bfs.returncode == 1 and "is more than the" in bfs.stderr, bfs.stderr
    sssp = run_capped(emogi_binary, graph, tmp_path, "sssp", "--uvm-capacity", capacity, "--reps", "1")
    assert "--uvm-capacity" not in sssp.stderr, sssp.stderr  # accepted (then it runs, or finds no GPU)
