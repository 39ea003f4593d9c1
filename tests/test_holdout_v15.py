"""Issue 24's held-out validation v15 (docs/holdout-v15.md): v14 again (split v13, term v12 refitted on train cells
measured on the same H200) at a commit whose gauss-seidel floors auto's hub length at 4096 entries. Its passes'
sessions are packed (passes.tgz); judged again as its commands.sh judges it, it gives the archived tables; its calls
share one GPU; its verdicts are the README's; the workflow judges it (--split v15, split v13's alias) and the figure
and report section come from a judgement."""

from model import holdout_split_v4 as hs4
from model import holdout_split_v13 as hs13
from model import holdout_split_v15 as hs15
from tests.test_holdout_v4 import session  # noqa: F401 (the fixture)
from tests.test_holdout_v13 import HELD, ROOT, check_passes_archive, gpus_of_calls

ARCHIVE_V15 = ROOT / "archive" / "holdout-v15-h200-2026-11-29"
WORKLOADS = ARCHIVE_V15 / "workloads"  # a copy of v14's: the same graph files (the derive's differ in trace_s only)


def test_split_v15_is_split_v13():
    assert hs15.NAME == "v15" and hs15.GRAPHS is hs13.GRAPHS and hs15.PASSES == hs13.PASSES == 3
    assert {g for g in hs15.GRAPHS if hs15.split_of(g) == hs15.HELD_OUT} == set(HELD)


def test_the_archived_v15_judgement_is_unchanged(tmp_path, monkeypatch):
    """Its packed passes unpacked and judged as the workflow judges them (--split v15), each pass with the
    registered link and with its own, then the median over the passes: the archived tables (made with --split v13,
    the same split) byte for byte. The README's verdicts: SSSP and CC met, BFS and PageRank not."""
    monkeypatch.chdir(ROOT)
    met = {"bfs": False, "cc": True, "pagerank": False, "sssp": True, "all": False}
    check_passes_archive(ARCHIVE_V15, "v15", tmp_path, "743eec3", met)


def test_the_v15_train_session_and_passes_share_one_gpu():
    count, uuids = gpus_of_calls(ARCHIVE_V15)
    assert count == 4 and uuids == {"GPU-542388cf-523b-4e5e-22e9-8a6d0ca0694c"}


def test_the_v15_workloads_are_v14s():
    v14 = ROOT / "archive" / "holdout-v14-h200-2026-11-28" / "workloads"
    for f in sorted(WORKLOADS.glob("*/*")):
        assert f.read_bytes() == (v14 / f.parent.name / f.name).read_bytes(), f


def test_the_v15_figure_and_section_from_a_judgement(session, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    from figures import fig_holdout_v15
    from tests.test_holdout_v4 import judged_figure

    monkeypatch.setattr(hs13, "GRAPHS", hs4.GRAPHS)  # the fixture's tiny registry (split v15's is v13's)
    monkeypatch.setattr(hs15, "GRAPHS", hs4.GRAPHS)
    section = judged_figure(fig_holdout_v15, "v15", session, tmp_path)
    assert "and at least 4 096 entries" in section["text"]
    assert "Nothing was tuned after the comparison." in section["text"]
