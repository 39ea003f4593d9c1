"""On a GPU: the streamed mode (issue 22, CF'17's streamed blocks; kernels/include/emogi/streamed_lists.cuh) verifies
every variant that streams (the registry's `streamed`: SpMV's four, PageRank's scan variants and gauss-seidel, CC's
and SSSP's scan variants) at several block sizes, one of them smaller than the longest list (split lists), with 1 to
3 buffers; copies every block it launches once per sweep unless a buffer still holds it, and reports the bytes it
copied; skips the blocks without an active vertex (--stream-skip on, the default) with the same verified results as
without; still verifies with every buffer poisoned before each copy (a kernel that read a buffer before its copy
landed would read ids far past any vertex); refuses what it cannot stream; counts its buffers against
--gpu-memory-budget; runs clean under compute-sanitizer, packed and reading in place too; verifies on a graph of
over 1 GiB; and, reading sparsely active blocks in place (--stream-direct-below), verifies with fewer bytes copied;
and, copying ids and weights packed (--stream-pack on), verifies with poisoned buffers, copying fewer bytes."""

import re
import shutil

import numpy as np
import pandas as pd
import pytest

from conftest import run
from emogi import csr
from emogi.registry import vocabulary
from emogi.schema import WEIGHT_BYTES
from graphs import streamed_suite, write_lists

pytestmark = pytest.mark.gpu

# What streams (streamed_refusal): the rest is refused.
STREAMED = {a: v for a, v in vocabulary().streamed_of().items() if v}
ITERATIVE = ("cc", "pagerank", "sssp")  # say which vertices are active in a pass (ListReads::only_active)
ALIGN = 32  # entries: copies start on a multiple (streamed_lists.cu)
PLACED = re.compile(
    r"placed streamed: (\d+) blocks of at most (\d+) entries, (\d+) buffers of (\d+) bytes in GPU memory, "
    r"(\d+) lists split"
)
RUN = re.compile(
    r"streamed run: (\S+) (\S+): (\d+) sweeps, (\d+) blocks, (\d+) inactive, (\d+) copies, (\d+) skipped, "
    r"(\d+) bytes copied in ([\d.]+) ms of copies \([\d.]+ GB/s\), run [\d.]+ ms \([\d.]+ GB/s\), "
    r"blocks per sweep ([\d,]*)(?:; read in place: (\d+) blocks, (\d+) active entries, per sweep ([\d,]*))?"
)
FIELDS = ("algorithm", "variant", "sweeps", "blocks", "inactive", "copies", "skipped", "bytes", "copy_ms", "per_sweep")
IN_PLACE = ("in_place", "in_place_entries", "in_place_per_sweep")  # --stream-direct-below's suffix, else 0 and []


def runs_of(stderr):
    """The timed runs' `streamed run:` lines, as dicts of FIELDS (numbers as int or float, blocks per sweep as a
    list)."""
    out = []
    for m in RUN.finditer(stderr):
        r = dict(zip(FIELDS + IN_PLACE, m.groups()))
        for k in FIELDS[2:-2]:
            r[k] = int(r[k])
        r["copy_ms"] = float(r["copy_ms"])
        r["in_place"], r["in_place_entries"] = int(r["in_place"] or 0), int(r["in_place_entries"] or 0)
        for k in ("per_sweep", "in_place_per_sweep"):
            r[k] = [int(x) for x in (r[k] or "").split(",") if x]
        out.append(r)
    return out


def entry_bytes(path, algorithm):
    header = csr.read_header(path)
    return header.index_bytes + (WEIGHT_BYTES.get(algorithm, 0) if header.has_weights else 0)


def roots(path):
    """SSSP's roots: the first and the last vertex with out-edges and the one with the longest list (the star: its
    hub and a leaf)."""
    degrees = np.diff(np.asarray(csr.read_csr(path).offsets))
    some = np.flatnonzero(degrees)
    return sorted({int(some[0]), int(some[-1]), int(degrees.argmax())})


def hub(path):
    """The vertex with the longest list: one SSSP root that reaches the graph's split lists."""
    return int(np.diff(np.asarray(csr.read_csr(path).offsets)).argmax())


