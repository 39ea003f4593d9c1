"""Issue 21 item 6a's measurement without a GPU: the bytes a bottom-up BFS step reads made exact in recorded
traces (emogi/trace_exact.py), hottest-first ranked by what a read is worth to its reader (emogi/trace_hotness.py
WEIGHTS), c from those bytes (model/oom_simulate.py) and c paired with its own part (figures/oom_data.py), on
hand-built and small generated graphs whose answers are known."""

import numpy as np
import pandas as pd
import pytest

from emogi import csr
from emogi.trace_derive import bfs_trace
from emogi.trace_exact import exact_reads, needs_parts
from emogi.trace_hotness import FIXED, MOVE_ALIGN_ENTRIES, hot_placement, hotness, weight_of, write_hotness
from emogi.traces import Trace, TraceError, graph_checksum
from figures import oom_data
from model import oom_simulate
from tests.graphs import write_generated, write_lists


@pytest.fixture(scope="module")
def kron(tmp_path_factory):
    path = write_generated(tmp_path_factory.mktemp("g") / "kron.csr", "kron", 9, seed=5)
    return csr.read_csr(path)


def _root(g):
    return int(np.argmax(np.diff(np.asarray(g.offsets))))


def as_recorded(trace: Trace) -> Trace:
    """What the GPU records of a derived trace: the same launches and lists, each read list counted whole and a
    bottom-up step marked partial (emogi.trace_recording: approximate)."""
    r = Trace(trace.graph, trace.checksum, trace.num_vertices, trace.num_edges, trace.algorithm, trace.variant,
              trace.edge_bytes, trace.weight_bytes, trace.root, source="recorded",
              fidelity="approximate" if any("bottom-up" in x for x in trace.labels) else "exact")  # fmt: skip
    for i in range(trace.num_launches):
        r.add_launch(trace.mask(i), trace.labels[i])
    return r


# --- exact parts --------------------------------------------------------------------------------------------
def test_a_recorded_bottom_up_step_gets_the_lines_it_read(kron):
    derived = bfs_trace(kron, _root(kron), "direction-optimizing", name="kron")
    assert derived.parts, "the small kron graph goes bottom-up"
    recorded = as_recorded(derived)
    assert needs_parts(recorded) and not needs_parts(derived)
    exact = exact_reads(recorded, kron)
    assert exact.fidelity == "exact" and exact.source == "recorded" and "emogi.trace_exact" in exact.note
    assert exact.labels == recorded.labels and sorted(exact.parts) == sorted(derived.parts)
    for i, (first, count) in derived.parts.items():
        assert np.array_equal(exact.parts[i][0], first) and np.array_equal(exact.parts[i][1], count)
    # the bytes: whole lists in the recording, the lines up to the first parent here
    offsets = np.asarray(kron.offsets, dtype=np.int64)
    whole, (_,) = oom_simulate.served_bytes(recorded, offsets, [np.zeros(kron.num_vertices, bool)])
    read, (_,) = oom_simulate.served_bytes(exact, offsets, [np.zeros(kron.num_vertices, bool)])
    assert read < whole


def test_other_traces_come_back_as_they_are(kron):
    for variant in ("merged-aligned", "naive"):
        t = as_recorded(bfs_trace(kron, _root(kron), variant, name="kron"))
        assert exact_reads(t, kron) is t


def test_a_recording_the_cpu_does_not_reproduce_is_refused(kron):
    recorded = as_recorded(bfs_trace(kron, _root(kron), "direction-optimizing", name="kron"))
    other = as_recorded(recorded)  # one list more in the last launch
    mask = other.mask(other.num_launches - 1)
    mask[np.flatnonzero(~mask & (np.diff(np.asarray(kron.offsets)) > 0))[0]] = True
    other.bits[-1] = np.packbits(mask)
    with pytest.raises(TraceError, match="reads other lists on the CPU than recorded"):
        exact_reads(other, kron)
    relabelled = as_recorded(recorded)
    relabelled.labels = ["level x"] * relabelled.num_launches
    with pytest.raises(TraceError, match="are not the recording's"):
        exact_reads(relabelled, kron)


