"""The other applications of EMOGI §5.4 (BFS, SSSP, CC, PageRank), shared by Figs. 11 and 12: reading the apps
table and the time of each configuration.

A study made before the applications were measured has an empty apps table; both figures then say so on the
page instead of failing, so older archives still give a whole report.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from emogi.schema import ALGORITHMS, APP_COLUMNS
from emogi.tables import TableError, default_launch, read_table, verified_rows
from figures import cli, style
from figures.inputs import FigureDataError
from model.bounds import mean_of_root_medians

ALGORITHM_LABELS = {"bfs": "BFS", "sssp": "SSSP", "cc": "CC", "pagerank": "PR"}
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


def panel_per_graph(table: pd.DataFrame):
    """The page both figures draw on: one panel per graph, side by side. Returns (graphs, algorithms, fig, axes)."""
    graphs = list(dict.fromkeys(table["graph"]))
    fig, axes = style.new_figure(1, len(graphs), title_lines=1, footer_lines=5, sharey=True)
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
    axes[0][0].text(0.5, 0.5, f"{what}: not measured in these tables\n(the apps table is empty: an archive from "
                    "before the applications were measured, or apps.enabled is false)",
                    ha="center", va="center", fontsize=style.TITLE_SIZE)
    style.stamp(fig, source)
    return fig

