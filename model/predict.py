"""Predicted time of every measured zero-copy traversal from the fitted link model, beside the measured time.

For each (graph, algorithm, variant, mode, edge_bytes, max_warps) in the zero-copy modes:

  D_bytes       payload fetched over the link: 32 B x sysmem_read_sectors of the profiled traversal (mean over
                the profiled roots). Throttled runs use the profile of the same max_warps when there is one,
                else the default launch's: how many warps read the lists does not change which bytes are read.
  d_bytes       mean request size, 32 B x sectors / requests.
  footprint     the edge list's bytes: the largest edges_traversed x edge_bytes among the runs of that graph
                and width (a BFS from a root in the giant component reads every list, so this is the whole
                edge list up to unreached components), or given per graph and width by --footprints
                (CSV: graph, edge_bytes, footprint_bytes).
  T_gbps        T(d) = min{S d, N_max d / L, W} from model.fit.params_for(parameters, mode, F), where F is:
                  sweep (default): the smallest footprint the chase measured. The level-synchronous kernel
                    walks the active vertices in index order, so each level sweeps the edge list in address
                    order and the resident warps share a window of a few MB: address translations are reused,
                    and the random-read footprint effects (longer L, the pinned S cliff past 1 GiB) do not
                    apply. Measured: pinned and managed BFS times agree at 1.9-7.8 GiB edge lists
                    (docs/profiling.md).
                  edge-list: the edge list's bytes, i.e. as if the lists were read at random over the whole
                    buffer. The summary reports the errors of the other rule too (other_footprint_rule), as the
                    test of the choice: with H100-like parameters edge-list mispredicts pinned runs severalfold.
                Throttled runs (max_warps = w > 0) hold at most r w requests in flight, so N_max becomes
                min(N_max, r w) with r = requests_per_warp(variant, edge_bytes, k) (see there; the column
                requests_per_warp), k = the reads in flight per lane the binary was built with
                (build.loads_in_flight, recorded as loads_in_flight in source.json; 1 where not recorded).
  bound         the term of T that binds: "request_rate" (S d), "latency" (N_max d / L) or "W".
  transfer_ms   D / T.
  floor_ms      the GPU's own work, which the link model does not contain: the level kernels scan every
                vertex, launch and synchronise once per level. Measured as the same traversal (graph, variant,
                edge width, max_warps, the same roots) in device mode, with the edge list in GPU memory.
  chain_steps   the critical path: the longest neighbour list the traversal expands (max_list_bytes of the
                amplification table, for the profiled roots) is walked by one thread (naive) or one warp
                (merged variants) however many others run, one round trip at a time: chain_steps =
                ceil(max_list_bytes / bytes per round trip), 32 B (one sector) for naive and k x 32 x edge_bytes
                (k warp steps read together) for the merged variants (chain_bytes_per_step).
  chain_ms      chain_steps x L. Hub vertices make it large on Kronecker graphs (a 2 MB list: ~80 ms naive,
                ~10 ms merged on the H100); uniform graphs have none worth counting. Without an amplification
                table the term is 0 and the summary says so.
  predicted_ms  rule "sum": transfer_ms + floor_ms + chain_ms; rule "max": the largest of the three.
  measured_ms   model.bounds.traversal_time_ms (mean over roots of the per-root median over reps), on the
                profiled roots when the runs timed them (D was counted there), else on all roots.
  rel_error     (predicted - measured) / measured.

Sum vs max: both are computed and the summary reports the errors of each (by_rule, better_rule); one rule applies
to every run, "sum" by default. Why sum: the level loop is a sequence of barriers, so each launch, flag read and
kernel tail overlaps no transfer, and the floor is almost all such work plus the vertex scan; "max" would assume
all of it hides behind the transfers. The chain is summed too, an upper bound where the hub's level also carries
bulk transfers (the hubs of a Kronecker graph are reached in the first levels, where there is little else).
No factor is fitted to the traversals: every term is measured elsewhere (the link in the microbenchmarks, the
floor in device mode, the chain from the graph).

    python -m model.predict --runs results/tables/runs.csv --profile results/tables/profile.csv \\
        --parameters results/model/parameters.json --source results/tables/source.json \\
        --out results/model/predictions.csv --summary results/model/prediction_summary.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv, write_text
from emogi.schema import MODES, SECTOR_BYTES, VARIANTS, ZERO_COPY_MODES
from emogi.tables import read_table_or_exit
from model.bounds import traversal_time_ms, verified_bfs
from model.fit import load_parameters, params_for
from model.littles_law import LinkParams, binding_term, throughput_gbps, with_in_flight_limit

LINE_BYTES = 128
WARP = 32
RULES = ("sum", "max")
FOOTPRINT_RULES = ("sweep", "edge-list")
CONFIG = ["graph", "algorithm", "variant", "mode", "edge_bytes", "max_warps"]
OUT_COLUMNS = CONFIG[:5] + [
    "max_warps",
    "footprint_bytes",
    "measured_ms",
    "D_bytes",
    "d_bytes",
    "requests_per_warp",
    "T_gbps",
    "bound",
    "transfer_ms",
    "floor_ms",
    "chain_steps",
    "chain_ms",
    "predicted_ms",
    "rel_error",
]
RUN_NEEDS = ["graph", "algorithm", "variant", "mode", "edge_bytes", "root", "time_ms", "edges_traversed", "verified"]
PROFILE_NEEDS = [
    "graph",
    "algorithm",
    "variant",
    "mode",
    "edge_bytes",
    "root",
    "sysmem_read_sectors",
    "sysmem_read_requests",
]
NOT_MODELLED = {  # why a mode's runs get no prediction
    "device": "device: not a zero-copy run (the edge list is in GPU memory); its runs are the floor_ms term",
    "uvm": "uvm: not a zero-copy run (pages migrate to GPU memory before they are read; no link reads to model)",
    "uvm-warm": "uvm-warm: not a zero-copy run (the warm-up run already moved the pages to GPU memory)",
    "zerocopy-registered": "zerocopy-registered: zero-copy, but the microbenchmarks measure no parameters for "
    "this allocation",
}


def requests_per_warp(variant: str, edge_bytes: int, loads_in_flight: int = 1) -> int:
    """Read requests one resident warp keeps in flight: the merged variants read `loads_in_flight` loop steps
    before visiting any (access.cuh; 1 is the artifact's loop, where the next step's load waits for this step's
    neighbours to be visited), naive one entry at a time. Per step:

      merged-aligned  a step reads 32 consecutive entries from a line boundary: ceil(32 edge_bytes / 128) lines
      merged          the same 32 entries from wherever the list starts: one line more (unless it starts on a
                      boundary, 1 time in 128 / edge_bytes)
      naive           a thread per vertex: the 32 lanes read 32 different lists, one sector request each; 32
                      assumes every lane has a vertex in the frontier, so it is an upper bound
    """
    if edge_bytes not in (4, 8):
        raise ValueError(f"edge_bytes must be 4 or 8, got {edge_bytes!r}")
    k = _check_loads(loads_in_flight)
    lines = math.ceil(WARP * edge_bytes / LINE_BYTES)
    per_variant = {"merged-aligned": k * lines, "merged": k * (lines + 1), "naive": WARP}
    if variant not in per_variant:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    return per_variant[variant]


def chain_bytes_per_step(variant: str, edge_bytes: int, loads_in_flight: int = 1) -> int:
    """Bytes of one list that one round trip brings to the thread or warp walking it: a 32-byte sector for the
    naive thread (its next sector waits for this one's entries to be visited), otherwise the `loads_in_flight`
    warp steps of 32 entries a warp reads together."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    return SECTOR_BYTES if variant == "naive" else _check_loads(loads_in_flight) * WARP * int(edge_bytes)


def _check_loads(loads_in_flight) -> int:
    if not (isinstance(loads_in_flight, (int, np.integer)) and 1 <= loads_in_flight <= 16):
        raise ValueError(f"loads_in_flight must be an integer in 1..16 (access.cuh), got {loads_in_flight!r}")
    return int(loads_in_flight)


def loads_in_flight_of(source: dict) -> int:
    """The reads in flight per lane of the binary that measured (source.json's loads_in_flight); 1 when it is
    not recorded: builds before it was (51b3808) ran the artifact's one-step loop."""
    return _check_loads(source.get("loads_in_flight") or 1)


def chain_ms(chain_steps, params: LinkParams):
    """Time of the critical path: chain_steps dependent round trips of latency L."""
    steps = np.asarray(chain_steps, dtype=float)
    t = np.where(steps > 0, steps * params.L_us / 1e3, 0.0)
    return float(t) if t.ndim == 0 else t


def combine(transfer_ms, floor_ms, rule: str = "sum", chain_ms=0.0):
    """Traversal time from the link's transfer time, the GPU-side floor and the critical path, by `rule`."""
    if rule == "sum":
        return np.add(np.add(transfer_ms, floor_ms), chain_ms)
    if rule == "max":
        return np.maximum(np.maximum(transfer_ms, floor_ms), chain_ms)
    raise ValueError(f"unknown rule {rule!r} (known: {', '.join(RULES)})")


def predict_runtime_ms(D_bytes, d_bytes, params: LinkParams, floor_ms=0.0, rule: str = "sum", chain_steps=0):
    """Predicted time of a traversal that fetches D_bytes in requests of d_bytes and whose longest list takes
    chain_steps round trips: combine(D / T(d), floor, chain_steps x L)."""
    if np.any(np.asarray(D_bytes, dtype=float) < 0):
        raise ValueError("D_bytes must be >= 0")
    if np.any(np.asarray(floor_ms, dtype=float) < 0):
        raise ValueError("floor_ms must be >= 0")
    transfer = np.asarray(D_bytes, dtype=float) / (np.asarray(throughput_gbps(d_bytes, params)) * 1e9) * 1e3
    t = combine(transfer, floor_ms, rule, chain_ms(chain_steps, params))
    return float(t) if np.ndim(t) == 0 else t


# --- inputs --------------------------------------------------------------------------------------------------
def _with_max_warps(frame: pd.DataFrame) -> pd.DataFrame:
    # tables from before throttled runs have no max_warps: all of their runs are default launches
    if "max_warps" not in frame.columns:
        frame = frame.assign(max_warps=0)
    return frame.astype({"max_warps": "int64", "edge_bytes": "int64"})


def _needs(frame: pd.DataFrame, columns: list[str], table: str) -> pd.DataFrame:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{table} table lacks columns {missing}")
    if frame.empty:
        raise ValueError(f"{table} table has no rows")
    return frame


def edge_list_bytes(runs: pd.DataFrame, footprints: pd.DataFrame | None = None) -> pd.DataFrame:
    """graph, edge_bytes, footprint_bytes: from `footprints` when given, else max edges_traversed x edge_bytes."""
    if footprints is not None:
        _needs(footprints, ["graph", "edge_bytes", "footprint_bytes"], "footprints")
        return footprints[["graph", "edge_bytes", "footprint_bytes"]].astype({"edge_bytes": "int64"})
    runs = verified_bfs(runs)
    out = runs.groupby(["graph", "edge_bytes"], as_index=False)["edges_traversed"].max()
    out["footprint_bytes"] = out["edges_traversed"].astype("int64") * out["edge_bytes"]
    return out[["graph", "edge_bytes", "footprint_bytes"]]


def _time_on(runs: pd.DataFrame, roots) -> float:
    """traversal_time_ms of one configuration, on `roots` if the runs timed any of them, else on all roots."""
    if runs.empty:
        return math.nan
    on = runs[runs["root"].isin(roots)]
    table = traversal_time_ms(on if not on.empty else runs)
    return float(table["time_ms"].iloc[0])


def _label(c: dict) -> str:
    return f"{c['graph']}/{c['variant']}/{c['mode']}/w{c['edge_bytes']}/max_warps={c['max_warps']}"


# --- the prediction ------------------------------------------------------------------------------------------
def predict(
    runs: pd.DataFrame,
    profile: pd.DataFrame,
    parameters: dict,
    footprints: pd.DataFrame | None = None,
    rule: str = "sum",
    footprint_rule: str = "sweep",
    amplification: pd.DataFrame | None = None,
    loads_in_flight: int = 1,
) -> tuple[pd.DataFrame, dict]:
    """The predictions table (OUT_COLUMNS) and its summary (module docstring)."""
    _check_loads(loads_in_flight)
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r} (known: {', '.join(RULES)})")
    if footprint_rule not in FOOTPRINT_RULES:
        raise ValueError(f"unknown footprint rule {footprint_rule!r} (known: {', '.join(FOOTPRINT_RULES)})")
    runs = _with_max_warps(verified_bfs(_needs(runs, RUN_NEEDS, "runs")))
    profile = _with_max_warps(_needs(profile, PROFILE_NEEDS, "profile"))
    profile = profile[profile["algorithm"] == "bfs"]
    sizes = edge_list_bytes(runs, footprints)

    others = runs[~runs["mode"].isin(ZERO_COPY_MODES)][CONFIG].drop_duplicates()
    excluded = [
        f"{NOT_MODELLED.get(m, f'{m}: not a zero-copy mode')} ({n} configuration(s))"
        for m, n in others["mode"].value_counts().sort_index().items()
    ]
    rows = []
    for values in runs[runs["mode"].isin(ZERO_COPY_MODES)][CONFIG].drop_duplicates().itertuples(index=False):
        c = dict(zip(CONFIG, values))
        row, why = _predict_one(c, runs, profile, parameters, sizes, footprint_rule, amplification, loads_in_flight)
        if why:
            excluded.append(f"{_label(c)}: {why}")
        else:
            rows.append(row)
    if not rows:
        raise ValueError("no zero-copy traversal could be predicted: " + "; ".join(excluded))
    table = pd.DataFrame(rows)
    table["predicted_ms"] = combine(table["transfer_ms"], table["floor_ms"], rule, table["chain_ms"])
    table["rel_error"] = (table["predicted_ms"] - table["measured_ms"]) / table["measured_ms"]
    table = table.assign(_v=table["variant"].map(VARIANTS.index), _m=table["mode"].map(MODES.index))
    table = table.sort_values(["graph", "edge_bytes", "_v", "_m", "max_warps"], ignore_index=True)[OUT_COLUMNS]

    errors = {
        r: _errors(combine(table["transfer_ms"], table["floor_ms"], r, table["chain_ms"]), table["measured_ms"])
        for r in RULES
    }
    other = "edge-list" if footprint_rule == "sweep" else "sweep"
    alt = [
        _predict_one(dict(zip(CONFIG, v)), runs, profile, parameters, sizes, other, amplification, loads_in_flight)[0]
        for v in table[CONFIG].itertuples(index=False)
    ]
    alt = pd.DataFrame(alt)
    worst = table.loc[table["rel_error"].abs().idxmax()]
    summary = {
        "median_abs_error": float(table["rel_error"].abs().median()),
        "worst_abs_error": float(table["rel_error"].abs().max()),
        "worst_run": {**{k: _plain(worst[k]) for k in CONFIG}, "rel_error": float(worst["rel_error"])},
        "n_runs": int(len(table)),
        "rule": rule,
        "excluded": excluded,
        "by_rule": errors,
        "better_rule": min(RULES, key=lambda r: errors[r]["median_abs_error"]),
        "footprint_rule": footprint_rule,
        "other_footprint_rule": {
            "footprint_rule": other,
            **_errors(combine(alt["transfer_ms"], alt["floor_ms"], rule, alt["chain_ms"]), alt["measured_ms"]),
        },
        "chain": (
            "from the amplification table (max_list_bytes of the profiled roots)"
            if amplification is not None
            else "omitted: no amplification table (chain_ms = 0)"
        ),
        "without_chain": _errors(combine(table["transfer_ms"], table["floor_ms"], rule), table["measured_ms"]),
        "loads_in_flight": int(loads_in_flight),
        "requests_per_warp": {
            f"{v}/w{eb}": requests_per_warp(v, eb, loads_in_flight)
            for v, eb in table[["variant", "edge_bytes"]].drop_duplicates().itertuples(index=False)
        },
    }
    return table, summary


