"""The UVM simulator (model/uvm_sim.py) on hand-built traces whose answer is known."""

import numpy as np
import pytest

from emogi import csr
from emogi.traces import CHUNK_BYTES, Trace, TraceError, graph_checksum
from model.uvm_sim import BLOCK_BYTES, UvmParams, UvmSimError, lists_per_warp_of, prefetch, simulate

MIB = 1 << 20


def _graph(path, list_entries: int, num_lists: int):
    """Lists of equal length (8-byte ids, all pointing at vertex 0): list v spans bytes [v, v + 1) x length x 8."""
    offsets = np.arange(num_lists + 1, dtype=np.uint64) * np.uint64(list_entries)
    csr.write_csr(path, offsets, np.zeros(num_lists * list_entries, dtype=np.uint64))
    return csr.read_csr(path)


def _trace(g, launches, weight_bytes=0):
    t = Trace("hand", graph_checksum(g), g.num_vertices, g.num_edges, "bfs", "merged-aligned", 8, weight_bytes)
    for sel in launches:
        mask = np.zeros(g.num_vertices, dtype=bool)
        mask[list(sel)] = True
        t.add_launch(mask)
    return t


@pytest.fixture(scope="module")
def chunks16(tmp_path_factory):
    """16 lists of exactly 2 MiB each: list v is chunk v."""
    return _graph(tmp_path_factory.mktemp("g") / "c16.csr", CHUNK_BYTES // 8, 16)


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    """8 regions of 2 MiB made of 128-byte lists (16 entries): 16384 lists per region."""
    return _graph(tmp_path_factory.mktemp("g") / "lines.csr", 16, 8 * 16384)


def test_sweep_larger_than_capacity_faults_every_chunk_every_pass(chunks16):
    trace = _trace(chunks16, [range(16)] * 3)
    for mode, k in (("capped", 16), ("unrestricted", 1)):
        sim = simulate(trace, chunks16, mode, capacity_bytes=8 * CHUNK_BYTES, sub_launches=k)
        assert sim.launches["serviced_chunks"].tolist() == [16, 16, 16], mode
        assert sim.launches["migrated_bytes"].tolist() == [16 * CHUNK_BYTES] * 3
        assert sim.launches["evicted_chunks"].tolist() == [8, 16, 16]
        assert (sim.launches["resident_chunks"] == 8).all()
    assert "extrapolation" in sim.label


def test_eviction_only_at_launch_boundaries_keeps_the_most_recent_chunks(chunks16):
    # The launch holds all 16 while it runs; at its end the 8 read last (highest addresses) stay.
    sim = simulate(_trace(chunks16, [range(16)] * 3), chunks16, "capped", capacity_bytes=8 * CHUNK_BYTES)
    assert sim.launches["serviced_chunks"].tolist() == [16, 8, 8]
    assert sim.launches["evicted_chunks"].tolist() == [8, 8, 8]


def test_working_set_under_capacity_faults_once(chunks16):
    sim = simulate(_trace(chunks16, [range(4)] * 3), chunks16, "capped", capacity_bytes=8 * CHUNK_BYTES)
    assert sim.launches["migrated_bytes"].tolist() == [4 * CHUNK_BYTES, 0, 0]
    assert sim.launches["fault_entries"].tolist() == [4 * 512, 0, 0]
    assert sim.launches["evicted_chunks"].sum() == 0
    cold = simulate(_trace(chunks16, [range(4)] * 3), chunks16)
    assert cold.totals()["migrated_bytes"] == sim.totals()["migrated_bytes"]


def test_sparse_touches_move_one_block_per_region(lines):
    # one 128-byte line per 2 MiB (FACTS.md: stride 2 MiB -> ~64 KiB per touched region)
    sim = simulate(_trace(lines, [range(0, lines.num_vertices, 16384)]), lines)
    t = sim.totals()
    assert t["migrated_bytes"] == 8 * BLOCK_BYTES
    assert (t["fault_entries"], t["batches"], t["serviced_chunks"]) == (8, 1, 8)


@pytest.mark.parametrize("stride_bytes", [4096, 64 << 10])
def test_dense_touches_move_whole_regions(lines, stride_bytes):
    # one line per 4 KiB or per 64 KiB (FACTS.md: the whole buffer moves)
    sim = simulate(_trace(lines, [range(0, lines.num_vertices, stride_bytes // 128)]), lines)
    t = sim.totals()
    assert t["migrated_bytes"] == 16 * MIB
    assert t["fault_entries"] == 16 * MIB // stride_bytes
    assert t["serviced_chunks"] == 8


def test_default_parameters_reproduce_the_microbenchmarks():
    # FACTS.md, 2 GiB managed buffer (1024 regions), one line per stride: 206, 62 and 9.8 ms. Counts per the
    # simulator's rules (checked on 16 MiB above): bytes, fault entries (pages touched), batches, regions.
    p = UvmParams()
    cases = {4096: (2 << 30, 524288, 206.0), 64 << 10: (2 << 30, 32768, 62.0), 2 * MIB: (1024 * BLOCK_BYTES, 1024, 9.8)}
    for stride, (nbytes, entries, want_ms) in cases.items():
        assert p.migration_ms(nbytes, -(-entries // p.batch_entries), 1024) == pytest.approx(want_ms, rel=0.02), stride


def test_prefetch_tree():
    none = np.zeros((1, 32), dtype=bool)

    def faulted(*blocks):
        f = none.copy()
        f[0, list(blocks)] = True
        return f

    assert prefetch(none, faulted(0, 1), 51)[0].nonzero()[0].tolist() == [0, 1]  # 2/4 is not > 51%
    assert prefetch(none, faulted(0, 1, 2), 51)[0].nonzero()[0].tolist() == [0, 1, 2, 3]  # 3/4 is
    assert prefetch(none, faulted(*range(16)), 51)[0].sum() == 16  # half the region: no more
    assert prefetch(none, faulted(*range(17)), 51)[0].sum() == 32  # 17/32 > 51%
    resident = none.copy()
    resident[0, :16] = True
    move = prefetch(resident, faulted(16), 51)[0]  # resident blocks count
    assert move.sum() == 16 and not move[:16].any()


def test_weights_live_in_their_own_chunks(chunks16):
    sim = simulate(_trace(chunks16, [[0]], weight_bytes=4), chunks16)
    t = sim.totals()
    # list 0's ids fill chunk 0; its weights, half as wide, fill half of the first chunk after the edges
    assert t["serviced_chunks"] == 2 and t["migrated_bytes"] == CHUNK_BYTES + CHUNK_BYTES // 2


def test_bad_input_is_refused_in_one_line(chunks16, lines):
    trace = _trace(chunks16, [range(4)])
    for capacity in (0, None, CHUNK_BYTES - 1):
        with pytest.raises(UvmSimError, match="capacity must be at least one 2 MiB chunk") as err:
            simulate(trace, chunks16, "capped", capacity_bytes=capacity)
        assert "\n" not in str(err.value)
    with pytest.raises(TraceError, match="does not belong to graph") as err:
        simulate(trace, lines)
    assert "\n" not in str(err.value)
    with pytest.raises(UvmSimError, match="mode"):
        simulate(trace, chunks16, "oversubscribed", capacity_bytes=CHUNK_BYTES)
    with pytest.raises(UvmSimError, match="sub_launches"):
        simulate(trace, chunks16, sub_launches=0)
    with pytest.raises(UvmSimError, match="throughput"):
        simulate(trace, chunks16, params=UvmParams(throughput_gbps=0))


def test_list_faults_count_every_list_on_a_cold_page(lines, chunks16):
    # 128-byte lists: a cold region read whole is 512 distinct pages, but 16384 lists (warps) fault on them
    sim = simulate(_trace(lines, [range(16384), range(16384)]), lines)
    assert sim.launches["fault_entries"].tolist() == [512, 0]
    assert sim.launches["list_faults"].tolist() == [16384, 0]
    sim = simulate(_trace(chunks16, [range(4)]), chunks16)
    assert sim.totals()["list_faults"] == 4 * 512  # a 2 MiB list spans 512 pages
    # 8 or 32 lists per warp: a warp's lists of one page fault once (32 lists of 128 B are exactly one page)
    for per_warp, want in ((8, 2048), (32, 512)):
        sim = simulate(_trace(lines, [range(16384)]), lines, lists_per_warp=per_warp)
        assert sim.totals()["list_faults"] == want


def test_warp_fault_cost_adds_each_cold_warp_page_pair(lines):
    # 16384 warps fault on 512 cold pages: at 1 us per warp fault the launch costs 16.384 ms more than without
    trace = _trace(lines, [range(16384), range(16384)])
    base = simulate(trace, lines, params=UvmParams())
    dup = simulate(trace, lines, params=UvmParams(warp_fault_us=1.0))
    assert dup.launches["list_faults"].tolist() == [16384, 0]
    extra = (dup.launches["migration_ms"] - base.launches["migration_ms"]).tolist()
    assert extra == pytest.approx([16.384, 0.0])
    assert UvmParams(warp_fault_us=1.0).scaled(2).warp_fault_us == 2.0
    with pytest.raises(UvmSimError, match="overheads >= 0"):
        simulate(trace, lines, params=UvmParams(warp_fault_us=-1))


def test_lists_per_warp_per_launch(lines):
    # The first launch maps a thread per list (32 lists of 128 B: one page per warp), the second a warp per list;
    # the second reads the next region, cold too.
    trace = _trace(lines, [range(16384), range(16384, 32768)])
    sim = simulate(trace, lines, lists_per_warp=[32, 1])
    assert sim.launches["list_faults"].tolist() == [512, 16384]
    with pytest.raises(UvmSimError, match="one per launch"):
        simulate(trace, lines, lists_per_warp=[32])


def test_lists_per_warp_of_follows_the_kernels(lines):
    t = _trace(lines, [range(4)] * 3)
    assert lists_per_warp_of(t) == [1, 1, 1]  # merged-aligned: a warp per list
    t.variant = "naive"
    assert lists_per_warp_of(t) == [32, 32, 32]
    t.algorithm, t.variant, t.labels = "cc", "afforest", ["sample 0", "sample 1", "finish"]
    assert lists_per_warp_of(t) == [32, 32, 1]  # the sample launches take a thread per vertex
