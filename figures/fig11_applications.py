"""Figure 11 analogue: BFS, SSSP, CC and PageRank with EMOGI against UVM.

One panel per graph; for each application, the speedup over the UVM baseline of
  EMOGI           the paper's Merged+Aligned kernel, zero-copy (the paper's bar);
  fastest         the fastest variant measured in a zero-copy mode (this project's own kernels, e.g. frontier
                  queues, direction-optimising BFS, Afforest CC), if it is not Merged+Aligned itself;
  device          the fastest variant with the edge list in GPU memory (what fits there needs no link).
The UVM baseline's time (and which variant it is) is written under each group's name, as the paper writes it on
its UVM bars; the variant of each fastest and device bar is written on the bar, and a key under the legend spells
out the short names (emogi/registry.yaml: `short`, `label`).

Definitions (also in the figure footer):
  time          per (graph, algorithm, edge_bytes, variant, mode) = mean over roots of the per-root median over
                reps (BFS, SSSP); the median over reps (CC, PageRank: no root); default launches only
  UVM baseline  per (graph, algorithm) = the fastest variant's time in uvm mode (conservative, as in Fig. 9)
  speedup       UVM baseline time / time

    python -m figures.fig11_applications --apps results/tables/apps.csv --source results/tables/source.json \
        --out results/figures/fig11_applications.png [--out-csv ...] [--edge-bytes 8]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from matplotlib.patches import Patch
from matplotlib.transforms import ScaledTranslation

from emogi.schema import ZERO_COPY_MODES
from figures import applications as apps_lib
from figures import cli, style
from figures.inputs import FigureDataError

FIGURE = "fig11"
BARS = ("emogi", "fastest", "device")
BAR_LABELS = {
    "emogi": "EMOGI (M+A = Merged+Aligned, zero-copy)",
    "fastest": "fastest variant, zero-copy (named on its bar)",
    "device": "fastest variant, edge list in GPU memory (named on its bar)",
}
NAMED_BARS = ("fastest", "device")  # bars whose variant differs from group to group: each is named on the bar
UVM_LABEL = "UVM baseline (= 1): fastest variant in UVM mode, under each group"
KEY_WIDTH = 110  # characters per line of the key to the short names
BAR_COLORS = {
    "emogi": style.VARIANT_COLORS["merged-aligned"],
    "fastest": style.MODE_COLORS["zerocopy"],
    "device": style.MODE_COLORS["device"],
}
BAR_HATCHES = {"emogi": "xx", "fastest": "", "device": "//"}
DEFINITION = (
    "time = mean over roots of the per-root median over reps (CC, PR: median over reps); speedup = UVM "
    "baseline time / time, UVM baseline = fastest variant in uvm mode (its time and variant under each group's name)"
)
CSV_COLUMNS = [
    "graph",
    "algorithm",
    "edge_bytes",
    "bar",
    "variant",
    "mode",
    "time_ms",
    "n_roots",
    "uvm_baseline_ms",
    "uvm_baseline_variant",
    "speedup",
]


def _fastest(times: pd.DataFrame, keys) -> pd.DataFrame:
    return times.loc[times.groupby(keys)["time_ms"].idxmin()]


def speedups(apps: pd.DataFrame, edge_bytes: int = 8) -> pd.DataFrame:
    """The plotted numbers, one row per (graph, algorithm, bar); empty when the apps table is."""
    times = apps_lib.app_times(apps)
    if times.empty:
        return pd.DataFrame(columns=CSV_COLUMNS)
    widths = sorted(set(times["edge_bytes"]))
    if edge_bytes not in widths:
        raise FigureDataError(
            f"figure {FIGURE}: no {edge_bytes}-byte runs in the apps table (it has "
            f"{widths}); pass --edge-bytes or add {edge_bytes} to apps.edge_bytes"
        )
    times = times[times["edge_bytes"] == edge_bytes]
    keys = ["graph", "algorithm", "edge_bytes"]
    uvm = times[times["mode"] == "uvm"]
    if uvm.empty:
        raise FigureDataError(f"figure {FIGURE}: the apps table has no uvm runs (the baseline); add uvm to apps.modes")
    base = _fastest(uvm, keys)[keys + ["time_ms", "variant"]].rename(
        columns={"time_ms": "uvm_baseline_ms", "variant": "uvm_baseline_variant"}
    )
    zero_copy = times[times["mode"].isin(ZERO_COPY_MODES)]
    bars = {
        "emogi": zero_copy[(zero_copy["variant"] == apps_lib.PAPER_VARIANT) & (zero_copy["mode"] == "zerocopy")],
        "fastest": _fastest(zero_copy, keys) if not zero_copy.empty else zero_copy,
        "device": _fastest(times[times["mode"] == "device"], keys),
    }
    frames = [rows.assign(bar=bar) for bar, rows in bars.items() if not rows.empty]
    out = pd.concat(frames, ignore_index=True).merge(base, on=keys, how="inner")
    # the fastest zero-copy variant is drawn only where it is not EMOGI's own bar
    out = out[~((out["bar"] == "fastest") & (out["variant"] == apps_lib.PAPER_VARIANT) & (out["mode"] == "zerocopy"))]
    out["speedup"] = out["uvm_baseline_ms"] / out["time_ms"]
    order = {a: i for i, a in enumerate(apps_lib.algorithms_in(out))}
    out = out.assign(_a=out["algorithm"].map(order), _b=out["bar"].map(BARS.index))
    return out.sort_values(["graph", "_a", "_b"], ignore_index=True)[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    if table.empty:
        return apps_lib.not_measured(source, "Figure 11 (applications against UVM)")
    key_lines = style.variant_key(
        [apps_lib.PAPER_VARIANT]
        + list(table.loc[table["bar"].isin(NAMED_BARS), "variant"])
        + list(table["uvm_baseline_variant"]),
        KEY_WIDTH,
    )
    graphs, algorithms, fig, axes = apps_lib.panel_per_graph(table, legend_lines=2 + len(key_lines))
    bar_w = 0.8 / len(BARS)
    x = np.arange(len(algorithms))
    named = []  # (ax, x, speedup, variant) of each bar that carries its variant's name
    for col, graph in enumerate(graphs):
        ax, rows = axes[0][col], table[table["graph"] == graph]
        for i, bar in enumerate(BARS):
            vals = np.array([_value(rows, a, bar) for a in algorithms])
            pos = style.group_bars(ax, x, i, len(BARS), bar_w, vals, BAR_COLORS[bar], BAR_HATCHES[bar])
            style.label_bars(ax, pos, vals, style.speedup_text, lambda v: v * 1.04)
            if bar in NAMED_BARS:
                named += [(ax, p, v, _variant(rows, a, bar)) for p, v, a in zip(pos, vals, algorithms)]
        ax.axhline(1.0, **style.REFERENCE_LINE)
        style.plain_log_axis(ax)
        # under each group's name: the UVM baseline, its time (the paper writes it on its UVM bars) and its variant
        ax.set_xticks(x, [_tick(rows, a) for a in algorithms])
        ax.set_title(f"{graph}, {int(rows['edge_bytes'].iloc[0])}-byte edges")
        if col == 0:
            ax.set_ylabel("speedup over UVM (×)")
    lo, hi = table["speedup"].min(), table["speedup"].max()
    axes[0][0].set_ylim(min(lo, 1.0) / 1.6, max(hi, 1.0) * 1.8)  # room above the bars for their labels
    for ax, p, v, variant in named:
        if np.isfinite(v) and variant:
            _name_bar(fig, ax, p, v, variant)
    handles = [Patch(facecolor=BAR_COLORS[b], hatch=BAR_HATCHES[b], edgecolor="black", linewidth=0.4) for b in BARS]
    labels = [BAR_LABELS[b] for b in BARS]
    style.legend_on_top(fig, handles + [style.reference_handle()], labels + [UVM_LABEL])
    if key_lines:  # the short names spelled out below the legend, in the room left for them
        top_in = style.LEGEND_HEIGHT_IN + 0.02
        fig.text(
            0.5,
            1 - top_in / fig.get_figheight(),
            "\n".join(key_lines),
            ha="center",
            va="top",
            fontsize=style.FOOTER_SIZE + 0.5,
        )
    style.stamp(fig, source, DEFINITION)
    return fig


def _name_bar(fig, ax, x: float, v: float, variant: str) -> None:
    """The variant's short name on its bar: upright inside the bar from its foot when it fits there, else above
    the bar's value label."""
    text = ax.text(
        x,
        ax.get_ylim()[0],
        style.variant_short(variant),
        rotation=90,
        ha="center",
        va="bottom",
        fontsize=style.VALUE_LABEL_SIZE + 0.5,
        zorder=4,
        bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.6, "alpha": 0.85},
    )
    text.set_y(ax.get_ylim()[0] * 1.08)
    renderer = fig.canvas.get_renderer()
    need = text.get_window_extent(renderer).height
    have = ax.transData.transform((x, v))[1] - ax.transData.transform((x, ax.get_ylim()[0] * 1.08))[1]
    if need > 0.95 * have:  # too short a bar: above its value label (label_bars writes it at v * 1.04)
        text.set_y(v * 1.04)
        text.set_va("bottom")
        text.set_transform(ax.transData + ScaledTranslation(0, 9 / 72, fig.dpi_scale_trans))


