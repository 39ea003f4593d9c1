"""Streamed SpMV against block size (CF'17 Figures 4 and 5 on one GPU; issue 22): per graph, the throughput over
the lists of streamed SpMV at each measured block size (median, min-max bar), CF'17's model of the same blocks
beside it, zero-copy and the CPU as lines, device as a note above the panel (off scale), and the link's W and
0.95 W (issue 22's target) as lines. Where the table has runs of the column layout (--stream-layout columns:
CF'17's column blocks, each copying its row index and slice of x), they are drawn beside the row layout's, squares
with their own model line. Definitions: figures/streamed_data.py.

    python -m figures.fig_streamed_spmv --streamed results/streamed/streamed.csv --link results/streamed/link.csv \
        [--cpu-spmv results/streamed/cpu_spmv.csv] --source results/streamed/source.json \
        --out results/figures/fig_streamed_spmv.png [--out-csv ...]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from figures import cli, streamed_data, style
from figures.inputs import FigureDataError

FIGURE = "fig_streamed_spmv"
TARGET = 0.95  # issue 22: streamed SpMV at >= 0.95 of W
STREAMED_COLOR, MODEL_COLOR, CPU_COLOR, COLUMNS_COLOR = "#009E73", "#555555", "#D55E00", "#CC79A7"
DEFINITION = (
    "GB/s = list bytes (ids and weights) / time, median over reps, bar = min-max; W = max over sizes of the pinned "
    "host-to-device median of the same session; label: GB/s (model error = predicted / measured - 1); model: "
    "CF'17 §3.2.2 (model/streamed.py); CPU: GraphBLAS mxv, fastest thread count"
)


def _cpu_input() -> cli.Input:
    def load(path, figure):
        frame = pd.read_csv(path)
        return frame if not frame.empty else None

    return cli.Input("cpu_spmv", load, "cpu_spmv.csv (emogi.cpu_peer's SpMV rows); optional", required=False)


def compute(streamed: pd.DataFrame, link: pd.DataFrame, cpu: pd.DataFrame | None) -> pd.DataFrame:
    return streamed_data.spmv(streamed, link, cpu)


def layouts(rows: pd.DataFrame) -> pd.Series:
    """--stream-layout of each row ('' where the table predates the column or the row is not streamed)."""
    return rows["layout"].fillna("").astype(str) if "layout" in rows else pd.Series("", index=rows.index)


def _measured(ax, s: pd.DataFrame, marker: str, color: str, label_dy: float) -> None:
    """One layout's streamed runs: median GB/s per block size with min-max bars, a label per point (GB/s and the
    model's error; the blocks are in the report's table), and CF'17's
    model of the same blocks (the row layout's as open diamonds, the column layout's as a dashed line in its
    color)."""
    if s.empty:
        return
    x = s["block_bytes"].to_numpy(float)
    err = [s["gbps"] - s["list_bytes"] / s["time_max_ms"] / 1e6, s["list_bytes"] / s["time_min_ms"] / 1e6 - s["gbps"]]
    ax.errorbar(x, s["gbps"], yerr=err, fmt=marker, color=color, ms=5, capsize=2, zorder=4)
    for xi, gi, e in zip(x, s["gbps"], s["model_error"]):
        ax.annotate(f"{gi:.1f} ({100 * e:+.0f}%)", (xi, gi), (0, label_dy),
                    textcoords="offset points", ha="center", fontsize=style.VALUE_LABEL_SIZE,
                    bbox={"fc": "white", "ec": "none", "alpha": 0.85, "pad": 0.5})  # fmt: skip
    predicted = s["list_bytes"] / s["predicted_ms"] / 1e6
    if marker == "o":
        ax.plot(x, predicted, "D--", mfc="none", color=MODEL_COLOR, ms=4, lw=0.8, zorder=3)
    else:
        ax.plot(x, predicted, "--", color=color, lw=0.8, zorder=3)


def draw(table: pd.DataFrame, source: dict):
    graphs = list(dict.fromkeys(table["graph"]))
    fig, axes = style.new_figure(1, len(graphs), title_lines=5, sharey=True, footer_lines=3, legend_lines=3)
    gpu = streamed_data.short_gpu(table)
    has_columns = bool((layouts(table) == "columns").any())
    for ax, graph in zip(np.ravel(axes), graphs):
        rows = table[table["graph"] == graph]
        streamed = rows[rows["mode"] == "streamed"].sort_values("block_bytes")
        s, c = streamed[layouts(streamed) != "columns"], streamed[layouts(streamed) == "columns"]
        _measured(ax, s, "o", STREAMED_COLOR, 7)
        _measured(ax, c, "s", COLUMNS_COLOR, -13)
        s = s if not s.empty else c  # the title's model and best block: the row layout's where it ran
        w = float(rows["w_gbps"].iloc[0])
        ax.axhline(w, color="black", lw=0.9, zorder=2)
        ax.axhline(TARGET * w, color="black", lw=0.7, ls=":", zorder=2)
        lines = {"zerocopy": (style.MODE_COLORS["zerocopy"], "-."), "cpu": (CPU_COLOR, (0, (4, 2)))}
        for mode, (color, ls) in lines.items():
            m = rows[rows["mode"] == mode]
            if not m.empty:
                ax.axhline(float(m["gbps"].iloc[0]), color=color, ls=ls, lw=1.0, zorder=2)
        dev = rows[rows["mode"] == "device"]
        cpu = rows[rows["mode"] == "cpu"]
        notes = [f"device: {float(dev['gbps'].iloc[0]):.0f} GB/s (off scale)" if not dev.empty else "device: –",
                 "CPU: not measured" if cpu.empty else f"CPU: {float(cpu['gbps'].iloc[0]):.1f} GB/s"]  # fmt: skip
        error = f"{100 * float(s['model_median_abs_error'].iloc[0]):.1f}%"
        if not c.empty and c is not s:
            error += f" (columns {100 * float(c['model_median_abs_error'].iloc[0]):.1f}%)"
        best = s[s["best_block"] == 1]["block_bytes"].iloc[0]
        pbest = s[s["predicted_best"] == 1]["block_bytes"]
        pbest = style.fmt_size(pbest.iloc[0]) if len(pbest) else "–"
        ax.set_title(
            f"{graph}, {int(rows['edge_bytes'].iloc[0])}-byte ids + weights\n{notes[0]}\n{notes[1]}\nmodel: median "
            f"|error| {error}\nbest block: measured {style.fmt_size(best)}, model {pbest}",
            fontsize=style.FONT_SIZE,
        )
        every = streamed["block_bytes"].to_numpy(float)
        style.log2_size_axis(ax, every)
        ax.set_xlim(every.min() / 1.6, every.max() * 1.6)
        ax.set_xlabel("block size (--stream-block-bytes)")
    axes_flat = np.ravel(axes)
    axes_flat[0].set_ylabel("GB/s of lists (list bytes / time)")
    axes_flat[0].set_ylim(0, 1.12 * float(table["w_gbps"].max()))
    handles = [
        Line2D([], [], marker="o", ls="", color=STREAMED_COLOR),
        Line2D([], [], marker="D", ls="--", mfc="none", color=MODEL_COLOR),
        Line2D([], [], color=style.MODE_COLORS["zerocopy"], ls="-."),
        Line2D([], [], color="black"),
        Line2D([], [], color="black", ls=":"),
    ]
    labels = [f"streamed, measured ({gpu})", "CF'17 model (predicted)", f"zero-copy, measured ({gpu})",
              "W (pinned copy, measured)", "0.95 W (issue 22 target)"]  # fmt: skip
    if has_columns:
        handles.append(Line2D([], [], marker="s", ls="--", color=COLUMNS_COLOR))
        labels.append(f"streamed column blocks, measured ({gpu}), and model")
    if (table["mode"] == "cpu").any():  # the CPU's line only where it was measured (the titles say when not)
        handles.append(Line2D([], [], color=CPU_COLOR, ls=(0, (4, 2))))
        labels.append(f"CPU, measured (the {gpu} host)")
    style.legend_on_top(fig, handles, labels, ncol=2)
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Streamed SpMV against block size, with W, zero-copy, device and CF'17's model",
        tables=["streamed", "link", _cpu_input()],
        compute=compute,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["FigureDataError", "compute", "draw", "main"]
