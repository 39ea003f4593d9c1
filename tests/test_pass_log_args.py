"""`emogi run --pass-log PATH` without a GPU: bfs and spmv (no passes of varying activity), a variant that does not
stream (sssp's frontier, among sssp's variants when none is named) and a path in a directory that is not there each
stop the run with one line before it needs the GPU, and write nothing."""

import pytest

from conftest import run
from graphs import write_generated


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    return write_generated(tmp_path_factory.mktemp("pass_log_args") / "kron8.csr", "kron", 8)


@pytest.mark.parametrize(
    "algorithm,where,message",
    [
        ("bfs", "passes.csv", "--pass-log applies to sssp, cc and pagerank (passes of varying activity), not bfs"),
        ("spmv", "passes.csv", "--pass-log applies to sssp, cc and pagerank (passes of varying activity), not spmv"),
        ("cc", "missing/passes.csv", "cannot write"),
        ("sssp", "passes.csv", "--pass-log times the passes of the variants that stream (emogi list: streamed), not "),
    ],
)
def test_pass_log_is_refused_in_one_line(emogi_binary, graph, tmp_path, algorithm, where, message):
    args = [emogi_binary, "run", "--algorithm", algorithm, "--graph", graph, "--modes", "zerocopy"]
    if algorithm in ("bfs", "sssp"):  # sssp: every variant, frontier among them
        args += ["--roots", "0"]
    if algorithm == "cc":  # one that streams: the path is what is refused
        args += ["--variants", "merged-aligned"]
    done = run([*args, "--out", tmp_path / "x.csv", "--pass-log", tmp_path / where])
    assert done.returncode == 1 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "passes.csv").exists()
    assert list(tmp_path.iterdir()) == []  # the probe's temporary file is gone too
