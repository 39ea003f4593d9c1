"""The report's PageRank accuracy block in "Streamed transfers (CF'17)": each result of an archived call against a
tightly converged reference (emogi.pr_accuracy's table), GPU and CPU side by side, so that times under different
stopping rules are read with the accuracy they bought.
"""

from __future__ import annotations

import pandas as pd

from figures import style
from figures.report_format import fms

RULES = {"residual": "every residual ≤ 1e-3", "total-change": "GAP's: total change / V < 1e-4"}


def sci(x: float) -> str:
    return f"{x:.1e}"


def accuracy_blocks(t: pd.DataFrame | None, where: str) -> list[dict]:
    """A paragraph and a table from emogi.pr_accuracy's table archived in `where`; nothing without it."""
    if t is None or t.empty:
        return []
    rows, found = [], []
    for (graph, width), g in t.groupby(["graph", "width"], sort=True):
        for _, r in g.iterrows():
            what = "CPU, " + r["run"] if r["device"] == "cpu" else f"{r['mode'].replace('zerocopy', 'zero-copy')}"
            if r["device"] == "gpu" and r["mode"] == "streamed":
                what += f" ({r['run']})"
            low, high = sci(r["l1_min"]), sci(r["l1_max"])
            spread = low if low == high else f"{low}–{high}"
            rows.append([graph, f"{width}", what, style.variant_short(r["variant"]), RULES.get(r["stop"], r["stop"]),
                         fms(r["median_ms"]), f"{int(r['iterations'])}", spread])  # fmt: skip
        gpu = g[(g["device"] == "gpu") & (g["width"] == 4)]
        gap = g[(g["device"] == "cpu") & (g["stop"] == "total-change")]
        if len(gpu) and len(gap):
            found.append(f"{graph} {sci(gpu['l1_median'].min())}–{sci(gpu['l1_median'].max())} on the GPU against "
                         f"{sci(gap['l1_median'].iloc[0])} under GAP's rule")  # fmt: skip
    text = (
        f"How close each PageRank result lies to the fixed point ({where}, one device call): the L1 distance per "
        "vertex, Σ|x − x*| / V on unnormalised values, to a reference converged in double to a total change / V "
        "below 1e-10 on the same host's CPU. The GPU's rule (every residual ≤ 1e-3, values pushed from below) and "
        "GAP's (total change of normalised scores < 1e-4) buy different accuracies: "
        + "; ".join(found)
        + ". GAP's reference times are for the tighter result; the project's CPU PageRank under the GPU's own rule "
        "is timed beside it."
    )
    return [
        {"text": text},
        {"table": {"columns": ["graph", "id bytes", "run", "variant", "stopping rule", "median ms", "rounds",
                               "L1 / V to x*"], "align": "lrllllrr", "rows": rows},
         "caption": "PageRank results and their distance to a converged reference: GPU medians of 3 verified runs "
         "(L1 over the warm-up and timed runs), CPU medians of 3 (its last result's L1)."},
    ]  # fmt: skip
