"""The model as a predictor from the graph file alone (issue 24): requests and sectors counted by hand, D and d of a
small traversal, and the what-if CLI on a graph file with no GPU data (presets only)."""

import json

import pytest

from model.link_requests import list_requests
from tests.graphs import write_generated, write_lists


def test_aligned_walks_count_lines_and_share_a_line_between_neighbouring_lists():
    # 8-byte entries; lists [0,3), [3,20), [20,21): bytes [0,24), [24,160), [160,168).
    # Alone: lines 1 + 2 + 1 = 4 requests, sectors 1 + 5 + 1 = 7. List 1's first step (from entry 0, its line's
    # start, to 160) shares line 0 and sector 0 with list 0; list 2 starts in line 1, where list 1's first step
    # ends, but in sector 5, which list 1 does not touch.
    begin, end = [0, 3, 20], [3, 20, 21]
    assert list_requests("merged-aligned", begin, end, 8, share=False) == (4, 7)
    assert list_requests("merged-aligned", begin, end, 8) == (2, 6)


def test_merged_steps_split_lines_when_the_list_starts_mid_line():
    # one list [3, 70) of 8-byte entries: steps [24,280), [280,536), [536,560) (request_count.hpp's walk):
    # lines 3 + 3 + 1 = 7, sectors 9 + 9 + 2 = 20
    assert list_requests("merged", [3], [70], 8) == (7, 20)
    # aligned: lines 0..4 and sectors 0..17 once each
    assert list_requests("merged-aligned", [3], [70], 8) == (5, 18)


def test_naive_reads_a_sector_per_request():
    # 4-byte entries: [0,10) is bytes [0,40) (sectors 0, 1); [10,12) is [40,48) (sector 1): the second list's
    # first sector is not the first list's first sector (its second), so nothing is shared
    assert list_requests("naive", [0, 10], [10, 12], 4) == (3, 3)
    assert list_requests("naive", [0, 1], [1, 2], 4) == (1, 1)  # two lists in one sector, first steps together
    with pytest.raises(ValueError, match="no request rule"):
        list_requests("bogus", [0], [1], 4)


def test_bfs_workload_from_a_small_graph(tmp_path):
    """A star read from its centre: the one launch that reads a list reads 40 entries of 8 bytes (320 B): 3 lines,
    10 sectors. D = 320 B; d = 320 / 3 for merged-aligned, 32 for naive."""
    from model import graph_predict as gp
    from model.presets import get_preset

    path = write_lists(tmp_path / "star.w8.csr", {0: list(range(1, 41))}, 41)
    graph = gp.load_graph(path)
    w = gp.workload(graph, "bfs", "merged-aligned", root=0)
    assert (w["D_bytes"], w["requests"], w["bytes_needed"]) == (320, 3, 320)
    assert w["d_bytes"] == pytest.approx(320 / 3)
    naive = gp.workload(graph, "bfs", "naive", root=0)
    assert (naive["D_bytes"], naive["d_bytes"]) == (320, 32)
    params = get_preset("pcie4-x16")
    t = gp.predict(w, "zerocopy", params)
    assert gp.predict(w, "device", params) == w["floor_ms"] > 0
    assert t > w["floor_ms"]


def _graph_with_meta(tmp_path, checksum=None):
    from emogi.csr import describe, read_csr

    path = write_generated(tmp_path / "k10.w8.csr", "kron", 10)
    meta = describe(read_csr(path))
    if checksum:
        meta["checksum"] = checksum
    (tmp_path / "k10.w8.json").write_text(json.dumps(meta))
    return path


def test_whatif_predicts_every_algorithm_from_a_graph_file(tmp_path, capsys):
    from model import whatif

    path = _graph_with_meta(tmp_path)
    argv = ["--preset", "pcie3-x16", "--graph-file", str(path), "--algorithm", "all", "--json"]
    assert whatif.main(argv) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["algorithm"] for r in rows} == {"bfs", "sssp", "cc", "pagerank"}
    assert {r["mode"] for r in rows} == {"zerocopy", "device"}
    for r in rows:
        assert 0 < r["d_bytes"] <= 128 and r["predicted_ms"] >= r["floor_ms"] > 0
    # a faster link predicts no longer a time
    assert whatif.main(["--preset", "pcie5-x16", "--graph-file", str(path), "--mode", "zerocopy", "--json"]) == 0
    faster = {r["algorithm"]: r["predicted_ms"] for r in json.loads(capsys.readouterr().out)}
    slower = {r["algorithm"]: r["predicted_ms"] for r in rows if r["mode"] == "zerocopy"}
    assert all(faster[a] <= slower[a] for a in faster)


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--algorithm", "triangles"], "does not cover algorithm 'triangles'"),
        (["--algorithm", "cc", "--variant", "frontier"], "does not cover cc/frontier"),
        (["--mode", "hbm"], "unknown mode 'hbm'"),
        (["--mode", "uvm"], "preset pcie4-x16 has none"),  # tests/test_graph_modes.py: the uvm and streamed modes
    ],
)
def test_whatif_graph_file_refuses_what_the_model_does_not_cover(tmp_path, capsys, extra, message):
    from model import whatif

    path = _graph_with_meta(tmp_path)
    assert whatif.main(["--preset", "pcie4-x16", "--graph-file", str(path), *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_whatif_graph_file_refuses_a_checksum_that_differs_from_the_metadata(tmp_path, capsys):
    from model import whatif

    path = _graph_with_meta(tmp_path, checksum="0123456789abcdef")
    assert whatif.main(["--preset", "pcie4-x16", "--graph-file", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "differs from its metadata" in err and len(err.splitlines()) == 1


def test_whatif_refuses_a_preset_without_a_needed_parameter(tmp_path, capsys):
    from model import whatif

    presets = tmp_path / "presets.yaml"
    presets.write_text(
        "bare:\n  W_gbps: 24\n  N_max: 800\n  alignment_bytes: 32\n  max_request_bytes: 128\n  source: t\n"
    )
    path = _graph_with_meta(tmp_path)
    argv = ["--preset", "bare", "--presets-file", str(presets), "--graph-file", str(path)]
    assert whatif.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "L_us must be a positive number" in err and len(err.splitlines()) == 1
