"""Throughput and requests in flight against offered concurrency (the analogue of Figure 10 of the CXL-memory
paper, Sano et al., SC-W 2023, here for the GPU's own link to host memory).

Random, line-aligned reads of d = 32, 64, 96 or 128 bytes, `warps` x `reads_per_warp` of them issued at a time.
For each zero-copy allocation (columns) and footprint (pairs of rows), the upper panel shows the throughput T and
the lower one the requests in flight the link sustained, N = T L / d (Little's law, L from the pointer-chase
latency of the same allocation and footprint). One colour per request size; solid = one read per warp, dashed =
four (or more) independent reads per warp. The model's W (link bandwidth) and N_max (most requests in flight, with
its interval) are drawn when parameters.json is given.

Definitions (also printed in the figure footer):
  T          median over reps of requests x d / time, GB/s (1e9 B/s); error bar = IQR of the reps
  in flight  warps x reads_per_warp (what the kernel offers; the x axis)
  L          median pointer-chase latency (latency table) at the same allocation and footprint; where that
             footprint was not chased, linear in log footprint between the chased ones, clamped at the ends (as
             model.fit.params_for); L_interpolated says so
  N          T x L / d  (GB/s x µs x 1e3 / B = requests); the dotted diagonal is N = requests offered
  W, N_max   parameters.json of the model (model.fit): W_gbps.value and N_max.value [lo, hi]

    python -m figures.fig_concurrency --concurrency results/tables/concurrency.csv \
        --latency results/tables/latency.csv [--parameters results/model/parameters.json] \
        [--footprints 268435456 8589934592] --source results/tables/source.json \
        --out results/figures/fig_concurrency.png [--out-csv results/figures/fig_concurrency.csv]

Without --footprints each allocation shows its smallest and largest footprint that has a concurrency sweep (at
least three levels of in-flight requests).
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pandas as pd

from emogi.schema import ZERO_COPY_MODES
from emogi.tables import TableError, read_table, summarise_reps, verified_rows
from figures import cli, style
from figures.inputs import FigureDataError, ReportError, load_parameters
from figures.report_format import fbytes, fnum

FIGURE = "fig_concurrency"
# in the report: the figure's title, and what it is drawn from (for the "not available" note)
REPORT_TITLE = "Throughput and requests in flight (CXL paper Figure 10)"
DRAWN_FROM = "the concurrency and latency tables"
# optional here: without it the figure has no W and N_max lines
PARAMETERS_OPTIONAL = cli.Input(
    "parameters", load_parameters, "parameters.json of the model (model.fit); optional", required=False
)
MIN_LEVELS = 3  # a footprint "has a sweep" with at least this many in-flight levels
KEYS = ["mode", "footprint_bytes", "request_bytes", "warps", "reads_per_warp"]
DEFINITION = (
    "T = median over reps of requests × d / time (error bar: IQR); in flight = warps × reads per warp; "
    "N = T·L/d with L the pointer-chase latency of that allocation and footprint (Little's law); dotted "
    "diagonal: N = offered; W, N_max (band: interval) from the model's parameters.json"
)

CSV_COLUMNS = KEYS + [
    "in_flight",
    "n_reps",
    "gbps",
    "gbps_q25",
    "gbps_q75",
    "mrps",
    "L_us",
    "L_interpolated",
    "N_little",
    "W_gbps",
    "N_max",
    "N_max_lo",
    "N_max_hi",
]


def _latency_at(lat: pd.DataFrame, mode: str, footprint: int) -> tuple[float, bool]:
    """Median chase latency (µs) of `mode` at `footprint`: measured there, or linear in log footprint between the
    chased footprints, clamped at the ends (as model.fit.params_for does). Returns (L_us, interpolated)."""
    rows = lat[lat["mode"] == mode].sort_values("footprint_bytes")
    if rows.empty:
        raise FigureDataError(
            f"figure {FIGURE}: the latency table has no '{mode}' rows, so N = T·L/d "
            f"cannot be computed for that allocation"
        )
    exact = rows[rows["footprint_bytes"] == footprint]
    if len(exact):
        return float(exact["latency_us"].iloc[0]), False
    x = np.log2(rows["footprint_bytes"].to_numpy(dtype=float))
    return float(np.interp(math.log2(footprint), x, rows["latency_us"].to_numpy(dtype=float))), True


def concurrency_curves(
    concurrency: pd.DataFrame, latency: pd.DataFrame, parameters=None, footprints: list[int] | None = None
) -> pd.DataFrame:
    """The plotted numbers: one row per (allocation, footprint, request size, warps, reads per warp)."""
    rows = concurrency[concurrency["mode"].isin(ZERO_COPY_MODES)]
    if rows.empty:
        raise FigureDataError(
            f"figure {FIGURE} has no data: the concurrency table has no rows in the "
            f"zero-copy modes {list(ZERO_COPY_MODES)}"
        )
    rows = rows.assign(in_flight=rows["warps"] * rows["reads_per_warp"])
    levels = rows.groupby(["mode", "footprint_bytes"])["in_flight"].nunique()
    swept = levels[levels >= MIN_LEVELS].reset_index()
    if footprints:
        chosen = swept[swept["footprint_bytes"].isin([int(f) for f in footprints])]
    else:
        g = swept.groupby("mode")["footprint_bytes"]
        chosen = swept[
            (swept["footprint_bytes"] == g.transform("min")) | (swept["footprint_bytes"] == g.transform("max"))
        ]
    if chosen.empty:
        raise FigureDataError(
            f"figure {FIGURE} has no data: no allocation has a concurrency sweep (>= "
            f"{MIN_LEVELS} in-flight levels)" + (f" at footprints {footprints}" if footprints else "")
        )
    rows = rows.merge(chosen[["mode", "footprint_bytes"]], on=["mode", "footprint_bytes"])
    out = summarise_reps(rows, KEYS, "gbps")
    out = out.merge(rows.groupby(KEYS, as_index=False)["mrps"].median(), on=KEYS)
    out["in_flight"] = out["warps"] * out["reads_per_warp"]

    lat = verified_rows(latency).assign(latency_us=lambda f: f["latency_ns"] / 1e3)
    lat = lat.groupby(["mode", "footprint_bytes"], as_index=False)["latency_us"].median()
    at = {
        (m, f): _latency_at(lat, m, f)
        for m, f in out[["mode", "footprint_bytes"]].drop_duplicates().itertuples(index=False)
    }
    out["L_us"] = [at[(m, f)][0] for m, f in zip(out["mode"], out["footprint_bytes"])]
    out["L_interpolated"] = [at[(m, f)][1] for m, f in zip(out["mode"], out["footprint_bytes"])]
    out["N_little"] = out["gbps"] * out["L_us"] * 1e3 / out["request_bytes"]  # GB/s * us = 1e3 B
    if parameters is not None:
        out["W_gbps"] = float(parameters.W["value"])
        n = parameters.N_max
        out["N_max"] = float(n["value"])
        out["N_max_lo"] = np.nan if n.get("lo") is None else float(n["lo"])
        out["N_max_hi"] = np.nan if n.get("hi") is None else float(n["hi"])
    else:
        out["W_gbps"] = out["N_max"] = out["N_max_lo"] = out["N_max_hi"] = np.nan
    out = out.assign(_m=out["mode"].map(ZERO_COPY_MODES.index))
    return out.sort_values(["_m", "footprint_bytes", "request_bytes", "reads_per_warp", "warps"], ignore_index=True)[
        CSV_COLUMNS
    ]


def _panel_pairs(pairs: int, ncols: int, panel_in: float = 1.45, gap_in: float = 0.45):
    """`pairs` rows of (T panel over N panel) x `ncols`; a pair shares its x axis, pairs are apart for the titles.
    Returns (fig, axes) with axes[2 * pair + 0/1][col]."""
    import matplotlib.pyplot as plt

    footer_in, legend_in = style.FOOTER_HEIGHT_IN + 0.11, style.LEGEND_HEIGHT_IN + 0.15
    ratios = []
    for p in range(pairs):
        ratios += [panel_in, panel_in] + ([gap_in] if p < pairs - 1 else [])
    height = sum(ratios) + footer_in + legend_in + 0.75
    fig = plt.figure(figsize=(style.PAGE_WIDTH_IN, height))
    gs = fig.add_gridspec(
        len(ratios),
        ncols,
        height_ratios=ratios,
        hspace=0.12,
        wspace=0.2,
        left=0.08,
        right=0.99,
        bottom=(footer_in + 0.4) / height,
        top=1 - (legend_in + 0.35) / height,
    )
    axes = []
    for p in range(pairs):
        row = 3 * p
        top = [fig.add_subplot(gs[row, c]) for c in range(ncols)]
        bottom = [fig.add_subplot(gs[row + 1, c], sharex=top[c]) for c in range(ncols)]
        for ax in top:
            ax.tick_params(labelbottom=False)
        axes += [top, bottom]
    return fig, axes


def draw(table: pd.DataFrame, source: dict):
    """Pairs of panels (T over N) per allocation (columns) and footprint (rows); returns the figure."""
    from matplotlib.lines import Line2D

    modes = [m for m in ZERO_COPY_MODES if m in set(table["mode"])]
    fps = sorted(table["footprint_bytes"].unique())
    fig, axes = _panel_pairs(len(fps), len(modes))
    W = float(table["W_gbps"].iloc[0])
    N_max, N_lo, N_hi = (float(table[c].iloc[0]) for c in ("N_max", "N_max_lo", "N_max_hi"))
    t_top = 1.15 * np.nanmax([float(table["gbps_q75"].max()), W])
    n_top = 2.5 * np.nanmax([float(table["N_little"].max()), N_max])
    x_all = table["in_flight"]
    for c, mode in enumerate(modes):
        for r, fp in enumerate(fps):
            ax_t, ax_n = axes[2 * r][c], axes[2 * r + 1][c]
            t = table[(table["mode"] == mode) & (table["footprint_bytes"] == fp)]
            if t.empty:
                ax_t.set_visible(False)
                ax_n.set_visible(False)
                continue
            for (d, k), g in t.groupby(["request_bytes", "reads_per_warp"]):
                style_kw = {
                    "color": style.request_color(d),
                    "linestyle": style.REQUEST_LINESTYLES.get(int(k), ":"),
                    "linewidth": 1.0,
                    "marker": "o",
                    "markersize": 2,
                }
                ax_t.errorbar(
                    g["in_flight"],
                    g["gbps"],
                    yerr=[g["gbps"] - g["gbps_q25"], g["gbps_q75"] - g["gbps"]],
                    elinewidth=0.5,
                    capsize=0,
                    **style_kw,
                )
                ax_n.plot(g["in_flight"], g["N_little"], **style_kw)
            if math.isfinite(W):
                ax_t.axhline(W, **style.REFERENCE_LINE)
            if math.isfinite(N_max):
                ax_n.axhline(N_max, **style.REFERENCE_LINE)
                if math.isfinite(N_lo) and math.isfinite(N_hi):
                    ax_n.axhspan(N_lo, N_hi, color="black", alpha=0.08, linewidth=0)
            lo, hi = float(x_all.min()), float(x_all.max())
            ax_n.plot([lo, hi], [lo, hi], color="#888888", linestyle=":", linewidth=0.8, zorder=1)
            L = float(t["L_us"].iloc[0])
            note = f"L = {L:.2f} µs" + (" (interpolated)" if bool(t["L_interpolated"].iloc[0]) else "")
            ax_t.set_title(f"{style.MODE_SHORT_LABELS[mode]}, {style.fmt_size(fp)}: {note}", fontsize=style.FONT_SIZE)
            ax_t.set_ylim(0, t_top)
            ax_n.set_yscale("log", base=2)
            ax_n.set_ylim(0.5, n_top)
            style.log2_count_axis(ax_n, [max(1.0, v) for v in (0.5, n_top)], axis="y")
            style.log2_count_axis(ax_n, x_all)
            ax_t.grid(axis="y", linewidth=0.3, alpha=0.5)
            if c == 0:
                ax_t.set_ylabel("T (GB/s)")
                ax_n.set_ylabel("N = T·L/d")
            if r == len(fps) - 1:
                ax_n.set_xlabel("requests offered (warps × reads per warp)")
    sizes = sorted(table["request_bytes"].unique())
    handles = [Line2D([], [], color=style.request_color(d), linewidth=1.5) for d in sizes]
    labels = [f"d = {int(d)} B" for d in sizes]
    for k in sorted(table["reads_per_warp"].unique()):
        handles.append(
            Line2D([], [], color="black", linestyle=style.REQUEST_LINESTYLES.get(int(k), ":"), linewidth=1.0)
        )
        labels.append(f"{int(k)} read{'s' if k > 1 else ''} in flight per warp")
    if math.isfinite(W):
        handles.append(style.reference_handle())
        labels.append(f"W = {W:.3g} GB/s (T panels), N_max = {N_max:.0f} (N panels)")
    style.legend_on_top(fig, handles, labels, ncol=4)
    style.stamp(fig, source, DEFINITION)
    return fig


# --- in the report -----------------------------------------------------------------------------------------
def read_sizes_section(path) -> dict | None:
    """What a random d-byte read is on the link (Nsight counters of the concurrency sweep): link requests and
    bytes per read, the request size the L2 saw and the link's bytes per request beyond the payload."""
    if path is None:
        return None
    try:
        t = read_table(path, "concurrency_profile")
    except TableError as e:
        if e.state == "empty":  # an archive that did not profile the reads restores the table header-only
            return None
        raise ReportError(f"report: {e} (concurrency profile)") from None
    rows = []
    for (mode, footprint, d), g in t.groupby(["mode", "footprint_bytes", "request_bytes"]):
        reads, requests = float(g["reads"].sum()), float(g["sysmem_read_requests"].sum())
        payload = 32.0 * float(g["sysmem_read_sectors"].sum())
        pcie = float(g["pcie_read_bytes"].sum())
        rows.append(
            [
                style.MODE_SHORT_LABELS.get(mode, mode),
                fbytes(footprint),
                f"{int(d)} B",
                fnum(requests / reads) if reads else "–",
                f"{payload / requests:.1f} B" if requests else "–",
                f"{pcie / reads:.1f} B" if reads else "–",
                f"{(pcie - payload) / requests:.1f} B" if requests else "–",
            ]
        )
    return {
        "columns": [
            "allocation",
            "footprint",
            "read",
            "link requests per read",
            "request size (L2)",
            "PCIe bytes per read",
            "overhead per request",
        ],
        "align": "lllrrrr",
        "rows": rows,
    }


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="CXL Fig. 10 analogue: throughput and requests in flight",
        tables=["concurrency", "latency"],
        inputs=[PARAMETERS_OPTIONAL],
        compute=concurrency_curves,
        draw=draw,
        options=[
            cli.Option(
                "footprints",
                int,
                None,
                "footprints (bytes) to show; default: smallest and largest swept per allocation",
                nargs="+",
            )
        ],
    )


if __name__ == "__main__":
    sys.exit(main())
