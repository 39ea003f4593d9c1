"""Streamed against zero-copy as the active fraction varies (issue 22, a figure new to this study): per graph and
kernel (algorithm and variant), each pass of `emogi run --pass-log` as a point, its span (from the end of the
previous pass to its own end) per GiB of the graph's lists against the fraction of the list entries its active
vertices own, one colour per mode. Lines, the model of a pass (model/streamed_crossover.py says every term):
zero-copy t = D / T(d) + floor (the CXL paper's T(d) = min(S d, N_max d / L, W) at the parameters of model.fit,
D and d from the graph's request shape, the floor from the fitted GPU-work costs) and CF'17's streamed sweep
(fill + sum of max(copy, compute)) over every block or over the active fraction of them (clustered). Marked: the
measured crossover (binned medians of the two modes cross) and the predicted one (zero-copy's line meets the
every-block sweep). UVM is absent: no UVM pass was measured, and model/uvm_sim.py simulates a run from a trace
derived from the graph file, which the archive does not hold.

    python -m figures.fig_streamed_crossover --passes results/streamed/crossover_passes.csv \\
        --link results/streamed/crossover_link.csv --parameters parameters.json --request-shape request_shape.csv \\
        --gpu-work gpu_work_params.csv --source results/streamed/crossover_source.json --out fig.png [--out-csv ..]
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from figures import cli, style
from figures.inputs import FigureDataError
from model import streamed_crossover as xo
from model.streamed import LinkCurve

FIGURE = "fig_streamed_crossover"
PASS_COLUMNS = [*xo.PASS_COLUMNS, "vertices", "plan_blocks", "edge_bytes"]
GIB = 2**30
FRACTIONS = np.logspace(-6, 0, 121)  # the model's lines; each panel shows them from its least active pass
MODE_COLORS = {"zerocopy": "#0072B2", "streamed": "#009E73"}
LINES = {
    "zero-copy D/T(d)+floor": ("zerocopy", "-"),
    "streamed, every block": ("streamed", "--"),
    "streamed, clustered": ("streamed", ":"),
}
DEFINITION = (
    "point: one pass, span / GiB of lists; x: its active vertices' list entries / all. Lines predicted "
    "(model.streamed_crossover): zero-copy D/T(d) + floor, CF'17's sweep of every / the x fraction of the blocks. "
    "Marks: measured (solid) and predicted (dashed) crossover. UVM: not measured per pass, no trace to simulate"
)


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
COSTS_INPUT = cli.Input(
    "gpu_work",
    _csv(["algorithm", "variant", "edge_bytes", "form", "a_ms", "b_ms", "c_ms"], "model.gpu_work's costs"),
    "gpu_work_params.csv of model.gpu_work",
)


def panel_lines(p: pd.DataFrame, shape: dict, link_params, curve: LinkCurve, cost) -> dict:
    """The model's three lines (ms per pass at FRACTIONS) for one panel's passes."""
    r = p.iloc[0]
    entries, eb, v = float(r["list_entries"]), float(r["entry_bytes"]), float(r["vertices"])
    lists = entries * eb
    block = lists / int(r["plan_blocks"]) * (1 + 1e-12)  # the plan's blocks, uniform
    every = xo.streamed_pass_ms(1.0, lists, block, eb, v, curve, cost)
    return {
        "zero-copy D/T(d)+floor": xo.zerocopy_pass_ms(FRACTIONS * entries, eb, v, shape, link_params, cost),
        "streamed, every block": np.full_like(FRACTIONS, every),
        "streamed, clustered": np.array([xo.streamed_pass_ms(f, lists, block, eb, v, curve, cost) for f in FRACTIONS]),
    }


def compute(passes, link, parameters, request_shape, gpu_work) -> pd.DataFrame:
    """One row per measured pass (kind measured), per point of each model line (kind predicted) and per crossover
    (kind crossover, line measured or predicted): graph, algorithm, variant, mode, source, rep, pass, line,
    active_fraction, span_ms, ms_per_gib."""
    try:
        curve = LinkCurve.from_table(link)
        footprint = min(parameters.footprints("zerocopy"))
        link_params = parameters.link_params("zerocopy", footprint)
    except ValueError as e:
        raise FigureDataError(f"figure {FIGURE}: {e}") from None
    shapes = request_shape.set_index("graph")
    passes = passes[passes["active_entries"].notna()]
    rows = []
    for (graph, algorithm, variant), p in passes.groupby(["graph", "algorithm", "variant"], sort=False):
        if graph not in shapes.index:
            raise FigureDataError(f"figure {FIGURE}: the request shape has no row for graph {graph}")
        gib = float(p["list_entries"].iloc[0] * p["entry_bytes"].iloc[0]) / GIB
        keys = {"graph": graph, "algorithm": algorithm, "variant": variant}
        m = p[["mode", "source", "rep", "pass", "span_ms"]].assign(**keys, kind="measured", line="pass")
        m["active_fraction"] = p["active_entries"].astype(float) / p["list_entries"].astype(float)
        m["ms_per_gib"] = m["span_ms"] / gib
        m = m[m["active_fraction"] > 0]
        rows.append(m)
        try:
            cost = xo.gpu_costs(gpu_work, algorithm, variant, int(p["edge_bytes"].iloc[0]))
        except xo.CrossoverError as e:
            raise FigureDataError(f"figure {FIGURE}: {e}") from None
        lines = panel_lines(p, shapes.loc[graph].to_dict(), link_params, curve, cost)
        for line, ms in lines.items():
            rows.append(
                pd.DataFrame(
                    {
                        **keys,
                        "mode": LINES[line][0],
                        "kind": "predicted",
                        "line": line,
                        "active_fraction": FRACTIONS,
                        "span_ms": ms,
                        "ms_per_gib": ms / gib,
                    }
                )
            )
        cross = {
            "measured": xo.measured_crossover(m),
            "predicted": xo.predicted_crossover(
                FRACTIONS, lines["zero-copy D/T(d)+floor"], lines["streamed, every block"]
            ),
        }
        rows.append(
            pd.DataFrame(
                [{**keys, "mode": "", "kind": "crossover", "line": k, "active_fraction": x} for k, x in cross.items()]
            )
        )
    if not rows:
        raise FigureDataError(f"figure {FIGURE} has no data: no pass with a count of active entries")
    return pd.concat(rows, ignore_index=True)


def _crossover_text(x: float) -> str:
    return "none" if not math.isfinite(x) else f"{x:.2g}"


def draw(table: pd.DataFrame, source: dict):
    panels = list(dict.fromkeys(zip(table["graph"], table["algorithm"], table["variant"])))
    graphs = list(dict.fromkeys(table["graph"]))
    kernels = list(dict.fromkeys((a, v) for _, a, v in panels))
    # a row per kernel, a column per graph: panels wide enough for a log axis over six decades
    fig, axes = style.new_figure(len(kernels), len(graphs), 2, footer_lines=4, legend_lines=4, wspace=0.25)
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
        for line, (mode, ls) in LINES.items():
            p = rows[rows["line"] == line]
            ax.plot(p["active_fraction"], p["ms_per_gib"], ls, color=MODE_COLORS[mode], lw=1, zorder=2)
        cross = rows[rows["kind"] == "crossover"].set_index("line")["active_fraction"]
        for kind, ls in (("measured", "-"), ("predicted", "--")):
            x = float(cross.get(kind, math.nan))
            if math.isfinite(x) and x > 0:
                ax.axvline(x, color="black", lw=0.9, ls=ls, zorder=1)
        least = measured["active_fraction"].min()
        lo = min(1e-2, max(FRACTIONS[0], 0.3 * least)) if np.isfinite(least) else FRACTIONS[0]
        ax.set_xlim(lo, 1.5)
        shown = measured["ms_per_gib"]  # the lines run below the least pass: the work between passes is not in them
        ax.set_ylim(0.3 * shown[shown > 0].min(), 3 * shown.max())
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
    handles = [Line2D([0], [0], ls="none", marker="o", ms=5, mfc=c, mec=c) for c in MODE_COLORS.values()]
    labels = [f"{style.MODE_LABELS.get(m, m)}, measured pass" for m in MODE_COLORS]
    handles += [Line2D([], [], ls=ls, color=MODE_COLORS[mode]) for mode, ls in LINES.values()]
    labels += [f"model: {line} (predicted)" for line in LINES]
    handles += [Line2D([], [], ls=ls, color="black") for ls in ("-", "--")]
    labels += ["× crossover, measured (binned medians)", "× crossover, predicted"]
    style.legend_on_top(fig, handles, labels, ncol=2)
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Streamed against zero-copy per pass, as the active fraction varies",
        tables=[PASSES_INPUT, "link"],
        inputs=[cli.PARAMETERS_INPUT, SHAPE_INPUT, COSTS_INPUT],
        compute=compute,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