def runs_on(path, algorithm):
    """Whether `algorithm` applies to the graph (SSSP needs weights and an edge, CC an undirected graph)."""
    header = csr.read_header(path)
    if algorithm == "cc":
        return not header.directed
    return algorithm != "sssp" or (header.has_weights and header.num_edges > 0)


def longest_list(path):
    return int(np.diff(np.asarray(csr.read_csr(path).offsets)).max())


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    """kron12 and urand12 (8-byte ids, weights), kron12 at 4-byte ids, kron12 without weights (SpMV's values are
    then 1), and a star whose hub's list is longer than the smallest blocks."""
    return streamed_suite(tmp_path_factory.mktemp("streamed"))


def run_streamed(
    binary, path, algorithm, out, block_bytes, variants=None, buffers=2, reps=2, extra=(), skip=None, sources=None
):
    args = [binary, "run", "--algorithm", algorithm, "--graph", path, "--modes", "streamed"]
    args += ["--variants", ",".join(variants or STREAMED[algorithm]), "--reps", reps, "--warmup", "1"]
    args += ["--stream-block-bytes", block_bytes, "--stream-buffers", buffers, "--out", out, *extra]
    if algorithm == "sssp":
        args += ["--roots", ",".join(map(str, sources or roots(path)))]
    if skip is not None:
        args += ["--stream-skip", skip]
    return run(args)


