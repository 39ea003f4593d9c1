"""Read counts from traces (emogi/trace_hotness.py) and c, the share of the read bytes hottest-first keeps in GPU
memory, on hand-built cases with known answers, against the host tests' example of move_hot_lists and against a
plain one-list-at-a-time greedy."""

import numpy as np
import pytest

from conftest import run
from emogi import csr
from emogi.trace_derive import bfs_trace
from emogi.trace_hotness import hot_fraction, hot_placement, hotness, main, read_hotness
from emogi.traces import Trace, graph_checksum, save_trace
from graphs import write_generated, write_lists

PAD = 1024 * 8  # the copy's padding at 8-byte entries (kMoveAlignEntries)


@pytest.fixture
def hand(tmp_path):
    """Degrees 3, 0, 5, 1, 2 (the host tests' kOffsets), 8-byte ids."""
    lists = {0: [1, 2, 3], 2: [0, 1, 3, 4, 0], 3: [2], 4: [0, 2]}
    return csr.read_csr(write_lists(tmp_path / "hand.csr", lists, 5), verify_checksum=False)


def hand_trace(g):
    """Launches: all five; parts of v0 (entry 1), v2 (from entry 5: nothing) and v4 (0 entries); v0, v3, v4; v4."""
    t = Trace("hand", graph_checksum(g), 5, 11, "cc", "afforest", 8)
    t.add_launch(np.ones(5, bool), "all")
    t.add_launch(np.isin(np.arange(5), [0, 2, 4]), "parts", first=[1, 5, 0], count=[1, 1, 0])
    t.add_launch(np.isin(np.arange(5), [0, 3, 4]), "some")
    t.add_launch(np.arange(5) == 4, "one")
    return t


def test_hotness_counts_launches_that_read_an_entry(hand):
    counts = hotness(hand_trace(hand), hand.offsets)
    # v1's list is empty, v2's part starts past its end and v4's part reads 0 entries: none of those count
    assert counts.dtype == np.uint32 and counts.tolist() == [3, 0, 1, 2, 3]


def test_hottest_first_by_count_then_the_shorter_list(hand):
    counts = [3, 0, 1, 2, 3]
    # room for 6 entries: v4 (3 reads, 2 entries) before v0 (3 reads, 3 entries), then v3; v2 (5) no longer fits
    assert hot_placement(counts, hand.offsets, 8, PAD + 6 * 8).tolist() == [4, 0, 3]
    # read entries 3x3 + 1x5 + 2x1 + 3x2 = 22, of them 6 + 9 + 2 in GPU memory
    assert hot_fraction(counts, hand.offsets, 8, PAD + 6 * 8) == pytest.approx(17 / 22)
    # the same as move_hot_lists in kernels/tests/host_tests.cpp
    assert hot_placement([2, 9, 1, 2, 4], hand.offsets, 8, PAD + 6 * 8).tolist() == [4, 3, 0]
    assert hot_fraction([2, 9, 1, 2, 4], hand.offsets, 8, PAD + 6 * 8) == pytest.approx(16 / 21)


def test_budgets_at_the_ends(hand):
    counts = [3, 0, 1, 2, 3]
    assert hot_placement(counts, hand.offsets, 8, PAD).size == 0 and hot_fraction(counts, hand.offsets, 8, PAD) == 0
    assert hot_fraction(counts, hand.offsets, 8, 1 << 30) == 1.0
    assert hot_fraction([0, 0, 0, 0, 0], hand.offsets, 8, 1 << 30) == 0.0
    assert hot_placement([0, 0, 7, 0, 0], hand.offsets, 8, PAD + 6 * 8).tolist() == [2]  # lists never read stay
    # 12-byte entries (ids and SSSP's weights): room for 6 entries is 12 x 6 bytes beside 1024 x 12 of padding
    assert hot_placement(counts, hand.offsets, 12, 1024 * 12 + 6 * 12).tolist() == [4, 0, 3]
    with pytest.raises(ValueError, match="4 read counts for 5 vertices"):
        hot_placement([1, 2, 3, 4], hand.offsets, 8, 1 << 20)


