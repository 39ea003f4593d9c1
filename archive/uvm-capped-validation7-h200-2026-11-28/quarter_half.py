"""After the judgement, in sample: measured and predicted uvm-capped time at 1/4 over 1/2 of the edge list for BFS
Naive with K = 1, per graph, in every archived capped call that judged such cells (predicted: the first predicted_ms column of each
call's cells table).

    python archive/uvm-capped-validation7-h200-2026-11-28/quarter_half.py
"""

from pathlib import Path

import pandas as pd

ARCHIVE = Path(__file__).resolve().parents[1]


def ratios() -> pd.DataFrame:
    rows = []
    for cells in sorted(ARCHIVE.glob("uvm-capped-*/*cells*.csv")):
        c = pd.read_csv(cells)
        predicted = [col for col in c.columns if col.startswith("predicted_ms")]
        if not predicted or not {"capped_ms", "budget_fraction", "sublaunches"} <= set(c.columns):
            continue
        k = c[(c.sublaunches == 1) & (c.variant == "naive") & (c.algorithm == "bfs")]
        per = k.groupby(["graph", "budget_fraction"])[["capped_ms", predicted[0]]].median()
        for graph in k.graph.unique():
            if (graph, 0.25) in per.index and (graph, 0.5) in per.index:
                q, h = per.loc[(graph, 0.25)], per.loc[(graph, 0.5)]
                rows.append({"call": cells.parent.name, "graph": graph,
                             "measured": q.capped_ms / h.capped_ms,
                             "predicted": q[predicted[0]] / h[predicted[0]]})  # fmt: skip
    return pd.DataFrame(rows)


if __name__ == "__main__":
    r = ratios()
    print(r.round(3).to_string(index=False))
    r["family"] = r.graph.str.extract(r"^([a-z]+)")[0]
    print(r.groupby("family")[["measured", "predicted"]].agg(["min", "median", "max"]).round(3).to_string())
