"""Fit the link parameters of T(d) = min{S d, N_max d / L, W} from the microbenchmarks, each with a 95% interval.

Inputs (emogi/schema.py): the link probe (cudaMemcpy GB/s), the pointer chase (latency_ns per mode and
footprint) and the concurrency sweep (random reads of d = 32..128 B, mrps per mode, footprint, d, warps and
reads per warp). Every statistic is a median over reps; its interval is a percentile bootstrap (N_BOOT
resamples of the reps within each cell, seedable), widened if need be to contain the point estimate.

Rules:
  ceiling     Where a quantity is the best of several settings (W over copy sizes, R over concurrency, the
              N_max and S candidates below), the settings whose median lies within PLATEAU_TOL (3%) of the best
              form the plateau and the estimate is the mean of their medians. With one best setting this is
              the maximum; with several equal ones (a flat plateau) the plain maximum would pick the luckiest
              and sit above the truth by more than its own interval (a winner's curse: in simulation, with 8
              levels on the plateau and 2% noise, the max's 95% interval held the truth in 2-4% of trials,
              the plateau mean's in 70% with 3 reps and 97% with 10).
  W           ceiling over sizes of the median pinned host-to-device copy GB/s.
  L(m, f)     median chase latency per mode and footprint, in us.
  R(m, f, d)  request-rate ceiling: ceiling over (warps, reads per warp) of the median mrps.
  N_max       Little's law turns each rate into requests in flight, N = R(m, f, d) L(m, f) (L interpolated at f).
              Candidates are the zero-copy cells not limited by bandwidth (R d < BANDWIDTH_FRACTION W, so that
              the link is not what stops the rate); N_max is the ceiling over them. The candidate with the
              highest N is named in "from": cells hit by address translation (pinned memory past ~1 GiB) have
              far lower N and drop out by themselves.
  S(m, f)     the request-rate ceiling at (m, f) over the request sizes that are not bandwidth-bound, reported as
              limiting only where it lies clearly below the Little's-law rate N_max / L(m, f): the upper end of
              its interval below (1 - S_MARGIN) times the lower end of N_max / L's. That is where address
              translation enters (H100, random reads past 1 GiB: pinned 111 down to 43 MIOPS, managed 542
              down to 367). Elsewhere S is not limiting (null in the JSON, infinite in LinkParams): the rate
              there is what N_max and L already explain.

params_for() evaluates the fit at any footprint: L linear in log(footprint), S through 1/S linear in
log(footprint) (not limiting = 1/S = 0, so the cliff fades in smoothly), both clamped at the measured ends.

    python -m model.fit --link results/tables/link.csv --latency results/tables/latency.csv \\
        --concurrency results/tables/concurrency.csv --out results/model/parameters.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_text
from emogi.schema import ZERO_COPY_MODES
from emogi.tables import read_table_or_exit
from model.littles_law import LinkParams

N_BOOT = 1000
PLATEAU_TOL = 0.03
BANDWIDTH_FRACTION = 0.9
S_MARGIN = 0.10
LEVEL = 95.0  # interval coverage, percent

NEEDED = {
    "link": ["direction", "host_memory", "size_bytes", "gbps"],
    "latency": ["mode", "footprint_bytes", "latency_ns"],
    "concurrency": ["mode", "footprint_bytes", "request_bytes", "warps", "reads_per_warp", "mrps"],
}


@dataclass
class Estimate:
    """A point estimate with its bootstrap replicates (same units)."""

    value: float
    boot: np.ndarray

    def interval(self) -> tuple[float, float]:
        tail = (100.0 - LEVEL) / 2
        lo, hi = np.percentile(self.boot, [tail, 100.0 - tail])
        return min(float(lo), self.value), max(float(hi), self.value)

    def __mul__(self, other: "Estimate") -> "Estimate":
        return Estimate(self.value * other.value, self.boot * other.boot)

    def __truediv__(self, other: "Estimate") -> "Estimate":
        return Estimate(self.value / other.value, self.boot / other.boot)


# --- statistics ----------------------------------------------------------------------------------------------
def _check(frame: pd.DataFrame, table: str) -> None:
    missing = [c for c in NEEDED[table] if c not in frame.columns]
    if missing:
        raise ValueError(f"{table} table lacks columns {missing}")


def _clean(frame: pd.DataFrame, table: str, value: str) -> pd.DataFrame:
    """Rows with a finite value (and verified, where the table says so); raise if none are left."""
    _check(frame, table)
    rows = frame
    if "verified" in rows.columns:
        rows = rows[~rows["verified"].astype(str).str.strip().str.lower().isin(["false", "0", "no"])]
    rows = rows[np.isfinite(pd.to_numeric(rows[value], errors="coerce"))]
    if rows.empty:
        raise ValueError(f"{table} table has no reps (no rows with a finite {value})")
    return rows.astype({value: float})


def _medians(rows: pd.DataFrame, keys: list[str], value: str, rng, n_boot: int) -> dict[tuple, Estimate]:
    """Median of `value` per group of `keys`, with bootstrap medians from resampling the group's reps."""
    out = {}
    for key, group in rows.groupby(keys, sort=True):
        x = group[value].to_numpy()
        idx = rng.integers(0, len(x), size=(n_boot, len(x)))
        out[key if isinstance(key, tuple) else (key,)] = Estimate(float(np.median(x)), np.median(x[idx], axis=1))
    return out


