"""Runtime of BFS against the transfer size (the analogue of Figure 4 of the CXL-memory paper, Sano et al.,
SC-W 2023, §3.2-3.3).

When the edge list is read in aligned blocks of a bytes and every request carries a whole block (d = a, as in a
software cache; zero-copy has a = 32 B and d from 32 to 128 B), a traversal fetches D(a) bytes and the link moves
them at T(d) = min(S d, N_max d / L, W), so it takes at least t = D / T. Three panels over d on a log-2 axis:
D(a) per graph (from the amplification table: the BFS trees of our roots, no GPU involved), T(d) for a hardware
preset (default pcie4-x16, the paper's setting) and for our measured parameters, and t(d) for each graph on each.
T grows linearly with slope s = min(S, N_max / L) until it meets W, so t is smallest at d_opt = W / s (dotted),
the smallest transfer that still fills the link (the paper's "s d_opt = W").

Definitions (also printed in the figure footer):
  D(a)   per (graph, edge width, a) = mean over roots of bytes_fetched (the neighbour lists a BFS expands, rounded
         out to whole aligned a-byte blocks)
  T(d)   min(S d, N_max d / L, W); params = model.presets.get_preset(--preset), and for ours
         model.fit.params_for(parameters.json, --mode, --footprint-bytes)
  t(d)   D(d) / T(d), ms (D, T and t from model.whatif.runtime_vs_transfer_size at the measured alignments);
         d_opt = W / s with s = model.littles_law.request_rate_miops(params) (littles_law.optimal_transfer_size)

    python -m figures.fig_runtime_vs_transfer_size --amplification results/tables/amplification.csv \
        --parameters results/model/parameters.json [--preset pcie4-x16] [--mode zerocopy] \
        [--footprint-bytes 8589934592] --source results/tables/source.json \
        --out results/figures/fig_runtime_vs_transfer_size.png \
        [--out-csv results/figures/fig_runtime_vs_transfer_size.csv]

--footprint-bytes defaults to the largest footprint with a fitted latency for --mode (a large edge list).
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pandas as pd

from figures import cli, style
from figures.inputs import FigureDataError
from model.littles_law import optimal_transfer_size, request_rate_miops

FIGURE = "fig_runtime_vs_transfer_size"
# in the report: the figure's title, and what it is drawn from (for the "not available" note)
REPORT_TITLE = "Runtime against transfer size (CXL paper Figure 4)"
DRAWN_FROM = "the amplification table and the model's parameters"
DEFAULT_PRESET = "pcie4-x16"
SIZE_RANGE = (32, 4096)  # bytes: zero-copy's sector to a storage page
HW_STYLES = ("--", "-")  # preset, ours
DEFINITION = (
    "D(a) = mean over roots of the bytes a BFS fetches in aligned a-byte blocks (amplification table); "
    "T(d) = min(S·d, N_max·d/L, W); t = D/T with d = a; dotted: d_opt = W/s, s = min(S, N_max/L)"
)

CSV_COLUMNS = [
    "hardware",
    "graph",
    "edge_bytes",
    "d_bytes",
    "n_roots",
    "E_bytes",
    "D_bytes",
    "W_gbps",
    "S_miops",
    "N_max",
    "L_us",
    "s_miops",
    "T_gbps",
    "bound",
    "t_ms",
    "d_opt_bytes",
]


def _hardware(parameters, preset: str, mode: str, footprint_bytes: int | None) -> list[tuple[str, object]]:
    from model import presets

    try:
        hw = [(f"preset {preset}", presets.get_preset(preset))]  # a Preset is a LinkParams
    except (KeyError, ValueError) as e:
        raise FigureDataError(f"figure {FIGURE}: unknown hardware preset {preset!r} ({e})") from None
    fps = parameters.footprints(mode)
    if footprint_bytes is None:
        if not fps:
            raise FigureDataError(f"figure {FIGURE}: parameters.json has no latency for mode {mode!r}")
        footprint_bytes = fps[-1]
    try:
        ours = parameters.link_params(mode, footprint_bytes)
    except (KeyError, ValueError) as e:
        raise FigureDataError(
            f"figure {FIGURE}: no fitted parameters for {mode} at {footprint_bytes} B ({e})"
        ) from None
    hw.append((f"ours: {style.MODE_SHORT_LABELS.get(mode, mode)}, {style.fmt_size(footprint_bytes)}", ours))
    return hw


def runtime_vs_size(
    amplification: pd.DataFrame,
    parameters,
    preset: str = DEFAULT_PRESET,
    mode: str = "zerocopy",
    footprint_bytes: int | None = None,
) -> pd.DataFrame:
    """The plotted numbers: one row per (hardware, graph, edge width, transfer size d = a)."""
    from model.whatif import runtime_vs_transfer_size

    amp = amplification[amplification["alignment_bytes"].between(*SIZE_RANGE)]
    if amp.empty:
        raise FigureDataError(
            f"figure {FIGURE} has no data: the amplification table has no alignments in "
            f"{SIZE_RANGE[0]}..{SIZE_RANGE[1]} B"
        )
    keys = ["graph", "edge_bytes", "alignment_bytes"]
    roots = amp.groupby(keys, as_index=False).agg(n_roots=("root", "nunique"), E_bytes=("bytes_needed", "mean"))
    roots = roots.rename(columns={"alignment_bytes": "d_bytes"})
    sizes = sorted(amp["alignment_bytes"].unique())
    frames = []
    for name, p in _hardware(parameters, preset, mode, footprint_bytes):
        f = runtime_vs_transfer_size(amp, p, sizes).rename(columns={"size_bytes": "d_bytes", "runtime_ms": "t_ms"})
        f = f.merge(roots, on=["graph", "edge_bytes", "d_bytes"], how="left")
        s = request_rate_miops(p)
        f.insert(0, "hardware", name)
        f["W_gbps"], f["S_miops"], f["N_max"], f["L_us"], f["s_miops"] = p.W_gbps, p.S_miops, p.N_max, p.L_us, s
        f["d_opt_bytes"] = optimal_transfer_size(p.W_gbps, s) if math.isfinite(s) else np.nan
        frames.append(f)
    out = pd.concat(frames, ignore_index=True)
    out = out.replace([np.inf, -np.inf], np.nan)  # "not a limit" terms: blank in the CSV
    return out[CSV_COLUMNS]


def draw(table: pd.DataFrame, source: dict):
    """D, T and t over d; returns the figure."""
    from matplotlib.lines import Line2D

    fig, axes = style.new_figure(1, 3, panel_height=2.5, footer_lines=3, legend_lines=3, wspace=0.38)
    ax_d, ax_t, ax_r = axes[0]
    hws = list(dict.fromkeys(table["hardware"]))
    keys = list(dict.fromkeys(zip(table["graph"], table["edge_bytes"])))
    several_widths = len({w for _, w in keys}) > 1
    name = {k: (f"{k[0]} ({int(k[1])} B)" if several_widths else str(k[0])) for k in keys}
    colors = style.graph_colors(keys)
    first = table[table["hardware"] == hws[0]]
    for k in keys:
        g = first[(first["graph"] == k[0]) & (first["edge_bytes"] == k[1])]
        ax_d.plot(g["d_bytes"], g["D_bytes"] / 1e9, color=colors[k], marker="o", markersize=2.5, linewidth=1.2)
    for i, hw in enumerate(hws):
        t = table[table["hardware"] == hw]
        ls = HW_STYLES[i % len(HW_STYLES)]
        one = t.drop_duplicates("d_bytes").sort_values("d_bytes")
        ax_t.plot(one["d_bytes"], one["T_gbps"], color="black", linestyle=ls, linewidth=1.2)
        d_opt = float(t["d_opt_bytes"].iloc[0])  # NaN when s is unbounded: T = W at every d
        for k in keys:
            g = t[(t["graph"] == k[0]) & (t["edge_bytes"] == k[1])]
            ax_r.plot(g["d_bytes"], g["t_ms"], color=colors[k], linestyle=ls, linewidth=1.2, marker="o", markersize=2)
            best = g.loc[g["t_ms"].idxmin()]
            ax_r.plot(
                [best["d_bytes"]],
                [best["t_ms"]],
                "*",
                color=colors[k],
                markeredgecolor="black",
                markeredgewidth=0.4,
                markersize=7,
                zorder=4,
            )
        if math.isfinite(d_opt):
            for ax in (ax_t, ax_r):
                ax.axvline(d_opt, color="#555555", linestyle=":", linewidth=0.9)
            ax_t.text(
                d_opt,
                0.02 + 0.1 * i,
                f" d_opt {d_opt:.0f} B",
                transform=ax_t.get_xaxis_transform(),
                fontsize=style.VALUE_LABEL_SIZE,
                ha="left",
                va="bottom",
                color="#333333",
            )
    for ax in (ax_d, ax_t, ax_r):
        style.log2_size_axis(ax, table["d_bytes"], compact=True, max_ticks=5)
        ax.set_xlabel("transfer size d = alignment a (B)")
        ax.grid(axis="y", linewidth=0.3, alpha=0.5)
    ax_d.set_ylim(0, None)
    ax_t.set_ylim(0, None)
    style.plain_log_axis(ax_r)
    ax_d.set_ylabel("D: bytes fetched (GB)")
    ax_t.set_ylabel("T: throughput (GB/s)")
    ax_r.set_ylabel("t = D / T (ms)")
    ax_d.set_title("data fetched")
    ax_t.set_title("link throughput")
    ax_r.set_title("runtime bound (★ = best d)")
    handles = [Line2D([], [], color=colors[k], linewidth=2) for k in keys]
    labels = [name[k] for k in keys]
    for i, hw in enumerate(hws):
        p = table[table["hardware"] == hw].iloc[0]
        handles.append(Line2D([], [], color="black", linestyle=HW_STYLES[i % len(HW_STYLES)]))
        s = p["s_miops"]
        labels.append(f"{hw}: W {p['W_gbps']:.3g} GB/s, s {('%.0f' % s) if np.isfinite(s) else '∞'} MIOPS")
    style.legend_on_top(fig, handles, labels, ncol=2)
    style.stamp(fig, source, DEFINITION)
    return fig


def main(argv=None) -> int:
    return cli.figure_main(
        argv,
        figure=FIGURE,
        description="CXL Fig. 4 analogue: runtime against transfer size",
        tables=["amplification"],
        inputs=[cli.PARAMETERS_INPUT],
        compute=runtime_vs_size,
        draw=draw,
        options=[
            cli.Option("preset", str, DEFAULT_PRESET, "hardware preset (model.presets)"),
            cli.Option("mode", str, "zerocopy", "allocation whose fitted parameters are 'ours'"),
            cli.Option(
                "footprint_bytes",
                int,
                None,
                "footprint for our parameters (default: the largest with a fitted latency)",
            ),
        ],
    )


if __name__ == "__main__":
    sys.exit(main())
