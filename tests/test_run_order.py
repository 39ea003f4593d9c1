"""`emogi run --run-order`: blocks (each variant's roots and repetitions in a row, the default) or rounds (every
variant's warm-ups, then one run of each variant and root per round). Without a GPU: a bad order and rounds with
uvm-capped stop the run in one line and write nothing. On a GPU: rounds writes the same cells, every run verified,
in the order they ran."""

import numpy as np
import pandas as pd
import pytest

from conftest import run
from emogi import csr
from graphs import write_generated


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    """urand12, edge factor 16 (synthetic)."""
    return write_generated(tmp_path_factory.mktemp("order") / "urand12.csr", "urand", 12, edge_factor=16)


def roots(graph, count=2):
    degrees = np.diff(np.asarray(csr.read_csr(graph).offsets))
    return ",".join(map(str, np.argsort(degrees)[::-1][:count]))


def emogi_run(binary, graph, out, *options, modes="zerocopy,device"):
    args = [binary, "run", "--algorithm", "bfs", "--graph", graph, "--roots", roots(graph), "--modes", modes]
    return run([*args, "--variants", "naive,merged-aligned", "--warmup", "1", "--out", out, *options])


@pytest.mark.parametrize(
    "options,modes,message",
    [
        (("--run-order", "sideways"), "zerocopy", "--run-order must be blocks or rounds, not sideways"),
        (("--run-order", "rounds", "--uvm-capacity", "2M"), "uvm-capped", "--run-order rounds does not apply to"),
    ],
)
def test_bad_orders_are_refused_in_one_line(emogi_binary, graph, tmp_path, options, modes, message):
    done = emogi_run(emogi_binary, graph, tmp_path / "x.csv", *options, modes=modes)
    assert done.returncode == 1 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.csv").exists()


@pytest.mark.gpu
def test_rounds_runs_the_same_cells_interleaved(emogi_binary, graph, tmp_path):
    blocks, rounds = tmp_path / "blocks.csv", tmp_path / "rounds.csv"
    for out, order in ((blocks, "blocks"), (rounds, "rounds")):
        done = emogi_run(emogi_binary, graph, out, "--reps", "3", "--run-order", order)
        assert done.returncode == 0, done.stderr[-3000:]
    b, r = pd.read_csv(blocks), pd.read_csv(rounds)
    keys = ["variant", "mode", "root", "rep"]
    assert len(r) == len(b) == 2 * 2 * 2 * 3 and r["verified"].all()
    assert sorted(map(tuple, r[keys].values)) == sorted(map(tuple, b[keys].values))
    # blocks: each (mode, variant) cell's runs in a row; rounds: within a mode, the rep changes slowest
    assert list(b[b["mode"] == "zerocopy"]["variant"]) == ["naive"] * 6 + ["merged-aligned"] * 6
    zc = r[r["mode"] == "zerocopy"]
    assert list(zc["rep"]) == [0] * 4 + [1] * 4 + [2] * 4
    assert list(zc["variant"][:4]) == ["naive", "naive", "merged-aligned", "merged-aligned"]
    assert (b.groupby(keys[:3])["edges_traversed"].first() == r.groupby(keys[:3])["edges_traversed"].first()).all()