def ceiling(estimates: dict) -> tuple[Estimate, list]:
    """The plateau of a set of estimates (module docstring: ceiling): mean over those within PLATEAU_TOL of the
    best. Returns the estimate and the keys on the plateau, best first."""
    if not estimates:
        raise ValueError("nothing to take a ceiling over")
    best = max(e.value for e in estimates.values())
    on = sorted(
        (k for k, e in estimates.items() if e.value >= (1 - PLATEAU_TOL) * best), key=lambda k: -estimates[k].value
    )
    value = float(np.mean([estimates[k].value for k in on]))
    boot = np.mean([estimates[k].boot for k in on], axis=0)
    return Estimate(value, boot), on


def _interp(xs: np.ndarray, x: float) -> tuple[int, int, float]:
    """Neighbours i, j of x among sorted positive xs and the weight of i, linear in log(x), clamped."""
    if not x > 0:
        raise ValueError(f"footprint must be positive, got {x}")
    lx, lxs = math.log(x), np.log(xs)
    if lx <= lxs[0]:
        return 0, 0, 1.0
    if lx >= lxs[-1]:
        return len(xs) - 1, len(xs) - 1, 1.0
    j = int(np.searchsorted(lxs, lx))
    i = j - 1
    return i, j, float((lxs[j] - lx) / (lxs[j] - lxs[i]))


def _latency_at(latency: dict, mode: str, footprint: float) -> Estimate:
    """L(mode, footprint) from the per-footprint latency estimates, interpolated as in params_for."""
    fps = np.array(sorted(f for (m, f) in latency if m == mode), dtype=float)
    if not len(fps):
        raise ValueError(
            f"latency table has no rows for mode {mode!r}, which the concurrency table measures: "
            f"N = R L needs L({mode})"
        )
    i, j, w = _interp(fps, footprint)
    a, b = latency[(mode, int(fps[i]))], latency[(mode, int(fps[j]))]
    return Estimate(w * a.value + (1 - w) * b.value, w * a.boot + (1 - w) * b.boot)