def _longest_list(amplification, c: dict, roots) -> float:
    """max_list_bytes of this graph and width for the profiled roots (mean), else over all its roots; 0 without
    an amplification table."""
    if amplification is None:
        return 0.0
    mine = amplification[(amplification["graph"] == c["graph"]) & (amplification["edge_bytes"] == c["edge_bytes"])]
    if mine.empty:
        raise ValueError(f"the amplification table has no rows for graph {c['graph']!r}, edge_bytes {c['edge_bytes']}")
    on_roots = mine[mine["root"].isin(roots)]
    return float((on_roots if not on_roots.empty else mine).groupby("root")["max_list_bytes"].first().mean())


def _predict_one(c: dict, runs, profile, parameters, sizes, footprint_rule, amplification=None, loads_in_flight=1):
    """(row, None) for one configuration, or (None, why it cannot be predicted)."""

    def same(frame, mode=c["mode"]):  # rows of this graph, variant and width in `mode`
        return frame[
            (frame["graph"] == c["graph"])
            & (frame["variant"] == c["variant"])
            & (frame["edge_bytes"] == c["edge_bytes"])
            & (frame["mode"] == mode)
        ]

    prof = same(profile)
    prof = prof[prof["max_warps"] == (c["max_warps"] if (prof["max_warps"] == c["max_warps"]).any() else 0)]
    if prof.empty:
        return None, "no profile row for this graph, variant, mode and width (D and d unknown)"
    sectors, requests = prof["sysmem_read_sectors"].astype(float), prof["sysmem_read_requests"].astype(float)
    if not (requests.sum() > 0):
        return None, "the profile shows no system-memory reads (d undefined)"
    roots = set(prof["root"])
    mine = same(runs)
    measured = _time_on(mine[mine["max_warps"] == c["max_warps"]], roots)
    device = same(runs, mode="device")
    floor = _time_on(device[device["max_warps"] == c["max_warps"]], roots)
    if math.isnan(floor):
        return None, f"no device-mode run with max_warps={c['max_warps']} to measure the floor"
    size = sizes[(sizes["graph"] == c["graph"]) & (sizes["edge_bytes"] == c["edge_bytes"])]
    if size.empty:
        raise ValueError(f"no footprint for graph {c['graph']!r}, edge_bytes {c['edge_bytes']} in --footprints")
    footprint = int(size["footprint_bytes"].iloc[0])
    at = _parameter_footprint(parameters, c["mode"], footprint, footprint_rule)
    params = params_for(parameters, c["mode"], at)
    r = requests_per_warp(c["variant"], c["edge_bytes"], loads_in_flight)
    if c["max_warps"] > 0:
        params = with_in_flight_limit(params, r * c["max_warps"])
    D = SECTOR_BYTES * float(sectors.mean())
    d = SECTOR_BYTES * float(sectors.sum() / requests.sum())
    T = throughput_gbps(d, params)
    steps = math.ceil(
        _longest_list(amplification, c, roots) / chain_bytes_per_step(c["variant"], c["edge_bytes"], loads_in_flight)
    )
    return {
        **c,
        "footprint_bytes": footprint,
        "measured_ms": measured,
        "D_bytes": D,
        "d_bytes": d,
        "requests_per_warp": r,
        "T_gbps": T,
        "bound": binding_term(d, params),
        "transfer_ms": D / (T * 1e9) * 1e3,
        "floor_ms": floor,
        "chain_steps": steps,
        "chain_ms": chain_ms(steps, params),
    }, None


