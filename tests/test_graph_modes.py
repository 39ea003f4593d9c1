"""The what-if predictor's uvm (simulated) and streamed modes from a graph file (issue 24): answers known by hand on
a graph whose PageRank reads every list in every launch, and the one-line refusals."""

import json

import pytest

from model import graph_predict as gp
from model.presets import get_preset
from model.uvm_sim import UvmParams
from tests.graphs import write_lists

PARAMETERS = gp.ROOT / "archive" / "graph-predict-zerocopy-2026-11-25" / "parameters.json"
V, K = 2048, 256  # a circulant graph: every vertex has K neighbours, so PageRank's ranks stay uniform
LIST_BYTES = V * K * 8  # 4 MiB of 8-byte ids: two 2 MiB chunks, 1024 pages of 4 KiB


@pytest.fixture(scope="module")
def circulant(tmp_path_factory):
    path = tmp_path_factory.mktemp("modes") / "circ.w8.csr"
    write_lists(path, {v: [(v + j) % V for j in range(1, K + 1)] for v in range(V)}, V, directed=False)
    graph = gp.load_graph(path)
    trace = gp.derive_trace(graph, "pagerank", "merged-aligned")
    w = gp.workload_from_trace(trace, graph.offsets, "merged-aligned")
    assert all(trace.mask(i).all() for i in range(trace.num_launches))  # every launch reads every list
    assert w["bytes_needed"] == trace.num_launches * LIST_BYTES
    return path, graph, trace, w


def test_uvm_migrates_every_chunk_once_at_the_given_costs(circulant):
    # launch 0 faults all 1024 pages (4 batches of 256) in 2 regions and moves the 4 MiB; later launches find
    # everything resident. Time: floor + 4 MiB / 1 GB/s + 4 x 10 us + 2 x 100 us.
    _, graph, trace, w = circulant
    costs = UvmParams(throughput_gbps=1.0, batch_us=10.0, service_us=100.0)
    got = gp.predict_mode(trace, graph, w, "uvm", get_preset(gp.UVM_MACHINE, PARAMETERS), uvm_costs=costs)
    assert (got["migrated_bytes"], got["batches"], got["serviced_chunks"]) == (LIST_BYTES, 4, 2)
    assert got["predicted_ms"] == pytest.approx(w["floor_ms"] + LIST_BYTES / 1e6 + 0.04 + 0.2)


def test_streamed_one_resident_block_copies_the_lists_once(circulant):
    # one block holds every list: copied once at W, then each sweep runs at the floor's rate, so t = bytes / W + floor
    _, graph, trace, w = circulant
    params = get_preset("pcie4-x16")
    got = gp.predict_mode(trace, graph, w, "streamed", params, block_bytes=LIST_BYTES)
    assert (got["block_bytes"], got["blocks"]) == (LIST_BYTES, 1)
    assert got["predicted_ms"] == pytest.approx(LIST_BYTES / (params.W_gbps * 1e6) + w["floor_ms"])


def test_streamed_blocks_beyond_the_buffers_are_copied_every_sweep(circulant):
    # 4 blocks of 1 MiB, 2 buffers, a link so slow that copies bind: each sweep is its 4 copies and the last
    # block's kernel (a quarter of a sweep's work, floor / launches / 4)
    _, graph, trace, w = circulant
    params = get_preset("pcie4-x16").with_overrides(W_gbps=1.0)
    got = gp.predict_mode(trace, graph, w, "streamed", params, block_bytes=LIST_BYTES // 4)
    sweeps = trace.num_launches
    assert got["blocks"] == 4
    assert got["predicted_ms"] == pytest.approx(sweeps * LIST_BYTES / 1e6 + w["floor_ms"] / 4)


def test_whatif_every_mode_says_how_each_row_was_obtained(circulant, capsys):
    from model import whatif

    path = circulant[0]
    argv = ["--preset", "h100-measured", "--parameters", str(PARAMETERS), "--graph-file", str(path)]
    assert whatif.main([*argv, "--algorithm", "pagerank", "--modes", "all", "--json"]) == 0
    rows = {r["mode"]: r for r in json.loads(capsys.readouterr().out)}
    assert list(rows) == ["zerocopy", "device", "uvm", "streamed"]
    assert {m: r["regime"] for m, r in rows.items()} == {
        "zerocopy": "model",
        "device": "model",
        "uvm": "simulated",
        "streamed": "model",
    }
    costs = gp.load_uvm_costs()  # the registered set
    uvm = rows["uvm"]
    want = LIST_BYTES / (costs.throughput_gbps * 1e6) + 4 * costs.batch_us / 1e3 + 2 * costs.service_us / 1e3
    assert uvm["migrated_bytes"] == LIST_BYTES and uvm["migration_ms"] == pytest.approx(want)
    assert uvm["predicted_ms"] == pytest.approx(rows["device"]["floor_ms"] + want)
    assert "registered H100" in uvm["costs"] and rows["streamed"]["block_bytes"] > 0
    # the text table names the regime and what the simulated row's costs are
    assert whatif.main([*argv, "--algorithm", "pagerank", "--modes", "uvm,streamed"]) == 0
    out = capsys.readouterr().out
    assert "simulated" in out and "uvm: simulated (model/uvm_sim.py, cold), registered H100 fault costs" in out
    assert out.strip().splitlines()[-1] == whatif.FLOOR_RECORD  # which floor term answered, and its held-out record


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--algorithm", "bfs", "--modes", "streamed"], "mode streamed does not run bfs merged-aligned"),
        (
            ["--algorithm", "cc", "--variant", "afforest", "--modes", "streamed"],
            "mode streamed does not run cc afforest",
        ),
        (["--algorithm", "pagerank", "--modes", "uvm"], "preset pcie4-x16 has none: use h100-measured"),
        (["--algorithm", "pagerank", "--modes", "zerocopy,hbm"], "unknown mode 'hbm'"),
        (["--algorithm", "pagerank", "--stream-block-bytes", "1M"], "needs a positive size and mode streamed"),
        (["--algorithm", "pagerank", "--modes", "streamed", "--stream-block-bytes", "lots"], "not a size"),
        (
            [
                "--algorithm",
                "pagerank",
                "--variant",
                "gauss-seidel",
                "--modes",
                "streamed",
                "--stream-block-bytes",
                "1K",
            ],
            "a block must hold the longest list",
        ),
    ],
)
def test_whatif_refuses_a_mode_it_cannot_answer_in_one_line(circulant, capsys, extra, message):
    from model import whatif

    assert whatif.main(["--preset", "pcie4-x16", "--graph-file", str(circulant[0]), *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_whatif_uvm_refuses_a_changed_link(circulant, capsys):
    from model import whatif

    argv = ["--preset", "h100-measured", "--parameters", str(PARAMETERS), "--W-gbps", "20"]
    assert whatif.main([*argv, "--graph-file", str(circulant[0]), "--algorithm", "pagerank", "--modes", "uvm"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--W-gbps change its link" in err and len(err.splitlines()) == 1


def test_predict_alone_points_to_the_trace_for_uvm_and_streamed(circulant):
    w = circulant[3]
    with pytest.raises(gp.GraphPredictError, match="needs the trace"):
        gp.predict(w, "uvm", get_preset("pcie4-x16"))
