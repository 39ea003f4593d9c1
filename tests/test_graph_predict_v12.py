"""model/graph_predict_v12.py: a graph file predicted with term v12 as held-out validation v14 fitted it. The asked
graph joins the judgement as one more held-out graph, so the fit, and every prediction of v14's own held-out
cells, are the archived judgement's; the what-if CLI answers with it (`--term v12`) and refuses what it cannot."""

import numpy as np
import pandas as pd
import pytest

from model import graph_predict_v12 as gp12
from model import whatif
from model.holdout import cells_of, read_runs, read_workloads

ARCHIVE = gp12.TERM_ARCHIVE


@pytest.mark.parametrize("graph", ["kron19ef9", "urand19ef13"])
def test_an_asked_graph_gets_the_archived_judgement(graph):
    # a v14 held-out graph asked again, with its archived workloads: the same predictions, to rounding
    cells = cells_of(read_runs(gp12.SESSION), lambda *_: None, gp12.hs13)
    asked = cells[cells["graph"] == graph].assign(measured_ms=np.nan)
    workloads, launches = read_workloads(ARCHIVE / "workloads" / graph)
    info = pd.read_json(gp12.SESSION / "graphs" / f"{graph}.w8.json", typ="series").to_dict()
    mine = gp12.judge_asked(graph, asked, workloads, launches, info)
    judged = pd.read_csv(ARCHIVE / "holdout_cells.csv")
    judged = judged[judged["graph"] == graph]
    keys = ["algorithm", "variant", "mode", "edge_bytes", "root"]
    both = mine.merge(judged, on=keys, suffixes=("", "_archived"))
    assert len(both) == len(judged) == len(mine) > 0
    assert np.allclose(both["predicted_ms"], both["predicted_ms_archived"], rtol=1e-9)


@pytest.fixture(scope="module")
def kron12(tmp_path_factory):
    from graphs import write_generated

    return write_generated(tmp_path_factory.mktemp("gp12") / "kron12.w8.csr", "kron", 12)


def test_whatif_term_v12_answers_every_algorithm(kron12, capsys):
    assert whatif.main(["--term", "v12", "--graph-file", str(kron12), "--json"]) == 0
    rows = pd.read_json(__import__("io").StringIO(capsys.readouterr().out))
    assert set(rows["algorithm"]) == {"bfs", "sssp", "cc", "pagerank"} and set(rows["mode"]) == {"zerocopy", "device"}
    assert (rows["predicted_ms"] > 0).all() and (rows["predicted_ms"] >= rows["floor_ms"]).all()
    assert whatif.main(["--term", "v12", "--graph-file", str(kron12), "--algorithm", "bfs"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == whatif.TERM_V12_RECORD


def test_whatif_term_v12_prices_zero_copy_on_a_preset_link(kron12, capsys):
    # the same floor (GPU work) on every link; zero-copy slower on PCIe 3.0 than on the fit's own H200 link
    answers = {}
    for preset in (None, "pcie3-x16"):
        argv = ["--term", "v12", "--graph-file", str(kron12), "--algorithm", "pagerank", "--json"]
        assert whatif.main(argv + (["--preset", preset] if preset else [])) == 0
        rows = pd.read_json(__import__("io").StringIO(capsys.readouterr().out))
        answers[preset] = rows.set_index(["variant", "mode"])
    own, gen3 = answers[None], answers["pcie3-x16"]
    assert np.allclose(own["floor_ms"], gen3["floor_ms"])
    zc = own.index.get_level_values("mode") == "zerocopy"
    assert (gen3["predicted_ms"][zc] > own["predicted_ms"][zc]).all()
    assert np.allclose(gen3["predicted_ms"][~zc], own["predicted_ms"][~zc])
    # priced again on the fit's own link, the answer is the judgement's
    argv = ["--term", "v12", "--graph-file", str(kron12), "--algorithm", "pagerank", "--json", "--preset",
            "h100-measured", "--parameters", str(gp12.SESSION / "parameters.json")]  # fmt: skip
    assert whatif.main(argv) == 0
    again = pd.read_json(__import__("io").StringIO(capsys.readouterr().out)).set_index(["variant", "mode"])
    assert np.allclose(again["predicted_ms"], own["predicted_ms"], rtol=1e-12)


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--modes", "uvm"], "term v12 answers zerocopy and device"),
        (["--W-gbps", "20"], "--W-gbps with --term v12 need --preset"),
        (["--preset", "no-such-link"], "no-such-link"),
        (["--algorithm", "bfs", "--variant", "naive"], "term v12 covers"),
        (["--profile", "p.csv"], "term v12 needs --graph-file"),
    ],
)
def test_whatif_term_v12_refuses_in_one_line(kron12, capsys, extra, message):
    argv = ["--term", "v12", *(["--graph-file", str(kron12)] if "--profile" not in extra else []), *extra]
    assert whatif.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_gauss_seidel_alone_gets_its_jacobi_mix(kron12):
    # Gauss-Seidel's expected launches mix in its Jacobi (merged-aligned) trace, derived even when not asked
    both = gp12.predictions(kron12, ["pagerank"])
    alone = gp12.predictions(kron12, ["pagerank"], variant="gauss-seidel")
    gs = both[both["variant"] == "gauss-seidel"].reset_index(drop=True)
    assert len(alone) == 2 and np.allclose(alone["predicted_ms"], gs["predicted_ms"])


