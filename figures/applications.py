"""The other applications of EMOGI §5.4 (BFS, SSSP, CC, PageRank), shared by Figs. 11 and 12: reading the apps
table, the time of each configuration and the report's section on both figures.

A study made before the applications were measured has an empty apps table; both figures then say so on the
page instead of failing, so older archives still give a whole report.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from emogi.schema import ALGORITHMS, APP_COLUMNS, WEIGHT_BYTES
from emogi.tables import TableError, default_launch, read_table, verified_rows
from figures import cli, style
from figures.inputs import FigureDataError, ReportFigure
from figures.report_format import fbytes, fms, fx, paper_value, summary_of
from model.bounds import mean_of_root_medians

ALGORITHM_LABELS = style.ALGORITHM_LABELS  # emogi/registry.yaml
PAPER_VARIANT = "merged-aligned"  # what the paper calls EMOGI
KEYS = ["graph", "algorithm", "edge_bytes", "variant", "mode"]


def load_apps(path, figure: str) -> pd.DataFrame:
    """The apps table; a missing or empty one comes back empty (the figure says it was not measured)."""
    try:
        return read_table(path, "apps")
    except TableError as e:
        if e.state == "columns":
            raise FigureDataError(f"figure {figure}: {e}") from None
        return pd.DataFrame(columns=APP_COLUMNS)


APPS_INPUT = cli.Input("apps", load_apps, "apps.csv (schema table 'apps'); empty: the figure says so")


def app_times(apps: pd.DataFrame) -> pd.DataFrame:
    """Time per KEYS: the mean over roots of the per-root median over reps (as Fig. 9 does for BFS; CC and
    PageRank have no root, so their time is the median over reps). Default launches, verified rows only."""
    runs = verified_rows(default_launch(apps)).copy()
    if runs.empty:
        return pd.DataFrame(columns=KEYS + ["time_ms", "n_roots", "n_reps_min"])
    runs["root"] = pd.to_numeric(runs["root"], errors="coerce").fillna(-1)  # CC, PageRank: one placeholder root
    runs["edge_bytes"] = runs["edge_bytes"].astype(int)
    return mean_of_root_medians(runs, KEYS)


def algorithms_in(table: pd.DataFrame) -> list[str]:
    """The algorithms present, in the paper's order (BFS, SSSP, CC, PR)."""
    present = set(table["algorithm"])
    return [a for a in ALGORITHMS if a in present]


def panel_per_graph(table: pd.DataFrame, legend_lines: int = 2):
    """The page both figures draw on: one panel per graph, side by side. Returns (graphs, algorithms, fig, axes)."""
    graphs = list(dict.fromkeys(table["graph"]))
    fig, axes = style.new_figure(1, len(graphs), title_lines=1, footer_lines=5, legend_lines=legend_lines, sharey=True)
    return graphs, algorithms_in(table), fig, axes


def time_text(ms: float) -> str:
    """A time as the paper writes it on its bars: three digits, in ms below a second and in s above."""
    if not np.isfinite(ms):
        return "n/a"
    return f"{ms:.3g} ms" if ms < 1e3 else f"{ms / 1e3:.3g} s"


def not_measured(source: dict, what: str):
    """A page saying that the data behind `what` are not in these tables (an older archive, or apps disabled)."""
    fig, axes = style.new_figure(1, 1, panel_height=1.2, legend_lines=0)
    axes[0][0].set_axis_off()
    axes[0][0].text(
        0.5,
        0.5,
        f"{what}: not measured in these tables\n(the apps table is empty: an archive from "
        "before the applications were measured, or apps.enabled is false)",
        ha="center",
        va="center",
        fontsize=style.TITLE_SIZE,
    )
    style.stamp(fig, source)
    return fig


# --- in the report: Figs. 11 and 12 -------------------------------------------------------------------------
def _mib(text) -> float:
    """'81559 MiB' (provenance's gpu_memory) in bytes; NaN when not recorded."""
    m = re.match(r"\s*([0-9.]+)\s*MiB", str(text or ""))
    return float(m.group(1)) * 2**20 if m else math.nan


