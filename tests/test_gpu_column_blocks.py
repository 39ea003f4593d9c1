"""On a GPU: streamed SpMV over CF'17's column blocks (--stream-layout columns; kernels/include/emogi/column_blocks.hpp,
streamed_lists.cuh) verifies against the same CPU reference as every SpMV run, on undirected and directed graphs, 8-
and 4-byte ids, with and without weights, at several block counts (one block, a few, many) and with 1 to 3 buffers;
cuts the columns as the host layout says (the blocks and non-empty rows a numpy model of it predicts) and copies each
block once: its entries, its row index and its slice of x, byte for byte; still verifies with every buffer poisoned
before each copy; refuses a column longer than a block; and runs clean under compute-sanitizer memcheck and
racecheck."""

import re
import shutil

import numpy as np
import pandas as pd
import pytest

from conftest import run
from emogi import csr
from graphs import streamed_suite, write_lists

pytestmark = pytest.mark.gpu

MIN_ENTRIES = 64  # streamed_plan's floor for any layout: two 32-entry alignments
PLACED = re.compile(
    r"placed streamed: (\d+) blocks of at most (\d+) entries, (\d+) buffers of (\d+) bytes in GPU memory, column "
    r"blocks \(CF'17\): (\d+) non-empty rows over the blocks, a row index of (\d+) bytes, x slices of (\d+) bytes"
)
RUN = re.compile(
    r"streamed run: spmv (\S+): (\d+) sweeps, (\d+) blocks, (\d+) inactive, (\d+) copies, (\d+) skipped, "
    r"(\d+) bytes copied"
)
VARIANTS = ["naive", "merged", "merged-aligned", "chunked"]


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    """kron12 and urand12 (8-byte ids, weights), kron12 at 4-byte ids, kron12 without weights (values 1), a directed
    kron12 (columns are in-lists there, unlike its rows), and a star whose hub's column holds 999 entries."""
    return streamed_suite(tmp_path_factory.mktemp("column_blocks"), directed=True)


def entry_bytes(path):
    header = csr.read_header(path)
    return header.index_bytes + (4 if header.has_weights else 0)


def column_counts(path):
    g = csr.read_csr(path)
    return np.bincount(np.asarray(g.edges, dtype=np.int64), minlength=csr.read_header(path).num_vertices)


def expected_layout(path, capacity):
    """A numpy model of capacity_column_bounds and build_column_blocks: the column bounds (consecutive columns while
    their entries fit `capacity`) and the non-empty rows summed over the blocks."""
    counts = column_counts(path)
    bounds, held = [0], 0
    for c, e in enumerate(counts):
        if held + e > capacity:
            bounds.append(c)
            held = 0
        held += int(e)
    bounds.append(len(counts))
    g = csr.read_csr(path)
    offsets = np.asarray(g.offsets, dtype=np.int64)
    rows = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    block = np.searchsorted(np.asarray(bounds[1:-1]), np.asarray(g.edges, dtype=np.int64), side="right")
    nonempty = len(np.unique(block.astype(np.int64) * len(offsets) + rows)) if len(rows) else 0
    return bounds, nonempty


