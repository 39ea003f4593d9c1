"""Issue 24's held-out validation (model/holdout.py): per algorithm, each cell's predicted time against its
measured median, log-log, the held-out cells filled and the train cells hollow, colour by memory mode, marker by
edge width; the diagonal and issue 24's worst-case band (±15%); each panel's title gives the held-out median and
worst |error| against the targets.

    python -m figures.fig_holdout --holdout holdout_cells.csv --source source.json --out fig_holdout.png [--out-csv ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from figures import cli, style
from figures.inputs import FigureDataError, ReportFigure, report_csv
from model.holdout import summary
from model.holdout_split import HELD_OUT, TARGET_MEDIAN, TARGET_WORST, TRAIN

FIGURE = "fig_holdout"
REPORT_TITLE = "The model on graphs it has not seen (held-out validation)"
COLUMNS = ["split", "graph", "algorithm", "variant", "mode", "edge_bytes", "measured_ms", "predicted_ms", "error"]
SPREAD = ["iterations_min", "iterations_max", "slowest_ms", "spread"]  # the rounds (v6 on), the runs (v8)
MARKERS = {8: "o", 4: "s"}
DEFINITION = ("error = predicted / measured - 1, measured = the median of a cell's runs (from split v8 on: their min); "
              "predicted from the graph file and the session's "
              "microbenchmarks, GPU-work costs fitted on the train graphs' device cells "
              "(docs/predictor.md)")  # fmt: skip


def load_cells(path, figure: str) -> pd.DataFrame:
    path = Path(path)
    if not path.is_file():
        raise FigureDataError(f"figure {figure} has no data: {path} is missing (python -m model.holdout)")
    table = pd.read_csv(path)
    missing = [c for c in COLUMNS if c not in table.columns]
    if missing:
        raise FigureDataError(f"figure {figure}: {path} lacks columns {missing}")
    return table


def compute(cells: pd.DataFrame) -> pd.DataFrame:
    if cells.empty:
        raise FigureDataError(f"figure {FIGURE} has no data: no judged cell")
    spread = [c for c in SPREAD if c in cells.columns]  # split v6's cells carry the rounds' spread
    return cells[[*COLUMNS, *spread]].reset_index(drop=True)


def draw(table: pd.DataFrame, source: dict):
    algorithms = [a for a in style.ALGORITHM_LABELS if a in set(table["algorithm"])]
    ncols = min(2, len(algorithms))
    fig, axes = style.new_figure(-(-len(algorithms) // ncols), ncols, title_lines=2, footer_lines=3, hspace=0.5)
    for ax, algorithm in zip(np.ravel(axes), algorithms):
        rows = table[table["algorithm"] == algorithm]
        for (split, mode, width), g in rows.groupby(["split", "mode", "edge_bytes"]):
            held = split == "held-out"
            color = style.MODE_COLORS.get(mode, "#777777")
            ax.scatter(g["measured_ms"], g["predicted_ms"], s=16 if held else 10, marker=MARKERS.get(width, "o"),
                       facecolors=color if held else "none", edgecolors=color, linewidths=0.7, zorder=3)  # fmt: skip
        lo = float(min(rows["measured_ms"].min(), rows["predicted_ms"].min())) / 1.5
        hi = float(max(rows["measured_ms"].max(), rows["predicted_ms"].max())) * 1.5
        x = np.array([lo, hi])
        ax.plot(x, x, color="black", lw=0.8)
        for f in (0.85, 1.15):
            ax.plot(x, f * x, color="black", lw=0.5, ls="--")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_xlabel("measured (ms)")
        ax.set_ylabel("predicted (ms)")
        ax.minorticks_off()
        held = rows[rows["split"] == "held-out"]["error"].abs()
        title = style.ALGORITHM_LABELS.get(algorithm, algorithm)
        if len(held):
            title += f"\nheld out: median {100 * held.median():.1f}% (≤5%), worst {100 * held.max():.1f}% (≤15%)"
        ax.set_title(title, fontsize=style.FONT_SIZE)
    modes = list(dict.fromkeys(table["mode"]))
    handles = [Line2D([], [], ls="", marker="o", color=style.MODE_COLORS.get(m, "#777777")) for m in modes]
    labels = [style.MODE_SHORT_LABELS.get(m, m) for m in modes]
    handles += [Line2D([], [], ls="", marker="o", color="black"), Line2D([], [], ls="", marker="o", color="black",
                                                                         markerfacecolor="none")]  # fmt: skip
    labels += ["held out (filled)", "train (hollow)"]
    handles += [Line2D([], [], ls="", marker=MARKERS[w], color="grey") for w in (8, 4)]
    labels += ["8-byte ids", "4-byte ids"]
    handles.append(Line2D([], [], color="black", ls="--", lw=0.5))
    labels.append("±15%")
    style.legend_on_top(fig, handles, labels, ncol=4)
    style.stamp(fig, source, DEFINITION)
    return fig


def report_section(fig: ReportFigure | None) -> dict | None:
    """The report's paragraph and table for the held-out validation; None when the figure was not drawn."""
    intro = (
        "Every cell of one device session predicted from its graph file and that session's microbenchmarks alone "
        "(model/holdout.py; the split was written down in docs/predictor.md before the session): the GPU-work costs "
        "fitted on the train graphs' device cells (kron and urand at scales 20-22), then judged on graphs the fit "
        "never saw (scales 23 and 24, an R-MAT graph of other skew and density, the real cnr-2000)."
    )
    return judged_section(fig, FIGURE, REPORT_TITLE, intro)


