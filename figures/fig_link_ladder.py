"""This project's link ladder (issue 24), predicted: per algorithm a panel, the zero-copy time model.link_ladder
predicts from the graph files alone (log y) on each rung of the ladder of host links (x, in the ladder's order),
one line per graph × variant (colour: graph; solid: the paper's Merged+Aligned, dashed: this project's fastest),
the measured rung (PCIe 5.0: the H100's fitted link with term v2, the H200 session link of the held-out validation
that judged term v12 (v14) or v16 (v16), the ladder's `term` column) drawn as a star off the line. Nothing here was
run.

    python -m figures.fig_link_ladder --ladder results/model/link_ladder.csv --source results/tables/source.json \
        --out results/figures/fig_link_ladder.png [--out-csv results/figures/fig_link_ladder.csv]

--source is the flag every figure takes; the footer names the graph files and the ladder's parameters instead of
measurements, since no point is one. The report's paragraph (report_section) gives each algorithm's gain from
Gen3 to Gen4 to Gen5 from the plotted CSV.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from figures import cli, style
from figures.inputs import FigureDataError, ReportFigure, report_csv
from model.link_ladder import COLUMNS, MEASURED_HERE

FIGURE = "fig_link_ladder"
REPORT_TITLE = "The link ladder, predicted (issue 24)"
DRAWN_FROM = "the link ladder (model.link_ladder on the graph files; no GPU)"
DEFINITION = (
    "t = D/T(d) + floor + chain·L, with D, d and the floor from CPU-derived traces "
    "(python -m model.link_ladder); spec rungs: model/presets.yaml; ★ PCIe 5.0 measured here: W, N_max, L fitted "
    "on this project's H100; the floor (H100 GPU-work costs) is the same on every rung"
)
# the judged terms: term -> the held-out validation that fitted it (model/graph_predict_v12.py)
JUDGED_BY = {"v12": "v14", "v16": "v16"}
DEFINITION_JUDGED = (
    "term {term} as held-out validation {by} fitted it (python -m model.link_ladder --term {term}): t = floor + "
    "η·D/T(d) + h·lists·L/N_max + g·chain·L, traces derived on the CPU; ★ PCIe 5.0 measured here: {by}'s H200 "
    "session link, the judged prediction; spec rungs (model/presets.yaml) reprice zero-copy with the fitted η, h, g, "
    "an extrapolation; the floor (H200 GPU-work costs) is the same on every rung"
)
# term -> the ★ rung's link
MEASURED_LINK = {"v2": "the H100's fitted link"} | {t: f"{by}'s H200 session link" for t, by in JUDGED_BY.items()}
ALGORITHMS = ("bfs", "sssp", "cc", "pagerank")
ROLE_STYLES = {"paper (EMOGI)": "-", "project's fastest": (0, (4, 2))}
GENERATIONS = (("pcie3-x16", "pcie4-x16"), ("pcie4-x16", "pcie5-x16"))  # the report's gains
CSV_COLUMNS = [
    "graph",
    "graph_file",
    "algorithm",
    "variant",
    "role",
    "term",
    "rung_index",
    "preset",
    "rung",
    "basis",
    "W_gbps",
    "d_bytes",
    "T_gbps",
    "bound",
    "transfer_ms",
    "floor_ms",
    "chain_ms",
    "predicted_ms",
    "speedup_vs_slowest",
]


def load_ladder(path, figure: str) -> pd.DataFrame:
    path = Path(path)
    if not path.is_file():
        raise FigureDataError(f"figure {figure} has no data: {path} is missing (python -m model.link_ladder)")
    table = pd.read_csv(path, keep_default_na=True)
    missing = [c for c in COLUMNS if c not in table.columns]
    if missing:
        raise FigureDataError(f"figure {figure}: {path} lacks columns {missing}")
    return table


def compute(ladder: pd.DataFrame) -> pd.DataFrame:
    """The predicted rows (refused ones are left to the footer), with each rung's position in the ladder."""
    done = ladder[ladder["refused"].isna() | (ladder["refused"].astype(str) == "")]
    if done.empty:
        raise FigureDataError(f"figure {FIGURE} has no data: every cell of the ladder was refused")
    order = {p: i for i, p in enumerate(dict.fromkeys(done["preset"]))}
    out = done.assign(rung_index=done["preset"].map(order)).reset_index(drop=True)
    return out[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    algorithms = [a for a in ALGORITHMS if a in set(table["algorithm"])]
    ncols = 2 if len(algorithms) > 2 else len(algorithms)
    nrows = -(-len(algorithms) // ncols)
    fig, axes = style.new_figure(nrows, ncols, panel_height=2.3, footer_lines=4, legend_lines=3, wspace=0.25)
    graphs = list(dict.fromkeys(table["graph"]))
    colors = style.graph_colors(graphs)
    rungs = table.drop_duplicates("rung_index").sort_values("rung_index")
    ticks = [
        ("PCIe 5.0\nmeasured" if r["basis"] != "preset (spec)" else f"{r['rung'].split(',')[0]}\nspec")
        for _, r in rungs.iterrows()
    ]
    for ax in np.ravel(axes)[len(algorithms) :]:
        ax.set_visible(False)
    for ax, algorithm in zip(np.ravel(axes), algorithms):
        rows = table[table["algorithm"] == algorithm]
        fastest = [v for v in dict.fromkeys(rows["variant"]) if v != "merged-aligned"]
        for (graph, variant), cell in rows.groupby(["graph", "variant"], sort=False):
            cell = cell.sort_values("rung_index")
            ls = ROLE_STYLES.get(cell["role"].iloc[0], ":")
            spec, measured = cell[cell["basis"] == "preset (spec)"], cell[cell["basis"] != "preset (spec)"]
            ax.plot(spec["rung_index"], spec["predicted_ms"], color=colors[graph], ls=ls, marker="o", ms=3, lw=1.2)
            for _, m in measured.iterrows():  # off the line: joined to the rung before it by a dotted segment
                before = cell[cell["rung_index"] < m["rung_index"]].tail(1)
                if not before.empty:
                    ax.plot([before["rung_index"].iloc[0], m["rung_index"]],
                            [before["predicted_ms"].iloc[0], m["predicted_ms"]],
                            color=colors[graph], ls=":", lw=0.9)  # fmt: skip
                ax.plot([m["rung_index"]], [m["predicted_ms"]], "*", color=colors[graph], ms=9,
                        markeredgecolor="black", markeredgewidth=0.5, zorder=4)  # fmt: skip
        style.plain_log_axis(ax)
        ax.set_xticks(list(rungs["rung_index"]), ticks, fontsize=7)
        ax.set_xlim(-0.4, len(rungs) - 0.6)
        ax.grid(axis="y", linewidth=0.3, alpha=0.5)
        note = f" (dashed: {', '.join(style.variant_name(v) for v in fastest)})" if fastest else ""
        ax.set_title(f"{style.ALGORITHM_LABELS.get(algorithm, algorithm)}{note}", fontsize=style.FONT_SIZE)
    for row in axes:
        row[0].set_ylabel("predicted time (ms)")
    handles = [Line2D([], [], color=colors[g], lw=2) for g in graphs]
    labels = list(graphs)
    for role, ls in ROLE_STYLES.items():
        handles.append(Line2D([], [], color="black", ls=ls, lw=1.2))
        labels.append("Merged+Aligned (the paper's EMOGI)" if role.startswith("paper") else "this project's fastest")
    handles.append(Line2D([], [], color="grey", marker="*", ls="", ms=9, markeredgecolor="black"))
    labels.append(f"{MEASURED_HERE} ({MEASURED_LINK.get(_term(table), MEASURED_LINK['v2'])})")
    style.legend_on_top(fig, handles, labels, ncol=3)
    files = ", ".join(dict.fromkeys(Path(f).name for f in table["graph_file"]))
    style.footer(fig, f"Every point is predicted (no run) from the graph files {files}.\n{_definition(table)}")
    return fig


def _term(table: pd.DataFrame) -> str:
    """The ladder's GPU-work term (v2 where the table predates the `term` column)."""
    terms = set(table["term"].dropna()) if "term" in table else set()
    return terms.pop() if len(terms) == 1 else "v2"


def _definition(table: pd.DataFrame) -> str:
    term = _term(table)
    return DEFINITION_JUDGED.format(term=term, by=JUDGED_BY[term]) if term in JUDGED_BY else DEFINITION


# --- the report ---------------------------------------------------------------------------------------------
def gains(table: pd.DataFrame) -> pd.DataFrame:
    """Per graph, algorithm and variant: predicted ms per rung and the gain of each generation over the one before
    (GENERATIONS; only where the ladder has both rungs)."""
    wide = table.pivot_table(index=["algorithm", "variant", "graph"], columns="preset", values="predicted_ms")
    for slow, fast in GENERATIONS:
        if slow in wide and fast in wide:
            wide[f"{slow}->{fast}"] = wide[slow] / wide[fast]
    out = wide.reset_index()
    order = out["algorithm"].map({a: i for i, a in enumerate(ALGORITHMS)})
    paper_first = out["variant"] != "merged-aligned"
    return out.assign(_a=order, _v=paper_first).sort_values(["_a", "_v", "variant", "graph"]).drop(columns=["_a", "_v"])


def _range(values) -> str:
    lo, hi = float(np.min(values)), float(np.max(values))
    return f"{lo:.2f}×" if f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}–{hi:.2f}×"


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the ladder; None when the figure was not drawn."""
    if fig is None:
        return None
    table = report_csv(fig.csv, f"{FIGURE} numbers")
    g = gains(table)
    presets = [p for p in ("pcie3-x16", "pcie4-x16", "pcie5-x16", "h100-measured") if p in g]
    steps = [f"{s}->{f}" for s, f in GENERATIONS if f"{s}->{f}" in g]
    sentences = []
    for algorithm in [a for a in ALGORITHMS if a in set(g["algorithm"])]:
        rows = g[g["algorithm"] == algorithm]
        parts = [f"{_range(rows[s])} from Gen{s[4]} to Gen{s.split('->')[1][4]}" for s in steps]
        if parts:
            sentences.append(f"{style.ALGORITHM_LABELS.get(algorithm, algorithm)} gains {' and '.join(parts)}")
    graphs = ", ".join(dict.fromkeys(Path(f).name for f in table["graph_file"]))
    term = _term(table)
    machine = (
        f"the PCIe 5.0 link of held-out validation {JUDGED_BY[term]}'s H200 session, where term {term}'s prediction "
        "is the judged one, the floor that H200's GPU work and the fitted link costs repriced on each preset's link"
        if term in JUDGED_BY
        else "the PCIe 5.0 link as fitted on this project's H100, the floor the H100's GPU work"
    )
    text = (
        f"These are predictions, not measurements: no traversal was run. model.link_ladder derives each "
        f"algorithm's trace from the graph files ({graphs}) on the CPU and predicts its zero-copy time on each "
        f"rung of the ladder (the PCIe presets' specified W, N_max and L, and {machine}; the floor is the same "
        f"on every rung). Over graphs and variants, "
        + "; ".join(sentences)
        + ". Each PCIe generation doubles W; the gain falls short of 2× where the floor and the critical path, which "
        "the link does not shorten, are a large share of the time, or where the latency term N_max·d/L binds "
        "(Gen4 and Gen5 share N_max = 768 tags), and exceeds 2× where Gen3's 256 tags bound the latency term and "
        "Gen4's do not (the bound column of the ladder CSV names the binding term per rung)."
    )
    columns = ["algorithm", "variant", "graph", *presets, *steps]
    rows = [
        [
            style.ALGORITHM_LABELS.get(r["algorithm"], r["algorithm"]),
            style.variant_name(r["variant"]),
            r["graph"],
            *[f"{r[p]:.3g}" for p in presets],
            *[f"{r[s]:.2f}×" for s in steps],
        ]
        for _, r in g.iterrows()
    ]
    heads = {"pcie3-x16": "Gen3 ms", "pcie4-x16": "Gen4 ms", "pcie5-x16": "Gen5 ms", "h100-measured": "Gen5 meas. ms"}
    header = [*columns[:3], *[heads[p] for p in presets], *[f"Gen{s[4]}→{s.split('->')[1][4]}" for s in steps]]
    return {
        "image": fig.image,
        "title": REPORT_TITLE,
        "definition": _definition(table),
        "text": text,
        "table": {"columns": header, "align": "lll" + "r" * (len(header) - 3), "rows": rows},
    }


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Each algorithm's predicted zero-copy time per link rung (issue 24's link ladder)",
        tables=[],
        inputs=[cli.Input("ladder", load_ladder, "link_ladder.csv (python -m model.link_ladder)")],
        compute=compute,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
