"""On a GPU: uvm-capped (cold UVM whose lists keep at most --uvm-capacity of GPU memory, the least recently used
2 MiB chunks moved back to the host after each launch or sub-launch) verifies on every algorithm and variant with a
capacity below the lists, evicts, is slower than cold UVM where a sweep re-reads what it evicted, records traces of
its sub-launched runs, and allocates within the managed-memory guard as `uvm` does."""

import re

import numpy as np
import pandas as pd
import pytest

from conftest import run
from emogi import csr, schema
from graphs import write_generated

pytestmark = pytest.mark.gpu
REPORT = re.compile(
    r"uvm-capped, (\d+) sub-launches: capacity (\d+) of (\d+) chunks: "
    r"per run ([\d.]+) \(sub-\)launches, ([\d.]+) chunks"
)
CHUNK = 2 << 20


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    """kron16 and urand16, edge factor 16: ~16 MiB edge lists at 8-byte ids (8 chunks), ~8 MiB at 4-byte ids."""
    root = tmp_path_factory.mktemp("capped")
    return [
        write_generated(root / "kron16.w8.csr", "kron", 16, edge_factor=16),
        write_generated(root / "urand16.w8.csr", "urand", 16, edge_factor=16),
        write_generated(root / "kron16.w4.csr", "kron", 16, dtype=np.uint32, edge_factor=16),
    ]


def quarter_of_the_lists(path, algorithm):
    header = csr.read_header(path)
    lists = header.num_edges * (header.index_bytes + schema.WEIGHT_BYTES.get(algorithm, 0))
    return max(CHUNK, lists // 4 // CHUNK * CHUNK)


def run_capped(binary, path, algorithm, out, capacity, sublaunches=1, modes="uvm-capped", reps=1, extra=()):
    args = [binary, "run", "--algorithm", algorithm, "--graph", path, "--modes", modes, "--reps", reps]
    args += ["--warmup", "0", "--uvm-capacity", capacity, "--uvm-sublaunches", sublaunches, "--out", out, *extra]
    if algorithm in schema.ROOTED_ALGORITHMS:
        args += ["--roots", int(np.argmax(np.diff(np.asarray(csr.read_csr(path).offsets))))]
    return run(args)


@pytest.mark.parametrize("sublaunches", [1, 3])
@pytest.mark.parametrize("algorithm", sorted(schema.VARIANTS_OF))
def test_every_variant_verifies_under_a_capacity(emogi_binary, graphs, tmp_path, algorithm, sublaunches):
    for path in graphs:
        capacity = quarter_of_the_lists(path, algorithm)
        done = run_capped(emogi_binary, path, algorithm, tmp_path / "c.csv", capacity, sublaunches)
        assert done.returncode == 0, done.stderr[-3000:]
        rows = pd.read_csv(tmp_path / "c.csv")
        assert rows["verified"].all() and set(rows["variant"]) == set(schema.VARIANTS_OF[algorithm])
        assert (rows["mode"] == "uvm-capped").all()
        reports = REPORT.findall(done.stderr)
        assert len(reports) == len(schema.VARIANTS_OF[algorithm]), done.stderr[-2000:]
        for k, cap, chunks, steps, moved in reports:
            assert int(k) == sublaunches and int(cap) == capacity // CHUNK and int(cap) < int(chunks)
            assert float(steps) >= 1
        # a whole first sweep (CC, PageRank) or the widest BFS level touches more than a quarter of the lists
        assert max(float(m) for *_, m in reports) > 0, done.stderr[-2000:]


def test_evicted_chunks_are_faulted_in_again(emogi_binary, graphs, tmp_path):
    """PageRank sweeps the lists every round: capped at two chunks and evicting inside each sweep, it migrates
    them again every round, where cold UVM migrates them once."""
    path = graphs[0]
    done = run_capped(
        emogi_binary,
        path,
        "pagerank",
        tmp_path / "p.csv",
        CHUNK * 2,
        4,
        modes="uvm,uvm-capped",
        reps=3,
        extra=["--variants", "merged-aligned"],
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = pd.read_csv(tmp_path / "p.csv")
    median = rows.groupby("mode")["time_ms"].median()
    assert rows["verified"].all() and median["uvm-capped"] > 1.5 * median["uvm"], median
    (report,) = REPORT.findall(done.stderr)
    assert float(report[4]) >= rows["iterations"].min(), report  # at least a chunk moved back per round


def test_a_trace_of_a_capped_run_records_its_sub_launches(emogi_binary, graphs, tmp_path):
    traces = pytest.importorskip("emogi.trace_recording")
    path = graphs[1]
    done = run_capped(
        emogi_binary,
        path,
        "bfs",
        tmp_path / "b.csv",
        CHUNK,
        5,
        extra=["--variants", "merged-aligned", "--trace-out", tmp_path / "t"],
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (file,) = (tmp_path / "t").glob("*.uvm-capped.*.trace")
    trace = traces.load_recorded(file, csr.read_csr(path))
    assert "5 sub-launches" in trace.note and trace.num_launches == pd.read_csv(tmp_path / "b.csv")["levels"][0]


def test_the_managed_allocation_passes_the_guard_as_uvm(emogi_binary, graphs, tmp_path):
    """A budget with room for the vertex data but not for the managed lists and the guard's margin: refused as uvm
    is, before anything is written."""
    done = run_capped(emogi_binary, graphs[0], "bfs", tmp_path / "g.csv", CHUNK, extra=["--gpu-memory-budget", "32M"])
    assert done.returncode == 1 and "refusing to allocate" in done.stderr, done.stderr[-2000:]
    assert not (tmp_path / "g.csv").exists()
