"""A directed generated graph through the workflow: every algorithm x variant planned, its transpose made beside
it for direction-optimizing BFS (and only for the directed graph), and CC skipped with the reason logged and a
table without rows, no GPU needed (the GPU side: tests/test_gpu_directed.py)."""

import os
import sys

import pandas as pd

from conftest import run
from emogi import csr, schema

CONFIG = """\
graphs:
  dg: {source: generator, generator: kron, scale: 8, edge_factor: 8, seed: 5, weights_seed: 5, directed: true}
  ug: {source: generator, generator: kron, scale: 8, edge_factor: 8, seed: 6, weights_seed: 6}
profile: {enabled: false}
apps:
  variants:
"""


def snakemake(workdir, *args, measurements="fresh"):
    """snakemake ARGS with the directed config (targets first: the options take lists). A real run without a GPU
    says measurements=archive; the rules asked for by name run all the same."""
    config = ["--configfile", "directed.yaml", "--config", f"measurements={measurements}"]
    return run([sys.executable, "-m", "snakemake", "--cores", "2", *args, *config], cwd=workdir)


def write_config(workdir):
    variants = "".join(f"    {a}: [{', '.join(v)}]\n" for a, v in schema.VARIANTS_OF.items() if a != "spmv")
    (workdir / "directed.yaml").write_text(CONFIG + variants)


def test_every_algorithm_and_variant_is_planned_with_the_transpose(workdir):
    write_config(workdir)
    done = snakemake(workdir, "-n")
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    out = done.stdout
    for width in (8, 4):
        assert f"output: resources/graphs/dg.w{width}.t.csr" in out
        for algorithm in ("bfs", "sssp", "cc", "pagerank"):
            assert f"output: results/fresh/apps/dg.{algorithm}.w{width}.csv" in out
    assert "ug.w8.t.csr" not in out and "ug.w4.t.csr" not in out  # undirected: its lists are its in-lists
    bfs_job = out[out.index("output: results/fresh/apps/dg.bfs.w8.csv") - 600 :]
    assert "dg.w8.t.csr" in bfs_job[:600]  # the BFS job waits for the transpose
    sssp_job = out[out.index("output: results/fresh/apps/dg.sssp.w8.csv") - 600 :]
    assert "dg.w8.t.csr" not in sssp_job[:600]


def test_the_transpose_is_made_and_cc_skipped_with_the_reason(workdir):
    write_config(workdir)
    # A stand-in for the kernels, newer than their sources: CC on a directed graph never runs the binary.
    stub = workdir / "build" / "emogi"
    stub.parent.mkdir()
    stub.write_text("#!/bin/sh\necho 'the stub emogi was run' >&2\nexit 1\n")
    stub.chmod(0o755)
    targets = ["resources/graphs/dg.w8.t.csr", "results/fresh/apps/dg.cc.w8.csv"]
    done = snakemake(workdir, *targets, measurements="archive")
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    graph = csr.read_csr(workdir / "resources/graphs/dg.w8.csr")
    assert graph.directed
    from emogi.csr_transpose import read_transpose

    assert read_transpose(graph).header.transposes == graph.header.checksum
    log = (workdir / "logs/measure/cc_dg.w8.log").read_text()
    assert "skipped: " in log and "is directed" in log and "(EMOGI §5.4)" in log
    assert "stub emogi" not in log
    table = pd.read_csv(workdir / "results/fresh/apps/dg.cc.w8.csv")
    assert table.empty and list(table.columns) == list(schema.TABLES["apps"])
    assert not os.path.exists(workdir / "resources/graphs/ug.w8.t.csr")
