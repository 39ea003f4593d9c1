"""emogi.provenance.stamp_runs: the device scripts' collector of `emogi run` CSVs (CPU only)."""

import re

import pandas as pd
import pytest

from emogi import provenance
from emogi.schema import PROVENANCE_COLUMNS


def _write_run(folder, stem, times, log):
    pd.DataFrame({"graph": "g", "time_ms": times}).to_csv(folder / f"{stem}.csv", index=False)
    (folder / f"{stem}.log").write_text(log)


def test_runs_are_joined_with_what_each_log_says_and_provenance(tmp_path, monkeypatch):
    monkeypatch.setenv("EMOGI_COMMIT", "abc1234")
    _write_run(tmp_path, "g.a", [1.0, 2.0], "sssp: frontier bucket width delta = 16\n")
    _write_run(tmp_path, "g.b", [3.0], "sssp: frontier bucket width delta = 8\n")

    def annotate(path, log):
        return {"build": path.stem.split(".")[1], "delta": int(re.search(r"delta = (\d+)", log)[1])}

    runs = provenance.stamp_runs(tmp_path, None, annotate)
    assert list(runs.columns) == list(PROVENANCE_COLUMNS) + ["build", "delta", "graph", "time_ms"]
    assert runs[["build", "delta", "time_ms"]].values.tolist() == [["a", 16, 1.0], ["a", 16, 2.0], ["b", 8, 3.0]]
    assert (runs["commit"] == "abc1234").all()
    again = provenance.stamp_runs(tmp_path, None, annotate)  # its own runs.csv is not read back as a run
    assert len(again) == 3 and pd.read_csv(tmp_path / "runs.csv").shape == again.shape


def test_a_folder_without_runs_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no run CSVs"):
        provenance.stamp_runs(tmp_path, None)