def _one_at_a_time(counts, offsets, entry_bytes, budget):
    degree = np.diff(np.asarray(offsets, dtype=np.int64))
    room = max(budget - 1024 * entry_bytes, 0) // entry_bytes
    taken = []
    for v in sorted(range(len(degree)), key=lambda v: (-int(counts[v]), degree[v], v)):
        if counts[v] and 0 < degree[v] <= room:
            taken.append(v)
            room -= degree[v]
    return taken


def test_the_greedy_in_rounds_is_the_greedy(tmp_path):
    g = csr.read_csr(write_generated(tmp_path / "kron9.csr", "kron", 9), verify_checksum=False)
    rng = np.random.default_rng(7)
    total = g.num_edges * 8
    for counts in (rng.integers(0, 4, g.num_vertices), rng.integers(0, 50, g.num_vertices)):
        for share in (0.01, 0.1, 0.3, 0.7):
            budget = PAD + int(share * total)
            got = hot_placement(counts, g.offsets, 8, budget).tolist()
            assert got == _one_at_a_time(counts, g.offsets, 8, budget), share


def test_a_traversal_reads_each_reached_list_once(tmp_path):
    g = csr.read_csr(write_generated(tmp_path / "kron9.csr", "kron", 9))
    root = int(np.argmax(np.diff(np.asarray(g.offsets, dtype=np.int64))))
    trace = bfs_trace(g, root, "merged-aligned", name="kron9")
    counts = hotness(trace, g.offsets)
    assert counts.max() == 1 and counts[root] == 1


def test_the_command_writes_the_counts_and_prints_c(hand, tmp_path, capsys):
    save_trace(hand_trace(hand), tmp_path / "t.npz")
    out = tmp_path / "hot.u32"
    args = ["--graph", str(hand.path), "--out", str(out), "--budget", str(PAD + 6 * 8)]
    assert main([str(tmp_path / "t.npz"), *args]) == 0
    assert out.read_bytes() == np.array([3, 0, 1, 2, 3], "<u4").tobytes()
    assert read_hotness(out, 5).tolist() == [3, 0, 1, 2, 3]
    printed = capsys.readouterr().out
    assert "4 of 5 lists read, at most 3 times" in printed and "c = 77.3% of the traced reads" in printed, printed
    with pytest.raises(ValueError, match="holds 20 bytes, expected 24"):
        read_hotness(out, 6)


def test_the_command_refuses_another_graphs_trace(hand, tmp_path, capsys):
    other = write_generated(tmp_path / "urand4.csr", "urand", 4)
    save_trace(hand_trace(hand), tmp_path / "t.npz")
    assert main([str(tmp_path / "t.npz"), "--graph", str(other), "--out", str(tmp_path / "hot.u32")]) == 1
    assert "does not belong to graph" in capsys.readouterr().err and not (tmp_path / "hot.u32").exists()


def test_a_recorded_trace_counts_its_parts(emogi_binary, tmp_path):
    """The host tests' recorded trace: launch i reads every (i + 2)-th vertex's list; launch 1 entry 1 of each,
    launch 2 the entries from 2 on, so lists too short for them are not read there."""
    path = write_generated(tmp_path / "kron8.csr", "kron", 8)
    header = csr.read_header(path)
    args = ["write-trace", tmp_path / "r.trace", header.num_vertices, header.num_edges, f"{header.checksum:016x}", 8]
    done = run([emogi_binary.parent / "emogi_host_tests", *args])
    assert done.returncode == 0, done.stdout + done.stderr
    assert main([str(tmp_path / "r.trace"), "--graph", str(path), "--out", str(tmp_path / "hot.u32")]) == 0
    degree = np.diff(np.asarray(csr.read_csr(path).offsets, dtype=np.int64))
    v = np.arange(len(degree))
    want = (v % 2 == 0) & (degree > 0)
    want = want.astype(int) + ((v % 3 == 0) & (degree > 1)) + ((v % 4 == 0) & (degree > 2))
    assert read_hotness(tmp_path / "hot.u32", len(degree)).tolist() == want.tolist()
