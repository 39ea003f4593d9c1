"""Access traces (emogi/traces.py, emogi/trace_derive.py) against brute-force counts on small graphs."""

from collections import deque

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra

from emogi import csr
from emogi.trace_derive import bfs_trace, cc_trace, derive, pagerank_trace, sssp_trace
from emogi.traces import (
    TRACE_SUMMARY_COLUMNS,
    UNITS,
    Trace,
    TraceError,
    launch_counts,
    load_trace,
    save_trace,
    summary_table,
    touched_units,
    weights_base,
)
from model.pagerank_sweeps import push_pagerank
from tests.graphs import scipy_matrix, write_generated, write_lists, write_undirected


@pytest.fixture(scope="module", params=[("kron", np.uint64), ("urand", np.uint32)], ids=["kron8", "urand4"])
def small(request, tmp_path_factory):
    kind, dtype = request.param
    path = write_generated(tmp_path_factory.mktemp("g") / f"{kind}.csr", kind, 9, dtype=dtype, seed=5)
    return csr.read_csr(path)


def _lists(g):
    off = np.asarray(g.offsets, dtype=np.int64)
    return [np.asarray(g.edges[off[v] : off[v + 1]], dtype=np.int64) for v in range(g.num_vertices)]


def _brute_levels(g, root):
    lists, depth = _lists(g), {root: 0}
    queue, levels = deque([root]), []
    while queue:
        v = queue.popleft()
        while len(levels) <= depth[v]:
            levels.append(set())
        levels[depth[v]].add(v)
        for u in lists[v]:
            if int(u) not in depth:
                depth[int(u)] = depth[v] + 1
                queue.append(int(u))
    return levels


