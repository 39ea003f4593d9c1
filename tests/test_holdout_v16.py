"""Issue 24's held-out validation v16 (docs/holdout-v16.md): v15's design (split v13, 25 train graphs measured on the
same H200 as the held-out cells, 3 processes a held-out cell) judged with term v16, whose floor prices Jacobi
PageRank's critical path through the grid order. Its passes are packed (passes.tgz) and each graph's critical-path
table lies beside its workloads; judged again as its commands.sh judges it, it gives the archived tables; its calls
share one GPU; its verdicts are the README's (every algorithm met); term v12 beside it misses by the Jacobi cell; the
workflow judges it (--split v16) and the figure and report section come from a judgement."""

import pandas as pd

from model import holdout_split_v4 as hs4
from model import holdout_split_v13 as hs13
from model import holdout_split_v16 as hs16
from model.critical_path import table_of
from tests.test_holdout_v4 import session  # noqa: F401 (the fixture)
from tests.test_holdout_v13 import HELD, ROOT, check_passes_archive, gpus_of_calls

ARCHIVE_V16 = ROOT / "archive" / "holdout-v16-h200-2026-11-29"
WORKLOADS = ARCHIVE_V16 / "workloads"


def test_split_v16_is_split_v13():
    assert hs16.NAME == "v16" and hs16.GRAPHS is hs13.GRAPHS and hs16.PASSES == hs13.PASSES == 3
    assert {g for g in hs16.GRAPHS if hs16.split_of(g) == hs16.HELD_OUT} == set(HELD)


def test_the_archived_v16_judgement_is_unchanged(tmp_path, monkeypatch):
    """Its packed passes judged with --split v16, each pass with the registered link and with its own, then the
    median over the passes: the archived tables byte for byte. Every algorithm meets both targets."""
    monkeypatch.chdir(ROOT)
    met = {"bfs": True, "cc": True, "pagerank": True, "sssp": True, "all": True}
    check_passes_archive(ARCHIVE_V16, "v16", tmp_path, "0724f05", met, recorded="v16")


def test_term_v12_beside_it_misses_by_the_jacobi_cell():
    """The registered derive's judgement of the same calls with term v12 (split v13): PageRank's worst is Jacobi
    PageRank in device memory on kron19ef13, past 15%; term v16 takes that cell within 10%."""
    v12 = pd.read_csv(ARCHIVE_V16 / "term_v12" / "holdout_cells.csv").query("split == 'held-out'")
    v16 = pd.read_csv(ARCHIVE_V16 / "holdout_cells.csv").query("split == 'held-out'")
    cell = "algorithm == 'pagerank' and variant == 'merged-aligned' and mode == 'device' and graph == 'kron19ef13'"
    worst = v12.loc[v12["error"].abs().idxmax()]
    assert (worst["graph"], worst["variant"], worst["mode"]) == ("kron19ef13", "merged-aligned", "device")
    assert abs(worst["error"]) > 0.15
    assert (v16.query(cell)["error"].abs() < 0.10).all()


def test_the_v16_train_session_and_passes_share_one_gpu():
    count, uuids = gpus_of_calls(ARCHIVE_V16)
    assert count == 4 and uuids == {"GPU-fa65d966-1a89-ca76-d2c9-0538cefd05f2"}


def test_the_v16_workloads_are_v15s_with_critical_tables():
    """The same graph files as v15's (its workloads byte for byte) and a critical-path table beside each."""
    v15 = ROOT / "archive" / "holdout-v15-h200-2026-11-29" / "workloads"
    for f in sorted(WORKLOADS.glob("*/*")):
        if f.name != "critical.csv":
            assert f.read_bytes() == (v15 / f.parent.name / f.name).read_bytes(), f
    assert len(list(WORKLOADS.glob("*/critical.csv"))) == len(list(WORKLOADS.glob("*/workloads.csv"))) == 29


def test_a_critical_table_is_its_graph_files(tmp_path):
    """kron17 regenerated with split v13's arguments gives its archived critical-path table."""
    from graphs import write_registered

    path = write_registered(tmp_path / "kron17.csr", hs13.GRAPHS["kron17"]["source"])
    archived = pd.read_csv(WORKLOADS / "kron17" / "critical.csv", dtype={"checksum": str})
    pd.testing.assert_frame_equal(table_of(path), archived)


def test_a_v16_judgement_without_its_critical_tables_is_refused(tmp_path, capsys, monkeypatch):
    """Workloads without critical.csv: one line naming what is missing, exit 2, nothing written."""
    import shutil
    import tarfile

    from model import holdout

    monkeypatch.chdir(ROOT)
    with tarfile.open(ARCHIVE_V16 / "passes.tgz") as t:
        t.extractall(tmp_path, filter="data")
    for d in WORKLOADS.glob("*"):
        shutil.copytree(d, tmp_path / "w" / d.name, ignore=shutil.ignore_patterns("critical.csv"))
    wdirs = [str(p) for p in sorted((tmp_path / "w").glob("*"))]
    args = ["--split", "v16", "--runs", str(tmp_path / "passes/p1/session"), "--workloads", *wdirs]
    assert holdout.main([*args, "--out-dir", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no critical-path table of" in err[0]
    assert not (tmp_path / "out").exists()


def test_the_v16_figure_and_section_from_a_judgement(session, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    from figures import fig_holdout_v16
    from tests.test_holdout_v4 import judged_figure

    monkeypatch.setattr(hs13, "GRAPHS", hs4.GRAPHS)  # the fixture's tiny registry (split v16's is v13's)
    monkeypatch.setattr(hs16, "GRAPHS", hs4.GRAPHS)
    section = judged_figure(fig_holdout_v16, "v16", session, tmp_path)
    assert "critical path through the grid order" in section["text"]
    assert "Nothing was tuned after the comparison." in section["text"]
