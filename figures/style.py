"""Shared look of every figure, the data-source label, atomic saving and table loading.

Figure scripts are functions of the measurement tables: they import this module for colours, sizes, the
source footer and `load_table`, and nothing else decides how a figure looks.
"""

from __future__ import annotations

import argparse
import json
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
from emogi.schema import MODES, VARIANTS  # noqa: E402
from emogi.tables import TableError, read_table  # noqa: E402

# --- colours, hatches and labels, in the fixed order of emogi.schema --------------------------------------
# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies; hatches keep them apart in
# greyscale print.
VARIANT_COLORS = {"naive": "#CC79A7", "merged": "#E69F00", "merged-aligned": "#009E73"}
VARIANT_HATCHES = {"naive": "", "merged": "//", "merged-aligned": "xx"}
VARIANT_LABELS = {"naive": "Naive", "merged": "Merged", "merged-aligned": "Merged+Aligned"}
VARIANT_TICKS = {"naive": "Naive", "merged": "Merged", "merged-aligned": "Merged+\nAligned"}  # narrow panels

MODE_COLORS = {"device": "#BBBBBB", "zerocopy": "#0072B2", "zerocopy-pinned": "#56B4E9", "uvm": "#D55E00"}
MODE_HATCHES = {"device": "//", "zerocopy": "", "zerocopy-pinned": "..", "uvm": "xx"}
MODE_LABELS = {
    "device": "device memory (reference)",
    "zerocopy": "zero-copy (managed + AccessedBy)",
    "zerocopy-pinned": "zero-copy (pinned, cudaHostAlloc)",
    "uvm": "UVM (cold)",
}
MODE_SHORT_LABELS = {"device": "device", "zerocopy": "zero-copy (managed)", "zerocopy-pinned": "zero-copy (pinned)",
                     "uvm": "UVM"}  # table headers

assert tuple(VARIANT_COLORS) == VARIANTS and tuple(MODE_COLORS) == MODES == tuple(MODE_SHORT_LABELS), \
    "style out of step with schema"

# --- sizes (inches, points) -------------------------------------------------------------------------------
PAGE_WIDTH_IN = 7.0       # full text width of the report
PANEL_HEIGHT_IN = 2.5     # one row of panels
FOOTER_HEIGHT_IN = 0.55   # room for the source line and the definition note under the panels
LEGEND_HEIGHT_IN = 0.4    # two legend rows above the panels
FONT_SIZE = 8
TITLE_SIZE = 9
FOOTER_SIZE = 6.5
VALUE_LABEL_SIZE = 5.5    # numbers printed on bars
REFERENCE_LINE = {"color": "black", "linewidth": 0.9, "linestyle": "--", "zorder": 3}

plt.rcParams.update({
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
    "pdf.fonttype": 42,   # embed TrueType so PDF text stays text
    "svg.hashsalt": "emogi",
})

REQUIRED_SOURCE_KEYS = ("source", "gpu", "date")


class FigureDataError(ValueError):
    """A figure cannot be drawn because its input table is missing, empty or malformed."""


# --- the data source --------------------------------------------------------------------------------------
def load_source(path) -> dict:
    """Read source.json and check the keys every figure needs (`source`, `gpu`, `date`)."""
    path = Path(path)
    try:
        source = json.loads(path.read_text())
    except FileNotFoundError:
        raise FigureDataError(f"{path} is missing: no record of where the measurements came from") from None
    except json.JSONDecodeError as e:
        raise FigureDataError(f"{path} is not valid JSON: {e}") from None
    source_label(source)  # validates
    return source


def source_label(source: dict) -> str:
    """The one sentence that says where a figure's numbers come from.

    "fresh measurements on <GPU>, <date>" or "archived measurements from <GPU> on <date>".
    """
    missing = [k for k in REQUIRED_SOURCE_KEYS if not source.get(k)]
    if missing:
        raise FigureDataError(f"source record lacks {missing}; it needs {list(REQUIRED_SOURCE_KEYS)}")
    kind, gpu, date = source["source"], source["gpu"], str(source["date"])[:10]  # the day; times are in the tables
    if kind == "fresh":
        return f"fresh measurements on {gpu}, {date}"
    if kind == "archive":
        return f"archived measurements from {gpu} on {date}"
    raise FigureDataError(f"source must be 'fresh' or 'archive', not {kind!r}")


def stamp(fig, source: dict, note: str | None = None) -> None:
    """Put the source label (and an optional one-line definition) in the figure's footer."""
    text = "Data: " + source_label(source)
    if note:
        text += "\n" + note
    fig.text(0.01, 0.005, text, ha="left", va="bottom", fontsize=FOOTER_SIZE, color="#333333", wrap=True)


