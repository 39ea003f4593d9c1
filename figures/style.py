"""Shared look of every figure: colours, hatches and labels, sizes, axes, legends, the source footer and
atomic saving.

Figure scripts are functions of the measurement tables (read through figures.inputs, run through figures.cli):
they import this module for how a figure looks, and nothing else decides it.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # figures are built on machines without a display (workflow, CI, the GPU host)

import matplotlib.pyplot as plt  # noqa: E402  (must follow the backend choice)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

from emogi import atomic  # noqa: E402
from emogi.atomic import atomic_path  # noqa: E402
from emogi.registry import vocabulary  # noqa: E402
from emogi.schema import MICRO_MODES, MODES, TOY_PATTERNS, VARIANTS  # noqa: E402
from figures.inputs import source_label  # noqa: E402

# --- colours, hatches and labels, from emogi/registry.yaml (in its order) -------------------------------------
# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies; hatches keep them apart in
# greyscale print. The paper's variants and modes are drawn; the others have a short name at most.
_V = vocabulary()
VARIANT_COLORS = _V.styled("variants", "color", VARIANTS)
VARIANT_HATCHES = _V.styled("variants", "hatch", VARIANTS)
VARIANT_LABELS = _V.styled("variants", "label", VARIANTS)
VARIANT_TICKS = _V.styled("variants", "tick", VARIANTS)  # narrow panels
VARIANT_SHORT = _V.styled("variants", "short")  # every variant that has one (Fig. 11's bar labels)
VARIANT_NAMES = _V.styled("variants", "label")  # every variant's label, the project's own included
VARIANT_MARKERS = _V.styled("variants", "marker", VARIANTS)

MODE_COLORS = _V.styled("modes", "color", MODES)
MODE_HATCHES = _V.styled("modes", "hatch", MODES)
MODE_LABELS = _V.styled("modes", "label", MODES)
MODE_SHORT_LABELS = _V.styled("modes", "short", MODES)  # table headers
# Microbenchmarks: allocations are named like memory modes (MODE_* above); the rest is theirs.
MODE_MARKERS = _V.styled("modes", "marker", MODES)
ALGORITHM_LABELS = {a.name: a.label for a in _V.algorithms}

assert tuple(VARIANT_COLORS) == VARIANTS and tuple(MODE_COLORS) == MODES == tuple(MODE_SHORT_LABELS), (
    "emogi/registry.yaml: every paper variant and mode needs a colour, hatch, label and marker"
)

HOST_MEMORY_COLORS = {"pinned": "#0072B2", "pageable": "#E69F00"}  # cudaMemcpy source/destination on the host
HOST_MEMORY_LABELS = {"pinned": "pinned (cudaHostAlloc)", "pageable": "pageable (malloc)"}
DIRECTION_LABELS = {"h2d": "host to device", "d2h": "device to host"}
PATTERN_LABELS = {"strided": "Strided", "merged-aligned": "Merged+Aligned", "merged-misaligned": "Merged+Misaligned"}
PATTERN_TICKS = {"strided": "Strided", "merged-aligned": "Merged+\nAligned", "merged-misaligned": "Merged+\nMisaligned"}
# request sizes 32..128 B: light to dark (a sequence, so a colour order that reads as one)
REQUEST_COLORS = {32: "#9ecae1", 64: "#6baed6", 96: "#3182bd", 128: "#08519c"}
REQUEST_LINESTYLES = {1: "-", 2: (0, (5, 1)), 4: "-.", 8: (0, (1, 1))}  # by reads in flight per warp
GRAPH_COLORS = ("#009E73", "#CC79A7", "#E69F00", "#0072B2", "#D55E00", "#56B4E9", "#000000")  # cycled
BAND_ALPHA = 0.18  # IQR / interval shading

assert set(MICRO_MODES) <= set(MODE_COLORS) and tuple(PATTERN_LABELS) == TOY_PATTERNS, "style out of step with schema"


def graph_colors(graphs) -> dict:
    """A colour per graph name, in the order given (cycling through GRAPH_COLORS)."""
    return {g: GRAPH_COLORS[i % len(GRAPH_COLORS)] for i, g in enumerate(dict.fromkeys(graphs))}


def request_color(d) -> str:
    """Colour of a request size (bytes); sizes outside 32..128 get grey."""
    return REQUEST_COLORS.get(int(d), "#777777")


# --- sizes (inches, points) -------------------------------------------------------------------------------
PAGE_WIDTH_IN = 7.0  # full text width of the report
PANEL_HEIGHT_IN = 2.5  # one row of panels
FOOTER_HEIGHT_IN = 0.55  # room for the source line and the definition note under the panels
LEGEND_HEIGHT_IN = 0.4  # two legend rows above the panels
FONT_SIZE = 8
TITLE_SIZE = 9
FOOTER_SIZE = 6.5
VALUE_LABEL_SIZE = 5.5  # numbers printed on bars
REFERENCE_LINE = {"color": "black", "linewidth": 0.9, "linestyle": "--", "zorder": 3}

plt.rcParams.update(
    {
        "font.size": FONT_SIZE,
        "axes.titlesize": TITLE_SIZE,
        "axes.labelsize": FONT_SIZE,
        "xtick.labelsize": FONT_SIZE,
        "ytick.labelsize": FONT_SIZE,
        "legend.fontsize": FONT_SIZE - 0.5,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "hatch.linewidth": 0.6,
        "savefig.dpi": 200,
        "pdf.fonttype": 42,  # embed TrueType so PDF text stays text
        "svg.hashsalt": "emogi",
    }
)


# --- the page: the source footer, the panel grid -----------------------------------------------------------
def footer(fig, text: str) -> None:
    """Write `text` in the figure's footer (the bottom margin new_figure leaves)."""
    fig.text(0.01, 0.005, text, ha="left", va="bottom", fontsize=FOOTER_SIZE, color="#333333", wrap=True)