def _value(rows: pd.DataFrame, algorithm: str, bar: str) -> float:
    hit = rows[(rows["algorithm"] == algorithm) & (rows["bar"] == bar)]
    return float(hit["speedup"].iloc[0]) if len(hit) else np.nan


def _tick(rows: pd.DataFrame, algorithm: str) -> str:
    hit = rows[rows["algorithm"] == algorithm]
    lines = [apps_lib.ALGORITHM_LABELS[algorithm]]
    if not len(hit):  # e.g. CC on a directed graph, which the workflow skips
        return lines[0] + "\nnot run"
    base = str(hit["uvm_baseline_variant"].iloc[0])
    lines += [f"UVM ({style.variant_short(base)})", apps_lib.time_text(float(hit["uvm_baseline_ms"].iloc[0]))]
    return "\n".join(lines)


def _variant(rows: pd.DataFrame, algorithm: str, bar: str) -> str:
    hit = rows[(rows["algorithm"] == algorithm) & (rows["bar"] == bar)]
    return str(hit["variant"].iloc[0]) if len(hit) else ""


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Figure 11 analogue: applications against UVM",
        tables=[apps_lib.APPS_INPUT],
        compute=speedups,
        draw=draw,
        options=[cli.Option("edge_bytes", int, 8, "edge width to plot")],
    )


if __name__ == "__main__":
    sys.exit(main())
