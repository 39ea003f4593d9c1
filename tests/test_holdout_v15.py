"""Issue 24's held-out validation v15 (docs/holdout-v15.md): v14 again (split v13, term v12 refitted on train cells
measured on the same H200) at a commit whose gauss-seidel floors auto's hub length at 4096 entries. Its passes'
sessions are packed (passes.tgz) and its held-out workloads are v14's (the same graph files); judged again as its
commands.sh judges it, it gives the archived tables; its calls share one GPU; its verdicts are the README's."""

import json
import tarfile

import pandas as pd

from model import holdout, holdout_passes
from tests.same_tables import assert_same_tables
from tests.test_holdout_v13 import ROOT, V13_TABLES, gpus_of_calls

ARCHIVE_V15 = ROOT / "archive" / "holdout-v15-h200-2026-11-29"
WORKLOADS = ROOT / "archive" / "holdout-v14-h200-2026-11-28" / "workloads"


def test_the_archived_v15_judgement_is_unchanged(tmp_path):
    """Each pass judged with the registered link and with its own, then the median over the passes: the archived
    tables byte for byte. The README's verdicts: SSSP and CC met, BFS and PageRank not."""
    with tarfile.open(ARCHIVE_V15 / "passes.tgz") as t:
        t.extractall(tmp_path, filter="data")
    wdirs = [str(p) for p in sorted(WORKLOADS.glob("*"))]
    judged, own = [], []
    for p in ("p1", "p2", "p3"):
        args = ["--split", "v13", "--runs", str(tmp_path / "passes" / p / "session"), "--workloads", *wdirs,
                "--archive-id", ARCHIVE_V15.name]  # fmt: skip
        assert holdout.main([*args, "--out-dir", str(tmp_path / p)]) == 0
        link = ["--parameters", str(tmp_path / "passes" / p / "call_parameters.json")]
        assert holdout.main([*args, *link, "--out-dir", str(tmp_path / f"own_{p}")]) == 0
        judged.append(str(tmp_path / p)), own.append(str(tmp_path / f"own_{p}"))
    done = tmp_path / "judged"
    assert holdout_passes.main(["--split", "v13", "--judged", *judged, "--own", *own, "--out-dir", str(done)]) == 0
    assert_same_tables(done, ARCHIVE_V15, V13_TABLES)
    assert_same_tables(done / "judged_call_link", ARCHIVE_V15 / "judged_call_link", V13_TABLES)
    source = json.loads((ARCHIVE_V15 / "source.json").read_text())
    assert source["gpu"] == "NVIDIA H200" and source["split"] == "v13" and source["commit"] == "743eec3"
    held = pd.read_csv(ARCHIVE_V15 / "holdout_summary.csv").query("split == 'held-out' and mode == 'all'")
    met = {"bfs": False, "cc": True, "pagerank": False, "sssp": True, "all": False}
    assert held.set_index("algorithm")["met"].to_dict() == met


def test_the_v15_train_session_and_passes_share_one_gpu():
    count, uuids = gpus_of_calls(ARCHIVE_V15)
    assert count == 4 and uuids == {"GPU-542388cf-523b-4e5e-22e9-8a6d0ca0694c"}