def stamp(fig, source: dict, note: str | None = None) -> None:
    """Put the source label (and an optional one-line definition) in the figure's footer."""
    text = "Data: " + source_label(source)
    if note:
        text += "\n" + note
    footer(fig, text)


def new_figure(
    nrows: int,
    ncols: int,
    title_lines: int = 1,
    *,
    panel_height: float = PANEL_HEIGHT_IN,
    footer_lines: int = 2,
    legend_lines: int = 2,
    wspace: float = 0.2,
    hspace: float | None = None,
    **kwargs,
):
    """A page-wide grid of panels with room for the legend on top and the footer at the bottom.

    `footer_lines` (source line + definition lines, 2 by default) and `legend_lines` size those margins."""
    title_in = 0.17 * title_lines
    footer_in = FOOTER_HEIGHT_IN + 0.11 * max(0, footer_lines - 2)
    legend_in = LEGEND_HEIGHT_IN + 0.15 * max(0, legend_lines - 2)
    height = nrows * (panel_height + title_in) + footer_in + legend_in
    fig, axes = plt.subplots(nrows, ncols, figsize=(PAGE_WIDTH_IN, height), squeeze=False, **kwargs)
    fig.subplots_adjust(
        bottom=(footer_in + 0.3) / height,
        top=1 - (legend_in + 0.1 + title_in) / height,
        left=0.08,
        right=0.99,
        wspace=wspace,
        hspace=(0.45 + 0.15 * title_lines) * PANEL_HEIGHT_IN / panel_height if hspace is None else hspace,
    )
    return fig, axes


# --- writing ----------------------------------------------------------------------------------------------
_FORMATS = {".png": "png", ".pdf": "pdf", ".svg": "svg"}


def save(fig, path) -> list[Path]:
    """Write `fig` to `path` (or to each of a list of paths), format by extension, atomically.

    Each file is written under a temporary name in its own folder and renamed into place, so that a reader
    (Snakemake, the report) never sees half a file.
    """
    paths = [Path(p) for p in (path if isinstance(path, (list, tuple)) else [path])]
    for p in paths:
        fmt = _FORMATS.get(p.suffix.lower())
        if fmt is None:
            raise ValueError(f"cannot tell the format of {p}: use one of {sorted(_FORMATS)}")
        with atomic_path(p) as tmp:
            fig.savefig(tmp, format=fmt)
    plt.close(fig)
    return paths


