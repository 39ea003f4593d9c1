"""The link ladder (issue 24, model/link_ladder.py): every algorithm predicted on every rung from a graph file alone,
each trace derived once, refusals with their reason, bad input in one line (CPU only, tiny graphs)."""

import json

import pandas as pd
import pytest

from model import graph_predict as gp
from model import link_ladder
from tests.graphs import write_directed, write_generated

TWO = "pcie3-x16,pcie4-x16"


def _graph(tmp_path, name="k8", checksum=None):
    from emogi.csr import describe, read_csr

    path = write_generated(tmp_path / f"{name}.w8.csr", "kron", 8)
    meta = describe(read_csr(path))
    if checksum:
        meta["checksum"] = checksum
    path.with_suffix(".json").write_text(json.dumps(meta))
    return path


def _run(argv, capsys):
    status = link_ladder.main(argv)
    return status, capsys.readouterr().err


def test_every_algorithm_on_every_rung_and_faster_on_a_wider_link(tmp_path, capsys):
    path, out = _graph(tmp_path), tmp_path / "ladder.csv"
    status, _ = _run(["--graph-file", str(path), "--presets", TWO, "--out", str(out)], capsys)
    assert status == 0
    t = pd.read_csv(out)
    assert list(t.columns) == link_ladder.COLUMNS
    assert t["refused"].isna().all()
    want = {(a, v, p) for a, vs in link_ladder.VARIANTS.items() for v in vs for p in TWO.split(",")}
    assert set(zip(t["algorithm"], t["variant"], t["preset"], strict=True)) == want and len(t) == len(want)
    assert (t["rung"] == "PCIe 3.0, preset (spec)").sum() == len(want) / 2
    for _, cell in t.groupby(["algorithm", "variant"]):
        gen3, gen4 = (cell[cell["preset"] == p].iloc[0] for p in TWO.split(","))
        assert gen3["floor_ms"] == gen4["floor_ms"] and gen3["D_bytes"] == gen4["D_bytes"]
        assert gen4["predicted_ms"] <= gen3["predicted_ms"]
        assert cell["speedup_vs_slowest"].min() == pytest.approx(1)
        assert gen4["speedup_vs_slowest"] == pytest.approx(gen3["predicted_ms"] / gen4["predicted_ms"])
    # where W binds on both rungs, the link time halves with W doubled (12 -> 24 GB/s) and the total falls
    bound = t.pivot_table(index=["algorithm", "variant"], columns="preset", values="bound", aggfunc="first")
    w_bound = bound[(bound["pcie3-x16"] == "W") & (bound["pcie4-x16"] == "W")].index
    assert len(w_bound) > 0
    for algorithm, variant in w_bound:
        cell = t[(t["algorithm"] == algorithm) & (t["variant"] == variant)].set_index("preset")
        assert cell.loc["pcie4-x16", "transfer_ms"] == pytest.approx(cell.loc["pcie3-x16", "transfer_ms"] / 2)
        assert cell.loc["pcie4-x16", "predicted_ms"] < cell.loc["pcie3-x16", "predicted_ms"]


def test_each_trace_is_derived_once_whatever_the_rungs(tmp_path, monkeypatch, capsys):
    calls = []
    derive = gp.derive_trace

    def counting(graph, algorithm, variant, root=None):
        calls.append((algorithm, variant))
        return derive(graph, algorithm, variant, root)

    monkeypatch.setattr(gp, "derive_trace", counting)
    paths = [_graph(tmp_path, "a"), _graph(tmp_path, "b")]
    argv = [a for p in paths for a in ("--graph-file", str(p))]
    status, _ = _run([*argv, "--presets", "pcie3-x16,pcie4-x16,pcie5-x16", "--out", str(tmp_path / "l.csv")], capsys)
    assert status == 0
    cells = [(a, v) for a, vs in link_ladder.VARIANTS.items() for v in vs]
    assert sorted(calls) == sorted(cells * 2)  # once per graph x algorithm x variant, not per rung
    assert len(pd.read_csv(tmp_path / "l.csv")) == len(cells) * 2 * 3


