"""Streamed PageRank against zero-copy and device (issue 22): per graph (and per CC or SSSP where the table has
streamed runs of them), two panels. Left: the time of each variant
streamed at each block size, zero-copy and device (medians, measured), with CF'17's model of the streamed runs
(◇). Right: the bytes over the link per sweep: streamed copies the whole list every sweep, zero-copy reads only
the lists its kernel reads (a floor: entries x edge bytes; the 32-byte sectors round each list out), which is why
streamed PageRank loses here. Definitions: figures/streamed_data.py.

    python -m figures.fig_streamed_pagerank --streamed results/streamed/streamed.csv \
        --link results/streamed/link.csv --source results/streamed/source.json \
        --out results/figures/fig_streamed_pagerank.png [--out-csv ...]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from figures import cli, streamed_data, style

FIGURE = "fig_streamed_pagerank"
STREAMED_COLORS = ("#009E73", "#66C2A5", "#B2DFD2")  # block sizes, smallest first
DEFINITION = (
    "time = median over reps (bar), measured; ◇ = CF'17's model (model/streamed.py) at the run's sweeps; per sweep: "
    "streamed = bytes copied / sweeps, zero-copy = entries read x edge bytes / iterations (a floor); labels: sweeps"
)


BOX = {"fc": "white", "ec": "none", "pad": 0.4}
MODE_LABELS = {"zerocopy": "zero-copy", "device": "device memory"}
SKIP_HATCH = {"on": "..."}  # streamed with blocks without an active vertex skipped
PANELS = (("time_ms", "time (ms)"), ("link_bytes_per_sweep", "GiB over the link per sweep"))


def compute(streamed: pd.DataFrame, link: pd.DataFrame) -> pd.DataFrame:
    return streamed_data.pagerank(streamed, link)


def _bars(rows: pd.DataFrame) -> list[tuple[str, dict, str, str]]:
    """(label, row selector, colour, hatch) per bar, streamed block sizes first (each with skipping off, then on
    where the table has runs with --stream-skip on: CC and SSSP; the legend then names it)."""
    streamed = rows[rows["mode"] == "streamed"]
    skips = streamed["skip"].fillna("").astype(str)
    blocks = sorted(streamed["block_bytes"].unique())
    bars = []
    for b, skip in sorted(set(zip(streamed["block_bytes"], skips))):
        label = f"streamed {style.fmt_size(b)}" + (f", skipping {skip}" if "on" in set(skips) else "")
        where = {"mode": "streamed", "block_bytes": b} | ({"skip": skip} if skip else {})
        color = STREAMED_COLORS[min(blocks.index(b), len(STREAMED_COLORS) - 1)]
        bars.append((label, where, color, SKIP_HATCH.get(skip, "")))
    for mode in ("zerocopy", "device"):
        bars.append((MODE_LABELS[mode], {"mode": mode}, style.MODE_COLORS[mode], style.MODE_HATCHES[mode]))
    return bars


def draw(table: pd.DataFrame, source: dict):
    graphs = list(dict.fromkeys(zip(table["graph"], table["algorithm"])))
    fig, axes = style.new_figure(len(graphs), 2, title_lines=1, footer_lines=3, legend_lines=3, wspace=0.3)
    gpu = streamed_data.short_gpu(table)
    bars = _bars(table)
    width = 0.8 / len(bars)
    for r, (graph, algorithm) in enumerate(graphs):
        rows = table[(table["graph"] == graph) & (table["algorithm"] == algorithm)]
        variants = [v for v in style.VARIANT_NAMES if v in set(rows["variant"])]
        x = np.arange(len(variants))
        for c, (value, ylabel) in enumerate(
            (("time_ms", "time (ms)"), ("link_bytes_per_sweep", "GiB over the link per sweep"))
        ):
            ax = axes[r][c]
            for i, (_, where, color, hatch) in enumerate(bars):
                if c == 1 and where["mode"] == "device":
                    continue  # device reads nothing over the link
                pick = rows
                for k, v in where.items():
                    pick = pick[pick[k] == v]
                got = [pick[pick["variant"] == v] for v in variants]
                vals = np.array([g[value].iloc[0] if len(g) else np.nan for g in got], float)
                vals = vals / 2**30 if c == 1 else vals
                pos = style.group_bars(ax, x, i, len(bars), width, vals, color, hatch)
                sweeps = [g["sweeps"].iloc[0] if len(g) else np.nan for g in got]
                for p, v, n in zip(pos, vals, sweeps):
                    if np.isfinite(v) and v > 0:  # the value on the time bars, the sweeps on the bytes bars
                        text = f"{v:.0f} ms" if c == 0 else f"{n:.0f} sweeps"
                        ax.text(p, v / 2, text, ha="center", va="center", rotation=90, zorder=4, bbox=BOX,
                                fontsize=style.VALUE_LABEL_SIZE)  # fmt: skip
                if c == 0 and where["mode"] == "streamed":
                    model = [g["predicted_ms"].iloc[0] if len(g) else np.nan for g in got]
                    ax.plot(pos, model, "D", mfc="none", color="black", ms=4, zorder=5)
            ax.set_xticks(x, [style.VARIANT_NAMES[v].removesuffix(" PageRank") for v in variants])
            if c == 1:  # how many times the bytes zero-copy reads the streamed runs copy
                for xi, v in zip(x, variants):
                    per = rows[rows["variant"] == v].set_index("mode")["link_bytes_per_sweep"]
                    if "zerocopy" in per and "streamed" in per:
                        ratio = float(np.min(np.atleast_1d(per["streamed"])) / per["zerocopy"])
                        ax.text(xi, 1.04 * per.max() / 2**30, f"streamed: {ratio:.2f}×\nzero-copy's",
                                ha="center", va="bottom", fontsize=style.VALUE_LABEL_SIZE)  # fmt: skip
                ax.set_ylim(0, 1.2 * rows["link_bytes_per_sweep"].max() / 2**30)
            ax.set_ylabel(ylabel)
            name = style.ALGORITHM_LABELS.get(algorithm, algorithm)
            title = f"{graph} {name}, {int(rows['edge_bytes'].iloc[0])}-byte ids: {ylabel}"
            ax.set_title(title, fontsize=style.FONT_SIZE)
    handles = [Patch(facecolor=col, hatch=h, edgecolor="black", linewidth=0.4) for _, _, col, h in bars]
    labels = [f"{label}, measured ({gpu})" for label, *_ in bars]
    handles.append(Line2D([], [], marker="D", ls="", mfc="none", color="black"))
    labels.append("CF'17 model of the streamed run (predicted)")
    style.legend_on_top(fig, handles, labels, ncol=2)
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Streamed PageRank against zero-copy and device: time and bytes per sweep",
        tables=["streamed", "link"],
        compute=compute,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