def write_csv(frame: pd.DataFrame, path) -> Path:
    """Write a figure's numbers atomically, six significant digits."""
    return atomic.write_csv(frame, path, float_format="%.6g")


# --- panels, bars and legends -------------------------------------------------------------------------------
def panel_grid(keys):
    """Lay (graph, edge_bytes) pairs out as rows = edge widths, columns = graphs; returns {key: (row, col)}."""
    graphs = list(dict.fromkeys(g for g, _ in keys))
    widths = sorted(dict.fromkeys(w for _, w in keys))
    return graphs, widths, {(g, w): (widths.index(w), graphs.index(g)) for g, w in keys}


def panel_title(graph: str, edge_bytes, note: str | None = None) -> str:
    title = f"{graph}, {int(edge_bytes)}-byte edges"
    return f"{title}\n{note}" if note else title


def speedup_text(v: float) -> str:
    """Two significant digits, keeping a trailing zero (3.0, not 3): 0.85, 2.4, 3.0, 17."""
    return f"{v:.2f}" if v < 1 else f"{v:.1f}" if v < 10 else f"{v:.0f}"


def label_bars(ax, positions, values, fmt, offset) -> None:
    """Print each finite value above its bar; `fmt` is a format spec or a function, `offset(v)` the label's y."""
    for p, v in zip(positions, values):
        if np.isfinite(v):
            ax.text(
                p,
                offset(v),
                fmt(v) if callable(fmt) else format(v, fmt),
                ha="center",
                va="bottom",
                fontsize=VALUE_LABEL_SIZE,
                zorder=4,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.4, "alpha": 0.8},
            )


def group_bars(ax, x, i: int, count: int, width: float, values, color, hatch):
    """Bar `i` of `count` side by side in each group at `x`, each `width` wide, black-edged under the labels and
    markers; returns the bars' positions."""
    pos = x + (i - (count - 1) / 2) * width
    ax.bar(pos, values, width, color=color, hatch=hatch, edgecolor="black", linewidth=0.4, zorder=2)
    return pos


def variant_short(variant: str) -> str:
    """A variant's name as written on a bar: its registry `short`, else its label, else its name."""
    return VARIANT_SHORT.get(variant) or VARIANT_NAMES.get(variant, variant)


def variant_name(variant: str) -> str:
    """A variant's name spelled out (its registry `label`, else its name)."""
    return VARIANT_NAMES.get(variant, variant)


def variant_key(variants, width: int = 110) -> list[str]:
    """The short names `variants` are written with, spelled out ('DO = direction-optimizing BFS · GS = ...'), as
    lines of at most about `width` characters that break between entries only. A variant whose short name is
    its label needs no key and is left out."""
    entries = [(variant_short(v), variant_name(v)) for v in dict.fromkeys(variants)]
    lines: list[str] = []
    for entry in (f"{short} = {name}" for short, name in entries if short != name):
        if lines and len(lines[-1]) + 3 + len(entry) <= width:
            lines[-1] += " · " + entry
        else:
            lines.append(entry)
    return lines


def plain_log_axis(ax, axis: str = "y", subs=(1.0, 2.0, 5.0)) -> None:
    """Log axis labelled 0.5, 1, 2, 5, 10 ... instead of powers of ten (speedups read as plain numbers): one
    formatter for every labelled tick, labels only at `subs` x 10^k, minor ticks unlabelled (matplotlib labels
    minor ticks as 3x10^2 on an axis spanning less than a decade or so, over its neighbours)."""
    a = getattr(ax, f"{axis}axis")
    getattr(ax, f"set_{axis}scale")("log")
    a.set_major_locator(LogLocator(base=10, subs=subs))
    a.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    a.set_minor_formatter(NullFormatter())


def reference_handle():
    """Legend entry for a REFERENCE_LINE."""
    return Line2D([], [], **{k: v for k, v in REFERENCE_LINE.items() if k != "zorder"})


def mode_handle(mode: str):
    """Legend entry for a bar of `mode`."""
    return Patch(facecolor=MODE_COLORS[mode], hatch=MODE_HATCHES[mode], edgecolor="black", linewidth=0.4)


