"""Jacobi PageRank (`merged-aligned`) in device memory, v14's train cells only: is its time per round (measured /
the CPU trace's launches) a graph-level function of V, non-isolated V, E and the max degree, with or without a hinge
on the max degree? NNLS on the relative error per width, one train graph left out at a time.

    python archive/pr-floor-class-exploration-2026-11-28/hinge.py   -> printed
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import nnls

ARCHIVE = Path(__file__).resolve().parents[1] / "holdout-v14-h200-2026-11-28"


def cells() -> pd.DataFrame:
    c = pd.read_csv(ARCHIVE / "holdout_cells.csv")
    c = c[(c["algorithm"] == "pagerank") & (c["variant"] == "merged-aligned") & (c["mode"] == "device")]
    c = c[c["split"] == "train"].copy()
    meta = {p.name.split(".")[0]: json.loads(p.read_text())
            for p in (ARCHIVE / "passes" / "p1" / "session" / "graphs").glob("*.w8.json")}  # fmt: skip
    for k in ("num_vertices", "num_edges", "max_degree", "isolated_vertices"):
        c[k] = c["graph"].map(lambda g, k=k: meta[g][k])
    c["nonisolated"] = c["num_vertices"] - c["isolated_vertices"]
    c["per_round"] = c["measured_ms"] / c["launches"]
    return c


def left_out(c: pd.DataFrame, features) -> pd.DataFrame:
    rows = []
    for w, x in c.groupby("edge_bytes"):
        X = np.stack([f(x) for f in features], axis=1).astype(float)
        y = x["per_round"].to_numpy(float)
        for i in range(len(x)):
            keep = np.arange(len(x)) != i
            p, _ = nnls(X[keep] / y[keep, None], np.ones(keep.sum()))
            rows.append({"graph": x["graph"].iloc[i], "edge_bytes": w, "error": X[i] @ p / y[i] - 1})
    return pd.DataFrame(rows)


def main() -> None:
    c = cells()
    base = [lambda x: np.ones(len(x)), lambda x: x["num_vertices"], lambda x: x["nonisolated"],
            lambda x: x["num_edges"], lambda x: x["max_degree"]]  # fmt: skip
    options = {
        "1, V, V non-isolated, E, max degree": base,
        "+ max(0, max degree - 20 000)": [*base, lambda x: np.maximum(0, x["max_degree"] - 20_000)],
        "+ max(0, max degree - 15 000)": [*base, lambda x: np.maximum(0, x["max_degree"] - 15_000)],
        "+ E x max degree / V": [*base, lambda x: x["num_edges"] * x["max_degree"] / x["num_vertices"]],
    }
    for name, features in options.items():
        e = left_out(c, features).assign(abs=lambda d: d["error"].abs())
        worst = e.sort_values("abs").tail(2)[["graph", "edge_bytes", "error"]].round(3).values.tolist()
        print(f"{name:38s} median {e['abs'].median():.3f} worst {e['abs'].max():.3f} "
              f"past 15% {int((e['abs'] > 0.15).sum())}  worst cells {worst}")  # fmt: skip


if __name__ == "__main__":
    main()
