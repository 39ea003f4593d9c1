"""Issue 24, in sample (train graphs only): does Jacobi PageRank's critical path through the grid order (term v16,
model/gpu_work_v16.py) predict its train cells better than term v12's longest walk, left one train graph out? On
v15's train session (its packed pass 1), term v12 (split v13) and term v16 (split v16) refitted on 24 train graphs
as model.holdout fits them, the 25th predicted, for `pagerank` `merged-aligned` (device and zero-copy: the groups
are fitted alone, so only their cells are judged). No held-out cell is read. The critical-path tables come from the
train graphs regenerated with split v13's generator arguments (--graphs DIR holding NAME.csr, else made in a
temporary folder, ~40 s).

    python archive/jacobi-critical-path-exploration-2026-11-29/explore.py [--graphs DIR]   -> summary.txt, logo.csv
"""

import argparse
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from model import gpu_work_v8, gpu_work_v16  # noqa: E402
from model import graph_predict_v12 as gp12  # noqa: E402
from model import holdout_split_v13 as hs13  # noqa: E402
from model import holdout_split_v16 as hs16  # noqa: E402
from model.holdout import judge  # noqa: E402

V15 = ROOT / "archive" / "holdout-v15-h200-2026-11-29"
GROUP = ("pagerank", "merged-aligned")


def graph_files(where: Path, names) -> dict:
    """name -> its 8-byte file under `where`, generated with split v13's arguments where missing."""
    out = {}
    for name in names:
        src = hs13.GRAPHS[name]["source"]
        path = where / f"{name}.csr"
        if not path.is_file():
            cmd = [sys.executable, "-m", "emogi.datasets.generators", "--kind", src["kind"], "--scale",
                   str(src["scale"]), "--edge-factor", str(src["edge_factor"]), "--seed", str(src["seed"]),
                   "--weights-seed", str(src["seed"]), "--out", str(path)]  # fmt: skip
            subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        out[name] = path
    return out


def logo(sp, cells, metas, workloads, launches, params, capacity, critical) -> pd.DataFrame:
    graphs = sorted(cells["graph"].unique())
    vertices = {g: metas[g, 8]["num_vertices"] for g in graphs}
    nonisolated = {g: v - metas[g, 8]["isolated_vertices"] for g, v in vertices.items()}
    classes = {g: gpu_work_v8.degree_class(metas[g, 8]) for g in graphs}
    out = []
    for left in graphs:
        table, costs = judge(cells, workloads, launches, params, log=lambda *_: None, sp=sp, vertices=vertices,
                             capacity=capacity, nonisolated=nonisolated, classes=classes, critical=critical,
                             split_of=lambda g, left=left: hs13.HELD_OUT if g == left else hs13.TRAIN)  # fmt: skip
        rho = costs.set_index("edge_bytes")["rho"].to_dict() if "rho" in costs else {}
        mine = table[table["graph"] == left]
        out.append(mine.assign(rho=[rho.get(w) for w in mine["edge_bytes"]]))
    return pd.concat(out, ignore_index=True)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--graphs", type=Path, help="a folder holding NAME.csr of the train graphs (else generated)")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(V15 / "passes.tgz") as t:
            t.extractall(tmp, filter="data")
        gp12.SESSION, gp12.TERM_ARCHIVE = Path(tmp) / "passes/p1/session", V15
        cells, metas, workloads, launches, params, capacity = gp12._train()
        cells = cells[(cells["algorithm"] == GROUP[0]) & (cells["variant"] == GROUP[1])]
        files = graph_files(a.graphs or Path(tmp), sorted(cells["graph"].unique()))
        critical = gpu_work_v16.critical_of(files)
    rows = [logo(sp, cells, metas, workloads, launches, params, capacity, critical).assign(term=name)
            for name, sp in (("v12", hs13), ("v16", hs16))]  # fmt: skip
    t = pd.concat(rows, ignore_index=True)
    keep = ["term", "graph", "mode", "edge_bytes", "measured_ms", "predicted_ms", "error", "floor_ms", "rho"]
    t[keep].round(5).to_csv(HERE / "logo.csv", index=False)
    t["abs"] = t["error"].abs()
    s = t.groupby(["term", "mode", "edge_bytes"])["abs"].agg(
        median="median", worst="max", past_15=lambda x: int((x > 0.15).sum()), cells="size"
    )
    wide = t.pivot_table(index=["graph", "mode", "edge_bytes"], columns="term", values="error").round(3)
    lines = ["Jacobi PageRank (merged-aligned), left one train graph out (in sample: split v13's train graphs,",
             "v15's train session; the rho each fit chose is in logo.csv)", "", s.round(3).to_string(), "",
             "each cell's signed error", wide.to_string()]  # fmt: skip
    (HERE / "summary.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