def legend_on_top(fig, handles, labels, ncol=2) -> None:
    """One legend for all panels, above them (two columns: the mode labels are long)."""
    fig.legend(
        handles,
        labels,
        loc="upper center",
        ncol=ncol,
        frameon=False,
        bbox_to_anchor=(0.5, 1.0),
        handlelength=1.6,
        columnspacing=1.2,
    )


# --- the bar grid both figures use ---------------------------------------------------------------------------
def variant_mode_bars(table: pd.DataFrame, value: str, modes: list[str], fmt, offset, title_lines: int = 1):
    """One panel per (graph, edge width); in each, a group of bars per variant with one bar per mode, labelled
    with `fmt` at height `offset(v)`. Returns (fig, axes, panels) with panels = [(ax, key, rows, column)] for
    the caller to finish (reference line, title, axis label)."""
    keys = list(dict.fromkeys(zip(table["graph"], table["edge_bytes"])))
    graphs, widths, where = panel_grid(keys)
    fig, axes = new_figure(len(widths), len(graphs), title_lines=title_lines, sharey=True)
    bar_w = 0.8 / len(modes)
    x = np.arange(len(VARIANTS))
    for ax in axes.flat:
        ax.set_visible(False)
    panels = []
    for key, (r, c) in where.items():
        ax = axes[r][c]
        ax.set_visible(True)
        rows = table[(table["graph"] == key[0]) & (table["edge_bytes"] == key[1])]
        for i, mode in enumerate(modes):
            vals = [rows.loc[(rows["variant"] == v) & (rows["mode"] == mode), value] for v in VARIANTS]
            vals = np.array([s.iloc[0] if len(s) else np.nan for s in vals])
            pos = group_bars(ax, x, i, len(modes), bar_w, vals, MODE_COLORS[mode], MODE_HATCHES[mode])
            label_bars(ax, pos, vals, fmt, offset)
        ax.set_xticks(x, [VARIANT_TICKS[v] for v in VARIANTS])
        panels.append((ax, key, rows, c))
    return fig, axes, panels


# --- sizes and axes of the microbenchmark figures ------------------------------------------------------------
def fmt_size(b) -> str:
    """Bytes in binary units as people write them: 32 B, 4 KiB, 256 MiB, 1 GiB, 1.5 GiB."""
    b = float(b)
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale:
            return f"{b / scale:g} {unit}"
    return f"{b:g} B"


def fmt_size_compact(b) -> str:
    """Bytes as a short tick label: 32, 512, 1K, 4K, 256M, 1G (binary multiples)."""
    b = float(b)
    for unit, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if b >= scale:
            return f"{b / scale:g}{unit}"
    return f"{b:g}"


def log2_size_axis(ax, values, axis: str = "x", compact: bool = False, max_ticks: int = 8) -> None:
    """Log-2 axis of sizes in bytes, a tick at every measured size (thinned to at most 8) labelled 4 KiB, 1 GiB
    (`compact`: 4K, 1G, for narrow panels whose axis label gives the unit)."""
    sizes = sorted({float(v) for v in values if v > 0})
    ticks = sizes
    while len(ticks) > max_ticks:
        ticks = ticks[::-2][::-1]  # thin from the top: the largest size keeps its label
    getattr(ax, f"set_{axis}scale")("log", base=2)
    fmt = fmt_size_compact if compact else (lambda v: fmt_size(v).replace(" ", "\u2009"))
    getattr(ax, f"set_{axis}ticks")(ticks, [fmt(v) for v in ticks])
    getattr(ax, f"set_{axis}ticks")([v for v in sizes if v not in ticks], minor=True)
    getattr(ax, f"{axis}axis").set_minor_formatter(NullFormatter())


def log2_count_axis(ax, values, axis: str = "x") -> None:
    """Log-2 axis of counts (warps, requests in flight): ticks at powers of two, plain numbers."""
    lo, hi = min(values), max(values)
    ticks = [2**k for k in range(int(math.floor(math.log2(lo))), int(math.ceil(math.log2(hi))) + 1)]
    while len(ticks) > 9:
        ticks = ticks[::2]
    getattr(ax, f"set_{axis}scale")("log", base=2)
    getattr(ax, f"set_{axis}ticks")(ticks, [f"{t:g}" for t in ticks])
    getattr(ax, f"{axis}axis").set_minor_formatter(NullFormatter())
