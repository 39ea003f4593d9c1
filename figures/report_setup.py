"""The report's account of the measurements themselves: the environment (ours beside the paper's system, with
warnings where source.json and the rows disagree) and what was run (graphs, variants, modes, roots, reps)."""

from __future__ import annotations

import pandas as pd

from emogi.schema import MODES, VARIANTS
from emogi.tables import default_launch, throttled
from figures import style
from figures.report_format import fbytes

NOT_RECORDED = "not recorded"


def environment(source: dict, runs: pd.DataFrame, paper: dict) -> tuple[list, list]:
    """Environment table (ours beside the paper's) and warnings where source.json and runs.csv disagree."""
    warnings = []

    def ours(key, same=str):
        """source.json's value of `key`, checked against the rows; `same` maps a value to what must agree."""
        value = source.get(key)
        recorded = sorted({same(v) for v in runs[key].dropna()}) if key in runs.columns else []
        if value and recorded and same(value) not in recorded:
            warnings.append(f"source.json gives {key} = {value!r} but runs.csv records {', '.join(recorded)}")
        if not value and recorded:
            value = ", ".join(recorded)  # source.json lacks it: the rows still say
        return str(value) if value else NOT_RECORDED

    date = ours("date", same=lambda d: str(d)[:10])  # rows and provenance are stamped minutes apart: compare days
    system = paper["system"]
    rows = [
        ["GPU", ours("gpu"), system["gpu"]["value"]],
        ["Host link", ours("link"), system["link"]["value"]],
        ["Driver", ours("driver"), system["driver"]["value"]],
        ["CUDA", ours("cuda"), system["cuda"]["value"]],
        ["Commit", ours("commit"), "–"],
        # access.cuh's build setting; studies built before it existed (51b3808) had only the artifact's loop.
        [
            "Reads in flight per lane",
            str(source.get("loads_in_flight") or "1 (before 51b3808: not recorded)"),
            "1 (Listing 2)",
        ],
        ["Date", measured_between(runs) or date, paper["paper"]["venue"]],
        ["Host", str(source.get("hostname") or NOT_RECORDED), system["cpu"]["value"]],
        ["Data source", source["source"] + (f" ({source['archive_id']})" if source.get("archive_id") else ""), "–"],
        ["Command", str(source.get("command") or NOT_RECORDED), "–"],
    ]
    return rows, warnings


def measured_between(runs: pd.DataFrame) -> str:
    """'first to last' row timestamps (rows are stamped when measured; source.json when provenance was taken)."""
    if "date" not in runs.columns or runs["date"].dropna().empty:
        return ""
    first, last = str(runs["date"].min()), str(runs["date"].max())
    return first if first == last else f"{first} to {last}"


def what_was_run(runs: pd.DataFrame) -> dict:
    n_throttled = int((throttled(runs)["algorithm"] == "bfs").sum())
    runs = default_launch(runs)  # throttled runs (max_warps > 0) emulate added latency: counted apart
    bfs = runs[runs["algorithm"] == "bfs"]
    per_cfg = bfs.groupby(["graph", "edge_bytes", "variant", "mode"])
    graphs = []
    for (graph, w), g in bfs.groupby(["graph", "edge_bytes"]):
        # largest traversal seen: a lower bound on the edge-list size the runs had to read
        reached = float(g["edges_traversed"].max())
        graphs.append([str(graph), f"{int(w)} B", f"{reached:,.0f}", fbytes(reached * w)])
    order = lambda seq, ref: [x for x in ref if x in set(seq)]  # noqa: E731
    return {
        "algorithms": sorted(map(str, bfs["algorithm"].unique())),
        "graphs": sorted(map(str, bfs["graph"].unique())),
        "variants": order(bfs["variant"], VARIANTS),
        "variant_labels": [style.VARIANT_LABELS[v] for v in order(bfs["variant"], VARIANTS)],
        "modes": order(bfs["mode"], MODES),
        "mode_labels": [style.MODE_LABELS[m] for m in order(bfs["mode"], MODES)],
        "edge_bytes": sorted(int(w) for w in bfs["edge_bytes"].unique()),
        "roots_per_config": int(per_cfg["root"].nunique().min()),
        "reps_per_root": int(bfs.groupby(["graph", "edge_bytes", "variant", "mode", "root"]).size().min()),
        "n_runs": int(len(bfs)),
        "n_throttled_runs": n_throttled,
        "graph_table": {
            "columns": ["graph", "edge width", "edges traversed (max over roots)", "edge bytes read at least"],
            "align": "lrrr",
            "rows": graphs,
        },
    }
