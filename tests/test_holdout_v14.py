"""Issue 24's held-out validation v14 (docs/holdout-v14.md): split v13 again (model/holdout_split_v14.py names it),
at a commit where gauss-seidel defers hub lists by default. Its archive, judged again as the workflow judges it
(--split v14), gives the archived tables (made with --split v13: the same split); its calls share one GPU; its
verdicts are the README's; the figure and report section come from a judgement."""

from model import holdout_split_v4 as hs4
from model import holdout_split_v13 as hs13
from model import holdout_split_v14 as hs14
from tests.test_holdout_v4 import session  # noqa: F401 (the fixture)
from tests.test_holdout_v13 import HELD, ROOT, check_passes_archive, gpus_of_calls

ARCHIVE_V14 = ROOT / "archive" / "holdout-v14-h200-2026-11-28"


def test_split_v14_is_split_v13():
    assert hs14.NAME == "v14" and hs14.GRAPHS is hs13.GRAPHS and hs14.PASSES == hs13.PASSES == 3
    assert {g for g in hs14.GRAPHS if hs14.split_of(g) == hs14.HELD_OUT} == set(HELD)


def test_the_archived_v14_judgement_is_unchanged(tmp_path, monkeypatch):
    """Judged as the workflow judges it (--split v14); the README's verdicts: BFS, SSSP and CC met, PageRank not."""
    monkeypatch.chdir(ROOT)
    met = {"bfs": True, "cc": True, "pagerank": False, "sssp": True, "all": False}
    check_passes_archive(ARCHIVE_V14, "v14", tmp_path, "ee51fe9", met)


def test_the_v14_train_session_and_passes_share_one_gpu():
    count, uuids = gpus_of_calls(ARCHIVE_V14)
    assert count == 4 and uuids == {"GPU-38291a0b-36e8-5c94-04f5-bf7a809ac764"}


def test_the_v14_figure_and_section_from_a_judgement(session, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    from figures import fig_holdout_v14
    from tests.test_holdout_v4 import judged_figure

    monkeypatch.setattr(hs13, "GRAPHS", hs4.GRAPHS)  # the fixture's tiny registry (split v14's is v13's)
    monkeypatch.setattr(hs14, "GRAPHS", hs4.GRAPHS)
    section = judged_figure(fig_holdout_v14, "v14", session, tmp_path)
    assert "defers lists longer than twice the entries per resident warp" in section["text"]
    assert "Nothing was tuned after the comparison." in section["text"]
