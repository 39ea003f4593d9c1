"""Issue 24, in sample (train graphs only): would fitting PageRank's floor apart per degree class, as term v8 fits
direction-optimizing BFS (model/gpu_work_v8.py SPLIT_APART), predict its device cells better? Leave one train graph
out of v14's train session (archive/holdout-v14-h200-2026-11-28, pass 1's train cells: the same in every pass),
fit term v12 on the other 24 as model.holdout fits it, predict the one left out; for each option of SPLIT_APART.
No held-out cell of v14 is read.

    python archive/pr-floor-class-exploration-2026-11-28/explore.py   (~4 min on 2 cores) -> logo.csv, summary.txt
"""

import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from model import gpu_work_v8  # noqa: E402
from model import graph_predict_v12 as gp12  # noqa: E402
from model import holdout_split_v13 as hs13  # noqa: E402
from model.holdout import judge  # noqa: E402

BFS_DO = ("bfs", "direction-optimizing")
OPTIONS = {  # name -> the (algorithm, variant) groups fitted per degree class
    "v12 (DO-BFS apart)": (BFS_DO,),
    "+ PageRank merged-aligned apart": (BFS_DO, ("pagerank", "merged-aligned")),
    "+ every PageRank group apart": (BFS_DO, ("pagerank", "merged-aligned"), ("pagerank", "gauss-seidel")),
}


def logo(cells, metas, workloads, launches, params, capacity) -> pd.DataFrame:
    graphs = sorted(cells["graph"].unique())
    vertices = {g: metas[g, 8]["num_vertices"] for g in graphs}
    nonisolated = {g: v - metas[g, 8]["isolated_vertices"] for g, v in vertices.items()}
    classes = {g: gpu_work_v8.degree_class(metas[g, 8]) for g in graphs}
    out = []
    for left in graphs:
        table, _ = judge(cells, workloads, launches, params, log=lambda *_: None, sp=hs13, vertices=vertices,
                         capacity=capacity, nonisolated=nonisolated, classes=classes,
                         split_of=lambda g, left=left: hs13.HELD_OUT if g == left else hs13.TRAIN)  # fmt: skip
        out.append(table[table["graph"] == left].assign(klass=classes[left]))
    return pd.concat(out, ignore_index=True)


def main() -> None:
    cells, metas, workloads, launches, params, capacity = gp12._train()  # v14's train cells only
    rows = []
    for name, apart in OPTIONS.items():
        gpu_work_v8.SPLIT_APART = apart
        rows.append(logo(cells, metas, workloads, launches, params, capacity).assign(option=name))
        print(f"{name}: done", file=sys.stderr)
    t = pd.concat(rows, ignore_index=True)
    keep = ["option", "graph", "klass", "algorithm", "variant", "mode", "edge_bytes", "root", "measured_ms",
            "predicted_ms", "error"]  # fmt: skip
    t[keep].to_csv(HERE / "logo.csv", index=False)
    t["abs"] = t["error"].abs()
    pr = t[t["algorithm"] == "pagerank"]
    lines = ["left-one-graph-out over v14's 25 train graphs (in sample for the split; no held-out cell read)", ""]
    for title, d, by in (("PageRank, per variant and mode", pr, ["variant", "mode"]),
                         ("every algorithm", t, ["algorithm"])):  # fmt: skip
        s = d.groupby(["option", *by])["abs"].agg(median="median", worst="max", past15=lambda a: int((a > 0.15).sum()))
        lines += [title, s.round(3).to_string(), ""]
    (HERE / "summary.txt").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
