"""Shared look of every figure, the data-source label, atomic saving and table loading.

Figure scripts are functions of the measurement tables: they import this module for colours, sizes, the
source footer and `load_table`, and nothing else decides how a figure looks.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

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
from emogi.tables import TableError, read_table  # noqa: E402

# --- colours, hatches and labels, from emogi/registry.yaml (in its order) -------------------------------------
# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies; hatches keep them apart in
# greyscale print. The paper's variants and modes are drawn; the others have a short name at most.
_V = vocabulary()
VARIANT_COLORS = _V.styled("variants", "color", VARIANTS)
VARIANT_HATCHES = _V.styled("variants", "hatch", VARIANTS)
VARIANT_LABELS = _V.styled("variants", "label", VARIANTS)
VARIANT_TICKS = _V.styled("variants", "tick", VARIANTS)  # narrow panels
VARIANT_SHORT = _V.styled("variants", "short")           # every variant that has one (Fig. 11's bar labels)
VARIANT_MARKERS = _V.styled("variants", "marker", VARIANTS)

MODE_COLORS = _V.styled("modes", "color", MODES)
MODE_HATCHES = _V.styled("modes", "hatch", MODES)
MODE_LABELS = _V.styled("modes", "label", MODES)
MODE_SHORT_LABELS = _V.styled("modes", "short", MODES)  # table headers
# Microbenchmarks: allocations are named like memory modes (MODE_* above); the rest is theirs.
MODE_MARKERS = _V.styled("modes", "marker", MODES)
ALGORITHM_LABELS = {a.name: a.label for a in _V.algorithms}

assert tuple(VARIANT_COLORS) == VARIANTS and tuple(MODE_COLORS) == MODES == tuple(MODE_SHORT_LABELS), \
    "emogi/registry.yaml: every paper variant and mode needs a colour, hatch, label and marker"

HOST_MEMORY_COLORS = {"pinned": "#0072B2", "pageable": "#E69F00"}        # cudaMemcpy source/destination on the host
HOST_MEMORY_LABELS = {"pinned": "pinned (cudaHostAlloc)", "pageable": "pageable (malloc)"}
DIRECTION_LABELS = {"h2d": "host to device", "d2h": "device to host"}
PATTERN_LABELS = {"strided": "Strided", "merged-aligned": "Merged+Aligned", "merged-misaligned": "Merged+Misaligned"}
PATTERN_TICKS = {"strided": "Strided", "merged-aligned": "Merged+\nAligned", "merged-misaligned": "Merged+\nMisaligned"}
# request sizes 32..128 B: light to dark (a sequence, so a colour order that reads as one)
REQUEST_COLORS = {32: "#9ecae1", 64: "#6baed6", 96: "#3182bd", 128: "#08519c"}
REQUEST_LINESTYLES = {1: "-", 2: (0, (5, 1)), 4: "-.", 8: (0, (1, 1))}  # by reads in flight per warp
GRAPH_COLORS = ("#009E73", "#CC79A7", "#E69F00", "#0072B2", "#D55E00", "#56B4E9", "#000000")  # cycled
BAND_ALPHA = 0.18                                                         # IQR / interval shading

assert set(MICRO_MODES) <= set(MODE_COLORS) and tuple(PATTERN_LABELS) == TOY_PATTERNS, "style out of step with schema"


def graph_colors(graphs) -> dict:
    """A colour per graph name, in the order given (cycling through GRAPH_COLORS)."""
    return {g: GRAPH_COLORS[i % len(GRAPH_COLORS)] for i, g in enumerate(dict.fromkeys(graphs))}


def request_color(d) -> str:
    """Colour of a request size (bytes); sizes outside 32..128 get grey."""
    return REQUEST_COLORS.get(int(d), "#777777")

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


def new_figure(nrows: int, ncols: int, title_lines: int = 1, *, panel_height: float = PANEL_HEIGHT_IN,
               footer_lines: int = 2, legend_lines: int = 2, wspace: float = 0.2, hspace: float | None = None,
               **kwargs):
    """A page-wide grid of panels with room for the legend on top and the footer at the bottom.

    `footer_lines` (source line + definition lines, 2 by default) and `legend_lines` size those margins."""
    title_in = 0.17 * title_lines
    footer_in = FOOTER_HEIGHT_IN + 0.11 * max(0, footer_lines - 2)
    legend_in = LEGEND_HEIGHT_IN + 0.15 * max(0, legend_lines - 2)
    height = nrows * (panel_height + title_in) + footer_in + legend_in
    fig, axes = plt.subplots(nrows, ncols, figsize=(PAGE_WIDTH_IN, height), squeeze=False, **kwargs)
    fig.subplots_adjust(bottom=(footer_in + 0.3) / height,
                        top=1 - (legend_in + 0.1 + title_in) / height,
                        left=0.08, right=0.99, wspace=wspace,
                        hspace=(0.45 + 0.15 * title_lines) * PANEL_HEIGHT_IN / panel_height if hspace is None else hspace)
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
    ticks = [2 ** k for k in range(int(math.floor(math.log2(lo))), int(math.ceil(math.log2(hi))) + 1)]
    while len(ticks) > 9:
        ticks = ticks[::2]
    getattr(ax, f"set_{axis}scale")("log", base=2)
    getattr(ax, f"set_{axis}ticks")(ticks, [f"{t:g}" for t in ticks])
    getattr(ax, f"{axis}axis").set_minor_formatter(NullFormatter())


def summarise_reps(frame: pd.DataFrame, keys: list[str], value: str, prefix: str | None = None) -> pd.DataFrame:
    """Median and IQR over reps of `value` per `keys`: columns <prefix>, <prefix>_q25, <prefix>_q75, n_reps."""
    prefix = prefix or value
    g = frame.groupby(keys, sort=True)[value]
    out = g.median().rename(prefix).to_frame()
    out[f"{prefix}_q25"] = g.quantile(0.25)
    out[f"{prefix}_q75"] = g.quantile(0.75)
    out["n_reps"] = g.size()
    return out.reset_index()


def verified_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows whose `verified` flag is not false (rows are only written when verified; this guards hand-made ones)."""
    if "verified" not in frame.columns:
        return frame
    return frame[~frame["verified"].astype(str).str.strip().str.lower().isin(["false", "0", "no"])]


