"""Term v16 on issue 24's own split, from archived H100 measurements (README.md here; CPU only, not a registered
validation): archive/holdout-h100-2026-11-27's session (train kron/urand 20-22; held out kron/urand 23-24 and
rmat21ef64), its workloads, link fit and cells, judged as `model.holdout --split v16` judges, with two stated
substitutions: the L2 capacity of another H100 session (that session measured none) and split v2's table of graphs
in place of split v13's. cnr2000 is left out: its critical-path table needs its CSR, which the WebGraph tools make
and this machine lacks.

    PYTHONPATH=. python archive/term-v16-issue-split-retrospective-2026-11-29/explore.py OUT
    (OUT: the tables; the critical-path tables are critical/<graph>/critical.csv here, commands.sh made them)
"""

import shutil
import sys
import tempfile
from pathlib import Path
from unittest import mock

import pandas as pd

from emogi.atomic import write_csv
from model import gpu_work_v8
from model import gpu_work_v16 as term_v16
from model import holdout_split as hs2
from model import holdout_split_v16 as hs16
from model.holdout import cells_of, judge, read_metadata, read_runs, read_workloads, summary
from model.l2_capacity import read_capacity
from model.presets import MEASURED, get_preset

ROOT = Path(__file__).resolve().parents[2]
H100 = ROOT / "archive" / "holdout-h100-2026-11-27"
L2 = ROOT / "archive" / "holdout-v12-h100-2026-11-28" / "session" / "micro" / "l2.csv"  # substitution (README)
CRITICAL = Path(__file__).resolve().parent / "critical"
LEFT_OUT = {"cnr2000"}


def _critical(graphs) -> pd.DataFrame:
    """read_critical's table: it reads a graph's name from the workloads beside its critical.csv."""
    with tempfile.TemporaryDirectory() as tmp:
        for g in graphs:
            (Path(tmp) / g).mkdir()
            shutil.copy(H100 / "workloads" / g / "workloads.csv", Path(tmp) / g)
            shutil.copy(CRITICAL / g / "critical.csv", Path(tmp) / g)
        return term_v16.read_critical(*(Path(tmp) / g for g in graphs))


def judged(log=print) -> tuple[pd.DataFrame, pd.DataFrame]:
    session = H100 / "session"
    cells = cells_of(read_runs(session), log, hs16)  # v16's statistic: the min of each cell's timed runs
    cells = cells[~cells["graph"].isin(LEFT_OUT)].reset_index(drop=True)
    graphs = sorted(set(cells["graph"]))
    widths = {g: set(w.astype(int)) for g, w in cells.groupby("graph")["edge_bytes"]}
    metas = read_metadata(session / "graphs", set(graphs), widths, hs2)  # split v2's registry: made as listed
    workloads, launches = read_workloads(*(H100 / "workloads" / g for g in graphs))
    critical = _critical([g for g in graphs if (CRITICAL / g / "critical.csv").is_file()])
    vertices = {g: metas[g, 8]["num_vertices"] for g in graphs}
    nonisolated = {g: v - metas[g, 8].get("isolated_vertices", 0) for g, v in vertices.items()}
    classes = {g: gpu_work_v8.degree_class(metas[g, 8]) for g in graphs}
    params = get_preset(MEASURED, session / "parameters.json")
    # split v2's graphs: its split_of and fit-set check in place of v13's (the term and its statistic are v16's)
    with mock.patch.object(hs16, "split_of", hs2.split_of), mock.patch.object(hs16, "check_fit_set", hs2.check_fit_set):
        capacity = read_capacity(L2)
        return judge(cells, workloads, launches, params, log=log, sp=hs16, vertices=vertices, capacity=capacity,
                     nonisolated=nonisolated, classes=classes, critical=critical)  # fmt: skip


def main(out: Path) -> None:
    table, costs = judged()
    write_csv(table, out / "retro_cells.csv")
    write_csv(costs, out / "retro_costs.csv")
    s = summary(table)
    write_csv(s, out / "retro_summary.csv")
    print(s[s["mode"] == "all"].to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    per_graph = table.groupby(["graph", "mode"])["error"].agg(["count", "median", "min", "max"])
    write_csv(per_graph.reset_index(), out / "retro_per_graph.csv")
    print(per_graph.to_string(float_format=lambda x: f"{x:+.3f}"))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
