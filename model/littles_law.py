"""Analytic model of zero-copy read throughput over the host link (first, thin version).

A zero-copy traversal reads the edge list in requests of d bytes (32..128 B, one to four 32-byte sectors of a
128-byte cache line). Three things cap the read throughput T:

    request issue rate     S * d          S: requests the GPU can issue per second (MIOPS = 1e6 requests/s)
    Little's law           N_max * d / L  N_max requests in flight, each taking the round trip L
    link bandwidth         W              what a bulk cudaMemcpy achieves

    T(d) = min(S * d, N_max * d / L, W)

so below the knee T grows linearly in d with slope min(S, N_max / L) (bytes/s per byte of d), and a traversal
that moves D bytes takes at least D / T. Terms whose parameter is unknown (infinite) drop out: with only W known
the model is the plain link-bandwidth bound D / W, which is all this version fits (`fit_link_bandwidth`). A later
issue fits S, N_max and L from the profile counters; the API already takes them.

Units are in the names: *_gbps = 1e9 bytes/s, *_miops = 1e6 requests/s, *_us = microseconds, *_bytes, *_ms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class LinkParams:
    """Parameters of the host link as seen by zero-copy reads.

    W_gbps: link bandwidth (bulk pinned cudaMemcpy host-to-device), GB/s.
    S_miops: request issue rate, millions of requests per second (inf: not a limit / not fitted).
    N_max: most read requests in flight (inf: not a limit / not fitted).
    L_us: round-trip latency of one request, microseconds (nan: not fitted; needed only when N_max is finite).
    """

    W_gbps: float
    S_miops: float = math.inf
    N_max: float = math.inf
    L_us: float = math.nan

    def __post_init__(self):
        if not self.W_gbps > 0:
            raise ValueError(f"W_gbps must be positive, got {self.W_gbps}")
        if not self.S_miops > 0:
            raise ValueError(f"S_miops must be positive, got {self.S_miops}")
        if not self.N_max > 0:
            raise ValueError(f"N_max must be positive, got {self.N_max}")
        if math.isfinite(self.N_max) and not self.L_us > 0:
            raise ValueError(f"a finite N_max ({self.N_max}) needs a positive latency L_us, got {self.L_us}")


def mean_request_bytes(size_fractions: dict) -> float:
    """Mean request size d from a request-size distribution {size_bytes: fraction}; fractions must sum to 1."""
    total = sum(size_fractions.values())
    if not math.isclose(total, 1.0, rel_tol=1e-9, abs_tol=1e-9):
        raise ValueError(f"request-size fractions sum to {total}, not 1")
    return float(sum(size * frac for size, frac in size_fractions.items()))


def request_rate_miops(params: LinkParams) -> float:
    """Sustained request rate below the bandwidth knee: min(S, N_max / L), in 1e6 requests/s.

    Equivalently the slope of T(d) in MB/s per byte of request size.
    """
    little = params.N_max / params.L_us if math.isfinite(params.N_max) else math.inf  # requests per us = MIOPS
    return min(params.S_miops, little)


def throughput_gbps(d_bytes, params: LinkParams):
    """Read throughput T(d) = min(S*d, N_max*d/L, W) in GB/s for mean request size `d_bytes` (scalar or array)."""
    d = np.asarray(d_bytes, dtype=float)
    if np.any(d <= 0):
        raise ValueError("request size d_bytes must be positive")
    rate = request_rate_miops(params)
    # MIOPS * bytes = MB/s, / 1e3 -> GB/s. With no finite rate term the bound is W alone, whatever d is (even
    # unknown, NaN), so it is not multiplied in.
    rate_gbps = rate * d / 1e3 if math.isfinite(rate) else np.full_like(d, math.inf)
    t = np.minimum(rate_gbps, params.W_gbps)
    return float(t) if t.ndim == 0 else t


def runtime_ms(D_bytes, d_bytes, params: LinkParams):
    """Lower bound on the time to read `D_bytes` in requests of `d_bytes`: D / T(d), in milliseconds."""
    D = np.asarray(D_bytes, dtype=float)
    t = D / (np.asarray(throughput_gbps(d_bytes, params)) * 1e9) * 1e3
    return float(t) if np.ndim(t) == 0 else t


def fit_link_bandwidth(link_frame: pd.DataFrame) -> tuple[float, float]:
    """W from the link probe: (W_gbps, spread_gbps).

    Uses the pinned host-to-device cudaMemcpy rows. For each transfer size the median over reps is taken; W is
    the largest of these medians (small copies are latency-bound, so the largest-bandwidth size is the link's
    capability). spread is the interquartile range of the reps at that size: how repeatable W is.
    """
    rows = link_frame[(link_frame["direction"] == "h2d") & (link_frame["host_memory"] == "pinned")]
    rows = rows[np.isfinite(rows["gbps"].astype(float))]
    if rows.empty:
        raise ValueError("link table has no pinned h2d rows: cannot fit the link bandwidth W")
    medians = rows.groupby("size_bytes")["gbps"].median()
    best_size = medians.idxmax()
    at_best = rows.loc[rows["size_bytes"] == best_size, "gbps"].astype(float)
    spread = float(at_best.quantile(0.75) - at_best.quantile(0.25))
    return float(medians.loc[best_size]), spread
