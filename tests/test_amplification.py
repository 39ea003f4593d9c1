"""model/amplification.py against brute force on small random graphs."""

from __future__ import annotations

import subprocess
import sys
from collections import deque
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from emogi.csr import write_csr
from emogi.schema import AMPLIFICATION_COLUMNS
from model.amplification import amplification_table, fetched_bytes, out_edge_graph, reached

REPO = Path(__file__).resolve().parent.parent
ALIGNMENTS = [4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096]


def random_csr(n, max_degree, seed, dtype=np.uint32):
    """A directed graph with skewed degrees (some zero), neighbour lists of random length."""
    rng = np.random.default_rng(seed)
    degrees = np.minimum(rng.geometric(0.15, size=n) - 1, max_degree)
    degrees[rng.random(n) < 0.2] = 0
    offsets = np.concatenate([[0], np.cumsum(degrees)]).astype(np.uint64)
    edges = rng.integers(0, n, size=int(offsets[-1])).astype(dtype)
    return offsets, edges


def roots_with_edges(offsets, count):
    return [int(v) for v in np.flatnonzero(np.diff(offsets.astype(np.int64)) > 0)[:count]]


def brute_bfs(offsets, edges, root):
    seen = {root}
    queue = deque([root])
    while queue:
        v = queue.popleft()
        for i in range(int(offsets[v]), int(offsets[v + 1])):
            u = int(edges[i])
            if u not in seen:
                seen.add(u)
                queue.append(u)
    return seen


def brute_fetched(offsets, edge_bytes, vertices, a):
    """Byte-by-byte: the set of a-byte blocks each list touches, counted per list."""
    E = D = 0
    for v in vertices:
        start, end = int(offsets[v]) * edge_bytes, int(offsets[v + 1]) * edge_bytes
        if end == start:
            continue
        E += end - start
        D += len({b // a for b in range(start, end)}) * a
    return E, D


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("edge_bytes", [4, 8])
def test_fetched_bytes_matches_brute_force(seed, edge_bytes):
    offsets, edges = random_csr(300, 60, seed)
    root = roots_with_edges(offsets, 1)[0]
    seen = brute_bfs(offsets, edges, root)
    mask = reached(out_edge_graph(offsets, edges), root)
    assert set(np.flatnonzero(mask).tolist()) == seen
    for a in ALIGNMENTS:
        assert fetched_bytes(offsets, edge_bytes, mask, a) == brute_fetched(offsets, edge_bytes, sorted(seen), a)


def test_raf_at_least_one_and_non_decreasing_in_alignment():
    offsets, edges = random_csr(2000, 200, 11)
    table = amplification_table(offsets, edges, 8, roots=roots_with_edges(offsets, 3), alignments=ALIGNMENTS, name="g")
    assert table["root"].nunique() == 3
    assert list(table.columns) == AMPLIFICATION_COLUMNS
    for _, per_root in table.groupby("root"):
        raf = per_root.sort_values("alignment_bytes")["raf"].to_numpy()
        assert (raf >= 1 - 1e-12).all()
        assert (np.diff(raf) >= -1e-12).all()
        # aligned to the edge width, nothing is wasted
        assert per_root.loc[per_root["alignment_bytes"] == 8, "raf"].iloc[0] == pytest.approx(1.0)


def test_bytes_needed_is_the_lists_of_reached_vertices():
    offsets, edges = random_csr(1000, 80, 3)
    root = roots_with_edges(offsets, 1)[0]
    seen = brute_bfs(offsets, edges, root)
    deg = np.diff(offsets.astype(np.int64))
    expected = int(sum(deg[v] for v in seen)) * 4
    table = amplification_table(offsets, edges, 4, roots=[root], alignments=[32], name="g")
    assert table["bytes_needed"].iloc[0] == expected


def test_max_list_bytes_is_the_longest_reached_list():
    offsets, edges = random_csr(1000, 80, 5)
    deg = np.diff(offsets.astype(np.int64))
    for root in roots_with_edges(offsets, 3):
        seen = brute_bfs(offsets, edges, root)
        table = amplification_table(offsets, edges, 8, roots=[root], alignments=[32, 64], name="g")
        assert (table["max_list_bytes"] == max(deg[v] for v in seen) * 8).all()


def test_hand_example():
    # lists [0, 3), [3, 3) and [3, 20) of 8-byte edges: bytes [0, 24), nothing, [24, 160)
    offsets = np.array([0, 3, 3, 20], dtype=np.uint64)
    mask = np.array([True, True, True])
    assert fetched_bytes(offsets, 8, mask, 32) == (160, 32 + 160)  # blocks {0} and {0..4}
    assert fetched_bytes(offsets, 8, mask, 128) == (160, 128 + 256)  # {0} and {0, 1}
    assert fetched_bytes(offsets, 8, np.array([False, True, True]), 128) == (136, 256)
    # a vertex without out-edges never costs a block, even at an unaligned offset
    assert fetched_bytes(offsets, 8, np.array([False, True, False]), 32) == (0, 0)


def test_bad_arguments():
    offsets = np.array([0, 2], dtype=np.uint64)
    with pytest.raises(ValueError, match="alignment"):
        fetched_bytes(offsets, 8, [True], 0)
    with pytest.raises(ValueError, match="edge_bytes"):
        fetched_bytes(offsets, 3, [True], 32)
    with pytest.raises(ValueError, match="expanded_mask"):
        fetched_bytes(offsets, 8, [True, False], 32)
    with pytest.raises(ValueError, match="root 5"):
        reached(out_edge_graph(offsets, np.array([0, 0], dtype=np.uint32)), 5)


def test_cli(tmp_path):
    offsets, edges = random_csr(500, 40, 4, dtype=np.uint64)
    write_csr(tmp_path / "g.csr", offsets, edges)
    roots = roots_with_edges(offsets, 3)
    (tmp_path / "roots.txt").write_text("".join(f"{r}\n" for r in roots))
    out = tmp_path / "amp" / "g.w8.csv"
    cmd = [
        sys.executable,
        "-m",
        "model.amplification",
        "--graph",
        tmp_path / "g.csr",
        "--name",
        "g",
        "--roots",
        tmp_path / "roots.txt",
        "--count",
        "2",
        "--alignments",
        "32,128,4096",
        "--out",
        out,
    ]
    res = subprocess.run([str(c) for c in cmd], cwd=REPO, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    table = pd.read_csv(out)
    assert list(table.columns) == AMPLIFICATION_COLUMNS
    assert table["root"].tolist() == [roots[0]] * 3 + [roots[1]] * 3 and set(table["edge_bytes"]) == {8}
    expected = amplification_table(offsets, edges, 8, roots[:2], [32, 128, 4096], "g")
    pd.testing.assert_frame_equal(table, expected, check_dtype=False)
    res = subprocess.run(
        [str(c) for c in cmd[:-4] + ["--alignments", "32,x", "--out", out]], cwd=REPO, capture_output=True, text=True
    )
    assert res.returncode == 2 and "--alignments" in res.stderr
    assert not table["raf"].isna().any()
