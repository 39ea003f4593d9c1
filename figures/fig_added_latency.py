"""BFS runtime against added latency, normalised to no added latency (the analogue of Figure 11 of the
CXL-memory paper, Sano et al., SC-W 2023, which adds latency with an FPGA bridge in front of CXL memory).

We cannot add latency to the host link, so the figure has two parts:
  model      for every zero-copy BFS configuration of the predictions table (graph x variant x allocation x edge
             width, default launch), the predicted runtime with the round trip L raised to L + added, divided by
             the prediction at added = 0: model.whatif.runtime_vs_added_latency(D, d, params, added, floor_ms,
             rule), params = model.fit.params_for(parameters.json, mode, F) with F where model.predict evaluates
             them (prediction_summary.json's footprint_rule: 'sweep' = the smallest chased footprint, its default;
             'edge-list' = the edge list) and rule its "rule" (sum or max of transfer and floor; default sum).
             table_predicted_ms (predictions.csv) beside the line's value at 0 checks that reading.
  emulated   BFS runs throttled to w resident warps (runs with max_warps = w > 0). A warp keeps about r reads in
             flight, so the throttled kernel has at most r w requests outstanding. By Little's law, throughput =
             N d / L, the unthrottled link (N_max in flight) would deliver the same throughput at the longer latency
             L_eq = L N_max / min(N_max, r w); the point is drawn at added latency L_eq - L, at the measured time of
             the throttled run divided by the measured time of the default launch (filled marker). The hollow
             marker is the model's prediction for that throttled run, divided likewise. r comes from a
             `reads_per_warp` column of the predictions table if it has one, else --reads-per-warp, else the
             model's own assumption, model.predict.requests_per_warp(variant, edge_bytes) (32 for Naive: a
             request per lane; the lines one warp-wide step spans for the merged variants, one more for Merged).
             The CSV says which (r_source).
  delayed    BFS runs whose every read waits D after it arrives (the latency_emulation table of
             emogi.latency_emulation, CXL Fig. 11's own experiment): the point's x is the latency the wait really
             added, measured independently by the pointer chase under the same wait in the same job (median chase
             latency at D minus at D = 0; the bar spans the chase's reps), never inferred from the BFS's
             throughput; its y is the BFS time at D over the time at D = 0 (mean over roots of the per-root median
             over reps). The hollow ring is the model line's value at that measured x. Tables without such runs
             (archives from before them, microbenchmarks off) give none, and the figure says so.
  flat       per delayed configuration, the measured latency (chase at 0 + added) at which the BFS time first
             exceeds FLAT x its time at D = 0 (interpolated between delays), over the CXL paper's allowance
             N_max d / W with our fitted N_max and W (the claims table's latency-allowance row reads it).
  The delayed and flat rows, and the delayed markers, are made in figures.latency_delayed (FLAT too).
  tick (|)   on each model line: the added latency where the Little's-law term starts to bind,
             N_max d / min(S d, W) - L (littles_law.max_L); below it the link, not the latency, sets T.

    python -m figures.fig_added_latency --predictions results/model/predictions.csv \
        --parameters results/model/parameters.json [--summary results/model/prediction_summary.json] \
        [--latency-emulation results/tables/latency_emulation.csv] [--max-added-us 5] [--reads-per-warp R] \
        --source results/tables/source.json --out results/figures/fig_added_latency.png \
        [--out-csv results/figures/fig_added_latency.csv]
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pandas as pd

from emogi.schema import VARIANTS, ZERO_COPY_MODES
from figures import cli, style
from figures.inputs import FigureDataError, load_summary
from figures.latency_delayed import (
    LATENCY_EMULATION_INPUT,
    delayed_rows,
    draw_delayed,
    measured_and_predicted,
    measured_delays,
)
from model.littles_law import LinkParams, max_L

FIGURE = "fig_added_latency"
# in the report: the figure's title, and what it is drawn from (for the "not available" note)
REPORT_TITLE = "Runtime against added latency (CXL paper Figure 11)"
DRAWN_FROM = "the model's predictions and parameters"
STEPS = 101  # points per model line
RUN_KEYS = ["graph", "algorithm", "variant", "mode", "edge_bytes"]
DEFINITION = (
    "lines: model runtime with L + added latency / model runtime at 0 (| = where N_max/L starts to bind); "
    "● measured, ○ model, for BFS throttled to w warps, at added = L_eq − L, L_eq = L·N_max/min(N_max, r·w), "
    "runtime / default-launch runtime; large markers: BFS with every read delayed, at the added latency the "
    "pointer chase measured under the same delay (bar: its reps), runtime / runtime without delay, ◯ the model "
    "line there; r = {r}"
)
NO_DELAYS = "no delayed runs in these tables (latency_emulation is empty): nothing is measured off 0 added latency"

CSV_COLUMNS = [
    "kind",
    "graph",
    "edge_bytes",
    "variant",
    "mode",
    "footprint_bytes",
    "max_warps",
    "added_us",
    "L_us",
    "N_max",
    "r",
    "r_source",
    "in_flight",
    "runtime_ms",
    "baseline_ms",
    "normalised",
    "predicted_normalised",
    "tolerated_added_us",
    "table_predicted_ms",
    "shown",
    "requested_us",
    "added_lo_us",
    "added_hi_us",
    "chase_L0_us",
    "flat_limit_us",
    "allowance_us",
    "flat_over_allowance",
]
KINDS = ("model", "emulated", "delayed", "flat")


def _reads_per_warp(row, predictions: pd.DataFrame, override) -> tuple[float, str]:
    """r for a throttled run: the predictions table's own column if it has one, else --reads-per-warp, else the
    model's assumption (model.predict.requests_per_warp, which its predictions of throttled runs use)."""
    for col in ("reads_per_warp", "requests_per_warp"):
        if col in predictions.columns and pd.notna(row.get(col)):
            return float(row[col]), "predictions"
    if override is not None:
        return float(override), "--reads-per-warp"
    from model.predict import requests_per_warp

    return float(requests_per_warp(row["variant"], int(row["edge_bytes"]))), "model.predict.requests_per_warp"