@pytest.fixture(scope="module")
def directed(tmp_path_factory):
    from emogi.datasets.generators import main as generate

    out = tmp_path_factory.mktemp("gp12d") / "d10.csr"
    assert generate(["--kind", "kron", "--scale", "10", "--directed", "--out", str(out)]) in (0, None)
    return out


def test_a_directed_graph_is_answered_where_it_can_be(directed, capsys):
    assert whatif.main(["--term", "v12", "--graph-file", str(directed), "--algorithm", "bfs,cc"]) == 0
    out = capsys.readouterr().out
    assert "not predicted: cc merged-aligned: graph: CC needs an undirected graph" in out
    assert "not predicted: bfs direction-optimizing" in out and " bfs merged-aligned " in out
    for argv in (["--term", "v12", "--algorithm", "cc"], ["--preset", "pcie4-x16", "--algorithm", "cc"]):
        assert whatif.main([*argv, "--graph-file", str(directed)]) == 2  # nothing left (v12), or refused (v2)
        err = capsys.readouterr().err.strip()
        assert "CC needs an undirected graph" in err and len(err.splitlines()) == 1


def test_an_asked_v16_graph_gets_v16s_archived_judgement(tmp_path):
    """--term v16: v16's held-out kron19ef9 regenerated from its file and asked, with the root its BFS and SSSP cells
    ran from: every 8-byte prediction is the archived judgement's (its critical-path table made from the file)."""
    from graphs import write_registered

    path = write_registered(tmp_path / "kron19ef9.csr", gp12.hs13.GRAPHS["kron19ef9"]["source"])
    mine = gp12.predictions(path, ("bfs", "sssp", "cc", "pagerank"), root=53974, term="v16")
    judged = pd.read_csv(gp12.V16_ARCHIVE / "holdout_cells.csv")
    judged = judged.query("graph == 'kron19ef9' and edge_bytes == 8 and root in (53974, -1)")
    keys = ["algorithm", "variant", "mode"]
    both = mine.merge(judged, on=keys, suffixes=("", "_archived"))
    assert len(both) == len(judged) == len(mine) == 16
    assert np.allclose(both["predicted_ms"], both["predicted_ms_archived"], rtol=1e-9)
    assert mine.attrs["extrapolation"] == ""  # its entries lie within the train graphs'


def test_whatif_term_v16_answers_with_its_record(kron12, capsys):
    assert whatif.main(["--term", "v16", "--graph-file", str(kron12), "--algorithm", "pagerank"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert "term v16" in out[0] and "v16's H200" in out[0]
    assert out[-1] == whatif.TERM_RECORDS["v16"]
    assert out[-2].startswith("extrapolation: ") and "fewer than term v16's train graphs" in out[-2]  # 4 096 vertices
    assert whatif.main(["--term", "v16", "--graph-file", str(kron12), "--mode", "uvm"]) == 2
    assert "term v16 answers zerocopy and device" in capsys.readouterr().err


def test_a_graph_outside_the_train_graphs_entries_is_called_an_extrapolation():
    assert gp12.extrapolation(5_000_000, 3_000_000, 16_000_000, "v16") == ""
    above = gp12.extrapolation(258_669_142, 3_066_682, 16_777_182, "v16")
    assert above.startswith("258,669,142 entries, 15.4x more than term v16's train graphs (3,066,682 to 16,777,182)")
    assert "archive/probe-kron23-h200-2026-11-29" in above
    below = gp12.extrapolation(100_000, 3_000_000, 16_000_000, "v12")
    assert "30.0x fewer than term v12's" in below and "probe" not in below
