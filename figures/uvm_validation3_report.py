"""The "Out of GPU memory" section's blocks for the UVM simulator's validation 3 (issue 21; docs/model.md,
"Session-calibrated simulator and validation 3"), from fig_uvm_validation3's CSV: the figure, then per calibration
rule the median and worst |error| over the judged cold-UVM cells against issue 21's targets."""

from __future__ import annotations

from figures import fig_uvm_validation3
from figures.inputs import ReportFigure, report_csv

FIGURE = fig_uvm_validation3.FIGURE
TARGET_MEDIAN, TARGET_WORST = 0.10, 0.25  # issue 21 item 3, out of sample


def _pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def blocks(fig: ReportFigure | None) -> list[dict]:
    """The image and its table; none when the figure was not drawn (no archive/uvm-validation3-* folder)."""
    if fig is None:
        return []
    table = report_csv(fig.csv, f"{FIGURE} numbers")
    rows = []
    for rule, label in fig_uvm_validation3.RULES.items():
        e = table.loc[table["rule"] == rule, "error"].abs()
        met = e.median() <= TARGET_MEDIAN and e.max() <= TARGET_WORST
        verdict = "not a prediction" if rule == "floor" else ("met" if met else "missed")
        rows.append([label, str(len(e)), _pct(e.median()), _pct(e.max()), _pct((e <= TARGET_WORST).mean()), verdict])
    graphs = ", ".join(sorted(set(table["graph"])))
    return [
        {"image": fig.image, "caption": "The UVM simulator's validation 3, registered before its device call "
         "(docs/model.md): cold UVM measured in one call on graphs no earlier session ran in uvm mode ("
         f"{graphs}), predicted as the same call's device-mode time plus the simulated migration of the CPU-derived "
         "trace times one factor per session, measured by that call's own microbenchmarks."},
        {"table": {"columns": ["calibration rule", "cells", "median |error|", "worst |error|", "within 25%",
                               f"targets (≤ {_pct(TARGET_MEDIAN)}, ≤ {_pct(TARGET_WORST)})"],
                   "align": "lrrrrl", "rows": rows},
         "caption": "Validation 3 in numbers: measured cold UVM against the simulator (simulated), each registered "
         "calibration rule; micro is the primary one. The floor's factor is fitted on these very runs: the best "
         "any single factor per session could do, not a prediction."},
    ]  # fmt: skip