# --- what a read is worth -------------------------------------------------------------------------------------
@pytest.fixture
def hand(tmp_path):
    """Degrees 3, 0, 5, 1, 2 (8-byte ids): one warp."""
    lists = {0: [1, 2, 3], 2: [0, 1, 3, 4, 0], 3: [2], 4: [0, 2]}
    return csr.read_csr(write_lists(tmp_path / "hand.csr", lists, 5), verify_checksum=False)


def test_bytes_weigh_the_entries_read_per_entry_of_the_list(hand):
    t = Trace("hand", graph_checksum(hand), 5, 11, "bfs", "direction-optimizing", 8)
    t.add_launch(np.isin(np.arange(5), [0, 2]), "level 0 top-down")
    t.add_launch(np.isin(np.arange(5), [2, 4]), "level 1 bottom-up", first=[0, 0], count=[1, 2])
    # v0: 3 of 3 entries; v2: 5 + 1 of 5; v4: 2 of 2; v3 never read
    want = np.rint(np.array([1, 0, 6 / 5, 0, 1]) * FIXED).tolist()
    assert hotness(t, hand.offsets, "bytes").tolist() == want
    assert hotness(t, hand.offsets).tolist() == [1, 0, 2, 0, 1]  # launches, as before
    with pytest.raises(ValueError, match="hotness weight must be one of"):
        hotness(t, hand.offsets, "pages")


def test_warp_steps_rank_a_warps_lists_by_what_keeping_them_longest_first_saves(hand, tmp_path):
    t = Trace("hand", graph_checksum(hand), 5, 11, "bfs", "naive", 8)
    t.add_launch(np.ones(5, bool), "level 0")
    # one warp, lists 5 (v2), 3 (v0), 2 (v4), 1 (v3): keeping v2 saves 2 steps for 5 entries, v2 and v0 3 for 8,
    # and v4 4 for 10, all four 5 for 11: the best prefix holding each list is all four, 5/11 per entry
    assert hotness(t, hand.offsets, "warp-steps").tolist() == [round(FIXED * 5 / 11), 0, *[round(FIXED * 5 / 11)] * 3]
    # a hub beside short lists: keeping the hub alone saves 98 of its 100 steps; the short lists ride with it
    lists = {0: [1, 2] * 50, 1: [0], 2: [0, 1]}
    g = csr.read_csr(write_lists(tmp_path / "hub.csr", lists, 3), verify_checksum=False)
    t = Trace("hub", graph_checksum(g), 3, 103, "bfs", "naive", 8)
    t.add_launch(np.ones(3, bool), "level 0")
    assert hotness(t, g.offsets, "warp-steps").tolist() == [round(FIXED * 98 / 100), *[round(FIXED * 100 / 103)] * 2]
    t2 = Trace("hub", graph_checksum(g), 3, 103, "bfs", "naive", 8)
    t2.add_launch(np.array([False, True, True]), "level 1")  # without the hub: 2 - 1 steps for 2, 2 for 3
    assert hotness(t2, g.offsets, "warp-steps").tolist() == [0, round(FIXED * 2 / 3), round(FIXED * 2 / 3)]