def _brute_units(trace, g, i):
    """Every byte of every entry launch i reads, as unit sets (edges, then weights at their base)."""
    off = np.asarray(g.offsets, dtype=np.int64)
    sel = np.flatnonzero(trace.mask(i))
    parts = trace.parts.get(i)
    addrs = []
    for k, v in enumerate(sel):
        b, e = off[v], off[v + 1]
        if parts is not None:
            b = min(b + parts[0][k], e)
            e = min(b + parts[1][k], e)
        for pos in range(b, e):
            addrs.append((pos * trace.edge_bytes, trace.edge_bytes))
            if trace.weight_bytes:
                addrs.append((weights_base(trace) + pos * trace.weight_bytes, trace.weight_bytes))
    counts = {name: len({(a + k) // unit for a, w in addrs for k in range(w)}) for name, unit in UNITS.items()}
    return counts, sum(w for _, w in addrs)


def test_bfs_trace_is_the_level_frontiers(small):
    root = int(np.argmax(np.diff(np.asarray(small.offsets))))
    trace = bfs_trace(small, root, "merged-aligned", name="g")
    levels = _brute_levels(small, root)
    assert trace.num_launches == len(levels)
    for i, level in enumerate(levels):
        assert set(np.flatnonzero(trace.mask(i)).tolist()) == level
    assert trace.fidelity == "exact" and trace.root == root


def test_counts_match_brute_force(small):
    root = int(np.flatnonzero(np.diff(np.asarray(small.offsets)))[3])
    for trace in (
        bfs_trace(small, root, name="g"),
        sssp_trace(small, root, name="g"),
        cc_trace(small, "afforest", name="g"),
        bfs_trace(small, root, "direction-optimizing", name="g"),
    ):
        for i in range(trace.num_launches):
            counts, nbytes = _brute_units(trace, small, i)
            got = launch_counts(trace, small.offsets, i)
            assert {k: got[k] for k in UNITS} == counts, (trace.algorithm, trace.variant, i)
            assert got["bytes_needed"] == nbytes
            for name, unit in UNITS.items():
                if unit >= 4096:
                    assert int(touched_units(trace, small.offsets, i, unit).sum()) == counts[name]


def test_direction_optimizing_bottom_up_stops_at_the_first_parent(small):
    root = int(np.argmax(np.diff(np.asarray(small.offsets))))
    trace = bfs_trace(small, root, "direction-optimizing", name="g")
    levels = _brute_levels(small, root)
    lists, per_line = _lists(small), 128 // small.index_bytes
    off = np.asarray(small.offsets, dtype=np.int64)
    assert trace.num_launches == len(levels)
    assert any("bottom-up" in label for label in trace.labels)  # the small kron graph switches
    seen = set()
    for i, level in enumerate(levels):
        seen |= level
        if "bottom-up" not in trace.labels[i]:
            assert set(np.flatnonzero(trace.mask(i)).tolist()) == level
            continue
        sel = np.flatnonzero(trace.mask(i))
        assert set(sel.tolist()) == {v for v in range(small.num_vertices) if v not in seen and len(lists[v])}
        for k, v in enumerate(sel):
            hits = [j for j, u in enumerate(lists[v]) if int(u) in level]
            if hits:  # lines are aligned in the edge array, not in the list
                want = min(len(lists[v]), ((off[v] + hits[0]) // per_line + 1) * per_line - off[v])
            else:
                want = len(lists[v])
            assert trace.parts[i][1][k] == want


def test_sssp_jacobi_settles_on_the_true_distances(small):
    root = int(np.flatnonzero(np.diff(np.asarray(small.offsets)))[0])
    for variant in ("merged-aligned", "frontier"):
        trace = sssp_trace(small, root, variant, name="g")
        assert set(np.flatnonzero(trace.mask(0)).tolist()) == {root}
        assert trace.fidelity == "approximate" and trace.weight_bytes == 4
    # Jacobi Bellman-Ford reads a vertex's list in launch k iff its k-hop-bounded distance fell at k - 1:
    # replay it by brute force and check the distances it ends with against scipy's.
    lists, weights = _lists(small), np.asarray(small.weights, dtype=np.int64)
    off = np.asarray(small.offsets, dtype=np.int64)
    dist = {root: 0}
    trace = sssp_trace(small, root, name="g", wave=0)
    for i in range(trace.num_launches):
        active = set(np.flatnonzero(trace.mask(i)).tolist())
        new = dict(dist)
        for v in active:
            for j, u in enumerate(lists[v]):
                cand = dist[v] + weights[off[v] + j]
                if cand < new.get(int(u), np.inf):
                    new[int(u)] = cand
        changed = {u for u in new if new[u] < dist.get(u, np.inf)}
        if i + 1 < trace.num_launches:
            assert set(np.flatnonzero(trace.mask(i + 1)).tolist()) == changed
        dist = new
    truth = dijkstra(scipy_matrix(small.path, weighted=True), indices=root)
    assert all(truth[u] == d for u, d in dist.items())
    assert np.isinf(truth).sum() == small.num_vertices - len(dist)


def test_cc_label_propagation_against_brute_force(small):
    trace = cc_trace(small, "merged-aligned", name="g", wave=0)
    lists = _lists(small)
    label = list(range(small.num_vertices))
    active = set(range(small.num_vertices))
    for i in range(trace.num_launches):
        assert set(np.flatnonzero(trace.mask(i)).tolist()) == active
        new = list(label)
        for v in active:
            for u in lists[v]:
                low = min(label[v], label[int(u)])
                new[int(u)] = min(new[int(u)], low)
                new[v] = min(new[v], low)
        active = {x for x in range(small.num_vertices) if new[x] < label[x]}
        label = new
    assert not active


def test_waves_end_where_jacobi_ends_in_fewer_reads(small):
    root = int(np.flatnonzero(np.diff(np.asarray(small.offsets)))[0])
    degree = np.diff(np.asarray(small.offsets, dtype=np.int64))
    for make in (lambda w: sssp_trace(small, root, name="g", wave=w), lambda w: cc_trace(small, name="g", wave=w)):
        jacobi, waves = make(0), make(16)
        reads = [sum(int(degree[t.mask(i)].sum()) for i in range(t.num_launches)) for t in (jacobi, waves)]
        assert waves.num_launches <= jacobi.num_launches and reads[1] <= reads[0]
        assert np.array_equal(waves.mask(0), jacobi.mask(0))


def test_afforest_reads_samples_then_the_rest_outside_the_giant(tmp_path):
    # Two components: a path 0..5 (giant) and a triangle 6, 7, 8 whose lists have 2 entries: nothing left to read.
    g = csr.read_csr(
        write_undirected(
            tmp_path / "g.csr", [(i, i + 1) for i in range(5)] + [(6, 7), (7, 8), (8, 6), (9, 10), (9, 11), (9, 12)], 13
        )
    )
    trace = cc_trace(g, "afforest", name="g")
    assert trace.labels == ["sample 0", "sample 1", "finish"]
    assert trace.parts[0][1].tolist() == [1] * int(trace.mask(0).sum())
    # The vote picks the component most of the 1024 positions fall in; only lists longer than 2 outside it remain.
    finish = set(np.flatnonzero(trace.mask(2)).tolist())
    assert finish <= {9}
    assert launch_counts(trace, g.offsets, 0)["lists_read"] == 13


@pytest.mark.parametrize("variant,blocks", [("merged-aligned", 1), ("gauss-seidel", 16)])
def test_pagerank_rounds_match_the_sweep_model(small, variant, blocks):
    trace = pagerank_trace(small, variant, name="g", blocks=blocks)
    model = push_pagerank(small.offsets, small.edges, blocks=blocks)
    degree = np.diff(np.asarray(small.offsets, dtype=np.int64))
    assert trace.num_launches == model["rounds"]
    assert [int(degree[trace.mask(i)].sum()) for i in range(trace.num_launches)] == model["per_round"]


def test_save_load_and_checksum_guard(small, tmp_path):
    trace = derive(small, "cc", "afforest", name="g")
    path = save_trace(trace, tmp_path / "t.npz")
    back = load_trace(path, small)
    assert back.meta() == trace.meta()
    for i in range(trace.num_launches):
        assert np.array_equal(back.mask(i), trace.mask(i))
        assert np.array_equal(back.parts[i][1], trace.parts[i][1])
    table = summary_table(back, small.offsets)
    assert list(table.columns) == TRACE_SUMMARY_COLUMNS and len(table) == trace.num_launches
    other = csr.read_csr(write_lists(tmp_path / "o.csr", {0: [1], 1: [0]}, 2))
    with pytest.raises(TraceError, match=r"does not belong to graph .*checksum") as err:
        load_trace(path, other)
    assert "\n" not in str(err.value)


def test_bad_input_is_refused(small, tmp_path):
    with pytest.raises(TraceError, match="root"):
        bfs_trace(small, small.num_vertices, name="g")
    with pytest.raises(TraceError, match="no CPU derivation"):
        derive(small, "cc", "frontier", name="g")
    with pytest.raises(TraceError, match="source"):
        Trace("g", "0" * 16, 1, 0, "bfs", "naive", 8, source="guessed")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(TraceError, match="not a trace file"):
        load_trace(tmp_path / "junk.npz")


def test_unit_counting_on_random_ranges():
    from emogi.traces import count_units, mark_units

    rng = np.random.default_rng(1)
    cuts = np.sort(rng.choice(200_000, size=400, replace=False))
    start, end = cuts[0::2].astype(np.int64), cuts[1::2].astype(np.int64)
    for unit in (1, 7, 32, 4096, 65536):
        want = {b // unit for s, e in zip(start, end) for b in range(s, e)}
        n, _ = count_units(start, end, unit)
        # the same count in two pieces, carrying the last unit across
        n1, last = count_units(start[:77], end[:77], unit)
        n2, _ = count_units(start[77:], end[77:], unit, last)
        mask = np.zeros(200_000 // unit + 1, dtype=bool)
        mark_units(mask, start, end, unit)
        assert n == n1 + n2 == len(want) == int(mask.sum())
        assert set(np.flatnonzero(mask).tolist()) == want


def test_counts_do_not_depend_on_the_vertex_chunking(small, monkeypatch):
    root = int(np.flatnonzero(np.diff(np.asarray(small.offsets)))[3])
    trace = bfs_trace(small, root, "direction-optimizing", name="g")
    whole = summary_table(trace, small.offsets)
    monkeypatch.setattr("emogi.traces._VERTEX_CHUNK", 7)
    assert summary_table(trace, small.offsets).equals(whole)


def test_command_line(small, tmp_path, capsys):
    from emogi import trace_derive, traces

    out = tmp_path / "t.npz"
    assert (
        trace_derive.main(["--graph", str(small.path), "--algorithm", "cc", "--variant", "afforest", "--out", str(out)])
        == 0
    )
    assert traces.main(["summary", str(out), "--graph", str(small.path), "--out", str(tmp_path / "s.csv")]) == 0
    assert (tmp_path / "s.csv").exists()
    assert (
        trace_derive.main(
            ["--graph", str(small.path), "--algorithm", "cc", "--variant", "frontier", "--out", str(tmp_path / "x.npz")]
        )
        == 1
    )
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: no CPU derivation") and "\n" not in err and not (tmp_path / "x.npz").exists()