def block_sizes(path, algorithm):
    """Everything in one block; about a fifth of the lists; and a block below the longest list (at least two
    alignments), in bytes."""
    header = csr.read_header(path)
    e = entry_bytes(path, algorithm)
    lists = max(header.num_edges, 1) * e
    small = max(2 * ALIGN, longest_list(path) // 2) * e
    return [lists + ALIGN * e, max(lists // 5, 2 * ALIGN * e), small]


def check_runs(done, out, algorithm, variants, path, skipping=True, packed=False):
    assert done.returncode == 0, done.stderr[-3000:]
    rows = pd.read_csv(out)
    assert rows["verified"].all() and set(rows["variant"]) == set(variants) and (rows["mode"] == "streamed").all()
    placed = PLACED.search(done.stderr)
    assert placed, done.stderr[-2000:]
    blocks = int(placed[1])
    runs = runs_of(done.stderr)
    assert len(runs) == len(rows), done.stderr[-2000:]  # one line per timed run
    header = csr.read_header(path)
    e = entry_bytes(path, algorithm)
    lists = header.num_edges * e
    for r, (_, row) in zip(runs, rows.iterrows()):
        assert r["variant"] == row["variant"]
        assert r["blocks"] + r["inactive"] == blocks * r["sweeps"]  # every block of every sweep: launched or skipped
        assert len(r["per_sweep"]) == r["sweeps"] and sum(r["per_sweep"]) == r["blocks"]
        assert all(n <= blocks for n in r["per_sweep"])
        # every launched block: copied, still in its buffer, or read in place
        assert r["copies"] + r["skipped"] + r["in_place"] == r["blocks"]
        assert r["bytes"] <= r["sweeps"] * (lists + blocks * ALIGN * e)  # never more than one alignment of slack
        if r["in_place"]:
            assert len(r["in_place_per_sweep"]) == r["sweeps"] and sum(r["in_place_per_sweep"]) == r["in_place"]
        elif not packed and (not skipping or algorithm != "sssp"):  # the first sweep copies every block
            assert lists <= r["bytes"]
        if not skipping or algorithm not in ITERATIVE:
            assert r["inactive"] == 0
        if algorithm == "spmv":
            assert r["sweeps"] == 1 and r["copies"] == blocks and r["skipped"] == 0
        elif r["variant"] == "gauss-seidel":
            assert r["sweeps"] == row["iterations"] + 1  # the last sweep pushes nothing and ends the run
        else:
            assert r["sweeps"] == row["iterations"]
        assert r["copy_ms"] > 0 or r["bytes"] == 0
    return rows, blocks, runs


@pytest.mark.parametrize("algorithm", sorted(STREAMED))
def test_every_streamed_variant_verifies_at_several_block_sizes(emogi_binary, graphs, tmp_path, algorithm):
    for path in (g for g in graphs if runs_on(g, algorithm)):
        for size in block_sizes(path, algorithm):
            # gauss-seidel where no list is split: a list and the alignment slack before it fit a block
            whole = size // entry_bytes(path, algorithm) >= longest_list(path) + 2 * ALIGN
            variants = [v for v in STREAMED[algorithm] if v != "gauss-seidel" or whole]
            done = run_streamed(emogi_binary, path, algorithm, tmp_path / "s.csv", size, variants)
            check_runs(done, tmp_path / "s.csv", algorithm, variants, path)


@pytest.mark.parametrize("buffers", [1, 2, 3])
@pytest.mark.parametrize("algorithm", sorted(STREAMED))
def test_one_to_three_buffers(emogi_binary, graphs, tmp_path, algorithm, buffers):
    path = graphs[0]
    size = block_sizes(path, algorithm)[1]  # about five blocks
    variants = ["merged-aligned"]
    done = run_streamed(emogi_binary, path, algorithm, tmp_path / "b.csv", size, variants, buffers=buffers)
    _, blocks, runs = check_runs(done, tmp_path / "b.csv", algorithm, variants, path)
    assert int(PLACED.search(done.stderr)[3]) == min(buffers, blocks)
    if algorithm in ITERATIVE and blocks <= buffers:  # a block, once copied, stays in its own buffer
        assert all(r["copies"] <= blocks for r in runs)


def test_a_list_longer_than_a_block_is_split_and_read_in_parts(emogi_binary, graphs, tmp_path):
    """The star's hub (999 entries) in blocks of 64 entries: split across 16 blocks or more; SpMV, CC, SSSP (from the
    hub and from a leaf) and the PageRank scan variants verify; gauss-seidel is refused, naming the hub."""
    star = graphs[-1]
    for algorithm in sorted(STREAMED):
        size = 2 * ALIGN * entry_bytes(star, algorithm)
        variants = [v for v in STREAMED[algorithm] if v != "gauss-seidel"]
        done = run_streamed(emogi_binary, star, algorithm, tmp_path / "x.csv", size, variants)
        check_runs(done, tmp_path / "x.csv", algorithm, variants, star)
        assert int(PLACED.search(done.stderr)[5]) >= 1  # the hub is split
    done = run_streamed(emogi_binary, star, "pagerank", tmp_path / "gs.csv", 2 * ALIGN * 8, ["gauss-seidel"])
    assert done.returncode == 1 and "vertex 0's list" in done.stderr and not (tmp_path / "gs.csv").exists()


@pytest.mark.parametrize("algorithm", sorted(STREAMED))
def test_a_poisoned_buffer_is_never_read(emogi_binary, graphs, tmp_path, algorithm):
    """--stream-poison fills each buffer with 0xFF bytes (ids far past any vertex) before every copy into it, and
    never reuses a buffer's block: a kernel that ran before its block's copy landed would read those ids (an
    illegal address, or a wrong result); every run still verifies."""
    for path in (graphs[0], graphs[2], graphs[-1]):
        for buffers in (2, 3):
            size = max(2 * ALIGN, longest_list(path) // 2) * entry_bytes(path, algorithm)
            variants = [v for v in STREAMED[algorithm] if v != "gauss-seidel"]
            done = run_streamed(
                emogi_binary, path, algorithm, tmp_path / "p.csv", size, variants, buffers, extra=["--stream-poison"]
            )
            _, _, runs = check_runs(done, tmp_path / "p.csv", algorithm, variants, path)
            assert "poisoned before every copy" in done.stderr and all(r["skipped"] == 0 for r in runs)


@pytest.mark.parametrize(
    "algorithm,variant",
    [("bfs", "merged-aligned"), ("cc", "afforest"), ("sssp", "frontier"), ("pagerank", "frontier")],
)
def test_what_does_not_stream_is_refused(emogi_binary, graphs, tmp_path, algorithm, variant):
    args = [emogi_binary, "run", "--algorithm", algorithm, "--graph", graphs[0], "--variants", variant]
    args += ["--modes", "streamed", "--stream-block-bytes", "1M", "--out", tmp_path / "r.csv", "--roots", "0"]
    done = run(args)
    assert done.returncode == 1 and "does not stream its lists" in done.stderr, done.stderr[-2000:]
    assert len([line for line in done.stderr.splitlines() if "does not stream" in line]) == 1  # one line
    assert not (tmp_path / "r.csv").exists()


def test_the_buffers_count_against_the_budget(emogi_binary, graphs, tmp_path):
    """Room beside the vertex data for one buffer and a half: two buffers are refused, one runs."""
    path = graphs[0]
    size = csr.read_header(path).num_edges * 12 // 4  # about four blocks
    variants = ["merged-aligned"]
    learn = ["--gpu-memory-budget", str(1 << 40)]  # too large to limit anything: the log says what is in use
    done = run_streamed(emogi_binary, path, "spmv", tmp_path / "g.csv", size, variants, buffers=1, extra=learn)
    assert done.returncode == 0, done.stderr[-2000:]
    before = int(re.search(r"(\d+) bytes in use before placing the lists", done.stderr)[1])
    buffer = int(PLACED.search(done.stderr)[4])
    extra = ["--gpu-memory-budget", before + buffer + buffer // 2]
    done = run_streamed(emogi_binary, path, "spmv", tmp_path / "g.csv", size, variants, extra=extra)
    assert done.returncode == 1 and "the streamed blocks' buffers" in done.stderr, done.stderr[-2000:]
    done = run_streamed(emogi_binary, path, "spmv", tmp_path / "g.csv", size, variants, buffers=1, extra=extra)
    check_runs(done, tmp_path / "g.csv", "spmv", variants, path)


def test_spmv_without_weights_reads_ids_only(emogi_binary, graphs, tmp_path):
    """kron12 without a weights section: SpMV's values are 1, and only the ids are copied."""
    plain = graphs[3]
    done = run_streamed(emogi_binary, plain, "spmv", tmp_path / "w.csv", 1 << 30, ["merged-aligned"])
    _, _, runs = check_runs(done, tmp_path / "w.csv", "spmv", ["merged-aligned"], plain)
    header = csr.read_header(plain)
    assert all(r["bytes"] < header.num_edges * 8 + ALIGN * 8 for r in runs)


@pytest.mark.parametrize("algorithm", ITERATIVE)
def test_skipping_inactive_blocks_keeps_the_verified_result(emogi_binary, graphs, tmp_path, algorithm):
    """--stream-skip on and off on kron12 (8- and 4-byte ids) and the star, in small blocks (many blocks, split
    lists; gauss-seidel's hold the longest list), 2 buffers: every run verifies either way; off launches every block
    of every sweep; on copies no more per sweep than a full sweep, and SSSP's first pass (only the root active)
    leaves blocks out."""
    for path in (graphs[0], graphs[2], graphs[-1]):
        size = max(2 * ALIGN, longest_list(path) // 4) * entry_bytes(path, algorithm)
        variants = [v for v in STREAMED[algorithm] if v != "gauss-seidel" or path != graphs[-1]]
        if algorithm == "pagerank" and path != graphs[-1]:
            size = (longest_list(path) + 2 * ALIGN) * entry_bytes(path, algorithm)  # gauss-seidel: no list split
        per_sweep = {}
        for skip in ("off", "on"):
            out = tmp_path / f"{skip}.csv"
            done = run_streamed(emogi_binary, path, algorithm, out, size, variants, skip=skip)
            _, blocks, runs = check_runs(done, out, algorithm, variants, path, skipping=skip == "on")
            # At least twice the buffers: no buffer holds a block a sweep begins with, so a full sweep copies all.
            assert blocks >= 4, done.stderr[-2000:]
            for r in runs:
                per_sweep.setdefault((skip, r["variant"]), []).append(r["bytes"] / r["sweeps"])
                if skip == "off":
                    assert r["inactive"] == 0 and r["blocks"] == blocks * r["sweeps"]
                elif algorithm == "sssp":
                    assert r["inactive"] > 0, r
        for v in variants:
            assert max(per_sweep[("on", v)]) <= min(per_sweep[("off", v)]), (v, per_sweep)


@pytest.mark.parametrize("algorithm", ITERATIVE)
def test_reading_sparse_blocks_in_place_keeps_the_verified_result(emogi_binary, graphs, tmp_path, algorithm):
    """--stream-direct-below 0.5 and 1 on kron12 (8- and 4-byte ids) in small blocks: every run verifies; at 1 every
    block not wholly active is read in place (so later sweeps read some in place), and no run copies more than the
    same run without it."""
    for path in (graphs[0], graphs[2]):
        size = (longest_list(path) + 2 * ALIGN) * entry_bytes(path, algorithm)  # gauss-seidel: no list split
        copied = {}
        for below in ("0", "0.5", "1"):
            out = tmp_path / f"below{below}.csv"
            extra = ["--stream-direct-below", below]
            done = run_streamed(emogi_binary, path, algorithm, out, size, extra=extra)
            _, blocks, runs = check_runs(done, out, algorithm, STREAMED[algorithm], path)
            assert blocks >= 4, done.stderr[-2000:]
            for r in runs:
                copied.setdefault(below, []).append(r["bytes"])
                if below == "0":
                    assert r["in_place"] == 0 and not r["in_place_per_sweep"], r
                else:
                    assert "read in place" in done.stderr and len(r["in_place_per_sweep"]) == r["sweeps"], r
                if below == "1" and r["sweeps"] > 2:
                    assert r["in_place"] > 0, r
        assert max(copied["1"]) <= min(copied["0"]), copied


SANITIZER_CLEAN = {
    "memcheck": "ERROR SUMMARY: 0 errors",
    "racecheck": "RACECHECK SUMMARY: 0 hazards displayed (0 errors",
}


@pytest.mark.skipif(shutil.which("compute-sanitizer") is None, reason="compute-sanitizer not on PATH")
@pytest.mark.parametrize("form", ["plain", "packed"])
@pytest.mark.parametrize("tool", sorted(SANITIZER_CLEAN))
@pytest.mark.parametrize("algorithm", sorted(STREAMED))
def test_sanitizer_is_clean(emogi_binary, graphs, tmp_path, tool, algorithm, form):
    """Small blocks (split lists, more blocks than buffers) on urand12 and the star: the double buffering is the
    race site; `packed` adds the widening kernel on the copy stream (--stream-pack on) and, for the iterative
    algorithms, sparse blocks read in place beside copied ones (--stream-direct-below 0.5)."""
    extra = []
    if form == "packed":
        extra = ["--stream-pack", "on"] + (["--stream-direct-below", "0.5"] if algorithm in ITERATIVE else [])
    for path in (graphs[1], graphs[-1]):
        size = max(2 * ALIGN, longest_list(path) // 2) * entry_bytes(path, algorithm)
        if algorithm == "pagerank" and path == graphs[1]:
            # Every block is a launch under the sanitizer: urand12 at the small size is ~70 000 over 56 rounds, and
            # racecheck-packed ran past 500 s (an H100, 2026-11-27). Blocks of 8 longest lists and a tolerance of
            # 1e-2 keep more blocks than buffers; the star still splits its hub's list.
            size *= 16
        # One variant: the race site is the buffering, which every variant shares (all four under the sanitizer
        # ran past 7 minutes on an H100 with the rest of this file, 2026-11-25).
        variants = ["merged-aligned"]
        args = ["compute-sanitizer", "--tool", tool, "--error-exitcode", "9", emogi_binary, "run"]
        args += ["--algorithm", algorithm, "--graph", path, "--variants", ",".join(variants), "--modes", "streamed"]
        args += ["--stream-block-bytes", size, "--reps", "1", "--warmup", "0", "--out", tmp_path / "s.csv", *extra]
        if algorithm == "pagerank":
            args += ["--pr-tolerance", "0.01"]
        if algorithm == "sssp":  # one root: racecheck-packed took 138 s with three (an H100, 2026-11-27)
            args += ["--roots", str(hub(path))]
        done = run(args)
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
        assert SANITIZER_CLEAN[tool] in done.stdout + done.stderr


@pytest.mark.parametrize("algorithm", sorted(STREAMED))
def test_a_graph_over_one_gib(emogi_binary, large_graph, tmp_path, algorithm):
    assert csr.read_header(large_graph).num_edges * 8 >= 1 << 30
    variants = ["merged-aligned"] + (["gauss-seidel"] if algorithm == "pagerank" else [])
    # SSSP from the hub alone: the CPU reference takes seconds per root at this size.
    one = [hub(large_graph)]
    done = run_streamed(emogi_binary, large_graph, algorithm, tmp_path / "l.csv", "256M", variants, reps=1, sources=one)
    check_runs(done, tmp_path / "l.csv", algorithm, variants, large_graph)


def test_a_graph_without_edges(emogi_binary, tmp_path):
    path = write_lists(tmp_path / "empty.csr", {}, 5, directed=False, weights_seed=1)
    for algorithm in sorted(a for a in STREAMED if runs_on(path, a)):
        done = run_streamed(emogi_binary, path, algorithm, tmp_path / "e.csv", "1M", ["merged-aligned"])
        assert done.returncode == 0, done.stderr[-2000:]
        assert pd.read_csv(tmp_path / "e.csv")["verified"].all()


def packed_bytes(largest):
    """The fewest whole bytes that hold `largest` (streamed_lists.cu's bytes_for)."""
    return max(1, (int(largest).bit_length() + 7) // 8)


@pytest.mark.parametrize("algorithm", sorted(STREAMED))
def test_packed_copies_verify_and_copy_fewer_bytes(emogi_binary, graphs, tmp_path, algorithm):
    """--stream-pack on, every buffer poisoned before each copy (packed staging and widened buffer alike), every
    block copied every sweep (--stream-skip off), small blocks, on kron12 at 8- and 4-byte ids (ids in 2 bytes,
    weights in 1) and the star: every run verifies; the run says what it packed; and each run copies exactly the
    packed share of what the same run copies unpacked, where both sweep alike."""
    for path in (graphs[0], graphs[2], graphs[-1]):
        g = csr.read_csr(path)
        size = (longest_list(path) + 2 * ALIGN) * entry_bytes(path, algorithm)  # gauss-seidel: no list split
        variants = [v for v in STREAMED[algorithm] if v != "gauss-seidel" or path != graphs[-1]]
        ids = packed_bytes(np.asarray(g.edges).max())
        header = csr.read_header(path)
        weighted = algorithm in WEIGHT_BYTES and header.has_weights
        weights = packed_bytes(np.asarray(g.weights).max()) if weighted else 0
        copied = {}
        for pack in ("off", "on"):
            out = tmp_path / f"pack{pack}.csv"
            extra = ["--stream-pack", pack, "--stream-poison"]
            done = run_streamed(emogi_binary, path, algorithm, out, size, variants, skip="off", extra=extra)
            rows, _, runs = check_runs(done, out, algorithm, variants, path, skipping=False, packed=pack == "on")
            if pack == "on":
                assert f"ids copied in {ids} of {header.index_bytes} bytes" in done.stderr, done.stderr[-2000:]
                if weighted:
                    assert f"weights copied in {weights} of 4 bytes" in done.stderr, done.stderr[-2000:]
            for r, (_, row) in zip(runs, rows.iterrows()):
                copied.setdefault(pack, {}).setdefault(r["variant"], []).append((r["bytes"], r["sweeps"]))
        share = (ids + weights) / (header.index_bytes + (4 if weighted else 0))
        for v in variants:
            for (on, sweeps_on), (off, sweeps_off) in zip(copied["on"][v], copied["off"][v]):
                if sweeps_on == sweeps_off:
                    assert on == pytest.approx(off * share, rel=1e-9), (v, on, off, share)