def split_graphs_text(graphs: dict[str, dict], measured: set[str]) -> str:
    """Which graphs of a registered split (a model.holdout_split_v* GRAPHS table) each split holds in `measured`,
    and which registered graphs the session did not measure (left out and named, not replaced, as
    docs/predictor.md says)."""
    parts = []
    for split, label in ((TRAIN, "train"), (HELD_OUT, "held out")):
        got = [g for g, e in graphs.items() if e["split"] == split and g in measured]
        parts.append(f"{label}: {', '.join(got) or 'none'}")
    missing = [g for g in graphs if g not in measured]
    left = f"; registered but not measured (left out): {', '.join(missing)}" if missing else ""
    return "; ".join(parts) + left


def judged_section(fig: ReportFigure | None, figure: str, title: str, intro: str) -> dict | None:
    """A held-out judgement's report section: `intro`, then whether issue 24's targets are met per algorithm, and
    the table of median and worst |error| per split, algorithm and mode; None when the figure was not drawn."""
    if fig is None:
        return None
    s = summary(report_csv(fig.csv, f"{figure} numbers"))
    s = s[s["algorithm"] != "all"]  # per algorithm, as the targets are
    held = s[(s["split"] == "held-out") & (s["mode"] == "all")]
    met = held[held["met"]]
    pct = lambda v: f"{100 * v:.1f}%"  # noqa: E731
    text = (
        f"{intro} Issue 24's targets, median ≤ {pct(TARGET_MEDIAN)} and worst ≤ {pct(TARGET_WORST)} over each "
        f"algorithm's held-out cells, are met for {len(met)} of {len(held)} algorithms"
        + (f" ({', '.join(style.ALGORITHM_LABELS.get(a, a) for a in met['algorithm'])})." if len(met) else ".")
    )
    order = {"held-out": 0, "train": 1}
    s = s.sort_values(["split", "algorithm", "mode"], key=lambda c: c.map(order) if c.name == "split" else c)
    rows = [[r["split"], style.ALGORITHM_LABELS.get(r["algorithm"], r["algorithm"]),
             style.MODE_SHORT_LABELS.get(r["mode"], r["mode"]), str(r["cells"]), pct(r["median"]), pct(r["worst"])]
            for _, r in s.iterrows()]  # fmt: skip
    return {
        "image": fig.image,
        "title": title,
        "definition": DEFINITION,
        "text": text,
        "table": {
            "columns": ["split", "app", "mode", "cells", "median |error|", "worst |error|"],
            "align": "lllrrr",
            "rows": rows,
        },  # fmt: skip
    }


def gauss_seidel_text(cells: pd.DataFrame) -> str:
    """Gauss-Seidel PageRank's held-out device cells: each one's error and its runs' rounds, min-max (splits v6 on
    register it beside the error); empty where the cells have no rounds."""
    gs = cells[(cells["algorithm"] == "pagerank") & (cells["variant"] == "gauss-seidel") & (cells["mode"] == "device")
               & (cells["split"] == HELD_OUT)].sort_values(["graph", "edge_bytes"])  # fmt: skip
    if gs.empty or "iterations_min" not in gs:
        return ""
    each = [f"{r.graph} w{r.edge_bytes} {100 * r.error:+.1f}% ({r.iterations_min:.0f}-{r.iterations_max:.0f} rounds)"
            for r in gs.itertuples()]  # fmt: skip
    return (" Gauss-Seidel PageRank in device memory, held out, with its rounds over the repetitions (not predictable "
            f"from the traces, registered to be reported beside the error): {'; '.join(each)}.")  # fmt: skip


def split_section(fig: ReportFigure | None, figure: str, title: str, graphs: dict[str, dict], intro: str):
    """A registered split's report section (fig_holdout_v3 and later): `intro` with "{graphs}" replaced by which
    graphs of the split's GRAPHS table the judged cells hold (split_graphs_text); None when the figure was not
    drawn."""
    if fig is None:
        return None
    measured = set(report_csv(fig.csv, f"{figure} numbers")["graph"])
    return judged_section(fig, figure, title, intro.replace("{graphs}", split_graphs_text(graphs, measured)))


def split_main(argv, figure: str, split: str) -> int:
    """A registered split's figure (fig_holdout_v3 and later): this figure from that split's judged cells
    (python -m model.holdout --split `split`)."""
    return cli.figure_main(
        argv,
        figure=figure,
        description=f"Predicted against measured time, the held-out cells marked (issue 24, split {split})",
        tables=[],
        inputs=[cli.Input("holdout", load_cells, f"holdout_cells.csv (python -m model.holdout --split {split})")],
        compute=compute,
        draw=draw,
    )


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Predicted against measured time, the held-out cells marked (issue 24)",
        tables=[],
        inputs=[cli.Input("holdout", load_cells, "holdout_cells.csv (python -m model.holdout)")],
        compute=compute,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