def _parameter_footprint(parameters: dict, mode: str, edge_list: int, footprint_rule: str) -> int:
    """Footprint at which the link parameters apply (module docstring: sweep vs edge-list)."""
    if footprint_rule == "edge-list":
        return edge_list
    measured = [e["footprint_bytes"] for e in parameters["latency"] if e["mode"] == mode]
    return min(measured) if measured else edge_list  # params_for names the missing mode


def _errors(predicted, measured) -> dict:
    err = (np.asarray(predicted, dtype=float) - np.asarray(measured, dtype=float)) / np.asarray(measured, float)
    return {"median_abs_error": float(np.median(np.abs(err))), "worst_abs_error": float(np.max(np.abs(err)))}


def _plain(x):
    return x.item() if isinstance(x, np.generic) else x


# --- CLI -----------------------------------------------------------------------------------------------------
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m model.predict", description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=Path, required=True)
    ap.add_argument("--profile", type=Path, required=True)
    ap.add_argument("--parameters", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--summary", type=Path, required=True)
    ap.add_argument("--footprints", type=Path, help="CSV graph,edge_bytes,footprint_bytes (default: from runs)")
    ap.add_argument("--rule", choices=RULES, default="sum")
    ap.add_argument("--footprint-rule", choices=FOOTPRINT_RULES, default="sweep")
    ap.add_argument("--amplification", type=Path, help="amplification.csv: the longest list per root (chain term)")
    ap.add_argument(
        "--source", type=Path, help="source.json of the measurements: its loads_in_flight (default, or not recorded: 1)"
    )
    a = ap.parse_args(argv)
    read = partial(read_table_or_exit, program="model.predict", check_columns=False)
    try:
        parameters = load_parameters(a.parameters)
        footprints = read(a.footprints, "footprints") if a.footprints else None
        amplification = read(a.amplification, "amplification") if a.amplification else None
        loads = loads_in_flight_of(json.loads(a.source.read_text())) if a.source else 1
        table, summary = predict(
            read(a.runs, "runs"),
            read(a.profile, "profile"),
            parameters,
            footprints,
            a.rule,
            a.footprint_rule,
            amplification,
            loads,
        )
    except (ValueError, OSError) as e:
        raise SystemExit(f"model.predict: {e}") from None
    write_csv(table, a.out, float_format="%.6g")
    write_text(json.dumps(summary, indent=2) + "\n", a.summary)
    print(
        f"{summary['n_runs']} runs, rule {summary['rule']}: median |error| {summary['median_abs_error']:.1%}, "
        f"worst {summary['worst_abs_error']:.1%} ({_label(summary['worst_run'])}); "
        f"by rule: " + ", ".join(f"{r} {e['median_abs_error']:.1%}" for r, e in summary["by_rule"].items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
