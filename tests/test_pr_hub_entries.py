"""`emogi run --pr-hub-entries N` (kernels/include/emogi/pagerank.cuh): gauss-seidel defers a list longer than N to
a kernel that spreads it over many warps after the round. Refused, in one line and before the GPU is touched, for
any other algorithm or variant, the streamed mode and added latency (CPU); `auto` (the default where it applies)
takes twice the edges per resident warp of the GPU, at least 4096, and says so; on a GPU every run with it is verified
against the fixed point in device memory, zero-copy and cold UVM, with and without the pass log, and its row's
pr_hub_entries says the N it ran with (auto resolved; empty for the schedules that defer nothing)."""

import re

import pandas as pd
import pytest

from conftest import run
from graphs import write_generated


@pytest.fixture(scope="module")
def kron12(tmp_path_factory):
    return write_generated(tmp_path_factory.mktemp("pr_hubs") / "kron12.w8.csr", "kron", 12)


@pytest.mark.parametrize(
    "extra,why",
    [
        (["--algorithm", "bfs", "--variants", "merged-aligned"], "applies to pagerank gauss-seidel only"),
        (["--algorithm", "pagerank", "--variants", "merged-aligned"], "applies to pagerank gauss-seidel only"),
        (["--algorithm", "pagerank", "--variants", "gauss-seidel", "--modes", "streamed", "--stream-block-bytes",
          "64K"], "does not apply to the streamed mode"),
        (["--algorithm", "pagerank", "--variants", "gauss-seidel", "--added-latency-ns", "100"],
         "does not apply with --added-latency-ns"),
    ],
)  # fmt: skip
def test_refused_where_it_does_not_apply(emogi_binary, kron12, tmp_path, extra, why):
    out = tmp_path / "runs.csv"
    done = run([emogi_binary, "run", "--graph", kron12, "--out", out, "--pr-hub-entries", "16", *extra])
    assert done.returncode != 0 and why in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not out.exists()


def test_refuses_a_length_that_is_neither_a_count_nor_auto(emogi_binary, kron12, tmp_path):
    out = tmp_path / "runs.csv"
    done = run([emogi_binary, "run", "--graph", kron12, "--out", out, "--algorithm", "pagerank", "--variants",
                "gauss-seidel", "--pr-hub-entries", "automatic"])  # fmt: skip
    assert done.returncode != 0 and "--pr-hub-entries expects a non-negative integer" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not out.exists()


@pytest.mark.gpu
@pytest.mark.parametrize("hub_entries", [0, 16, 64, "auto", None])
def test_every_run_verified(emogi_binary, kron12, tmp_path, hub_entries):
    out, passes = tmp_path / "runs.csv", tmp_path / "passes.csv"
    done = run([emogi_binary, "run", "--algorithm", "pagerank", "--graph", kron12, "--variants", "gauss-seidel",
                "--modes", "device,zerocopy,uvm", "--reps", "2", "--warmup", "1", "--out", out,
                "--pass-log", passes, *([] if hub_entries is None else ["--pr-hub-entries", hub_entries])])  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    runs = pd.read_csv(out)
    assert len(runs) == 6 and runs.verified.all() and (runs.iterations > 0).all()
    rows = pd.read_csv(passes).groupby(["mode", "rep"]).size()  # every round, the last one pushing nothing
    rounds = runs.set_index(["mode", "rep"]).iterations.sort_index()  # the runs' order is the run order's
    assert rows.sort_index().to_dict() == (rounds + 1).to_dict()
    assert (hub_entries in ("auto", None)) == ("--pr-hub-entries auto = " in done.stderr), done.stderr[-3000:]
    said = re.search(r"--pr-hub-entries auto = (\d+) ", done.stderr)  # the runs table says what auto resolved to
    assert set(runs.pr_hub_entries) == {int(said.group(1)) if said else hub_entries}


@pytest.mark.gpu
def test_runs_table_leaves_the_column_empty_where_nothing_is_deferred(emogi_binary, kron12, tmp_path):
    out = tmp_path / "runs.csv"
    done = run([emogi_binary, "run", "--algorithm", "pagerank", "--graph", kron12, "--variants",
                "merged-aligned,gauss-seidel", "--modes", "device", "--reps", "1", "--warmup", "0", "--out", out,
                "--pr-hub-entries", "64"])  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    runs = pd.read_csv(out).set_index("variant").pr_hub_entries
    assert pd.isna(runs["merged-aligned"]) and runs["gauss-seidel"] == 64
