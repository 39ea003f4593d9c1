"""The report's "Datasets" section: the paper's Table 2 beside ours and Fig. 6 in numbers.

Table 2 is emogi.datasets.table's CSV (results/figures/table2_datasets.csv, no figure of its own); this module
says which of our graphs are the paper's size and which are scaled stand-ins. Fig. 6's numbers are
figures/fig06_degree_cdf.py's (its report_section).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from emogi.datasets.table import COLUMNS as TABLE2_COLUMNS  # what emogi.datasets.table writes
from emogi.datasets.table import fmt_count
from figures import fig06_degree_cdf
from figures.inputs import ReportError, ReportFigure, report_csv

FULL_SIZE = 1.25  # ours within this factor of the paper's V and E: the paper's size, otherwise a scaled stand-in
FULL_SIZE_TEXT, STAND_IN_TEXT = "paper's size", "scaled stand-in"


def _text(x) -> str | None:
    return x if isinstance(x, str) and x else None


def _bool(x) -> bool | None:
    if pd.isna(x):
        return None
    return str(x).strip().lower() in ("true", "1")


def fraction_of_v(status: str) -> str:
    """'1/16' from a stand-in's status ('scaled stand-in, 1/16 of V')."""
    return status.split(", ", 1)[1].removesuffix(" of V")


def _stand_in(row) -> str | None:
    """'paper's size' or 'scaled stand-in, 1/16 of V' (of the paper's V); None without both sides."""
    if pd.isna(row["vertices"]) or pd.isna(row["paper_vertices"]):
        return None
    v = float(row["vertices"]) / float(row["paper_vertices"])
    e = float(row["edges"]) / float(row["paper_edges"])
    if all(1 / FULL_SIZE <= r <= FULL_SIZE for r in (v, e)):
        return FULL_SIZE_TEXT
    share = f"1/{1 / v:.0f}" if v < 1 else f"{v:.1f}×"
    return f"{STAND_IN_TEXT}, {share} of V"


def table2_section(csv: Path) -> dict:
    """The paper's Table 2 beside ours (emogi.datasets.table's CSV): each cell 'paper / ours'."""
    t = report_csv(csv, "Table 2 (datasets)")
    missing = [c for c in TABLE2_COLUMNS if c not in t.columns]
    if missing:
        raise ReportError(f"report: {csv} lacks columns {missing} (Table 2)")
    both = lambda p, o: f"{p} / {o}"  # noqa: E731
    num = lambda x, d=1: "–" if pd.isna(x) else f"{float(x):.{d}f}"  # noqa: E731
    directed = lambda x: "–" if _bool(x) is None else ("yes" if _bool(x) else "no")  # noqa: E731
    rows, ours, absent = [], [], []
    for _, r in t.iterrows():
        symbol, graph = _text(r["symbol"]), _text(r["graph"])
        status = _stand_in(r)
        rows.append(
            [
                symbol or "–",
                _text(r["paper_graph"]) or "–",
                graph or "(not in this study)",
                both(fmt_count(r["paper_vertices"]), fmt_count(r["vertices"])),
                both(fmt_count(r["paper_edges"]), fmt_count(r["edges"])),
                both(num(r["paper_edge_list_gib"]), num(r["edge_list_gib"])),
                both(num(r["paper_weights_gib"]), num(r["weights_gib"])),
                both(num(r["paper_avg_degree"]), num(r["avg_degree"])),
                both(directed(r["paper_directed"]), directed(r["directed"])),
                status or ("–" if graph is None else "no paper dataset"),
            ]
        )
        if graph is None:
            absent.append(symbol)
        else:
            ours.append({"graph": graph, "symbol": symbol, "source": _text(r["source"]) or "", "status": status})

    def who(o):
        return f"{o['graph']} (for {o['symbol']})" if o["symbol"] else o["graph"]

    stand_ins = [o for o in ours if o["status"] and o["status"].startswith(STAND_IN_TEXT)]
    full = [o for o in ours if o["status"] == FULL_SIZE_TEXT]
    made = "; ".join(f"{who(o)}: {o['source']}" for o in ours)
    parts = [f"This run's graphs: {made}."]
    if stand_ins:
        parts.append(
            "Scaled stand-ins, not the paper's graphs: "
            + "; ".join(
                f"{o['graph']} for {o['symbol']} ({fraction_of_v(o['status'])} of the paper's V)" for o in stand_ins
            )
            + ". Their sizes are not the paper's, nor is whether their edge lists fit in GPU memory (Limitations)."
        )
    if full:
        parts.append("At the paper's size (V and E within 25%): " + ", ".join(who(o) for o in full) + ".")
    if absent:
        parts.append(
            f"Not in this study: {', '.join(absent)}; config/paper.yaml runs all six of the paper's "
            "datasets at their sizes (docs/datasets.md)."
        )
    return {
        "text": " ".join(parts),
        "stand_ins": [o["graph"] for o in stand_ins],
        "full_size": [o["graph"] for o in full],
        "absent": absent,
        "symbols": {o["graph"]: o["symbol"] for o in ours if o["symbol"]},
        "table": {
            "columns": [
                "Sym.",
                "paper's graph",
                "ours",
                "V",
                "E",
                "E size (GiB)",
                "w size (GiB)",
                "avg. degree",
                "directed",
                "ours is",
            ],
            "align": "lll" + "r" * 5 + "ll",
            "rows": rows,
        },
    }


def report_section(table2: Path | None, fig06: ReportFigure | None) -> dict | None:
    """Table 2 (table2_datasets.csv) and Fig. 6, each optional (the report says 'not available' for what is left
    out); Fig. 6's rows name the paper's dataset each graph stands in for, from Table 2."""
    if table2 is None and fig06 is None:
        return None
    t2 = table2_section(table2) if table2 is not None else None
    return {
        "table2": t2,
        "fig06": fig06_degree_cdf.report_section(fig06, t2["symbols"] if t2 else {}) if fig06 is not None else None,
    }