def new_figure(nrows: int, ncols: int, title_lines: int = 1, **kwargs):
    """A page-wide grid of panels with room for the legend on top and the footer at the bottom."""
    title_in = 0.17 * title_lines
    height = nrows * (PANEL_HEIGHT_IN + title_in) + FOOTER_HEIGHT_IN + LEGEND_HEIGHT_IN
    fig, axes = plt.subplots(nrows, ncols, figsize=(PAGE_WIDTH_IN, height), squeeze=False, **kwargs)
    fig.subplots_adjust(bottom=(FOOTER_HEIGHT_IN + 0.3) / height,
                        top=1 - (LEGEND_HEIGHT_IN + 0.1 + title_in) / height,
                        left=0.08, right=0.99, hspace=0.45 + 0.15 * title_lines, wspace=0.2)
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


# --- reading ----------------------------------------------------------------------------------------------
def _no_data(figure_name: str, path: Path, state: str, table_name: str) -> FigureDataError:
    return FigureDataError(
        f"figure {figure_name} has no data: {path} is {state}; archived measurements lack the "
        f"'{table_name}' table — run on a GPU (measurements: fresh) or choose an archive that has it"
    )


def load_table(path, table_name: str, figure_name: str) -> pd.DataFrame:
    """Read one measurement table (CSV) for a figure; raise FigureDataError if it is missing, empty or lacks
    columns of `emogi.schema.TABLES[table_name]`."""
    try:
        return read_table(path, table_name)
    except TableError as e:
        if e.state == "columns":
            raise FigureDataError(f"figure {figure_name}: {e}") from None
        raise _no_data(figure_name, Path(path), e.state, table_name) from None


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
            ax.text(p, offset(v), fmt(v) if callable(fmt) else format(v, fmt), ha="center", va="bottom", fontsize=VALUE_LABEL_SIZE, zorder=4,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.4, "alpha": 0.8})


def plain_log_axis(ax) -> None:
    """Log y axis labelled 0.5, 1, 2, 5, 10 ... instead of powers of ten (speedups read as plain numbers)."""
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def reference_handle():
    """Legend entry for a REFERENCE_LINE."""
    return Line2D([], [], **{k: v for k, v in REFERENCE_LINE.items() if k != "zorder"})


def mode_handle(mode: str):
    """Legend entry for a bar of `mode`."""
    return Patch(facecolor=MODE_COLORS[mode], hatch=MODE_HATCHES[mode], edgecolor="black", linewidth=0.4)


def legend_on_top(fig, handles, labels, ncol=2) -> None:
    """One legend for all panels, above them (two columns: the mode labels are long)."""
    fig.legend(handles, labels, loc="upper center", ncol=ncol, frameon=False,
               bbox_to_anchor=(0.5, 1.0), handlelength=1.6, columnspacing=1.2)


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
            pos = x + (i - (len(modes) - 1) / 2) * bar_w
            ax.bar(pos, vals, bar_w, color=MODE_COLORS[mode], hatch=MODE_HATCHES[mode],
                   edgecolor="black", linewidth=0.4, zorder=2)
            label_bars(ax, pos, vals, fmt, offset)
        ax.set_xticks(x, [VARIANT_TICKS[v] for v in VARIANTS])
        panels.append((ax, key, rows, c))
    return fig, axes, panels


# --- command line -------------------------------------------------------------------------------------------
def figure_main(argv, *, figure: str, description: str, tables: list[str], compute, draw) -> int:
    """The command line every figure script shares: one --<table> CSV per table it reads (schema names),
    --source, --out (.png/.pdf) and --out-csv for the plotted numbers. `compute` turns the tables (in the
    order given) into the plotted table; `draw(table, source)` makes the figure."""
    ap = argparse.ArgumentParser(description=description)
    for name in tables:
        ap.add_argument(f"--{name}", type=Path, required=True, help=f"{name}.csv (schema table '{name}')")
    ap.add_argument("--source", type=Path, required=True, help="source.json (where the tables came from)")
    ap.add_argument("--out", type=Path, required=True, nargs="+", help=".png and/or .pdf")
    ap.add_argument("--out-csv", type=Path, help="the plotted numbers")
    a = ap.parse_args(argv)
    try:
        source = load_source(a.source)
        table = compute(*(load_table(getattr(a, name), name, figure) for name in tables))
    except FigureDataError as e:
        raise SystemExit(f"error: {e}") from None
    save(draw(table, source), a.out)
    if a.out_csv:
        write_csv(table, a.out_csv)
    return 0
