"""Gauss-Seidel PageRank's train cells in v13h (hub lists walked by their warps, N = 0) and v14 (deferred, auto):
the same 25 graph files and design, two H200 sessions on different machines (archive/holdout-v13-h200-2026-11-28,
archive/holdout-v14-h200-2026-11-28). Per graph, width and mode: each session's min over 5 timed runs, its rounds'
min and max, and v14 / v13h. Cross-session: machine differences are in the ratio too.

    python archive/pr-floor-class-exploration-2026-11-28/gs_sessions.py   -> gs_sessions.csv, printed
"""

from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ARCHIVES = {"v13h": "holdout-v13-h200-2026-11-28", "v14": "holdout-v14-h200-2026-11-28"}
KEY = ["graph", "mode", "edge_bytes"]


def main() -> None:
    parts = []
    for name, folder in ARCHIVES.items():
        c = pd.read_csv(HERE.parents[0] / folder / "holdout_cells.csv")
        c = c[(c["split"] == "train") & (c["algorithm"] == "pagerank") & (c["variant"] == "gauss-seidel")]
        parts.append(c[[*KEY, "measured_ms", "iterations_min", "iterations_max"]].set_index(KEY).add_suffix(f"_{name}"))
    t = pd.concat(parts, axis=1).reset_index()
    t["v14_over_v13h"] = t["measured_ms_v14"] / t["measured_ms_v13h"]
    t.to_csv(HERE / "gs_sessions.csv", index=False)
    with pd.option_context("display.width", 200):
        print(t.sort_values("v14_over_v13h", ascending=False).round(3).to_string(index=False))


if __name__ == "__main__":
    main()