# --- the fit -------------------------------------------------------------------------------------------------
def fit(
    link: pd.DataFrame, latency: pd.DataFrame, concurrency: pd.DataFrame, seed: int = 0, n_boot: int = N_BOOT
) -> dict:
    """Fit W, L, R, N_max and S (module docstring); returns the parameters.json structure."""
    rng = np.random.default_rng(seed)
    link_rows = _clean(link, "link", "gbps")
    link_rows = link_rows[(link_rows["direction"] == "h2d") & (link_rows["host_memory"] == "pinned")]
    if link_rows.empty:
        raise ValueError("link table has no pinned h2d rows: cannot fit the link bandwidth W")
    lat_rows = _clean(latency, "latency", "latency_ns").assign(
        L_us=lambda f: f["latency_ns"] / 1e3, footprint_bytes=lambda f: f["footprint_bytes"].astype("int64")
    )
    conc_rows = _clean(concurrency, "concurrency", "mrps").astype(
        {"footprint_bytes": "int64", "request_bytes": "int64"}
    )

    W, W_sizes = ceiling(_medians(link_rows, ["size_bytes"], "gbps", rng, n_boot))
    L = _medians(lat_rows, ["mode", "footprint_bytes"], "L_us", rng, n_boot)
    cells = _medians(
        conc_rows, ["mode", "footprint_bytes", "request_bytes", "warps", "reads_per_warp"], "mrps", rng, n_boot
    )
    R = {}
    for (m, f, d, w, k), est in cells.items():
        R.setdefault((m, f, d), {})[(w, k)] = est
    R = {key: ceiling(levels)[0] for key, levels in R.items()}

    zc_modes = sorted({m for (m, _, _) in R if m in ZERO_COPY_MODES})
    if not zc_modes:
        raise ValueError(
            f"concurrency table has no zero-copy rows (modes {', '.join(ZERO_COPY_MODES)}): "
            f"N_max and S cannot be fitted"
        )
    for mode in zc_modes:
        if not any(m == mode for (m, _) in L):
            raise ValueError(
                f"latency table has no rows for mode {mode!r}, which the concurrency table measures: "
                f"N = R L needs L({mode})"
            )

    def unbound(key):  # the link is not what stops this rate
        return R[key].value * key[2] / 1e3 < BANDWIDTH_FRACTION * W.value

    in_flight = {key: R[key] * _latency_at(L, key[0], key[1]) for key in R if key[0] in zc_modes and unbound(key)}
    if not in_flight:
        raise ValueError(
            f"every zero-copy concurrency cell runs at >= {BANDWIDTH_FRACTION:.0%} of W: "
            f"no cell shows the in-flight limit (measure smaller requests)"
        )
    N_max, N_on = ceiling(in_flight)

    S_entries = []
    for mode, f in sorted({(m, f) for (m, f, _) in R if m in zc_modes}):
        sizes = {(d,): R[(m, ff, d)] for (m, ff, d) in R if (m, ff) == (mode, f) and unbound((m, ff, d))}
        entry = {"mode": mode, "footprint_bytes": int(f), "S_miops": None, "lo": None, "hi": None, "limiting": False}
        if sizes:
            S, _ = ceiling(sizes)
            little = N_max / _latency_at(L, mode, f)
            if S.interval()[1] < (1 - S_MARGIN) * little.interval()[0]:
                lo, hi = S.interval()
                entry.update(S_miops=_round(S.value), lo=_round(lo), hi=_round(hi), limiting=True)
        S_entries.append(entry)

    n_reps = link_rows.groupby("size_bytes").size()
    reps = f"{n_reps.min()}" if n_reps.min() == n_reps.max() else f"{n_reps.min()}-{n_reps.max()}"
    best_mode, best_f, best_d = N_on[0]
    return {
        "W_gbps": {
            **_triple(W),
            "source": (
                f"pinned h2d cudaMemcpy: median GB/s over {reps} reps per size, "
                f"ceiling over sizes (plateau: {', '.join(_bytes(s[0]) for s in W_sizes)})"
            ),
        },
        "N_max": {
            **_triple(N_max),
            "from": {"mode": best_mode, "footprint_bytes": int(best_f), "request_bytes": int(best_d)},
        },
        "latency": [
            {
                "mode": m,
                "footprint_bytes": int(f),
                "L_us": _round(e.value),
                "lo": _round(e.interval()[0]),
                "hi": _round(e.interval()[1]),
            }
            for (m, f), e in L.items()
        ],
        "request_rate": [
            {
                "mode": m,
                "footprint_bytes": int(f),
                "request_bytes": int(d),
                "R_miops": _round(e.value),
                "lo": _round(e.interval()[0]),
                "hi": _round(e.interval()[1]),
            }
            for (m, f, d), e in sorted(R.items())
        ],
        "S": S_entries,
        "method": (
            f"Medians over reps; 95% percentile bootstrap intervals ({n_boot} resamples of the reps per cell, "
            f"seed {seed}). Ceilings (W over sizes, R over warps x reads per warp, N_max over candidates, S over "
            f"request sizes) are the mean of the settings within {PLATEAU_TOL:.0%} of the best. "
            f"N = R L (Little) over zero-copy cells with R d < {BANDWIDTH_FRACTION} W; N_max from "
            f"{len(N_on)} candidate(s), the highest {best_mode} {_bytes(best_f)} {best_d}-B reads. "
            f"S is limiting where its interval lies more than {S_MARGIN:.0%} below that of N_max / L(mode, "
            f"footprint); null = not limiting. See model/fit.py."
        ),
    }


def _round(x: float) -> float:
    return float(f"{x:.6g}")


def _triple(e: Estimate) -> dict:
    lo, hi = e.interval()
    return {"value": _round(e.value), "lo": _round(lo), "hi": _round(hi)}


def _bytes(n) -> str:
    n = int(n)
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


# --- using the fit -------------------------------------------------------------------------------------------
REQUIRED_KEYS = ("W_gbps", "N_max", "latency", "request_rate", "S", "method")


