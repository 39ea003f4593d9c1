"""A lead, not a model (README.md, "Why"): per scale-23/24 device cell of BFS and PageRank at 8 bytes, the cost per
missed state read m that would close its shortfall, (measured - predicted) / (mu x entries), with mu the term's miss
share at C = 21.0 MiB and entries = bytes_needed / 8 (the entries its trace reads, over all launches; direction-
optimizing BFS's trace counts its bottom-up reads differently, so its values compare
less well). Beside it: the fitted m of the groups where a train graph has mu > 0.

    PYTHONPATH=. python archive/term-v16-issue-split-retrospective-2026-11-29/miss_cost.py > miss_cost.txt
"""

from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
H100 = HERE.parents[0] / "holdout-h100-2026-11-27"
C = 21.0 * 2**20  # the L2 capacity the judgement used (README: the substitution)
KEY = ["graph", "algorithm", "variant", "edge_bytes", "root"]

cells = pd.read_csv(HERE / "retro_cells.csv")
graphs = ["kron23", "urand23", "kron24", "urand24"]
work = pd.concat([pd.read_csv(H100 / "workloads" / g / "workloads.csv") for g in graphs])
d = cells[(cells["mode"] == "device") & cells["graph"].isin(graphs) & (cells["edge_bytes"] == 8)]
d = d[d["algorithm"].isin(["bfs", "pagerank"])].merge(work[[*KEY, "bytes_needed"]], on=KEY)
vertices = {g: 2 ** int(g[-2:]) for g in graphs}
d = d.assign(mu=[max(0.0, 1 - C / (vertices[g] * 4)) for g in d["graph"]], entries=d["bytes_needed"] / 8)
d = d.assign(m_needed_ps=(d["measured_ms"] - d["predicted_ms"]) * 1e9 / (d["mu"] * d["entries"]))
print(
    d[["graph", "algorithm", "variant", "root", "measured_ms", "predicted_ms", "mu", "m_needed_ps"]].to_string(
        index=False, float_format=lambda x: f"{x:.3f}"
    )
)
costs = pd.read_csv(HERE / "retro_costs.csv")
print("fitted m (ps per missed read), groups with m > 0:")
print((costs[costs["m_ms"] > 0].assign(m_ps=lambda c: c["m_ms"] * 1e9))[["algorithm", "variant", "edge_bytes", "m_ps"]]
      .to_string(index=False, float_format=lambda x: f"{x:.2f}"))  # fmt: skip
