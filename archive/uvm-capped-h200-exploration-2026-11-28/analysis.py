"""In-sample exploration of the graph-or-machine check's H200 call (CPU only, nothing measured): capped validation 4's
rule form with its costs refitted on H200 cells, judged leaving one graph out (fit on 2 of the 3 graphs, judge the
third). The candidates and the decision rule were written before the results, in CANDIDATES.md, in this order.

    PYTHONPATH=. python archive/uvm-capped-h200-exploration-2026-11-28/analysis.py [CELLS_CSV] > analysis_output.txt

CELLS_CSV: the check's judged cells (default archive/uvm-capped-graph-check-h200-2026-11-28/
capped_graph_check_cells.csv, else /tmp/ucgj/capped_graph_check_cells.csv). Prediction of a cell: device-mode
median + f x simulated_migration_ms + e x evicted_chunks + e_naive x thread_evicted_chunks + t x tail_ms (t = 1 but
in `tail coefficient`); costs by least absolute relative deviation (model.uvm_calibrate._lad, as
archive/uvm-capped-validation3-analysis-2026-11-27/analysis.py fitted registered_params.json).
"""

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from model.uvm_calibrate import _lad

HERE = Path(__file__).resolve().parent
A = HERE.parent
DEFAULT = [A / "uvm-capped-graph-check-h200-2026-11-28/capped_graph_check_cells.csv",
           Path("/tmp/ucgj/capped_graph_check_cells.csv")]  # fmt: skip
REGISTERED = json.loads((A / "uvm-capped-validation3-analysis-2026-11-27/registered_params.json").read_text())
ALGS = ("bfs", "sssp", "cc", "pagerank")
CANDIDATES = ("registered", "refit unit", "refit pooled", "e per algorithm", "no e_naive", "tail coefficient")


def columns(c: pd.DataFrame, cand: str) -> tuple[np.ndarray, list[str], np.ndarray]:
    """(design matrix of the fitted costs, their names, the fixed part of the prediction) for a candidate."""
    mig, ev, nv = (c[k].to_numpy(float) for k in ("simulated_migration_ms", "evicted_chunks", "thread_evicted_chunks"))
    dev, tail = c["device_ms"].to_numpy(float), c["tail_ms"].to_numpy(float)
    if cand in ("refit unit", "registered"):
        return np.c_[ev, nv], ["e", "e_naive"], dev + mig + tail
    if cand == "refit pooled":
        return np.c_[mig, ev, nv], ["f", "e", "e_naive"], dev + tail
    if cand == "e per algorithm":
        per = [ev * (c["algorithm"] == a).to_numpy() for a in ALGS]
        return np.c_[(*per, nv)], [f"e_{a}" for a in ALGS] + ["e_naive"], dev + mig + tail
    if cand == "no e_naive":
        return ev[:, None], ["e"], dev + mig + tail
    if cand == "tail coefficient":
        return np.c_[mig, ev, nv, tail], ["f", "e", "e_naive", "t"], dev
    raise ValueError(cand)


def fit(c: pd.DataFrame, cand: str) -> dict:
    if cand == "registered":
        t = REGISTERED["capped_terms"]
        return {"e": t["evicted"], "e_naive": t["thread_evicted"]}
    x, names, fixed = columns(c, cand)
    m = c["capped_ms"].to_numpy(float)
    return dict(zip(names, map(float, _lad(x, m - fixed, 1 / m)), strict=True))


def predict(c: pd.DataFrame, cand: str, costs: dict) -> np.ndarray:
    x, names, fixed = columns(c, cand)
    return fixed + x @ np.array([costs[n] for n in names])


def leave_one_graph_out(c: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    out, fits = c.copy(), []
    for cand in CANDIDATES:
        col = f"logo_{cand}"
        out[col] = np.nan
        for g in sorted(c["graph"].unique()):
            held = (c["graph"] == g).to_numpy()
            costs = fit(c[~held], cand)
            out.loc[held, col] = predict(c[held], cand, costs) / c.loc[held, "capped_ms"] - 1
            fits.append({"candidate": cand, "held_out": g} | costs)
        fits.append({"candidate": cand, "held_out": "(none: all 3 graphs)"} | fit(c, cand))
    return out, pd.DataFrame(fits)


def summary(out: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for name, g in [*out.groupby("graph"), ("all 144 held out", out)]:
        for cand in CANDIDATES:
            e = g[f"logo_{cand}"]
            rows.append({"held_out": name, "candidate": cand, "n": len(e), "median_abs": e.abs().median(),
                         "worst_abs": e.abs().max(), "past_25": int((e.abs() > 0.25).sum()),
                         "signed_median": e.median()})  # fmt: skip
    return pd.DataFrame(rows)


def decide(s: pd.DataFrame) -> str:
    """CANDIDATES.md's rule on the pooled held-out cells."""
    p = s[s["held_out"] == "all 144 held out"].set_index("candidate")
    reg = p.loc["registered"]
    better = [k for k in CANDIDATES[1:] if p.loc[k, "worst_abs"] < reg["worst_abs"]
              and p.loc[k, "median_abs"] <= reg["median_abs"]]  # fmt: skip
    if not better:
        return "none does better leaving one graph out: nothing registered"
    best = min(p.loc[better, "worst_abs"])
    pick = next(k for k in better if p.loc[k, "worst_abs"] <= best + 0.01)
    return f"better: {better}; picked (lowest pooled worst, within 1 point the fewest costs): {pick}"


def main(argv: list[str]) -> None:
    path = Path(argv[0]) if argv else next(p for p in DEFAULT if p.exists())
    c = pd.read_csv(path)
    # the registered costs reproduce the judged unit prediction (a check of the columns read)
    diff = np.abs(predict(c, "registered", fit(c, "registered")) - c["predicted_ms_unit"]).max()
    print(f"cells {len(c)} from {path.name}; gpu-judged unit prediction reproduced within {diff:.2e} ms")
    out, fits = leave_one_graph_out(c)
    s = summary(out)
    pd.set_option("display.width", 200)
    print("\nfits (in sample; costs in ms per chunk, f and t dimensionless)\n", fits.round(5).to_string(index=False))
    print("\nleave-one-graph-out |error| (in sample)\n", s.round(3).to_string(index=False))
    for cand in CANDIDATES:
        col = f"logo_{cand}"
        by = out.groupby(["graph", "algorithm", "variant"])[col].agg(
            med=lambda x: x.abs().median(), worst=lambda x: x.abs().max(), signed="median"
        )
        print(f"\n{cand}: held out, by graph, algorithm, variant\n", by.round(3).to_string())
        w = out.loc[out[col].abs().nlargest(5).index, ["graph", "algorithm", "variant", "root", "budget_fraction",
                                                      "sublaunches", "capped_ms", col]]  # fmt: skip
        print(f"{cand}: the 5 worst held-out cells\n", w.round(3).to_string(index=False))
    print("\nDECISION:", decide(s))
    keep = ["graph", "algorithm", "variant", "root", "budget_fraction", "sublaunches", "capped_ms", "device_ms",
            "simulated_migration_ms", "evicted_chunks", "thread_evicted_chunks", "tail_ms"]  # fmt: skip
    out[keep + [f"logo_{k}" for k in CANDIDATES]].to_csv(HERE / "cells.csv", index=False)
    fits.to_csv(HERE / "fits.csv", index=False)
    s.to_csv(HERE / "summary.csv", index=False)


if __name__ == "__main__":
    main(sys.argv[1:])