def load_parameters(path) -> dict:
    """Read a parameters.json written by fit(); raise ValueError if it is missing or lacks a key."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path} is missing (run python -m model.fit)")
    try:
        parameters = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not JSON: {e}") from None
    missing = [k for k in REQUIRED_KEYS if k not in parameters]
    if missing:
        raise ValueError(f"{path} lacks {missing}: not a parameters.json of model.fit")
    return parameters


def params_for(parameters: dict, mode: str, footprint_bytes: float) -> LinkParams:
    """LinkParams of `mode` at `footprint_bytes`: W and N_max as fitted, L and S interpolated between the
    measured footprints (L linear in log footprint, S through 1/S; clamped at the ends)."""
    rows = sorted((e for e in parameters["latency"] if e["mode"] == mode), key=lambda e: e["footprint_bytes"])
    if not rows:
        known = sorted({e["mode"] for e in parameters["latency"]})
        raise ValueError(f"no latency fitted for mode {mode!r} (modes with a latency: {known})")
    i, j, w = _interp(np.array([e["footprint_bytes"] for e in rows], dtype=float), footprint_bytes)
    L_us = w * rows[i]["L_us"] + (1 - w) * rows[j]["L_us"]

    S_rows = sorted((e for e in parameters["S"] if e["mode"] == mode), key=lambda e: e["footprint_bytes"])
    S_miops = math.inf
    if S_rows:
        inv = [0.0 if e["S_miops"] is None else 1.0 / e["S_miops"] for e in S_rows]
        i, j, w = _interp(np.array([e["footprint_bytes"] for e in S_rows], dtype=float), footprint_bytes)
        rate_inv = w * inv[i] + (1 - w) * inv[j]
        S_miops = 1.0 / rate_inv if rate_inv > 0 else math.inf
    return LinkParams(
        W_gbps=float(parameters["W_gbps"]["value"]),
        S_miops=S_miops,
        N_max=float(parameters["N_max"]["value"]),
        L_us=float(L_us),
    )


def observed_in_flight(latency: pd.DataFrame, concurrency: pd.DataFrame) -> pd.DataFrame:
    """Requests in flight by Little's law, N = mrps x L(mode, footprint), per concurrency setting (median over
    reps of both): the curve whose plateau is N_max, for figures."""
    lat = _clean(latency, "latency", "latency_ns").astype({"footprint_bytes": "int64"})
    L = {k: v / 1e3 for k, v in lat.groupby(["mode", "footprint_bytes"])["latency_ns"].median().items()}
    L = {k: Estimate(v, np.array([v])) for k, v in L.items()}
    keys = ["mode", "footprint_bytes", "request_bytes", "warps", "reads_per_warp"]
    conc = _clean(concurrency, "concurrency", "mrps").groupby(keys, as_index=False)["mrps"].median()
    conc["gbps"] = conc["mrps"] * conc["request_bytes"] / 1e3
    conc["L_us"] = [_latency_at(L, m, f).value for m, f in zip(conc["mode"], conc["footprint_bytes"])]
    conc["in_flight"] = conc["mrps"] * conc["L_us"]
    return conc


# --- CLI -----------------------------------------------------------------------------------------------------
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m model.fit", description=__doc__.split("\n\n")[0])
    ap.add_argument("--link", type=Path, required=True)
    ap.add_argument("--latency", type=Path, required=True)
    ap.add_argument("--concurrency", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n-boot", type=int, default=N_BOOT)
    a = ap.parse_args(argv)
    read = partial(read_table_or_exit, program="model.fit")
    if a.n_boot < 10:
        raise SystemExit(f"model.fit: --n-boot {a.n_boot} is too few resamples for a 95% interval")
    try:
        parameters = fit(
            read(a.link, "link"),
            read(a.latency, "latency"),
            read(a.concurrency, "concurrency"),
            seed=a.seed,
            n_boot=a.n_boot,
        )
    except ValueError as e:
        raise SystemExit(f"model.fit: {e}") from None
    write_text(json.dumps(parameters, indent=2) + "\n", a.out)
    W, N = parameters["W_gbps"], parameters["N_max"]
    print(f"W = {W['value']:.4g} GB/s [{W['lo']:.4g}, {W['hi']:.4g}]")
    print(f"N_max = {N['value']:.4g} [{N['lo']:.4g}, {N['hi']:.4g}] from {N['from']}")
    for s in parameters["S"]:
        if s["limiting"]:
            print(f"S({s['mode']}, {_bytes(s['footprint_bytes'])}) = {s['S_miops']:.4g} MIOPS limiting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