def _parameter_footprint(parameters, mode: str, edge_list_bytes: float, footprint_rule: str) -> float:
    """Footprint at which model.predict evaluates the link parameters (its module doc): 'sweep' (its default) =
    the smallest footprint the chase measured for `mode`; 'edge-list' = the edge list's bytes."""
    if footprint_rule == "edge-list":
        return edge_list_bytes
    measured = parameters.footprints(mode)
    return measured[0] if measured else edge_list_bytes


def added_latency(
    predictions: pd.DataFrame,
    parameters,
    summary: dict | None = None,
    latency_emulation: pd.DataFrame | None = None,
    max_added_us: float = 5.0,
    reads_per_warp: float | None = None,
) -> pd.DataFrame:
    """The plotted numbers: model lines (kind = model, STEPS rows per configuration), throttled runs (kind =
    emulated, one per run), delayed runs (kind = delayed, one per configuration and delay) and the flat limit of
    each delayed configuration (kind = flat); see the module doc."""
    from model.whatif import runtime_vs_added_latency

    summary = summary or {}
    delays = measured_delays(latency_emulation)
    if len(delays):  # the lines reach past the largest delay measured
        max_added_us = max(max_added_us, 1.05 * float(delays["added_hi_ns"].max()) / 1e3)
    rule = summary.get("rule", "sum")  # how model.predict combines transfer and floor
    footprint_rule = summary.get("footprint_rule", "sweep")  # where it evaluates L and S
    zc = predictions[predictions["mode"].isin(ZERO_COPY_MODES) & (predictions["algorithm"] == "bfs")]
    zc = zc.assign(max_warps=pd.to_numeric(zc["max_warps"], errors="coerce").fillna(0))
    base = zc[(zc["max_warps"] == 0) & zc[["D_bytes", "d_bytes"]].notna().all(axis=1)]
    if base.empty:
        raise FigureDataError(
            f"figure {FIGURE} has no data: the predictions table has no zero-copy BFS rows "
            f"of the default launch (max_warps = 0) with D and d"
        )
    added = np.linspace(0.0, max_added_us, STEPS)
    rows, params_of, line_of = [], {}, {}
    for r in base.to_dict("records"):
        at = _parameter_footprint(parameters, r["mode"], r["footprint_bytes"], footprint_rule)
        try:
            p = parameters.link_params(r["mode"], at)
        except (KeyError, ValueError) as e:
            raise FigureDataError(f"figure {FIGURE}: no fitted parameters for {r['mode']} at {at} B ({e})") from None
        key = tuple(r[k] for k in RUN_KEYS)
        params_of[key] = p
        floor = float(r["floor_ms"]) if pd.notna(r["floor_ms"]) else 0.0
        if not (p.L_us > 0):  # no latency fitted (N_max unbounded): nothing for added latency to act on
            p = LinkParams(W_gbps=p.W_gbps, S_miops=p.S_miops, N_max=math.inf, L_us=1.0)
        chain = int(r["chain_steps"]) if pd.notna(r.get("chain_steps", np.nan)) else 0  # older tables: none
        line_of[key] = (r, p, floor, chain)
        curve = runtime_vs_added_latency(
            r["D_bytes"], r["d_bytes"], p, added, floor_ms=floor, rule=rule, chain_steps=chain
        )
        if math.isfinite(p.N_max):
            link = min(p.S_miops * r["d_bytes"] / 1e3, p.W_gbps)
            tolerated = max(0.0, max_L(p.N_max, r["d_bytes"], link) - p.L_us)
        else:  # no in-flight limit: added latency changes nothing the model knows of
            tolerated = math.inf
        base_ms = float(curve["runtime_ms"].iloc[0])
        for a, t, rel in zip(curve["added_latency_us"], curve["runtime_ms"], curve["relative"]):
            rows.append(
                {
                    "kind": "model",
                    **{k: r[k] for k in RUN_KEYS},
                    "footprint_bytes": r["footprint_bytes"],
                    "max_warps": 0,
                    "added_us": a,
                    "L_us": p.L_us,
                    "N_max": p.N_max,
                    "runtime_ms": t,
                    "baseline_ms": base_ms,
                    "normalised": rel,
                    "tolerated_added_us": tolerated,
                    "table_predicted_ms": r["predicted_ms"],
                    "shown": True,
                }
            )

    thr = zc[zc["max_warps"] > 0]
    if len(thr):
        ref = base.set_index(RUN_KEYS)[["measured_ms", "predicted_ms"]]
        for r in thr.to_dict("records"):
            key = tuple(r[k] for k in RUN_KEYS)
            if key not in ref.index or key not in params_of:
                continue  # no default launch to compare with
            p = params_of[key]
            rpw, source = _reads_per_warp(r, predictions, reads_per_warp)
            in_flight = rpw * r["max_warps"]
            L_eq = p.L_us * p.N_max / min(p.N_max, in_flight) if math.isfinite(p.N_max) else p.L_us
            a = L_eq - p.L_us
            b = ref.loc[key]
            rows.append(
                {
                    "kind": "emulated",
                    **{k: r[k] for k in RUN_KEYS},
                    "footprint_bytes": r["footprint_bytes"],
                    "max_warps": int(r["max_warps"]),
                    "added_us": a,
                    "L_us": p.L_us,
                    "N_max": p.N_max,
                    "r": rpw,
                    "r_source": source,
                    "in_flight": in_flight,
                    "runtime_ms": r["measured_ms"],
                    "baseline_ms": b["measured_ms"],
                    "normalised": r["measured_ms"] / b["measured_ms"],
                    "predicted_normalised": r["predicted_ms"] / b["predicted_ms"],
                    "table_predicted_ms": r["predicted_ms"],
                    "shown": a <= max_added_us,
                }
            )
    rows += delayed_rows(delays, line_of, rule, max_added_us)
    out = pd.DataFrame(rows)
    model_rows = out["kind"] == "model"
    drift = (
        out.loc[model_rows & (out["added_us"] == 0), "runtime_ms"]
        / out.loc[model_rows & (out["added_us"] == 0), "table_predicted_ms"]
        - 1
    ).abs()
    if len(drift) and float(drift.max()) > 0.01:  # our reading of the model is not the model's: say so
        print(
            f"{FIGURE}: warning: the model lines at 0 added latency differ from predictions.csv by up to "
            f"{100 * float(drift.max()):.1f}% (rule {rule!r}, footprint rule {footprint_rule!r})",
            file=sys.stderr,
        )
    out = out.assign(
        _k=out["kind"].map(KINDS.index),
        _v=out["variant"].map(lambda v: VARIANTS.index(v) if v in VARIANTS else len(VARIANTS)),
        _m=out["mode"].map(lambda m: ZERO_COPY_MODES.index(m) if m in ZERO_COPY_MODES else len(ZERO_COPY_MODES)),
    )
    out = out.sort_values(["_k", "graph", "edge_bytes", "_m", "_v", "max_warps", "added_us"], ignore_index=True)
    out = out.reindex(columns=CSV_COLUMNS)
    out.attrs["max_added_us"] = max_added_us
    return out