def test_lists_of_equal_length_share_their_steps_and_warps_are_apart(tmp_path):
    # vertices 0, 1 (warp 0) of 4 entries each; vertex 32 (warp 1) of 4 entries alone
    lists = {0: [1, 2, 3, 4], 1: [0, 2, 3, 4], 32: [0, 1, 2, 3]}
    g = csr.read_csr(write_lists(tmp_path / "w.csr", lists, 40), verify_checksum=False)
    t = Trace("w", graph_checksum(g), 40, 12, "bfs", "naive", 8)
    t.add_launch(np.isin(np.arange(40), [0, 1, 32]), "level 0")
    counts = hotness(t, g.offsets, "warp-steps")
    assert counts[[0, 1, 32]].tolist() == [FIXED // 2, FIXED // 2, FIXED]  # 4 steps shared; 4 steps alone
    # hottest-first then keeps the lone list first: it alone removes its warp's remote steps
    assert hot_placement(counts, g.offsets, 8, (MOVE_ALIGN_ENTRIES + 4) * 8).tolist() == [32]


def test_each_reader_has_its_weight():
    assert weight_of("direction-optimizing") == "bytes" and weight_of("naive") == "warp-steps"
    assert {weight_of(v) for v in ("merged", "merged-aligned", "frontier", "gauss-seidel")} == {"launches"}


# --- c of the bytes read, paired with its part ---------------------------------------------------------------
def test_c_of_a_recorded_direction_optimizing_run_counts_the_bytes_read(kron, tmp_path, monkeypatch):
    derived = bfs_trace(kron, _root(kron), "direction-optimizing", name="kron")
    recorded = as_recorded(derived)
    monkeypatch.setattr(oom_simulate, "load_source", lambda source, graph: recorded)
    counts = hotness(derived, kron.offsets, "bytes")
    write_hotness(counts, tmp_path / "hot" / "direction-optimizing.u32")
    capacity = (MOVE_ALIGN_ENTRIES + kron.num_edges // 4) * 8
    runs = pd.DataFrame([{"mode": "auto", "variant": "direction-optimizing", "root": _root(kron), "time_ms": 1.0,
                          "regime": "budget", "budget_fraction": 0.25, "auto_order": "hottest-first",
                          "uvm_sublaunches": np.nan, "list_capacity_bytes": capacity, "date": "2026-11-27T10:00:00Z"},
                         {"mode": "zerocopy", "variant": "direction-optimizing", "root": _root(kron),
                          "time_ms": 2.0, "regime": "budget", "budget_fraction": 0.25, "auto_order": np.nan,
                          "uvm_sublaunches": np.nan, "list_capacity_bytes": np.nan,
                          "date": "2026-11-27T10:00:00Z"}])  # fmt: skip
    _, rows = oom_simulate.simulate_trace(None, kron.path, runs, None, tmp_path / "hot", True)
    keep = np.zeros(kron.num_vertices, bool)
    keep[hot_placement(counts, kron.offsets, 8, capacity)] = True
    total, (served,) = oom_simulate.served_bytes(derived, np.asarray(kron.offsets), [keep])
    assert rows[0]["served_fraction"] == pytest.approx(served / total)
    assert rows[0]["date"] == "2026-11-27T10:00:00Z"


def test_c_pairs_with_its_own_part_and_undated_rows_stand_for_the_rest():
    """Two parts of one cell (placeholder numbers): the second's c rows carry its date, the first's none."""
    base = {"graph": "g", "algorithm": "bfs", "variant": "naive", "edge_bytes": 8, "root": 1, "regime": "budget"}
    oom = pd.DataFrame([
        {**base, "date": d, "mode": m, "budget_fraction": 0.5 if m == "auto" else 0.25, "time_ms": t,
         "auto_order": "hottest-first" if m == "auto" else np.nan}
        for d in ("A", "B") for m, t in (("zerocopy", 10.0), ("auto", 8.0 if d == "A" else 5.0))
    ] + [{**base, "date": "A", "mode": "device", "regime": "fits", "budget_fraction": np.nan,
          "time_ms": 4.0}])  # fmt: skip
    cell = {k: base[k] for k in ("graph", "algorithm", "variant", "edge_bytes", "root")}
    placement = pd.DataFrame([{**cell, "budget_fraction": 0.5, "auto_order": "hottest-first", "served_fraction": 0.2},
                              {**cell, "budget_fraction": 0.5, "auto_order": "hottest-first", "served_fraction": 0.5,
                               "date": "B"}])  # fmt: skip
    g = oom_data.placement_gains(oom, placement).set_index("part")
    assert g.loc["A", "served_fraction"] == pytest.approx(0.2) and g.loc["B", "served_fraction"] == pytest.approx(0.5)
    assert g.loc["B", "of_bound"] == pytest.approx(2.0 / 2.0) and g.loc["A", "of_bound"] == pytest.approx(1.25 / 1.25)
    # every list in GPU memory: 4 ms, from the part that measured it, for the supplement too
    assert g.loc["A", "of_device"] == pytest.approx(4 / 8) and g.loc["B", "of_device"] == pytest.approx(4 / 5)


def write_recording(trace: Trace, graph, path):
    """`trace` in the GPU's recorded layout (kernels/include/emogi/trace_file.hpp), bottom-up steps marked partial."""
    import json
    import struct

    partial = "bottom-up: a list is read up to the line of the first parent"
    launches = [{"label": x, "first": 0, "count": None, "partial": partial if "bottom-up" in x else None}
                for x in trace.labels]  # fmt: skip
    meta = {"format": "emogi-list-reads", "version": 1, "graph": trace.graph, "checksum": trace.checksum,
            "num_vertices": graph.num_vertices, "num_edges": graph.num_edges, "algorithm": trace.algorithm,
            "variant": trace.variant, "mode": "zerocopy", "edge_bytes": 8, "weight_bytes": 0, "root": trace.root,
            "sub_launches": 1, "uvm_capacity": 0, "launches": launches}  # fmt: skip
    words = -(-graph.num_vertices // 32)
    with open(path, "wb") as f:
        for i in range(trace.num_launches):
            bits = np.packbits(trace.mask(i), bitorder="little")
            f.write(np.pad(bits, (0, words * 4 - len(bits))).tobytes())
        text = json.dumps(meta).encode()
        f.write(text + struct.pack("<Q8s", len(text), b"EMOGITR1"))


def test_hot_counts_of_recordings_by_each_readers_weight(kron, tmp_path, monkeypatch):
    from emogi import oom_measure
    from emogi.trace_hotness import read_hotness

    roots = [_root(kron), int(np.argsort(np.diff(np.asarray(kron.offsets)))[-2])]
    traces = tmp_path / "t"
    traces.mkdir()
    want = {}
    for variant in ("direction-optimizing", "naive", "merged-aligned"):
        derived = [bfs_trace(kron, r, variant, name="kron") for r in roots]
        for r, t in zip(roots, derived, strict=True):
            write_recording(t, kron, traces / f"kron.bfs.{variant}.zerocopy.w8.r{r}.trace")
        want[variant] = sum(hotness(t, kron.offsets, weight_of(variant)).astype(np.int64) for t in derived)
    monkeypatch.setattr(oom_measure, "run", lambda *args: None)  # no binary: the traces are there already
    a = oom_measure.argparse.Namespace(graph=kron.path, algorithm="bfs", trace_dir=traces, jobs=2,
                                       variants="direction-optimizing,naive,merged-aligned")  # fmt: skip
    folder = oom_measure.hot_file("b", [], None, 0, tmp_path / "hot", a)
    for variant, counts in want.items():
        assert read_hotness(folder / f"{variant}.u32", kron.num_vertices).tolist() == counts.tolist(), variant
    # the recorded bottom-up steps were made exact: by whole lists the counts would differ
    whole = sum(hotness(as_recorded(bfs_trace(kron, r, "direction-optimizing")), kron.offsets, "bytes") for r in roots)
    assert whole.tolist() != want["direction-optimizing"].tolist()


def test_a_part_ranked_before_the_weights_is_ranked_by_launches_again(kron, tmp_path):
    runs = pd.DataFrame([{"algorithm": "bfs", "variant": v, "graph": "kron", "mode": "zerocopy"}
                         for v in ("direction-optimizing", "naive")])  # fmt: skip
    roots = [_root(kron)]
    from emogi.trace_hotness import read_hotness

    for weight, folder in ((None, tmp_path / "now"), ("launches", tmp_path / "then")):
        oom_simulate.derived_hot_counts(kron.path, runs, roots, folder, weight)
    for v in ("direction-optimizing", "naive"):
        t = bfs_trace(kron, roots[0], v, name="kron")
        now, then = (read_hotness(tmp_path / f / f"{v}.u32", kron.num_vertices) for f in ("now", "then"))
        assert now.tolist() == hotness(t, kron.offsets, weight_of(v)).tolist()
        assert then.tolist() == hotness(t, kron.offsets).tolist() != now.tolist()
