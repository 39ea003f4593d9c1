"""On a GPU: --gpu-memory-budget counts everything a run allocates in GPU memory (vertex data, work lists, the edge
list in `device` mode), refuses a run that does not fit in one line and writes nothing, and `auto` places lists
within what the vertex data leaves."""

import re

import pytest

from conftest import run
from emogi import csr, schema
from graphs import write_generated

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    return write_generated(tmp_path_factory.mktemp("budget") / "kron12.csr", "kron", 12)


def run_at(binary, path, algorithm, budget, modes, out, variants="merged-aligned"):
    args = [binary, "run", "--algorithm", algorithm, "--graph", path, "--variants", variants, "--modes", modes]
    args += ["--gpu-memory-budget", budget, "--auto-reserve", "0", "--reps", "1", "--warmup", "0", "--out", out]
    if algorithm in schema.ROOTED_ALGORITHMS:
        args += ["--roots", "0"]
    return run(args)


@pytest.mark.parametrize("algorithm", schema.ALGORITHMS)
def test_a_budget_smaller_than_the_vertex_data_is_refused(emogi_binary, graph, tmp_path, algorithm):
    done = run_at(emogi_binary, graph, algorithm, "4K", "device", tmp_path / "x.csv")
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1 and "--gpu-memory-budget 4.00 KiB is smaller than the vertex data" in last, last
    assert not (tmp_path / "x.csv").exists()


def test_device_mode_counts_against_the_budget(emogi_binary, graph, tmp_path):
    """Room for the vertex data but not for the edge list beside it: refused before any run."""
    edge_bytes = csr.read_header(graph).num_edges * 8
    done = run_at(emogi_binary, graph, "bfs", edge_bytes, "device", tmp_path / "x.csv")
    assert done.returncode == 1 and "is smaller than the edge list in GPU memory" in done.stderr, done.stderr[-2000:]
    assert not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize("algorithm", schema.ALGORITHMS)
def test_auto_places_lists_within_what_the_vertex_data_leaves(emogi_binary, graph, tmp_path, algorithm):
    header = csr.read_header(graph)
    entry_bytes = 8 + schema.WEIGHT_BYTES.get(algorithm, 0)
    budget = 64 * header.num_vertices + header.num_edges * entry_bytes // 2
    done = run_at(
        emogi_binary, graph, algorithm, budget, "auto", tmp_path / "x.csv", ",".join(schema.VARIANTS_OF[algorithm])
    )
    assert done.returncode == 0, done.stderr[-3000:]
    before, after = map(
        int, re.search(r"(\d+) bytes in use before placing the lists, (\d+) after", done.stderr).groups()
    )
    in_gpu = int(re.search(r"\((\d+) of \d+ entries", done.stderr)[1])
    assert 0 < before and after <= budget, done.stderr[-2000:]
    assert 0 < in_gpu * entry_bytes <= after - before, done.stderr[-2000:]


def test_zero_copy_runs_at_a_budget_below_the_lists(emogi_binary, graph, tmp_path):
    """zerocopy's managed memory stays on the host, so a budget smaller than the lists leaves it running (as on a
    GPU of that size), while uvm, whose pages migrate, is refused by the guard at the same budget."""
    header = csr.read_header(graph)
    budget = 64 * header.num_vertices + header.num_edges * 8 // 4
    done = run_at(emogi_binary, graph, "bfs", budget, "zerocopy", tmp_path / "z.csv")
    assert done.returncode == 0, done.stderr[-3000:]
    done = run_at(emogi_binary, graph, "bfs", budget, "uvm", tmp_path / "u.csv")
    assert done.returncode == 1 and "refusing to allocate" in done.stderr, done.stderr[-2000:]
    assert not (tmp_path / "u.csv").exists()
