"""The link-bandwidth lower bound on zero-copy BFS time, beside the measured time.

For every (graph, variant, mode, edge_bytes) in the zero-copy modes:

    D_bytes       bytes the GPU read over the link in the profiled traversal (pcie_read_bytes; mean over the
                  profiled roots if several)
    d_bytes       mean request size, 32 B x sectors / requests of the system-memory reads
    W_gbps        pinned host-to-device cudaMemcpy bandwidth (model.littles_law.fit_link_bandwidth)
    predicted_ms  D / W: no traversal can read D bytes faster than a bulk copy moves them
    measured_ms   the traversal time as in fig09 (mean over roots of the per-root median over reps), taken over
                  the profiled roots when runs has them (D was counted on those roots), else over all roots
                  (time_roots says which)
    ratio         measured_ms / predicted_ms (>= 1 for a valid bound; near 1 = link-bound)
    requests      system-memory read requests of the profiled traversal, and payload_bytes = 32 B x sectors
    overhead_bytes_per_request  (pcie_read_bytes - payload_bytes) / requests: what the link carries beyond the
                  data (completion headers and framing), per request

This is only the bandwidth term of the model (T = W): it ignores the request-size, issue-rate and latency terms
that a later version fits, the kernel's own work, and the link's read-request overhead.

    python -m model.bounds --runs results/tables/runs.csv --profile results/tables/profile.csv \
        --link results/tables/link.csv --out results/model/link_bound.csv
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv
from emogi.schema import MODES, VARIANTS, ZERO_COPY_MODES
from emogi.tables import default_launch, read_table_or_exit
from model.littles_law import LinkParams, fit_link_bandwidth, runtime_ms

KEYS = ["graph", "edge_bytes", "variant", "mode"]

OUT_COLUMNS = KEYS + [
    "measured_ms",
    "time_roots",
    "n_roots",
    "profiled_gpu_ms",
    "D_bytes",
    "d_bytes",
    "W_gbps",
    "W_spread_gbps",
    "predicted_ms",
    "ratio",
    "achieved_gbps",
    "requests",
    "payload_bytes",
    "overhead_bytes_per_request",
]


def verified_bfs(runs: pd.DataFrame) -> pd.DataFrame:
    """BFS rows whose result was verified (rows are only written when it was; this guards hand-made tables)."""
    ok = ~runs["verified"].astype(str).str.strip().str.lower().isin(["false", "0", "no"])
    return runs[ok & (runs["algorithm"] == "bfs")]


def traversal_time_ms(runs: pd.DataFrame, roots: pd.DataFrame | None = None) -> pd.DataFrame:
    """Time per (graph, edge_bytes, variant, mode): mean over roots of the per-root median over reps.

    The median tames the odd slow rep; averaging over roots follows the paper (§5.2: "the final execution time
    is calculated by averaging the execution times of the 64 cases"). `roots`, a frame of KEYS + ["root"], keeps
    only those roots. Returns KEYS + [time_ms, n_roots, n_reps_min].
    """
    runs = verified_bfs(runs)
    if roots is not None:
        runs = runs.merge(roots[KEYS + ["root"]].drop_duplicates(), on=KEYS + ["root"])
    return mean_of_root_medians(runs, KEYS)


def mean_of_root_medians(runs: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per `keys`: the mean over roots of the per-root median time over reps. Returns keys + [time_ms, n_roots,
    n_reps_min]; a root must not be NaN (rows without one, e.g. PageRank's, need a placeholder value)."""
    per_root = runs.groupby(keys + ["root"], as_index=False).agg(
        time_ms=("time_ms", "median"), n_reps=("time_ms", "size")
    )
    return per_root.groupby(keys, as_index=False).agg(
        time_ms=("time_ms", "mean"), n_roots=("root", "nunique"), n_reps_min=("n_reps", "min")
    )


def link_bound(runs: pd.DataFrame, profile: pd.DataFrame, link: pd.DataFrame) -> pd.DataFrame:
    """The table described in the module docstring, one row per profiled zero-copy configuration (default
    launches only: throttled runs emulate longer latencies and are the predictions' business)."""
    W, spread = fit_link_bandwidth(link)
    runs, profile = default_launch(runs), default_launch(profile)
    prof = profile[profile["mode"].isin(ZERO_COPY_MODES) & (profile["algorithm"] == "bfs")]
    if prof.empty:
        raise ValueError("profile table has no BFS rows in the zero-copy modes")
    agg = prof.groupby(KEYS, as_index=False).agg(
        D_bytes=("pcie_read_bytes", "mean"),
        sectors=("sysmem_read_sectors", "sum"),
        requests=("sysmem_read_requests", "sum"),
        profiled_gpu_ms=("gpu_time_ns", "mean"),
    )
    agg["profiled_gpu_ms"] /= 1e6
    agg["d_bytes"] = np.where(
        agg["requests"] > 0, 32.0 * agg["sectors"] / agg["requests"].where(agg["requests"] > 0), np.nan
    )

    on_profiled = traversal_time_ms(runs, roots=prof).assign(time_roots="profiled")
    on_all = traversal_time_ms(runs).assign(time_roots="all")
    # prefer the profiled roots; fall back to all roots where runs never timed them
    times = pd.concat([on_profiled, on_all]).drop_duplicates(KEYS, keep="first")
    out = agg.merge(times.rename(columns={"time_ms": "measured_ms"}), on=KEYS, how="left")

    params = LinkParams(W_gbps=W)
    out["W_gbps"] = W
    out["W_spread_gbps"] = spread
    out["predicted_ms"] = runtime_ms(out["D_bytes"].to_numpy(), out["d_bytes"].to_numpy(), params)
    out["ratio"] = out["measured_ms"] / out["predicted_ms"]
    out["achieved_gbps"] = out["D_bytes"] / (out["measured_ms"] * 1e6)  # bytes / (ms * 1e6) = GB/s
    out["payload_bytes"] = 32.0 * out["sectors"]
    out["overhead_bytes_per_request"] = (out["D_bytes"] - out["payload_bytes"]) / out["requests"].where(
        out["requests"] > 0
    )
    # schema order (naive, merged, merged-aligned), not alphabetical
    out = out.assign(_v=out["variant"].map(VARIANTS.index), _m=out["mode"].map(MODES.index))
    return out.sort_values(["graph", "edge_bytes", "_v", "_m"], ignore_index=True)[OUT_COLUMNS]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=Path, required=True)
    ap.add_argument("--profile", type=Path, required=True)
    ap.add_argument("--link", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    read = partial(read_table_or_exit, program="model.bounds")
    try:
        table = link_bound(read(a.runs, "runs"), read(a.profile, "profile"), read(a.link, "link"))
    except ValueError as e:
        raise SystemExit(f"model.bounds: {e}") from None
    write_csv(table, a.out, float_format="%.6g")
    return 0


if __name__ == "__main__":
    sys.exit(main())
