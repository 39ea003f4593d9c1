"""Streamed against zero-copy as the active fraction varies (issue 22, a figure new to this study): per graph and
algorithm, each pass of `emogi run --pass-log` (kernels/include/emogi/pass_log.cuh) as a point, its launch time
per GiB of the graph's lists against the fraction of the list entries its active vertices own, one colour per
mode. Lines: the model. A streamed sweep that copies every block runs at the link's copy rate (model/streamed.py's
link curve, at the passes' mean block copy), whatever the fraction; one that copies only the active blocks, with
activity clustered in as few blocks as it can be, pays that fraction of it; zero-copy reads only the active
lists, at the fitted link throughput W of the model's parameters (a floor: no sector rounding, no latency bound).
Zero-copy's line crosses the full sweep's at fraction W / link rate, the predicted crossover.

    python -m figures.fig_streamed_crossover --passes passes.csv --link results/streamed/link.csv \
        --parameters results/model/parameters.json --source source.json --out fig.png [--out-csv ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from figures import cli, style
from figures.inputs import FigureDataError
from model.streamed import LinkCurve

FIGURE = "fig_streamed_crossover"
PASS_COLUMNS = ["graph", "algorithm", "variant", "mode", "rep", "pass", "active_entries", "list_entries"]
PASS_COLUMNS += ["entry_bytes", "launch_ms", "span_ms", "blocks", "copied_bytes"]
GIB = 2**30
FRACTIONS = np.logspace(-6, 0, 61)  # the model's lines; each panel shows them from its least active pass
MODE_COLORS = {"zerocopy": "#0072B2", "streamed": "#009E73", "uvm": "#D55E00"}
DEFINITION = (
    "point: one pass, launch time (CUDA events) / GiB of lists, x = its active vertices' list entries / all; lines "
    "predicted: streamed full sweep = copy at the link rate, clustered = that x fraction, zero-copy = fraction / W"
)


def load_passes(path: Path, figure: str) -> pd.DataFrame:
    """A --pass-log CSV: its columns checked, the passes without a count of active entries left out."""
    try:
        passes = pd.read_csv(path)
    except (FileNotFoundError, pd.errors.EmptyDataError):
        raise FigureDataError(f"figure {figure} has no data: {path} is missing or empty") from None
    missing = [c for c in PASS_COLUMNS if c not in passes.columns]
    if missing:
        raise FigureDataError(f"figure {figure}: {path} lacks {missing}: not an `emogi run --pass-log` CSV")
    return passes[passes["active_entries"].notna()]


PASSES_INPUT = cli.Input("passes", load_passes, "passes.csv of `emogi run --pass-log`")


def compute(passes: pd.DataFrame, link: pd.DataFrame, parameters) -> pd.DataFrame:
    """One row per measured pass (kind measured) and per point of each model line (kind predicted): graph,
    algorithm, mode, variant, line, active_fraction, ms_per_gib."""
    curve = LinkCurve.from_table(link)
    W = float(parameters.W["value"])
    rows = []
    for (graph, algorithm), p in passes.groupby(["graph", "algorithm"], sort=False):
        lists_gib = float(p["list_entries"].iloc[0] * p["entry_bytes"].iloc[0]) / GIB
        fraction = p["active_entries"].astype(float) / p["list_entries"].astype(float)
        m = pd.DataFrame({"graph": graph, "algorithm": algorithm, "mode": p["mode"], "variant": p["variant"]})
        m["line"], m["kind"] = "pass", "measured"
        m["active_fraction"], m["ms_per_gib"] = fraction.values, (p["launch_ms"] / lists_gib).values
        rows.append(m[m["active_fraction"] > 0])
        copied = p[(p["mode"] == "streamed") & (p["blocks"] > 0) & (p["copied_bytes"] > 0)]
        block = float((copied["copied_bytes"] / copied["blocks"]).mean()) if len(copied) else curve.sizes[-1]
        full = curve.copy_ms(block) * GIB / block  # ms per GiB copied in blocks of `block` bytes
        for mode, line, ms in (
            ("streamed", "full sweep", np.full_like(FRACTIONS, full)),
            ("streamed", "active blocks", FRACTIONS * full),
            ("zerocopy", "active lists at W", FRACTIONS * GIB / (W * 1e6)),
        ):
            rows.append(
                pd.DataFrame(
                    {
                        "graph": graph,
                        "algorithm": algorithm,
                        "mode": mode,
                        "variant": "",
                        "line": line,
                        "kind": "predicted",
                        "active_fraction": FRACTIONS,
                        "ms_per_gib": ms,
                    }
                )  # fmt: skip
            )
        crossover = min(1.0, full / (GIB / (W * 1e6)))  # where fraction / W meets the full sweep: W / link rate
        rows.append(
            pd.DataFrame(
                [
                    {
                        "graph": graph,
                        "algorithm": algorithm,
                        "mode": "",
                        "variant": "",
                        "line": "crossover",
                        "kind": "predicted",
                        "active_fraction": crossover,
                        "ms_per_gib": full,
                    }
                ]
            )  # fmt: skip
        )
    return pd.concat(rows, ignore_index=True)


def draw(table: pd.DataFrame, source: dict):
    panels = list(dict.fromkeys(zip(table["graph"], table["algorithm"])))
    ncols = min(2, len(panels))
    nrows = (len(panels) + ncols - 1) // ncols
    fig, axes = style.new_figure(nrows, ncols, footer_lines=3, legend_lines=3, wspace=0.3)
    markers = {v: style.VARIANT_MARKERS.get(v, "o") for v in sorted(set(table["variant"]) - {""})}
    lines = {"full sweep": "--", "active blocks": ":", "active lists at W": "-"}
    for i, (graph, algorithm) in enumerate(panels):
        ax = axes[i // ncols][i % ncols]
        rows = table[(table["graph"] == graph) & (table["algorithm"] == algorithm)]
        for (mode, variant), p in rows[rows["kind"] == "measured"].groupby(["mode", "variant"]):
            ax.scatter(p["active_fraction"], p["ms_per_gib"], s=8, marker=markers[variant], alpha=0.6,
                       color=MODE_COLORS.get(mode, "grey"), linewidths=0, zorder=3)  # fmt: skip
        for (mode, line), p in rows[(rows["kind"] == "predicted") & rows["line"].isin(lines)].groupby(["mode", "line"]):
            ax.plot(p["active_fraction"], p["ms_per_gib"], lines[line], color=MODE_COLORS[mode], lw=1, zorder=2)
        cross = rows[rows["line"] == "crossover"]
        if len(cross):
            x = float(cross["active_fraction"].iloc[0])
            ax.axvline(x, **style.REFERENCE_LINE)
            ax.text(x, 0.03, f"predicted crossover {x:.2f} ", transform=ax.get_xaxis_transform(), rotation=90,
                    ha="right", va="bottom", fontsize=style.VALUE_LABEL_SIZE)  # fmt: skip
        ax.set_xscale("log")
        least = rows.loc[rows["kind"] == "measured", "active_fraction"].min()
        lo = max(FRACTIONS[0], 0.3 * least) if np.isfinite(least) else FRACTIONS[0]
        ax.set_xlim(lo, 1.5)
        shown = rows.loc[rows["active_fraction"].between(lo, 1.5) & rows["line"].ne("crossover"), "ms_per_gib"]
        ax.set_ylim(0.5 * shown[shown > 0].min(), 2 * shown.max())
        ax.set_yscale("log")
        ax.set_xlabel("active fraction of the list entries")
        ax.set_ylabel("ms per GiB of lists")
        ax.set_title(f"{graph} {style.ALGORITHM_LABELS.get(algorithm, algorithm)}", fontsize=style.FONT_SIZE)
    for j in range(len(panels), nrows * ncols):
        axes[j // ncols][j % ncols].set_visible(False)
    modes = [m for m in MODE_COLORS if m in set(table.loc[table["kind"] == "measured", "mode"])]
    handles = [Line2D([0], [0], ls="none", marker="o", ms=5, mfc=MODE_COLORS[m], mec=MODE_COLORS[m]) for m in modes]
    labels = [f"{style.MODE_LABELS.get(m, m)}, measured pass" for m in modes]
    handles += [Line2D([], [], ls=s, color="black") for s in lines.values()]
    labels += [f"model: {line} (predicted)" for line in lines]
    style.legend_on_top(fig, handles, labels, ncol=2)
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Streamed against zero-copy per pass, as the active fraction varies",
        tables=[PASSES_INPUT, "link"],
        inputs=[cli.PARAMETERS_INPUT],
        compute=compute,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