def draw(table: pd.DataFrame, source: dict):
    """Panels per allocation (rows) and graph/edge width (columns); returns the figure."""
    from matplotlib.lines import Line2D

    model = table[table["kind"] == "model"]
    emu = table[(table["kind"] == "emulated") & table["shown"].astype(bool)]
    delayed = table[(table["kind"] == "delayed") & table["shown"].astype(bool)]
    hidden = int(((table["kind"] == "emulated") & ~table["shown"].astype(bool)).sum())
    keys = list(dict.fromkeys(zip(model["graph"], model["edge_bytes"])))
    modes = [m for m in ZERO_COPY_MODES if m in set(model["mode"])]
    fig, axes = style.new_figure(
        len(modes),
        len(keys),
        sharex=True,
        sharey=True,
        panel_height=2.0,
        footer_lines=4,
        legend_lines=3,
        hspace=0.25,
    )
    max_added = float(table.attrs.get("max_added_us", model["added_us"].max()))
    shown = pd.concat(
        [model["normalised"], emu["normalised"], emu["predicted_normalised"], delayed["normalised"]]
    ).dropna()
    top = max(1.2, float(shown.max()) * 1.08) if len(shown) else 2.0
    for r, mode in enumerate(modes):
        for c, key in enumerate(keys):
            ax = axes[r][c]
            sel = lambda f: f[(f["mode"] == mode) & (f["graph"] == key[0]) & (f["edge_bytes"] == key[1])]  # noqa
            m, e, dl = sel(model), sel(emu), sel(delayed)
            if m.empty:
                ax.set_visible(False)
                continue
            for v in VARIANTS:
                line = m[m["variant"] == v]
                if line.empty:
                    continue
                color = style.VARIANT_COLORS[v]
                ax.plot(line["added_us"], line["normalised"], color=color, linewidth=1.3, zorder=2)
                tol = float(line["tolerated_added_us"].iloc[0])
                if 0 < tol <= max_added:
                    y = float(np.interp(tol, line["added_us"], line["normalised"]))
                    ax.plot([tol], [y], "|", color=color, markersize=8, markeredgewidth=1.4, zorder=3)
                pts = e[e["variant"] == v]
                marker = style.VARIANT_MARKERS[v]
                measured_and_predicted(
                    ax, pts["added_us"], pts, marker, marker, color, size=4.5, ring_size=5.5, edge=0.4, zorder=4
                )
                draw_delayed(ax, dl[dl["variant"] == v], v, color)
            ax.axhline(1.0, color="#888888", linewidth=0.7, zorder=1)
            if delayed.empty:  # nothing measured off 0: say so where the points would be
                ax.text(
                    0.97,
                    0.04,
                    "no delayed runs in these tables:\nmeasured points only at 0 added latency",
                    transform=ax.transAxes,
                    ha="right",
                    va="bottom",
                    fontsize=style.VALUE_LABEL_SIZE + 0.5,
                    color="#555555",
                    style="italic",
                )
            ax.set_xlim(0, max_added)
            ax.set_ylim(0.9, top)
            ax.grid(axis="y", linewidth=0.3, alpha=0.5)
            L = float(m["L_us"].iloc[0])
            ax.text(
                0.03,
                0.96,
                f"{style.MODE_SHORT_LABELS[mode]}\nL = {L:.2f} µs, N_max = {float(m['N_max'].iloc[0]):.0f}",
                transform=ax.transAxes,
                ha="left",
                va="top",
                fontsize=style.VALUE_LABEL_SIZE + 0.5,
                bbox={"facecolor": "white", "edgecolor": "#cccccc", "pad": 1.5, "alpha": 0.9},
            )
            if r == 0:
                ax.set_title(f"{key[0]}, {int(key[1])}-byte edges", fontsize=style.FONT_SIZE)
            if c == 0:
                ax.set_ylabel("runtime / runtime at 0")
            if r == len(modes) - 1:
                ax.set_xlabel("added latency (µs)")
    variants = [v for v in VARIANTS if v in set(model["variant"])]
    handles = [
        Line2D(
            [],
            [],
            color=style.VARIANT_COLORS[v],
            marker=style.VARIANT_MARKERS[v],
            markersize=4,
            markeredgecolor="black",
            markeredgewidth=0.4,
        )
        for v in variants
    ]
    labels = [f"{style.VARIANT_LABELS[v]}: model (line)" for v in variants]
    handles.append(Line2D([], [], marker="o", color="#777777", markeredgecolor="black", linestyle="none"))
    labels.append("filled: throttled run, at the model's L_eq − L")
    handles.append(Line2D([], [], marker="o", color="none", markeredgecolor="black", linestyle="none"))
    labels.append("hollow: the model's prediction of a measured run")
    if len(delayed):
        handles.append(
            Line2D([], [], marker="s", color="#777777", markeredgecolor="black", markersize=6.5, linestyle="none")
        )
        labels.append("large, with bar: delayed run, at the chase's added latency")
    style.legend_on_top(fig, handles, labels)
    rs = table.loc[table["kind"] == "emulated", ["variant", "r", "r_source"]].drop_duplicates()
    parts = []
    for src, g in rs.groupby("r_source", sort=False):
        per = "; ".join(
            f"{style.VARIANT_LABELS.get(v, v)} {', '.join(f'{x:g}' for x in sorted(set(gv['r'])))}"
            for v, gv in g.groupby("variant", sort=False)
        )
        parts.append(f"{per} ({src})")
    r_text = "; ".join(parts) or "no throttled runs"
    note = DEFINITION.format(r=r_text) + ("" if len(delayed) else "; " + NO_DELAYS)
    if hidden:
        note += f"; {hidden} throttled run(s) beyond {max_added:g} µs not shown (in the CSV)"
    style.stamp(fig, source, note)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="CXL Fig. 11 analogue: runtime against added latency",
        tables=[],
        inputs=[
            cli.PREDICTIONS_INPUT,
            cli.PARAMETERS_INPUT,
            cli.Input(
                "summary",
                load_summary,
                "prediction_summary.json of model.predict (its rule and footprint_rule); optional",
                required=False,
            ),
            LATENCY_EMULATION_INPUT,
        ],
        compute=added_latency,
        draw=draw,
        options=[
            cli.Option("max_added_us", float, 5.0, "largest added latency drawn, µs"),
            cli.Option(
                "reads_per_warp",
                float,
                None,
                "requests one warp keeps in flight (r) for the throttled runs, when the predictions table does not say",
            ),
        ],
    )


if __name__ == "__main__":
    sys.exit(main())