def interval_text(entry: dict, fmt: str = ".3g", unit: str = "") -> str:
    """A fitted value with its interval, '55.3 GB/s [54.9, 55.6]'."""
    v, lo, hi = entry.get("value"), entry.get("lo"), entry.get("hi")
    text = format(float(v), fmt) + unit
    if lo is not None and hi is not None and math.isfinite(float(lo)) and math.isfinite(float(hi)):
        text += f" [{format(float(lo), fmt)}, {format(float(hi), fmt)}]"
    return text


# --- non-table inputs: the model's parameters and predictions -----------------------------------------------------
# Written by the model (model/fit.py, model/predict.py): parameters.json, predictions.csv, prediction_summary.json.
PREDICTION_COLUMNS = ["graph", "algorithm", "variant", "mode", "edge_bytes", "max_warps", "footprint_bytes",
                      "measured_ms", "D_bytes", "d_bytes", "T_gbps", "bound", "transfer_ms", "floor_ms",
                      "predicted_ms", "rel_error"]


@dataclass
class ModelParameters:
    """parameters.json as read (`raw`) and where it lies (`path`), for model.fit.params_for."""
    path: Path
    raw: dict

    @property
    def W(self) -> dict:
        return self.raw["W_gbps"]

    @property
    def N_max(self) -> dict:
        return self.raw["N_max"]

    def link_params(self, mode: str, footprint_bytes: float):
        """model.fit.params_for(load_parameters(path), mode, footprint): the LinkParams the model uses there."""
        from model import fit  # the model's own reading of its file; imported late: optional for most figures

        return fit.params_for(fit.load_parameters(self.path), mode, footprint_bytes)

    def footprints(self, mode: str) -> list[int]:
        """Footprints with a fitted latency for `mode`."""
        return sorted({int(e["footprint_bytes"]) for e in self.raw.get("latency", []) if e.get("mode") == mode})


def _missing_input(figure_name: str, path: Path, state: str, what: str, hint: str) -> FigureDataError:
    return FigureDataError(f"figure {figure_name} has no data: {path} is {state}; it needs the model's '{what}' "
                           f"({hint})")


def load_parameters(path, figure_name: str) -> ModelParameters:
    """Read the model's parameters.json (model.fit.load_parameters); FigureDataError naming the figure if it is
    missing, not JSON or incomplete."""
    from model.fit import load_parameters as read_parameters

    path = Path(path)
    if not path.is_file():
        raise _missing_input(figure_name, path, "missing", "parameters",
                             "python -m model.fit writes it from the microbenchmark tables")
    try:
        return ModelParameters(path, read_parameters(path))
    except ValueError as e:
        raise FigureDataError(f"figure {figure_name}: {e} (the model's 'parameters')") from None


