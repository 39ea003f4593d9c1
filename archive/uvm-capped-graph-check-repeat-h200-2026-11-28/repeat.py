"""The graph check repeated on another H200 (docs/uvm-capped-validations.md, "The graph check repeated on whichever
H200 is lent"): this call's measured cells over the graph check's archived ones, per design cell, and the registered
decision (call / same / inconclusive) on the two urand graphs' median capped ratio.

    python archive/uvm-capped-graph-check-repeat-h200-2026-11-28/repeat.py

Writes repeat_ratios.csv (per cell: capped, device and cold ratios), repeat_graphs.csv (per graph: the medians) and
repeat_decision.json here, and prints them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
CHECK = HERE.parent / "uvm-capped-graph-check-h200-2026-11-28"
CELL = ["graph", "algorithm", "variant", "edge_bytes", "root", "budget_fraction", "sublaunches"]
COLD = CELL[:5]
E_H200 = 0.03328206438716259  # capped validation 6's registered cost per evicted chunk (its factors.json)
QUESTION = ("urand20s33", "urand20s35")
CALL, SAME = 0.90, (0.95, 1.05)  # the registered bands for the median capped ratio


def ratios() -> pd.DataFrame:
    now, then = pd.read_csv(HERE / "capped_graph_check_cells.csv"), pd.read_csv(CHECK / "capped_graph_check_cells.csv")
    both = now.merge(then, on=CELL, suffixes=("", "_check"), validate="one_to_one")
    cold_now, cold_then = (pd.read_csv(d / "capped_graph_check_cold.csv") for d in (HERE, CHECK))
    cold = cold_now.merge(cold_then, on=COLD, suffixes=("", "_check"), validate="one_to_one")
    cold = cold.assign(cold_ratio=cold["uvm_ms"] / cold["uvm_ms_check"])[COLD + ["cold_ratio"]]
    out = both.assign(
        capped_ratio=both["capped_ms"] / both["capped_ms_check"],
        device_ratio=both["device_ms"] / both["device_ms_check"],
        error_h200=(both["device_ms"] + both["simulated_migration_ms"] + both["tail_ms"]
                    + E_H200 * both["evicted_chunks"]) / both["capped_ms"] - 1,
    )  # fmt: skip
    return out[CELL + ["capped_ms", "capped_ms_check", "capped_ratio", "device_ratio", "error_h200"]].merge(
        cold, on=COLD, how="left"
    )


def decide(graphs: pd.DataFrame) -> dict:
    rho = {g: float(graphs.loc[g, "capped_ratio"]) for g in QUESTION}
    if all(r <= CALL for r in rho.values()):
        verdict = "call"
    elif all(SAME[0] <= r <= SAME[1] for r in rho.values()):
        verdict = "same"
    else:
        verdict = "inconclusive"
    return {"decision": verdict, "rho": rho, "call_if_both_at_most": CALL, "same_if_both_within": list(SAME)}


def main() -> None:
    cells = ratios()
    graphs = cells.groupby("graph")[["capped_ratio", "device_ratio", "cold_ratio"]].median()
    graphs["cells"] = cells.groupby("graph").size()
    graphs["h200_median_abs"] = cells.groupby("graph")["error_h200"].apply(lambda e: e.abs().median())
    graphs["h200_signed_median"] = cells.groupby("graph")["error_h200"].median()
    decision = decide(graphs)
    cells.to_csv(HERE / "repeat_ratios.csv", index=False)
    graphs.reset_index().to_csv(HERE / "repeat_graphs.csv", index=False)
    (HERE / "repeat_decision.json").write_text(json.dumps(decision, indent=2) + "\n")
    print(graphs.round(4).to_string())
    print(f"DECISION: {decision['decision']} (rho {decision['rho']})")


if __name__ == "__main__":
    main()