def test_the_measured_rung_is_labelled_and_refusals_keep_their_reason(tmp_path, capsys):
    path = write_directed(tmp_path / "d8.w8.csr", "kron", 8, transpose=False)
    out = tmp_path / "ladder.csv"
    argv = ["--graph-file", str(path), "--presets", "pcie5-x16,h100-measured", "--algorithm", "bfs,cc"]
    status, err = _run([*argv, "--variant", "bfs=merged-aligned,bogus", "--out", str(out)], capsys)
    assert status == 0
    t = pd.read_csv(out)
    refused = t[t["refused"].notna()].set_index(["algorithm", "variant"])["refused"]
    assert "does not cover bfs/bogus" in refused[("bfs", "bogus")]
    assert "undirected" in refused[("cc", "merged-aligned")] and ("cc", "afforest") in refused.index
    done = t[t["refused"].isna()]
    assert set(done["variant"]) == {"merged-aligned"} and set(done["algorithm"]) == {"bfs"}
    measured = done[done["preset"] == "h100-measured"].iloc[0]
    assert measured["rung"] == link_ladder.MEASURED_HERE and measured["basis"] == "measured here"
    assert measured["W_gbps"] == pytest.approx(55.1431)
    assert "refused" in err


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--presets", "pcie3-x16,pcie9-x16"], "unknown preset 'pcie9-x16'"),
        (["--algorithm", "bfs,dfs"], "unknown algorithm 'dfs'"),
        (["--variant", "bfs"], "write ALGORITHM=VARIANT"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, extra, message):
    out = tmp_path / "ladder.csv"
    status, err = _run(["--graph-file", str(_graph(tmp_path)), *extra, "--out", str(out)], capsys)
    assert status == 2 and message in err
    assert len(err.strip().splitlines()) == 1 and not out.exists()


def test_a_graph_whose_checksum_differs_from_its_metadata_is_refused(tmp_path, capsys):
    path, out = _graph(tmp_path, checksum="0123456789abcdef"), tmp_path / "ladder.csv"
    status, err = _run(["--graph-file", str(path), "--presets", TWO, "--out", str(out)], capsys)
    assert status == 2 and "differs from its metadata" in err
    assert len(err.strip().splitlines()) == 1 and not out.exists()


@pytest.mark.parametrize("term", ["v12", "v16"])
def test_a_judged_term_prices_every_rung_from_one_fit_and_judges_the_measured_one(term, tmp_path, capsys, monkeypatch):
    """--term v12 or v16: one derivation and one fit per graph (graph_predict_v12.on_links); the measured rung is
    the fit's own link (v16's read from its packed passes), so its row is the what-if's own-link prediction; the
    spec rungs share its floor."""
    from model import graph_predict_v12 as gp12

    calls = []
    on_links = gp12.on_links
    monkeypatch.setattr(gp12, "on_links", lambda *a, **k: calls.append(a[0]) or on_links(*a, **k))
    path, out = _graph(tmp_path), tmp_path / "ladder.csv"
    argv = ["--graph-file", str(path), "--term", term, "--presets", f"{TWO},{link_ladder.MEASURED}"]
    status, err = _run([*argv, "--algorithm", "pagerank,bfs", "--out", str(out)], capsys)
    assert status == 0, err
    assert len(calls) == 1
    t = pd.read_csv(out)
    assert list(t.columns) == link_ladder.COLUMNS and (t["term"] == term).all() and t["refused"].isna().all()
    own_link = gp12.fit_link(term)
    assert (t.loc[t["preset"] == link_ladder.MEASURED, "W_gbps"] == own_link.W_gbps).all()
    assert "tmp" not in own_link.source and gp12.FITS[term].archive.name in own_link.source
    own = gp12.predictions(path, ("pagerank", "bfs"), term=term).query("mode == 'zerocopy'")
    measured = t[t["preset"] == link_ladder.MEASURED].merge(own, on=["algorithm", "variant"], suffixes=("", "_own"))
    assert len(measured) == len(own) == 4
    assert measured["predicted_ms"].to_numpy() == pytest.approx(measured["predicted_ms_own"].to_numpy(), rel=1e-12)
    for _, cell in t.groupby(["algorithm", "variant"]):
        assert cell["floor_ms"].nunique() == 1
        gen3, gen4 = (cell[cell["preset"] == p].iloc[0] for p in TWO.split(","))
        assert gen4["predicted_ms"] < gen3["predicted_ms"]


def test_term_v12_refuses_a_variant_it_does_not_cover_with_its_reason(tmp_path, capsys):
    path, out = _graph(tmp_path), tmp_path / "ladder.csv"
    argv = ["--graph-file", str(path), "--term", "v12", "--presets", TWO, "--algorithm", "bfs"]
    status, err = _run([*argv, "--variant", "bfs=merged-aligned,frontier", "--out", str(out)], capsys)
    assert status == 0, err
    t = pd.read_csv(out)
    refused = t[t["refused"].notna()]
    assert list(refused["variant"]) == ["frontier"] and refused["refused"].iloc[0].startswith("term v12 covers bfs")
    assert (t[t["variant"] == "merged-aligned"]["refused"].isna()).all()
