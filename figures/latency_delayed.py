"""The delayed runs of fig_added_latency (CXL paper Fig. 11's own experiment): BFS runs whose every read waits D
after it arrives (the latency_emulation table of emogi.latency_emulation), placed at the latency the pointer chase
measured under the same wait, and the flat limit of each delayed configuration against the paper's allowance
N_max d / W. fig_added_latency's module doc describes the `delayed` and `flat` rows and markers."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from emogi.schema import LATENCY_EMULATION_COLUMNS
from emogi.tables import TableError, read_table, verified_rows
from figures import cli, style
from figures.inputs import FigureDataError
from model.bounds import mean_of_root_medians
from model.littles_law import max_L

FLAT = 1.10  # runtime within 10% of no added latency counts as flat ("almost identical", CXL paper §4.2.3)


def load_latency_emulation(path, figure: str) -> pd.DataFrame:
    """The latency_emulation table; an empty one (an archive from before it, or microbenchmarks off) comes back
    empty: the figure then draws no delayed runs and says so."""
    try:
        return read_table(path, "latency_emulation")
    except TableError as e:
        if e.state == "empty":
            return pd.DataFrame(columns=LATENCY_EMULATION_COLUMNS)
        raise FigureDataError(f"figure {figure}: {e} (the 'latency_emulation' table)") from None


LATENCY_EMULATION_INPUT = cli.Input(
    "latency_emulation",
    load_latency_emulation,
    "latency_emulation.csv (schema table 'latency_emulation'): BFS runs with every read delayed, and the pointer "
    "chase under the same delays; optional, empty: no delayed points",
    required=False,
)


def measured_delays(emulation: pd.DataFrame) -> pd.DataFrame:
    """One row per (graph, variant, mode, edge_bytes, requested delay) of the latency_emulation table: the
    latency the delay added as the chase measured it (median over reps at D minus median at 0; lo and hi from
    the reps' spread) and the BFS time at D over the time at 0. Empty when the table has no delayed runs."""
    cols = ["graph", "variant", "mode", "edge_bytes", "requested_ns", "added_ns", "added_lo_ns", "added_hi_ns"]
    cols += ["chase_L0_ns", "time_ms", "baseline_ms", "normalised"]
    if emulation is None or emulation.empty:
        return pd.DataFrame(columns=cols)
    e = verified_rows(emulation)
    chase = e[e["kind"] == "chase"].assign(latency_ns=lambda f: pd.to_numeric(f["latency_ns"], errors="coerce"))
    lat = chase.groupby(["graph", "mode", "requested_ns"])["latency_ns"].agg(["median", "min", "max"]).reset_index()
    at0 = lat[lat["requested_ns"] == 0].set_index(["graph", "mode"])["median"].rename("chase_L0_ns")
    lat = lat.join(at0, on=["graph", "mode"]).dropna(subset=["chase_L0_ns"])
    lat = lat.assign(
        added_ns=lat["median"] - lat["chase_L0_ns"],
        added_lo_ns=lat["min"] - lat["chase_L0_ns"],
        added_hi_ns=lat["max"] - lat["chase_L0_ns"],
    )
    bfs = e[e["kind"] == "bfs"]
    if bfs.empty or lat.empty:
        return pd.DataFrame(columns=cols)
    keys = ["graph", "variant", "mode", "edge_bytes", "requested_ns"]
    times = mean_of_root_medians(bfs.assign(edge_bytes=bfs["edge_bytes"].astype(int)), keys)
    base = times[times["requested_ns"] == 0].set_index(keys[:-1])["time_ms"].rename("baseline_ms")
    times = times.join(base, on=keys[:-1]).dropna(subset=["baseline_ms"])
    times = times.assign(normalised=times["time_ms"] / times["baseline_ms"])
    out = times.merge(lat, on=["graph", "mode", "requested_ns"], how="inner")
    return out.sort_values(keys, ignore_index=True)[cols]


def flat_limit_us(points: pd.DataFrame) -> float:
    """The measured latency (chase at 0 + added, us) at which the BFS time first exceeds FLAT x its time without
    delay, interpolated linearly between the two delays around the crossing; NaN if it never does in the sweep."""
    p = points.sort_values("added_us")
    x, y = p["added_us"].to_numpy(float), p["normalised"].to_numpy(float)
    above = np.nonzero(y > FLAT)[0]
    if not len(above) or above[0] == 0:
        return math.nan
    i = above[0]
    at = x[i - 1] + (FLAT - y[i - 1]) * (x[i] - x[i - 1]) / (y[i] - y[i - 1])
    return float(p["chase_L0_us"].iloc[0] + at)


def delayed_rows(delays: pd.DataFrame, line_of: dict, rule: str, max_added_us: float) -> list[dict]:
    """Rows of kind delayed (one per configuration and delay) and flat (one per configuration)."""
    from model.whatif import runtime_vs_added_latency

    rows = []
    for (graph, variant, mode, width), g in delays.groupby(["graph", "variant", "mode", "edge_bytes"], sort=False):
        key = (graph, "bfs", variant, mode, int(width))
        line = line_of.get(key)  # the model's line for this configuration, if the predictions have it
        g = g.assign(added_us=g["added_ns"] / 1e3, chase_L0_us=g["chase_L0_ns"] / 1e3)
        if line is not None:
            r, p, floor, chain = line
            at = [max(0.0, x) for x in g["added_us"]]  # the chase may measure a hair below 0 at D = 0
            curve = runtime_vs_added_latency(
                r["D_bytes"], r["d_bytes"], p, at, floor_ms=floor, rule=rule, chain_steps=chain
            )
            predicted = curve["relative"].to_numpy()
        else:
            predicted = np.full(len(g), np.nan)
        common = {"kind": "delayed", "graph": graph, "algorithm": "bfs", "variant": variant, "mode": mode}
        common["edge_bytes"] = int(width)
        for x, pr in zip(g.itertuples(), predicted):
            rows.append(
                {
                    **common,
                    "max_warps": 0,
                    "added_us": x.added_us,
                    "requested_us": x.requested_ns / 1e3,
                    "added_lo_us": x.added_lo_ns / 1e3,
                    "added_hi_us": x.added_hi_ns / 1e3,
                    "chase_L0_us": x.chase_L0_us,
                    "L_us": line[1].L_us if line else np.nan,
                    "N_max": line[1].N_max if line else np.nan,
                    "runtime_ms": x.time_ms,
                    "baseline_ms": x.baseline_ms,
                    "normalised": x.normalised,
                    "predicted_normalised": pr,
                    "shown": line is not None and x.added_us <= max_added_us,
                }
            )
        limit = flat_limit_us(g)
        allowance = np.nan
        if line is not None and math.isfinite(line[1].N_max):
            allowance = max_L(line[1].N_max, float(line[0]["d_bytes"]), line[1].W_gbps)  # the paper's N_max d / W
        rows.append(
            {
                **common,
                "kind": "flat",
                "max_warps": 0,
                "L_us": line[1].L_us if line else np.nan,
                "N_max": line[1].N_max if line else np.nan,
                "chase_L0_us": float(g["chase_L0_us"].iloc[0]),
                "flat_limit_us": limit,
                "allowance_us": allowance,
                "flat_over_allowance": limit / allowance if allowance > 0 else np.nan,
                "shown": False,
            }
        )
    return rows


def measured_and_predicted(ax, x, pts: pd.DataFrame, marker, ring, color, *, size, ring_size, edge, zorder) -> None:
    """`pts`' measured values as filled `marker`s (black edge `edge` wide) and the model's value at each as a hollow
    `ring` marker in `color`, at `x`."""
    ax.plot(
        x,
        pts["normalised"],
        marker,
        color=color,
        markeredgecolor="black",
        markeredgewidth=edge,
        markersize=size,
        linestyle="none",
        zorder=zorder,
    )
    ax.plot(
        x,
        pts["predicted_normalised"],
        ring,
        color="none",
        markeredgecolor=color,
        markeredgewidth=1.0,
        markersize=ring_size,
        linestyle="none",
        zorder=zorder,
    )


def draw_delayed(ax, pts: pd.DataFrame, variant: str, color: str) -> None:
    """Delayed runs: at the measured added latency (bar: the chase's reps), larger than the throttled runs, with
    the model line's value there as a ring."""
    if pts.empty:
        return
    x = pts["added_us"].to_numpy(float)
    xerr = np.vstack([x - pts["added_lo_us"].to_numpy(float), pts["added_hi_us"].to_numpy(float) - x]).clip(0)
    ax.errorbar(x, pts["normalised"], xerr=xerr, fmt="none", ecolor="#333333", elinewidth=0.7, capsize=1.5, zorder=4)
    marker = style.VARIANT_MARKERS[variant]
    measured_and_predicted(ax, x, pts, marker, "o", color, size=6.5, ring_size=8, edge=0.6, zorder=5)
