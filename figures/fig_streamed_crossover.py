"""Streamed against zero-copy as the active fraction varies (issue 22, a figure new to this study): per graph and
kernel (algorithm and variant), each pass of `emogi run --pass-log` as a point, its span (from the end of the
previous pass to its own end) per GiB of the graph's lists against the fraction of the list entries its active
vertices own, one colour per mode. Lines, the model of a pass (model/streamed_crossover.py says every term):
zero-copy t = D / T(d) + floor (the CXL paper's T(d) = min(S d, N_max d / L, W) at the parameters of model.fit,
D and d from the graph's request shape, the floor from the fitted GPU-work costs) and CF'17's streamed sweep
(fill + sum of max(copy, compute)) over every block or over the active fraction of them (clustered). Marked: the
measured crossover (binned medians of the two modes cross) and the predicted one (zero-copy's line meets the
every-block sweep). UVM, simulated (no UVM pass was measured; model/streamed_uvm.py): a pass on managed memory
holding 1/2 (and 1/4) of the lists, the paper's regime, from the archive's uvm_curve.csv (the project's simulator
on passes whose active vertices are drawn at random) with the registered UVM costs; and UVM when the lists fit
(every study graph on the 80 GB H100), which after its first pass runs at the device floor. Streamed and zero-copy
keep the lists in host memory, so they do not depend on the capacity: the UVM lines compare with them as measured.

    python -m figures.fig_streamed_crossover --passes results/streamed/crossover_passes.csv \\
        --link results/streamed/crossover_link.csv --parameters parameters.json --request-shape request_shape.csv \\
        --gpu-work gpu_work_params.csv --uvm-curve uvm_curve.csv --uvm-params params.json \\
        --uvm-calibration oom_calibration.json --source results/streamed/crossover_source.json --out fig.png
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from figures import cli, style
from figures.inputs import FigureDataError
from model import streamed_crossover as xo
from model import streamed_uvm as su
from model.streamed import LinkCurve

FIGURE = "fig_streamed_crossover"
PASS_COLUMNS = [*xo.PASS_COLUMNS, "vertices", "plan_blocks", "edge_bytes"]
GIB = 2**30
FRACTIONS = np.logspace(-6, 0, 121)  # the model's lines; each panel shows them from its least active pass
MODE_COLORS = {"zerocopy": "#0072B2", "streamed": "#009E73", "uvm": style.MODE_COLORS["uvm"]}
ZEROCOPY, EVERY = "zero-copy D/T(d)+floor", "streamed, every block"
UVM_FIT = "UVM, lists fit, after pass 1 (device floor)"
CAPACITY_TEXT = {0.5: "½", 0.25: "¼"}
UVM_STYLES = ("-", "--")  # per capacity, largest first
LINES = {ZEROCOPY: ("zerocopy", "-"), EVERY: ("streamed", "--"), "streamed, clustered": ("streamed", ":")}
REGIMES = {"measured": "fits", "predicted": "model", "simulated": "simulated"}  # emogi/registry.yaml regimes
DEFINITION = (
    "point: one pass, span / GiB of lists; x: its active vertices' list entries / all. Lines predicted "
    "(model.streamed_crossover): zero-copy D/T(d) + floor, CF'17's sweep of every / the x fraction of the blocks; "
    "UVM simulated (model.streamed_uvm) at a capacity of a fraction of the lists, active vertices at random. Marks: "
    "crossover measured (solid) and predicted (dashed); circles: where UVM meets zero-copy or the streamed sweep"
)


def uvm_line(capacity: float) -> str:
    return f"UVM at {CAPACITY_TEXT.get(capacity, f'{capacity:g}')} of the lists, simulated"


def _csv(columns, what):
    def load(path: Path, figure: str) -> pd.DataFrame:
        try:
            table = pd.read_csv(path)
        except (FileNotFoundError, pd.errors.EmptyDataError):
            raise FigureDataError(f"figure {figure} has no data: {path} is missing or empty") from None
        missing = [c for c in columns if c not in table.columns]
        if missing:
            raise FigureDataError(f"figure {figure}: {path} lacks {missing}: not {what}")
        return table

    return load


PASSES_INPUT = cli.Input(
    "passes", _csv(PASS_COLUMNS, "a pass table of `python -m model.streamed_crossover tables`"), "crossover_passes.csv"
)
SHAPE_INPUT = cli.Input(
    "request_shape", _csv(xo.SHAPE_COLUMNS, "a request shape of `model.streamed_crossover shape`"), "request_shape.csv"
)
UVM_CURVE_INPUT = cli.Input(
    "uvm_curve", _csv(su.CURVE_COLUMNS, "a UVM curve of `model.streamed_uvm curve`"), "uvm_curve.csv"
)


def _uvm_costs(path: Path, figure: str):
    try:
        return su.load_params(path, "registered")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise FigureDataError(f"figure {figure}: {path}: no registered UVM costs ({e})") from None


def _evicted_cost(path: Path, figure: str) -> float:
    try:
        return float(json.loads(Path(path).read_text())["e_ms_per_evicted_chunk"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise FigureDataError(f"figure {figure}: {path}: no e_ms_per_evicted_chunk ({e})") from None


UVM_PARAMS_INPUT = cli.Input("uvm_params", _uvm_costs, "params.json of model.uvm_fit (its registered set)")
UVM_CALIBRATION_INPUT = cli.Input("uvm_calibration", _evicted_cost, "oom_calibration.json of model.oom_calibrate")
UVM_INPUTS = [UVM_CURVE_INPUT, UVM_PARAMS_INPUT, UVM_CALIBRATION_INPUT]
COSTS_INPUT = cli.Input(
    "gpu_work",
    _csv(["algorithm", "variant", "edge_bytes", "form", "a_ms", "b_ms", "c_ms"], "model.gpu_work's costs"),
    "gpu_work_params.csv of model.gpu_work",
)


def panel_lines(p: pd.DataFrame, shape: dict, link_params, curve: LinkCurve, cost, uvm: dict) -> dict:
    """The model's lines (ms per pass at FRACTIONS) for one panel's passes: zero-copy, the two streamed sweeps,
    UVM when the lists fit (the device floor after its first pass) and UVM simulated at each capacity of `uvm`
    (capacity -> (curve rows of the panel's graph, UvmParams, e))."""
    r = p.iloc[0]
    entries, eb, v = float(r["list_entries"]), float(r["entry_bytes"]), float(r["vertices"])
    lists = entries * eb
    block = lists / int(r["plan_blocks"]) * (1 + 1e-12)  # the plan's blocks, uniform
    every = xo.streamed_pass_ms(1.0, lists, block, eb, v, curve, cost)
    a, b, c = cost
    lines = {
        ZEROCOPY: xo.zerocopy_pass_ms(FRACTIONS * entries, eb, v, shape, link_params, cost),
        EVERY: np.full_like(FRACTIONS, every),
        "streamed, clustered": np.array([xo.streamed_pass_ms(f, lists, block, eb, v, curve, cost) for f in FRACTIONS]),
        UVM_FIT: a + b * v + c * FRACTIONS * entries,
    }
    for capacity, (rows, params, e) in uvm.items():
        lines[uvm_line(capacity)] = su.uvm_pass_ms(rows, FRACTIONS, lists, entries, v, params, e, cost)
    return lines


def _uvm_crossovers(lines: dict) -> dict:
    """Where each simulated UVM line meets zero-copy's and the every-block sweep's (nan: never)."""
    out = {}
    for line in (k for k in lines if k.endswith("simulated")):
        for other, short in ((ZEROCOPY, "zero-copy"), (EVERY, "streamed")):
            out[f"{line.removesuffix(', simulated')} × {short}"] = su.crossing(FRACTIONS, lines[line], lines[other])
    return out


def compute(passes, link, parameters, request_shape, gpu_work, uvm_curve, uvm_params, uvm_calibration) -> pd.DataFrame:
    """One row per measured pass (kind measured), per point of each model line (kind predicted) and per crossover
    (kind crossover; line measured, predicted or `UVM at ... × zero-copy / streamed`): graph, algorithm, variant,
    mode, source, rep, pass, line, regime, active_fraction, span_ms, ms_per_gib."""
    try:
        curve = LinkCurve.from_table(link)
        footprint = min(parameters.footprints("zerocopy"))
        link_params = parameters.link_params("zerocopy", footprint)
    except ValueError as e:
        raise FigureDataError(f"figure {FIGURE}: {e}") from None
    shapes = request_shape.set_index("graph")
    capacities = sorted(set(uvm_curve["capacity_fraction"]), reverse=True)
    passes = passes[passes["active_entries"].notna()]
    rows = []
    for (graph, algorithm, variant), p in passes.groupby(["graph", "algorithm", "variant"], sort=False):
        if graph not in shapes.index:
            raise FigureDataError(f"figure {FIGURE}: the request shape has no row for graph {graph}")
        g = uvm_curve[uvm_curve["graph"] == graph]
        if g.empty or int(g["entry_bytes"].iloc[0]) != int(p["edge_bytes"].iloc[0]):  # ids; SSSP's weights alike
            raise FigureDataError(f"figure {FIGURE}: the UVM curve has no row for {graph} at its id bytes")
        uvm = {c: (g[g["capacity_fraction"] == c], uvm_params, uvm_calibration) for c in capacities}
        gib = float(p["list_entries"].iloc[0] * p["entry_bytes"].iloc[0]) / GIB
        keys = {"graph": graph, "algorithm": algorithm, "variant": variant}
        m = p[["mode", "source", "rep", "pass", "span_ms"]].assign(**keys, kind="measured", line="pass")
        m["regime"] = REGIMES["measured"]
        m["active_fraction"] = p["active_entries"].astype(float) / p["list_entries"].astype(float)
        m["ms_per_gib"] = m["span_ms"] / gib
        m = m[m["active_fraction"] > 0]
        rows.append(m)
        try:
            cost = xo.gpu_costs(gpu_work, algorithm, variant, int(p["edge_bytes"].iloc[0]))
            lines = panel_lines(p, shapes.loc[graph].to_dict(), link_params, curve, cost, uvm)
        except (xo.CrossoverError, su.UvmCurveError) as e:
            raise FigureDataError(f"figure {FIGURE}: {e}") from None
        for line, ms in lines.items():
            simulated = line.endswith("simulated")
            rows.append(
                pd.DataFrame(
                    {
                        **keys,
                        "mode": "uvm" if line.startswith("UVM") else LINES[line][0],
                        "kind": "predicted",
                        "line": line,
                        "regime": REGIMES["simulated" if simulated else "predicted"],
                        "active_fraction": FRACTIONS,
                        "span_ms": ms,
                        "ms_per_gib": ms / gib,
                    }
                )
            )
        cross = {
            "measured": xo.measured_crossover(m),
            "predicted": xo.predicted_crossover(FRACTIONS, lines[ZEROCOPY], lines[EVERY]),
        }
        regime = {k: REGIMES[k] for k in cross}
        for k, x in _uvm_crossovers(lines).items():
            cross[k], regime[k] = x, REGIMES["simulated"]
        rows.append(
            pd.DataFrame(
                [
                    {**keys, "mode": "", "kind": "crossover", "line": k, "regime": regime[k], "active_fraction": x}
                    for k, x in cross.items()
                ]
            )  # fmt: skip
        )
    if not rows:
        raise FigureDataError(f"figure {FIGURE} has no data: no pass with a count of active entries")
    return pd.concat(rows, ignore_index=True)


def _line_styles(table: pd.DataFrame) -> dict:
    """line -> (mode, line style, width): the model's lines, UVM when the lists fit, UVM at each capacity."""
    styles = {line: (mode, ls, 1.0) for line, (mode, ls) in LINES.items()} | {UVM_FIT: ("uvm", ":", 0.8)}
    simulated = table.loc[table["regime"] == "simulated", "line"]
    for line, ls in zip(dict.fromkeys(simulated[table["kind"] == "predicted"]), UVM_STYLES * 4):
        styles[line] = ("uvm", ls, 1.2)
    return styles


def _crossover_text(x: float) -> str:
    return "none" if not math.isfinite(x) else f"{x:.2g}"


def draw(table: pd.DataFrame, source: dict):
    panels = list(dict.fromkeys(zip(table["graph"], table["algorithm"], table["variant"])))
    graphs = list(dict.fromkeys(table["graph"]))
    kernels = list(dict.fromkeys((a, v) for _, a, v in panels))
    # a row per kernel, a column per graph: panels wide enough for a log axis over six decades
    fig, axes = style.new_figure(len(kernels), len(graphs), 2, footer_lines=5, legend_lines=6, wspace=0.25)
    for ax in axes.flat:
        ax.set_visible(False)
    for graph, algorithm, variant in panels:
        ax = axes[kernels.index((algorithm, variant))][graphs.index(graph)]
        ax.set_visible(True)
        rows = table[(table["graph"] == graph) & (table["algorithm"] == algorithm) & (table["variant"] == variant)]
        measured = rows[rows["kind"] == "measured"]
        for mode, p in measured.groupby("mode"):
            ax.scatter(
                p["active_fraction"],
                p["ms_per_gib"],
                s=7,
                alpha=0.5,
                color=MODE_COLORS.get(mode, "grey"),
                linewidths=0,
                zorder=3,
            )
        for line, (mode, ls, lw) in _line_styles(table).items():
            p = rows[rows["line"] == line]
            ax.plot(p["active_fraction"], p["ms_per_gib"], ls, color=MODE_COLORS[mode], lw=lw, zorder=2)
        cross = rows[rows["kind"] == "crossover"].set_index("line")["active_fraction"]
        for kind, ls in (("measured", "-"), ("predicted", "--")):
            x = float(cross.get(kind, math.nan))
            if math.isfinite(x) and x > 0:
                ax.axvline(x, color="black", lw=0.9, ls=ls, zorder=1)
        for line, x in cross.items():  # where a UVM line meets zero-copy's or the sweep's: a circle on the UVM line
            if "×" in line and math.isfinite(x) and x > 0:
                p = rows[rows["line"] == f"{line.split(' × ')[0]}, simulated"]
                y = np.exp(np.interp(np.log(x), np.log(p["active_fraction"]), np.log(p["ms_per_gib"])))
                ax.plot([x], [y], "o", ms=5, mfc="none", mec=MODE_COLORS["uvm"], mew=1, zorder=4)
        least = measured["active_fraction"].min()
        lo = min(1e-2, max(FRACTIONS[0], 0.3 * least)) if np.isfinite(least) else FRACTIONS[0]
        ax.set_xlim(lo, 1.5)
        shown = measured["ms_per_gib"]  # the lines run below the least pass: the work between passes is not in them
        uvm = rows.loc[rows["regime"] == "simulated", "ms_per_gib"]  # UVM's full pass, above every measured one
        ax.set_ylim(0.3 * shown[shown > 0].min(), max(3 * shown.max(), 1.5 * uvm.max() if len(uvm) else 0))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("active fraction of the entries")
        if graphs.index(graph) == 0:
            ax.set_ylabel("ms per GiB of lists")
        name = f"{style.ALGORITHM_LABELS.get(algorithm, algorithm)} {style.variant_short(variant)}"
        ax.set_title(
            f"{graph} {name}\n× {_crossover_text(cross.get('measured', math.nan))} measured, "
            f"{_crossover_text(cross.get('predicted', math.nan))} pred.",
            fontsize=style.FONT_SIZE,
        )
    measured_modes = ("zerocopy", "streamed")
    handles = [Line2D([0], [0], ls="none", marker="o", ms=5, mfc=MODE_COLORS[m], mec=MODE_COLORS[m])
               for m in measured_modes]  # fmt: skip
    labels = [f"{style.MODE_LABELS.get(m, m)}, measured pass" for m in measured_modes]
    styled = _line_styles(table)
    handles += [Line2D([], [], ls=ls, lw=lw, color=MODE_COLORS[mode]) for mode, ls, lw in styled.values()]
    labels += [line if line.endswith("simulated") else f"model: {line} (predicted)" for line in styled]
    handles += [Line2D([], [], ls=ls, color="black") for ls in ("-", "--")]
    labels += ["× crossover, measured (binned medians)", "× crossover, predicted"]
    handles.append(Line2D([0], [0], ls="none", marker="o", ms=5, mfc="none", mec=MODE_COLORS["uvm"]))
    labels.append("UVM meets zero-copy or the sweep (simulated)")
    style.legend_on_top(fig, handles, labels, ncol=2)
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Streamed against zero-copy per pass, as the active fraction varies",
        tables=[PASSES_INPUT, "link"],
        inputs=[cli.PARAMETERS_INPUT, SHAPE_INPUT, COSTS_INPUT, *UVM_INPUTS],
        compute=compute,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
