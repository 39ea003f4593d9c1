"""Analytic model of zero-copy read throughput over the host link (first, thin version).

A zero-copy traversal reads the edge list in requests of d bytes (32..128 B, one to four 32-byte sectors of a
128-byte cache line). Three things cap the read throughput T:

    request issue rate     S * d          S: requests the GPU can issue per second (MIOPS = 1e6 requests/s)
    Little's law           N_max * d / L  N_max requests in flight, each taking the round trip L
    link bandwidth         W              what a bulk cudaMemcpy achieves

    T(d) = min(S * d, N_max * d / L, W)

so below the knee T grows linearly in d with slope min(S, N_max / L) (bytes/s per byte of d), and a traversal
that moves D bytes takes at least D / T. Terms whose parameter is unknown (infinite) drop out: with only W known
the model is the plain link-bandwidth bound D / W (`fit_link_bandwidth`). model/fit.py fits S, N_max and L from
the microbenchmarks; model/predict.py applies T to the measured traversals.

The worked examples of the CXL paper (§3.3-3.4, §4.2.2) are functions here, so that tests and the what-if share
them: `required_S` (S >= W / d), `max_L` (L <= N_max d / W), `slope` (s = min{S, N_max / L}) and
`optimal_transfer_size` (d_opt = W / s).

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


# --- which term binds, and the worked examples of the CXL paper ------------------------------------------------
BOUNDS = ("request_rate", "latency", "W")  # names of the three terms of T(d), in the order of the formula


def binding_term(d_bytes: float, params: LinkParams) -> str:
    """Name of the smallest term of T(d): "request_rate" (S d), "latency" (N_max d / L) or "W".

    Ties go to the later name in BOUNDS (a link that is exactly saturated is called bandwidth-bound).
    """
    if not d_bytes > 0:
        raise ValueError(f"request size d_bytes must be positive, got {d_bytes}")
    little = params.N_max / params.L_us if math.isfinite(params.N_max) else math.inf
    terms = {"request_rate": params.S_miops * d_bytes / 1e3, "latency": little * d_bytes / 1e3, "W": params.W_gbps}
    best = min(terms.values())
    return [name for name in BOUNDS if terms[name] == best][-1]


def with_in_flight_limit(params: LinkParams, n_in_flight: float) -> LinkParams:
    """The same link with at most `n_in_flight` requests outstanding: N_max becomes min(N_max, n_in_flight)."""
    if not n_in_flight > 0:
        raise ValueError(f"requests in flight must be positive, got {n_in_flight}")
    return LinkParams(
        W_gbps=params.W_gbps, S_miops=params.S_miops, N_max=min(params.N_max, n_in_flight), L_us=params.L_us
    )


def required_S(W_gbps: float, d_bytes: float) -> float:
    """Smallest request rate (MIOPS) that fills W with requests of d bytes: S >= W / d (CXL paper eq. 6).

    PCIe 4.0 (W = 24,000 MB/s), d = 89.6 B: 268 MIOPS; PCIe 3.0 (12,000 MB/s): 134 MIOPS.
    """
    _positive(W_gbps=W_gbps, d_bytes=d_bytes)
    return W_gbps * 1e3 / d_bytes  # MB/s / B = 1e6 requests/s


def max_L(N_max: float, d_bytes: float, W_gbps: float) -> float:
    """Longest latency (us) at which N_max requests of d bytes still fill W: L <= N_max d / W (Little's law).

    PCIe 4.0 (N_max = 768, 24,000 MB/s), d = 89.6 B: 2.87 us; PCIe 3.0 (256, 12,000 MB/s): 1.91 us.
    """
    _positive(N_max=N_max, d_bytes=d_bytes, W_gbps=W_gbps)
    return N_max * d_bytes / (W_gbps * 1e3)  # B / (MB/s) = us


def slope(S_miops: float, N_max: float, L_us: float) -> float:
    """Slope s = min{S, N_max / L} of T(d) below the knee, in MB/s per byte of d (= MIOPS; CXL paper eq. 5).

    S = 100 MIOPS, N_max = 768, L = 16 us: 48.
    """
    _positive(S_miops=S_miops, N_max=N_max, L_us=L_us)
    return min(S_miops, N_max / L_us)


def optimal_transfer_size(W_gbps: float, slope_miops: float) -> float:
    """Smallest transfer size that fills the link, d_opt = W / s, in bytes (CXL paper §3.3.2).

    BaM: W = 24,000 MB/s, s = S = 6 MIOPS: 4,000 B (about 4 kB).
    """
    _positive(W_gbps=W_gbps, slope_miops=slope_miops)
    return W_gbps * 1e3 / slope_miops


def _positive(**values):
    for name, value in values.items():
        if not value > 0:
            raise ValueError(f"{name} must be positive, got {value}")