def block_sizes(path):
    """Capacities in entries: everything in one block; about five blocks; the smallest the longest column allows
    (many blocks)."""
    edges = csr.read_header(path).num_edges
    longest = max(int(column_counts(path).max()), MIN_ENTRIES)
    return [edges + MIN_ENTRIES, max(edges // 5, longest), longest]


def run_columns(binary, path, out, block_bytes, variants=VARIANTS, buffers=2, extra=()):
    args = [binary, "run", "--algorithm", "spmv", "--graph", path, "--modes", "streamed", "--stream-layout", "columns"]
    args += ["--variants", ",".join(variants), "--reps", "2", "--warmup", "1", "--stream-block-bytes", block_bytes]
    return run([*args, "--stream-buffers", buffers, "--out", out, *extra])


def check_columns(done, out, path, capacity, variants):
    """Verified rows; the placement as the numpy model predicts; each run one sweep copying every block once:
    entries, row index and x slices."""
    assert done.returncode == 0, done.stderr[-3000:]
    rows = pd.read_csv(out)
    assert rows["verified"].all() and set(rows["variant"]) == set(variants) and (rows["mode"] == "streamed").all()
    placed = PLACED.search(done.stderr)
    assert placed, done.stderr[-2000:]
    blocks, nonempty, index_bytes, x_bytes = int(placed[1]), int(placed[5]), int(placed[6]), int(placed[7])
    header = csr.read_header(path)
    bounds, want_nonempty = expected_layout(path, capacity)
    assert blocks == len(bounds) - 1 and nonempty == want_nonempty
    assert index_bytes == nonempty * header.index_bytes + (nonempty + blocks) * 8  # ids; starts, one more a block
    assert x_bytes == header.num_vertices * 4
    runs = RUN.findall(done.stderr)
    assert len(runs) == len(rows), done.stderr[-2000:]
    lists = header.num_edges * entry_bytes(path)
    for variant, sweeps, launched, inactive, copies, skipped, copied in runs:
        assert int(sweeps) == 1 and int(launched) == blocks and int(inactive) == 0
        assert int(copies) == blocks and int(skipped) == 0
        assert int(copied) == lists + index_bytes + x_bytes  # no alignment slack: every byte is the block's
    return blocks


def test_column_blocked_spmv_verifies_at_several_block_counts(emogi_binary, graphs, tmp_path):
    for path in graphs:
        counts = set()
        for capacity in block_sizes(path):
            done = run_columns(emogi_binary, path, tmp_path / "c.csv", capacity * entry_bytes(path))
            counts.add(check_columns(done, tmp_path / "c.csv", path, capacity, VARIANTS))
        assert 1 in counts and len(counts) > 1, counts  # one block, and more than one


@pytest.mark.parametrize("buffers", [1, 2, 3])
def test_one_to_three_buffers(emogi_binary, graphs, tmp_path, buffers):
    for path in (graphs[0], graphs[2], graphs[4]):
        capacity = block_sizes(path)[1]  # about five blocks
        done = run_columns(emogi_binary, path, tmp_path / "b.csv", capacity * entry_bytes(path), ["merged-aligned"],
                           buffers)  # fmt: skip
        blocks = check_columns(done, tmp_path / "b.csv", path, capacity, ["merged-aligned"])
        assert int(PLACED.search(done.stderr)[3]) == min(buffers, blocks)


def test_a_poisoned_buffer_is_never_read(emogi_binary, graphs, tmp_path):
    """--stream-poison fills every buffer (ids, weights, row ids and starts: far past any vertex or entry; x: NaN)
    with 0xFF bytes before each copy into it: a kernel that ran before its block landed would fault or spoil y."""
    for path in (graphs[0], graphs[2], graphs[4], graphs[-1]):
        capacity = block_sizes(path)[2]
        for buffers in (2, 3):
            done = run_columns(emogi_binary, path, tmp_path / "p.csv", capacity * entry_bytes(path), VARIANTS,
                               buffers, ["--stream-poison"])  # fmt: skip
            check_columns(done, tmp_path / "p.csv", path, capacity, VARIANTS)
            assert "poisoned before every copy" in done.stderr


def test_a_column_longer_than_a_block_is_refused(emogi_binary, graphs, tmp_path):
    star = graphs[-1]  # the hub's column: 999 entries
    done = run_columns(emogi_binary, star, tmp_path / "r.csv", 500 * entry_bytes(star), ["merged-aligned"])
    assert done.returncode == 1 and "column 0 holds 999 entries" in done.stderr, done.stderr[-2000:]
    assert not (tmp_path / "r.csv").exists()


def test_a_graph_without_edges(emogi_binary, tmp_path):
    path = write_lists(tmp_path / "empty.csr", {}, 5, directed=False, weights_seed=1)
    done = run_columns(emogi_binary, path, tmp_path / "e.csv", "1M", ["merged-aligned"])
    assert done.returncode == 0, done.stderr[-2000:]
    assert pd.read_csv(tmp_path / "e.csv")["verified"].all()


def test_rows_and_columns_read_the_same_lists(emogi_binary, graphs, tmp_path):
    """The same product either way: both verify, and both count the graph's entries as traversed."""
    path = graphs[0]
    size = block_sizes(path)[1] * entry_bytes(path)
    for layout in ("rows", "columns"):
        args = [emogi_binary, "run", "--algorithm", "spmv", "--graph", path, "--modes", "streamed", "--reps", "1"]
        args += ["--variants", "merged-aligned", "--stream-block-bytes", size, "--stream-layout", layout]
        done = run([*args, "--out", tmp_path / f"{layout}.csv"])
        assert done.returncode == 0, done.stderr[-2000:]
        rows = pd.read_csv(tmp_path / f"{layout}.csv")
        assert rows["verified"].all() and (rows["edges_traversed"] == csr.read_header(path).num_edges).all()


SANITIZER_CLEAN = {
    "memcheck": "ERROR SUMMARY: 0 errors",
    "racecheck": "RACECHECK SUMMARY: 0 hazards displayed (0 errors",
}


@pytest.mark.skipif(shutil.which("compute-sanitizer") is None, reason="compute-sanitizer not on PATH")
@pytest.mark.parametrize("tool", sorted(SANITIZER_CLEAN))
def test_sanitizer_is_clean(emogi_binary, graphs, tmp_path, tool):
    """Many small blocks, more than the buffers, on urand12, the directed kron12 and the star: the double buffering
    and y's per-row ownership are the race sites."""
    for path in (graphs[1], graphs[4], graphs[-1]):
        capacity = block_sizes(path)[2]
        args = ["compute-sanitizer", "--tool", tool, "--error-exitcode", "9", emogi_binary, "run", "--algorithm"]
        args += ["spmv", "--graph", path, "--variants", "merged-aligned,chunked", "--modes", "streamed"]
        args += ["--stream-layout", "columns", "--stream-block-bytes", capacity * entry_bytes(path)]
        done = run([*args, "--reps", "1", "--warmup", "0", "--out", tmp_path / "s.csv"])
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
        assert SANITIZER_CLEAN[tool] in done.stdout + done.stderr
