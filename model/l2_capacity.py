"""The L2's effective capacity C from a device-memory random-read microbenchmark (docs/holdout-v3-v6.md, "GPU-work term
v3"): `emogi concurrency --modes device --request-bytes 32 --warps 8192 --reads-per-warp 4 --footprints ...`
(tools/device/holdout_v3.sh writes it as session/micro/l2.csv). τ(F), the median time per read at footprint F,
rises from the L2's to the memory's as F outgrows the cache; with uniform random reads the share that misses is
max(0, 1 − C/F), so C is the value (log grid 1 MiB-1 GiB, 1% steps) that fits μ_F = (τ(F) − τ_min) / (τ_max −
τ_min), clipped to [0, 1], best in least squares.

    python -m model.l2_capacity session/micro/l2.csv      prints C in bytes and the curve
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

COLUMNS = ["mode", "footprint_bytes", "requests", "time_ms"]
GRID = np.exp(np.arange(np.log(2**20), np.log(2**30) + 1e-9, np.log(1.01)))  # 1 MiB .. 1 GiB, 1% steps


class L2Error(ValueError):
    """A table C cannot be fitted from; one line."""


def miss_share(capacity: float, footprint) -> np.ndarray:
    """The share of uniform random reads over `footprint` bytes that miss a cache of `capacity` bytes."""
    return np.maximum(0.0, 1.0 - capacity / np.maximum(np.asarray(footprint, float), 1.0))


def curve(table: pd.DataFrame) -> pd.DataFrame:
    """Per footprint of the device rows: tau_ns (median time per read) and mu (normalised to [0, 1])."""
    missing = [c for c in COLUMNS if c not in table.columns]
    if missing:
        raise L2Error(f"the L2 table lacks column(s) {missing}")
    dev = table[table["mode"] == "device"]
    if dev["footprint_bytes"].nunique() < 3:
        raise L2Error("the L2 table needs device rows at 3 or more footprints")
    per = dev.assign(tau_ns=dev["time_ms"] * 1e6 / dev["requests"]).groupby("footprint_bytes")["tau_ns"].median()
    per = per.sort_index()
    lo, hi = per.iloc[0], per.iloc[-1]
    if not hi > lo:
        raise L2Error("the time per read does not rise from the smallest to the largest footprint")
    return pd.DataFrame({"footprint_bytes": per.index, "tau_ns": per.to_numpy(),
                         "mu": np.clip((per.to_numpy() - lo) / (hi - lo), 0.0, 1.0)})  # fmt: skip


def fit_capacity(table: pd.DataFrame) -> float:
    """C in bytes: the grid value whose miss share fits the measured curve best."""
    c = curve(table)
    f, mu = c["footprint_bytes"].to_numpy(float), c["mu"].to_numpy(float)
    cost = [float(np.sum((mu - miss_share(cap, f)) ** 2)) for cap in GRID]
    return float(GRID[int(np.argmin(cost))])


def read_capacity(path) -> float:
    try:
        return fit_capacity(pd.read_csv(path))
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise L2Error(f"L2 table {path}: {e}") from None


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m model.l2_capacity L2.csv", file=sys.stderr)
        return 2
    try:
        table = pd.read_csv(Path(argv[0]))
        cap = fit_capacity(table)
    except (L2Error, OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(curve(table).assign(fitted=lambda c: miss_share(cap, c["footprint_bytes"])).to_string(index=False))
    print(f"C = {cap:.0f} bytes ({cap / 2**20:.1f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
