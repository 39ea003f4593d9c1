"""Term v16's critical path (model/critical_path.py, model/gpu_work_v16.py): C(rho) on hand-built walks, the table
of a small graph file, the CLI's one-line refusals, and the checks that keep a table with its graph's workloads."""

import numpy as np
import pandas as pd
import pytest

from emogi.csr import write_csr
from model import critical_path, gpu_work_v16
from model.critical_path import critical_steps, table_of


def test_rho_zero_is_the_longest_walk():
    assert critical_steps([0, 5, 1, 0], [0.0]).tolist() == [5.0]


def test_later_vertices_overlap_less_of_a_walk():
    # v1 (5 steps) has 2 vertices after it, v2 (1 step) has 1: rho 512 per 1024 vertices takes 1 and 0.5 steps off
    assert critical_steps([0, 5, 1, 0], [512.0]).tolist() == [4.0]
    # enough overlap and the last walking vertex decides; never below 0
    assert critical_steps([0, 5, 1, 0], [4096.0]).tolist() == [0.0]
    assert critical_steps([9, 0, 0, 2], [1024.0]).tolist() == [6.0]  # v0: 9 - 3; v3: 2 - 0
    assert critical_steps([], [0.0, 1.0]).tolist() == [0.0, 0.0]


def test_the_table_of_a_graph_file(tmp_path):
    # vertex 0: 40 entries (2 warp steps at 8 bytes from an aligned start), 1: none, 2: 1 entry
    offsets = np.array([0, 40, 40, 41], dtype=np.uint64)
    edges = np.array([1] * 40 + [0], dtype=np.uint64)
    header = write_csr(tmp_path / "g.csr", offsets, edges)
    t = table_of(tmp_path / "g.csr", widths=(8,), rhos=np.array([0.0, 1024.0]))
    assert list(t.columns) == critical_path.COLUMNS
    assert t["critical_steps"].tolist() == [2.0, 1.0]  # 2, then max(2 - 2, 1 - 0)
    assert set(t["checksum"]) == {f"{header.checksum:016x}"}


def test_the_cli_refuses_in_one_line(tmp_path, capsys):
    assert critical_path.main(["--graph", str(tmp_path / "none.csr"), "--out", str(tmp_path / "c.csv")]) == 1
    assert capsys.readouterr().err.strip().endswith("no such graph file")
    assert critical_path.main(["--graph", "x", "--out", str(tmp_path / "c.csv"), "--widths", "2"]) == 1
    assert "--widths" in capsys.readouterr().err
    assert not (tmp_path / "c.csv").exists()


def _critical(checksum="ab", rhos=critical_path.RHOS):
    return pd.DataFrame({"graph": "g", "checksum": checksum, "edge_bytes": 8, "rho": rhos,
                         "critical_steps": 100.0 - 10 * rhos})  # fmt: skip


def _workloads(algorithm="pagerank", variant="merged-aligned"):
    return pd.DataFrame({"graph": ["g"], "algorithm": [algorithm], "variant": [variant], "edge_bytes": [8],
                         "checksum": ["ab"]})  # fmt: skip


def test_check_critical_refuses_a_missing_short_or_foreign_table():
    gpu_work_v16.check_critical(_critical(), _workloads())
    with pytest.raises(gpu_work_v16.CriticalError, match="critical-path tables"):
        gpu_work_v16.check_critical(None, _workloads())
    with pytest.raises(gpu_work_v16.CriticalError, match="registered grid"):
        gpu_work_v16.check_critical(_critical(rhos=critical_path.RHOS[:3]), _workloads())
    with pytest.raises(gpu_work_v16.CriticalError, match="checksum"):
        gpu_work_v16.check_critical(_critical(checksum="cd"), _workloads())
    gpu_work_v16.check_critical(_critical().iloc[:0], _workloads("bfs"))  # no Jacobi PageRank: nothing needed


def test_with_critical_changes_only_jacobi_pageranks_walk():
    launches = pd.DataFrame({"graph": "g", "algorithm": ["pagerank", "pagerank", "bfs"],
                             "variant": ["merged-aligned", "gauss-seidel", "merged-aligned"], "edge_bytes": 8,
                             "walk": [100.0, 100.0, 100.0]})  # fmt: skip
    out = gpu_work_v16.with_critical(launches, _critical(), {8: 1.5})
    assert out["walk"].tolist() == [85.0, 100.0, 100.0]
    assert launches["walk"].tolist() == [100.0] * 3  # the input is left as it was
    costs = pd.DataFrame({"algorithm": ["pagerank", "bfs"], "variant": ["merged-aligned"] * 2, "edge_bytes": [8, 8]})
    assert gpu_work_v16.with_rho(costs, {8: 1.5})["rho"].tolist()[0] == 1.5
    assert np.isnan(gpu_work_v16.with_rho(costs, {8: 1.5})["rho"].tolist()[1])


def test_read_critical_names_the_folders_graph(tmp_path):
    (tmp_path / "w").mkdir()
    _workloads().to_csv(tmp_path / "w" / "workloads.csv", index=False)
    _critical().drop(columns="graph").to_csv(tmp_path / "w" / "critical.csv", index=False)
    (tmp_path / "x").mkdir()  # a folder without a table adds nothing
    _workloads().to_csv(tmp_path / "x" / "workloads.csv", index=False)
    t = gpu_work_v16.read_critical(tmp_path / "w", tmp_path / "x")
    assert set(t["graph"]) == {"g"} and len(t) == len(critical_path.RHOS)
    (tmp_path / "w" / "critical.csv").write_text("edge_bytes,rho\n8,0\n")
    with pytest.raises(gpu_work_v16.CriticalError, match="lacks column"):
        gpu_work_v16.read_critical(tmp_path / "w")
