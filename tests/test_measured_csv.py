"""Provenance columns are text: a commit hash of digits alone must keep its leading zero in every judged table."""

from emogi.tables import read_measured_csv
from model import uvm_capped_validation5


def test_a_commit_of_digits_alone_keeps_its_leading_zero(tmp_path):
    path = tmp_path / "runs.csv"
    path.write_text("gpu,driver,cuda,commit,date,time_ms\nNVIDIA H200,580,13.0,0628657,2026-11-28,1.5\n")
    row = read_measured_csv(path).iloc[0]
    assert row["commit"] == "0628657" and row["cuda"] == "13.0" and row["time_ms"] == 1.5


def test_the_capped_judges_read_the_commit_as_text(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "bfs.g.csv").write_text("gpu,commit,graph,root,time_ms\nNVIDIA H200,0628657,g,3,1.0\n")
    assert uvm_capped_validation5.load_runs(tmp_path)["commit"].tolist() == ["0628657"]
