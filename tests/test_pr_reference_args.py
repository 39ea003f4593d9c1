"""`emogi run --pr-reference PATH` without a GPU: another algorithm, a missing file and a file of another size than
V float64 values each stop the run with one line before it needs the GPU, and write nothing; a file of the right
size is taken. On a GPU (marked): each verified PageRank run logs its L1 distance to the reference."""

import re

import numpy as np
import pytest

from conftest import run
from emogi import csr
from graphs import numpy_pagerank, write_generated


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    return write_generated(tmp_path_factory.mktemp("pr_reference_args") / "kron8.csr", "kron", 8)


def run_pr(binary, graph, tmp_path, *options, algorithm="pagerank"):
    args = [binary, "run", "--algorithm", algorithm, "--graph", graph, "--modes", "zerocopy", "--reps", "1"]
    return run([*args, "--out", tmp_path / "x.csv", *options])


@pytest.mark.parametrize("case", ["bfs", "missing", "short"])
def test_a_bad_reference_is_refused_in_one_line(emogi_binary, graph, tmp_path, case):
    ref = tmp_path / "ref.f64"
    if case == "short":
        np.zeros(csr.read_header(graph).num_vertices - 1).tofile(ref)
    extra = ["--roots", "0"] if case == "bfs" else []
    done = run_pr(emogi_binary, graph, tmp_path, "--pr-reference", ref, *extra,
                  algorithm="bfs" if case == "bfs" else "pagerank")  # fmt: skip
    message = {"bfs": "applies to pagerank only", "missing": "cannot open it", "short": "bytes, not V x 8"}[case]
    assert done.returncode == 1 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.csv").exists()


def test_a_reference_of_the_right_size_is_taken(emogi_binary, graph, tmp_path):
    ref = tmp_path / "ref.f64"
    np.zeros(csr.read_header(graph).num_vertices).tofile(ref)
    done = run_pr(emogi_binary, graph, tmp_path, "--pr-reference", ref)
    assert "--pr-reference" not in done.stderr, done.stderr  # accepted (then it runs, or finds no GPU)


@pytest.mark.gpu
def test_each_run_logs_its_distance_to_the_reference(emogi_binary, graph, tmp_path):
    """The reference here is numpy's fixed point (float64): every verified run, in every variant, lies within the
    tolerance's reach of it (the residuals left behind are at most 1e-3 a vertex, so x is below x* by about that)."""
    ref = tmp_path / "ref.f64"
    np.asarray(numpy_pagerank(graph), dtype=np.float64).tofile(ref)
    done = run_pr(emogi_binary, graph, tmp_path, "--pr-reference", ref, "--warmup", "0")
    assert done.returncode == 0, done.stderr[-2000:]
    l1 = [float(x) for x in re.findall(r"pagerank l1_to_reference: (\S+) \(", done.stderr)]
    assert l1 and all(0 <= x < 1e-2 for x in l1), done.stderr[-2000:]