def load_predictions(path, figure_name: str) -> pd.DataFrame:
    """Read the model's predictions.csv (one row per measured configuration); FigureDataError if missing, empty or
    lacking PREDICTION_COLUMNS."""
    path = Path(path)
    try:
        frame = read_table(path)
    except TableError as e:
        raise _missing_input(figure_name, path, e.state, "predictions",
                             "python -m model.predict writes it from the runs, profile and parameters") from None
    missing = [c for c in PREDICTION_COLUMNS if c not in frame.columns]
    if missing:
        raise FigureDataError(f"figure {figure_name}: {path} lacks columns {missing} (the model's 'predictions')")
    return frame


def load_summary(path, figure_name: str) -> dict:
    """Read the model's prediction_summary.json."""
    path = Path(path)
    if not path.is_file():
        raise _missing_input(figure_name, path, "missing", "prediction_summary", "written with predictions.csv")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise FigureDataError(f"figure {figure_name}: {path} is not valid JSON: {e}") from None


def as_link_params(obj):
    """A model.littles_law.LinkParams from whatever a preset is (LinkParams already, or a mapping of its fields);
    None values mean 'not a limit' (inf), as in parameters.json."""
    from model.littles_law import LinkParams

    if isinstance(obj, LinkParams):
        return obj
    fields = obj if isinstance(obj, dict) else vars(obj)
    kw = {}
    for name, default in (("W_gbps", None), ("S_miops", math.inf), ("N_max", math.inf), ("L_us", math.nan)):
        v = fields.get(name, default)
        kw[name] = default if v is None else float(v)
    return LinkParams(**kw)


# --- command line -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Input:
    """One file a figure reads (--<flag> PATH): `load(path, figure)` returns what `compute` receives; an optional
    input that is not given reaches `compute` as None."""
    name: str
    load: Callable[[Path, str], Any]
    help: str
    required: bool = True

    @property
    def flag(self) -> str:
        return self.name.replace("_", "-")


@dataclass(frozen=True)
class Option:
    """A plain option (--<flag> VALUE) handed to `compute` as a keyword argument."""
    name: str
    type: Callable = str
    default: Any = None
    help: str = ""
    nargs: Any = None

    @property
    def flag(self) -> str:
        return self.name.replace("_", "-")


def table_input(name: str, required: bool = True) -> Input:
    """A measurement table (schema name) as an Input: --<name with dashes> PATH."""
    return Input(name, lambda path, figure: load_table(path, name, figure),
                 f"{name}.csv (schema table '{name}')" + ("" if required else "; optional"), required)


PARAMETERS_INPUT = Input("parameters", load_parameters, "parameters.json of the model (model.fit)")
PREDICTIONS_INPUT = Input("predictions", load_predictions, "predictions.csv of the model (model.predict)")
SUMMARY_INPUT = Input("summary", load_summary, "prediction_summary.json of the model (model.predict)")


def figure_main(argv, *, figure: str, description: str, tables: list, compute, draw, inputs=(), options=()) -> int:
    """The command line every figure script shares: one --<table> CSV per table it reads (schema names; a table
    may be given as an Input to make it optional), then `inputs` (other files, e.g. the model's parameters),
    --source, --out (.png/.pdf) and --out-csv for the plotted numbers. `compute(*tables, *inputs, **options)`
    turns them (in the order given) into the plotted table; `draw(table, source)` makes the figure."""
    ap = argparse.ArgumentParser(description=description)
    specs = [t if isinstance(t, Input) else table_input(t) for t in tables] + list(inputs)
    for spec in specs:
        ap.add_argument(f"--{spec.flag}", dest=spec.name, type=Path, required=spec.required, help=spec.help)
    for opt in options:
        ap.add_argument(f"--{opt.flag}", dest=opt.name, type=opt.type, default=opt.default, nargs=opt.nargs,
                        help=f"{opt.help} (default: {opt.default})")
    ap.add_argument("--source", type=Path, required=True, help="source.json (where the tables came from)")
    ap.add_argument("--out", type=Path, required=True, nargs="+", help=".png and/or .pdf")
    ap.add_argument("--out-csv", type=Path, help="the plotted numbers")
    a = ap.parse_args(argv)
    try:
        source = load_source(a.source)
        loaded = [None if getattr(a, s.name) is None else s.load(getattr(a, s.name), figure) for s in specs]
        table = compute(*loaded, **{o.name: getattr(a, o.name) for o in options})
    except FigureDataError as e:
        raise SystemExit(f"error: {e}") from None
    save(draw(table, source), a.out)
    if a.out_csv:
        write_csv(table, a.out_csv)
    return 0