def fits_text(runs: pd.DataFrame, source: dict) -> str:
    """Whether the study's edge lists (with SSSP's weights) fit in the GPU's memory, and what that does to UVM."""
    bfs = default_launch(runs)
    bfs = bfs[bfs["algorithm"] == "bfs"]
    with_weights = bfs["edge_bytes"] + WEIGHT_BYTES["sssp"]
    largest = float((bfs["edges_traversed"] * with_weights).max()) if len(bfs) else math.nan
    memory = _mib(source.get("gpu_memory"))
    if not (math.isfinite(largest) and math.isfinite(memory)):
        return ""
    if largest < memory:
        return (
            f"Our largest edge list with its weights (at least {fbytes(largest)}) fits in this GPU's "
            f"{fbytes(memory)} of memory: a cold UVM run migrates each page once and then reads it in GPU memory, "
            "so the applications that sweep the edge list many times (PageRank, CC's label propagation, SSSP's "
            "repeated scans) pay the page faults once and then run at in-memory speed. The paper's graphs "
            "exceeded the memory of its V100 (16 GB as sold), so its UVM baseline had to evict and fetch again on "
            "every sweep; ours does not, and cannot here: oversubscribing managed memory can hang a shared GPU "
            "(the workflow refuses it unless measure.allow_managed_oversubscription is set on a GPU of one's own)."
        )
    return (
        f"Our largest edge list with its weights (at least {fbytes(largest)}) exceeds this GPU's "
        f"{fbytes(memory)} of memory, as the paper's did: UVM must evict pages and fetch them again on every sweep."
    )


def report_section(
    fig11: ReportFigure | None, fig12: ReportFigure | None, paper: dict, runs: pd.DataFrame, source: dict
) -> dict | None:
    """EMOGI §5.4: Figs. 11 and 12 with the paper's means beside ours; None without both figures."""
    if not (fig11 and fig12):
        return None
    t11, t12 = pd.read_csv(fig11.csv), pd.read_csv(fig12.csv)
    section = {"fig11": fig11.image, "fig12": fig12.image, "measured": bool(len(t11))}
    if t11.empty:
        return section
    p = paper["apps"]
    label = {"bfs": "BFS", "sssp": "SSSP", "cc": "CC", "pagerank": "PageRank"}
    algorithms = [x for x in ALGORITHMS if x in set(t11["algorithm"])]

    def mean(t, column, **where):
        return summary_of(t, column, "mean", **where)

    emogi, fastest, device = (t11[t11["bar"] == b] for b in ("emogi", "fastest", "device"))
    rows = [
        [
            "EMOGI over UVM, mean over graphs and applications",
            paper_value(p["emogi_over_uvm"], fx),
            fx(mean(emogi, "speedup")),
            p["emogi_over_uvm"]["section"],
        ]
    ]
    rows += [[f"  {label[x]}", "–", fx(mean(emogi, "speedup", algorithm=x)), ""] for x in algorithms]
    rows += [
        [
            "fastest zero-copy variant over UVM, mean",
            "–",
            fx(
                mean(
                    pd.concat([emogi, fastest]).groupby(["graph", "algorithm"])["speedup"].max().reset_index(),
                    "speedup",
                )
            ),
            "",
        ],
        ["edge list in GPU memory over UVM, mean", "–", fx(mean(device, "speedup")), ""],
    ]
    if len(t12):
        rows.append(
            [
                "EMOGI, 4-byte over 8-byte edges, mean",
                paper_value(p["four_over_eight"], fx),
                fx(float(t12["speedup"].mean())),
                p["four_over_eight"]["section"],
            ]
        )
        rows += [
            [
                f"  {label[x]} (bytes per edge: {fx(mean(t12, 'byte_ratio', algorithm=x), 1)})",
                "–",
                fx(mean(t12, "speedup", algorithm=x)),
                "",
            ]
            for x in algorithms
            if x in set(t12["algorithm"])
        ]
    per_graph = []
    for (graph, algorithm), g in t11.groupby(["graph", "algorithm"], sort=False):
        base = str(g["uvm_baseline_variant"].iloc[0])
        cells = [
            str(graph),
            label[algorithm],
            f"{style.variant_name(base)}, {fms(float(g['uvm_baseline_ms'].iloc[0]))} ms",
        ]
        for bar in ("emogi", "fastest", "device"):
            hit = g[g["bar"] == bar]
            if len(hit):
                r = hit.iloc[0]
                name = "" if bar == "emogi" else f"{style.variant_name(r['variant'])}: "
                cells.append(f"{name}{fms(float(r['time_ms']))} ms ({fx(float(r['speedup']))})")
            else:
                cells.append("–")
        per_graph.append(cells)
    slower = emogi[emogi["speedup"] < 1]
    below = [f"{label[r.algorithm]} on {r.graph} ({fx(float(r.speedup))})" for r in slower.itertuples()]
    return {
        **section,
        "comparison": {
            "columns": ["quantity", "paper (V100, PCIe 3.0)", "ours", "paper section"],
            "align": "lrrl",
            "rows": rows,
        },
        "per_graph": {
            "columns": [
                "graph",
                "application",
                "UVM baseline",
                "EMOGI (Merged+Aligned, zero-copy)",
                "fastest zero-copy",
                "edge list in GPU memory",
            ],
            "align": "llllll",
            "rows": per_graph,
        },
        "fits": fits_text(runs, source),
        "below_uvm": ("EMOGI is slower than UVM here for " + ", ".join(below) + ".") if below else "",
        "iterative_quote": p["iterative_lower"]["quote"],
    }
