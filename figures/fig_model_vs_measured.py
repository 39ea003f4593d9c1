"""The model's predicted BFS time against the measured time, one point per configuration of the predictions table.

Log-log axes; the diagonal is a perfect prediction, the shaded bands are within ±10% and ±25%. Marker = kernel
variant, colour = memory mode; hollow markers are throttled runs (max_warps > 0). The title gives the median and
worst absolute relative error over the runs prediction_summary.json counts (its "rule" and "excluded" say which).

Definitions (also printed in the figure footer):
  measured    measured_ms of predictions.csv (mean over roots of the per-root median over reps)
  predicted   predicted_ms of predictions.csv: model.predict (D / T(d) of the fitted link + the kernel's floor +
              the critical path)
  rel_error   predicted / measured - 1 (the CSV checks the table's own rel_error against it: rel_error_check)

    python -m figures.fig_model_vs_measured --predictions results/model/predictions.csv \
        --summary results/model/prediction_summary.json --source results/tables/source.json \
        --out results/figures/fig_model_vs_measured.png [--out-csv results/figures/fig_model_vs_measured.csv]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from emogi.schema import MODES, VARIANTS
from figures import cli, style
from figures.inputs import FigureDataError
from figures.report_format import fms, fpct

FIGURE = "fig_model_vs_measured"
# in the report: the figure's title, and what it is drawn from (for the "not available" note)
REPORT_TITLE = "The model against the measurements"
DRAWN_FROM = "the model's predictions and prediction summary"
DEFINITION = (
    "measured = mean over roots of the per-root median over reps; predicted = model.predict (D / T(d) of "
    "the fitted link + the kernel's floor + the critical path); bands: ±10%, ±25%; "
    "hollow = throttled run (max_warps > 0)"
)

CSV_COLUMNS = [
    "graph",
    "algorithm",
    "variant",
    "mode",
    "edge_bytes",
    "max_warps",
    "footprint_bytes",
    "measured_ms",
    "predicted_ms",
    "ratio",
    "rel_error",
    "rel_error_check",
    "bound",
    "within_10",
    "within_25",
]


def model_vs_measured(predictions: pd.DataFrame, summary: dict) -> pd.DataFrame:
    """The plotted numbers: one row per configuration with a finite, positive measured and predicted time."""
    p = predictions.copy()
    p["max_warps"] = pd.to_numeric(p["max_warps"], errors="coerce").fillna(0).astype(int)
    ok = (
        np.isfinite(p["measured_ms"])
        & np.isfinite(p["predicted_ms"])
        & (p["measured_ms"] > 0)
        & (p["predicted_ms"] > 0)
    )
    p = p[ok]
    if p.empty:
        raise FigureDataError(
            f"figure {FIGURE} has no data: no row of the predictions table has a finite measured and predicted time"
        )
    p["ratio"] = p["predicted_ms"] / p["measured_ms"]
    p["rel_error_check"] = p["ratio"] - 1
    p["within_10"] = p["rel_error_check"].abs() <= 0.10
    p["within_25"] = p["rel_error_check"].abs() <= 0.25
    p = p.assign(
        _v=p["variant"].map(lambda v: VARIANTS.index(v) if v in VARIANTS else len(VARIANTS)),
        _m=p["mode"].map(lambda m: MODES.index(m) if m in MODES else len(MODES)),
    )
    out = p.sort_values(["graph", "edge_bytes", "_v", "_m", "max_warps"], ignore_index=True)[CSV_COLUMNS]
    out.attrs["summary"] = summary
    return out


def _pct(v) -> str:
    return "–" if v is None else f"{100 * float(v):.0f}%"


def run_name(run) -> str:
    """A run of prediction_summary.json ("worst_run": a dict of its keys, or a string) in words."""
    if isinstance(run, dict):
        parts = [str(run[k]) for k in ("graph", "variant", "mode") if k in run]
        if "edge_bytes" in run:
            parts.append(f"{run['edge_bytes']}-B edges")
        if run.get("max_warps"):
            parts.append(f"max_warps {run['max_warps']}")
        return ", ".join(parts)
    return str(run)


def draw(table: pd.DataFrame, source: dict):
    """The scatter; returns the figure."""
    from matplotlib.lines import Line2D

    summary = table.attrs.get("summary", {})
    fig, axes = style.new_figure(1, 1, panel_height=3.6, footer_lines=3, legend_lines=3)
    ax = axes[0][0]
    lo = float(min(table["measured_ms"].min(), table["predicted_ms"].min())) / 1.5
    hi = float(max(table["measured_ms"].max(), table["predicted_ms"].max())) * 1.5
    x = np.geomspace(lo, hi, 50)
    for band, alpha in ((0.25, 0.10), (0.10, 0.16)):
        ax.fill_between(x, x * (1 - band), x * (1 + band), color="black", alpha=alpha, linewidth=0, zorder=1)
    ax.plot(x, x, color="black", linewidth=0.9, zorder=2)
    for (variant, mode, throttled), g in table.groupby(["variant", "mode", table["max_warps"] > 0], sort=False):
        c = style.MODE_COLORS.get(mode, "#777777")
        ax.plot(
            g["measured_ms"],
            g["predicted_ms"],
            style.VARIANT_MARKERS.get(variant, "o"),
            linestyle="none",
            markersize=5,
            color="none" if throttled else c,
            markeredgecolor=c if throttled else "black",
            markeredgewidth=1.0 if throttled else 0.4,
            zorder=3,
        )
    for axis in ("x", "y"):  # 50, 100, 200, 300 rather than powers of ten, and no minor tick labelled
        style.plain_log_axis(ax, axis, subs=(1.0, 2.0, 3.0, 5.0))
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    ax.set_xlabel("measured time (ms)")
    ax.set_ylabel("predicted time (ms)")
    for where, band in ((0.25, "+25%"), (0.10, "+10%")):
        ax.text(
            hi / 1.6,
            hi / 1.6 * (1 + where),
            band,
            fontsize=style.VALUE_LABEL_SIZE,
            ha="right",
            va="bottom",
            color="#555555",
        )
    med, worst = summary.get("median_abs_error"), summary.get("worst_abs_error")
    title = f"median |error| {_pct(med)}, worst {_pct(worst)}"
    if summary.get("worst_run") is not None:
        title += f" ({run_name(summary['worst_run'])})"
    if summary.get("n_runs") is not None:
        title += f"; {summary['n_runs']} runs"
    ax.set_title(title, fontsize=style.FONT_SIZE)
    variants = [v for v in VARIANTS if v in set(table["variant"])]
    modes = [m for m in MODES if m in set(table["mode"])]
    handles = [
        Line2D(
            [],
            [],
            marker=style.VARIANT_MARKERS[v],
            color="#777777",
            linestyle="none",
            markersize=5,
            markeredgecolor="black",
            markeredgewidth=0.4,
        )
        for v in variants
    ]
    labels = [style.VARIANT_LABELS[v] for v in variants]
    handles += [style.mode_handle(m) for m in modes]
    labels += [style.MODE_LABELS[m] for m in modes]
    if (table["max_warps"] > 0).any():
        handles.append(Line2D([], [], marker="o", color="none", markeredgecolor="black", linestyle="none"))
        labels.append("throttled run (max_warps > 0)")
    style.legend_on_top(fig, handles, labels, ncol=3)
    note = DEFINITION
    if summary.get("rule"):
        note += f"; transfer, floor and critical path combined by '{summary['rule']}'"
    excluded = summary.get("excluded")
    if excluded:
        note += f"; {len(excluded)} excluded (report)"
    style.stamp(fig, source, note)
    return fig


# --- in the report -----------------------------------------------------------------------------------------
MISS = 0.25  # |predicted / measured - 1| above which the report lists a run as missed
MAX_MISSES_SHOWN = 20


def model_summary_section(predictions: pd.DataFrame | None, summary: dict | None) -> dict | None:
    """Median and worst error of the model, the runs it misses by more than MISS and what the summary excludes."""
    if predictions is None and summary is None:
        return None
    out = {"text": "", "misses": None, "excluded": []}
    if summary is not None:
        med, worst = summary.get("median_abs_error"), summary.get("worst_abs_error")
        run = summary.get("worst_run")
        text = (
            f"Over the {summary.get('n_runs', '–')} zero-copy configurations model.predict could predict, the "
            f"median |predicted / measured − 1| is {fpct(med) if med is not None else '–'} and the worst "
            f"{fpct(worst) if worst is not None else '–'} ({run_name(run) if run is not None else '–'})."
        )
        if summary.get("rule"):
            text += (
                " The prediction has three measured terms: the transfer time D / T(d), the GPU's own work"
                " (floor: the same traversal with the edge list in GPU memory) and the critical path (the"
                " longest neighbour list, walked by one thread or warp one round trip at a time: chain ="
                " steps x L); they are combined by"
                f" '{summary['rule']}'"
            )
            by_rule = summary.get("by_rule") or {}
            others = [
                f"'{r}' would give {fpct(e.get('median_abs_error'))} median"
                for r, e in by_rule.items()
                if r != summary["rule"] and isinstance(e, dict)
            ]
            text += " (" + "; ".join(others) + ")." if others else "."
        without = summary.get("without_chain")
        if isinstance(without, dict) and without.get("median_abs_error") is not None:
            text += (
                f" Without the critical-path term the median error would be {fpct(without['median_abs_error'])}"
                f" and the worst {fpct(without['worst_abs_error'])}"
            )
            text += (
                ": the longest lists (hub vertices) keep the thread or warp that walks them busy after the rest"
                " are done."
                if worst is not None and without["worst_abs_error"] > 1.25 * worst
                else "."
            )
        if summary.get("footprint_rule"):
            text += f" Link parameters are taken at footprint rule '{summary['footprint_rule']}'"
            other = summary.get("other_footprint_rule") or {}
            if other.get("footprint_rule"):
                text += (
                    f" ('{other['footprint_rule']}' would give {fpct(other.get('median_abs_error'))} median, "
                    f"{fpct(other.get('worst_abs_error'))} worst)"
                )
            text += "."
        out["text"] = text
        excluded = summary.get("excluded") or []
        if isinstance(excluded, dict):
            excluded = [{"run": k, "reason": v} for k, v in excluded.items()]
        for x in excluded:
            if isinstance(x, dict):
                what = x.get("run") or ", ".join(f"{k} {v}" for k, v in x.items() if k != "reason")
                out["excluded"].append(f"{what}: {x.get('reason', 'no reason given')}")
            else:
                out["excluded"].append(str(x))
    if predictions is not None:
        p = predictions.copy()
        p["max_warps"] = pd.to_numeric(p["max_warps"], errors="coerce").fillna(0)  # blank: a default launch
        p["err"] = p["predicted_ms"] / p["measured_ms"] - 1
        miss = p[p["err"].abs() > MISS].sort_values("err", key=lambda s: -s.abs())
        n_missed = len(miss)
        miss = miss.head(MAX_MISSES_SHOWN)
        rows = [
            [
                str(r.graph),
                f"{int(r.edge_bytes)} B",
                style.VARIANT_LABELS.get(r.variant, r.variant),
                style.MODE_SHORT_LABELS.get(r.mode, r.mode),
                str(int(r.max_warps)) if r.max_warps else "default",
                fms(r.measured_ms),
                fms(r.predicted_ms),
                f"{100 * r.err:+.0f}%",
                str(r.bound),
            ]
            for r in miss.itertuples()
        ]
        out["n_predictions"] = int(len(p))
        out["n_missed"] = n_missed
        out["misses"] = (
            {
                "columns": [
                    "graph",
                    "edges",
                    "variant",
                    "mode",
                    "max_warps",
                    "measured (ms)",
                    "predicted (ms)",
                    "error",
                    "binding term",
                ],
                "align": "lllllrrrl",
                "rows": rows,
            }
            if rows
            else None
        )
        shown = "" if n_missed <= len(rows) else f" (the {len(rows)} largest errors shown; all in predictions.csv)"
        out["miss_text"] = (
            f"{n_missed} of {len(p)} configurations (throttled runs included) are predicted more "
            f"than {MISS:.0%} off{shown}. For each, the table gives the term of T(d) that the model "
            "says binds (the 'bound' column of predictions.csv); the runs the summary leaves out "
            "follow with the reason it states."
            if rows
            else f"Every one of the {len(p)} configurations is predicted within {MISS:.0%}."
        )
    return out


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="Model-predicted against measured BFS time",
        tables=[],
        inputs=[cli.PREDICTIONS_INPUT, cli.SUMMARY_INPUT],
        compute=model_vs_measured,
        draw=draw,
    )


if __name__ == "__main__":
    sys.exit(main())
