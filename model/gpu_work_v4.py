"""The GPU-work term v4 and its zero-copy link terms (issue 24; docs/holdout-v3-v6.md, "GPU-work term v4 and held-out
validation v4", registered before the session). Over the launches l of the CPU-derived trace (grid V_l, entries
N_l, longest walk K_l, lists_l: model/gpu_features.py, model.holdout's launches table), per algorithm, variant and
edge width:

    device (the floor, v3's sum form):  t = Σ_l w_l [ a + b·V_l + (c + m·μ)·N_l + s·K_l ]      a, b, c, m, s ≥ 0
    zero-copy:                           t = floor + η · D / T(d) + g · Σ_l w_l σ_l · L        η, g ≥ 0

- **Gauss-Seidel's launches as the GPU runs them** (the weights w_l; 1 for every other variant). The GPU runs
  ⌈V/32⌉ warps, at most RESIDENT_WARPS at once: the vertices of one wave are updated together, as a Jacobi sweep
  does, and the waves one after another, as Gauss-Seidel does. So a `gauss-seidel` PageRank is expected to read
  the mix (1 − φ)·(the CPU's Gauss-Seidel trace) + φ·(the Jacobi trace, i.e. the `merged-aligned` PageRank trace
  of the same graph and width), φ = min(1, 32·RESIDENT_WARPS / V): its launches are both traces' launches with
  weights 1 − φ and φ, and its D, requests and d the same mix. Below 32·RESIDENT_WARPS vertices (about 270 000 on
  an H100) it is the Jacobi sweep.
- The floor: v3's terms (μ, the L2 miss share, as model/gpu_work_v3.py) in the sum form v3 reported beside its max
  form: the longest walk's cost adds to the launch's throughput work (the hub's warp finishes after the others).
  Fitted by model.gpu_work_v3.fit_group (NNLS on the relative error) on the train graphs' device cells; the max
  form is fitted and kept beside it in holdout_costs.csv.
- D / T(d): the counted bytes over the link's throughput at the request size d (model.littles_law, the session's
  microbenchmarks), as in v2 and v3; η, the cost of a counted byte in the variant's read pattern (1: as the
  microbenchmark; below 1 where bytes are counted that are not read, e.g. the `frontier` SSSP's skipped weights).
- σ_l, the serial steps of launch l: its longest walk K_l; for `gauss-seidel`, whose warp pushes its 32 vertices'
  lists one after another, at least the lists a warp pushes on average, lists_l / ⌈V/32⌉; L the session's
  zero-copy round trip (model.predict.chain_ms); g, the round trips a step costs (v2 and v3 counted one launch's
  walk once, at g = 1/4).
- η and g per algorithm, variant and edge width, by non-negative least squares on the relative error of the train
  graphs' zero-copy cells, each predicted with its fitted floor (as every cell is predicted).
Used by `python -m model.holdout --split v4`.
"""

from __future__ import annotations

from typing import Callable, Iterable

import numpy as np
import pandas as pd
from scipy.optimize import nnls

from model import gpu_work_v3 as v3
from model.gpu_work_v3 import PARAMS, Launches, fit_groups, mu_table
from model.littles_law import throughput_gbps
from model.predict import chain_ms

GROUP = ["algorithm", "variant", "edge_bytes"]
WORK = ["graph", "algorithm", "variant", "edge_bytes", "root"]
LINK_PARAMS = ["eta", "g"]
WARP = 32
RESIDENT_WARPS = 132 * 64  # H100 SXM5 (the split's device): 132 SMs, 64 resident warps each
JACOBI_OF = {("pagerank", "gauss-seidel"): "merged-aligned"}  # the variant whose trace is the same sweep, Jacobi
SERIAL_LISTS_VARIANTS = ("gauss-seidel",)  # a warp walks its 32 vertices' lists one after another
FLOOR_FORM = "sum"  # registered; v3's max form is fitted beside it
_MIXED = ["D_bytes", "requests", "bytes_needed", "launches"]
__all__ = ["FLOOR_FORM", "PARAMS", "expected", "fit_costs", "fit_link", "floor_ms", "mu_table", "predict_table"]


def concurrent_share(vertices: float, resident_warps: int = RESIDENT_WARPS) -> float:
    """φ: the share of a Gauss-Seidel sweep's vertices one wave of resident warps updates together."""
    return float(min(1.0, WARP * resident_warps / max(float(vertices), 1.0)))


def expected(workloads: pd.DataFrame, launches: pd.DataFrame, vertices: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The workloads and launches (with a `weight` column) as the GPU is expected to run them: each Gauss-Seidel
    workload the mix of its trace (1 − φ) and its graph's Jacobi trace (φ); a Gauss-Seidel workload whose Jacobi
    workload is missing is refused (its cells are listed, not predicted)."""
    launches = launches.assign(weight=1.0)
    workloads = workloads.copy()
    keep, extra = [], []
    for (algorithm, variant), jacobi in JACOBI_OF.items():
        gs = workloads.index[(workloads["algorithm"] == algorithm) & (workloads["variant"] == variant)]
        jac = workloads[(workloads["algorithm"] == algorithm) & (workloads["variant"] == jacobi)]
        jac = jac.set_index(["graph", "edge_bytes", "root"])
        if len(gs):  # mixed counts are fractional; a refusal is text (an all-empty column reads back as float)
            workloads = workloads.astype({c: float for c in [*_MIXED, "d_bytes"]} | {"refused": object})
        for i in gs:
            r = workloads.loc[i]
            key = (r["graph"], r["edge_bytes"], r["root"])
            if str(r.get("refused", "") or "") not in ("", "nan"):
                continue
            if key not in jac.index:
                workloads.loc[i, "refused"] = f"no {jacobi} workload of {r['graph']} to mix Gauss-Seidel's from"
                continue
            phi = concurrent_share(vertices[r["graph"]])
            j = jac.loc[key]
            for col in _MIXED:
                workloads.loc[i, col] = (1 - phi) * float(r[col]) + phi * float(j[col])
            req = workloads.loc[i, "requests"]
            workloads.loc[i, "d_bytes"] = workloads.loc[i, "D_bytes"] / req if req else np.nan
            own = (launches[WORK] == r[WORK].to_numpy()).all(axis=1)
            keep.append((own, 1 - phi))
            other = launches[(launches["graph"] == r["graph"]) & (launches["algorithm"] == algorithm)
                             & (launches["variant"] == jacobi) & (launches["edge_bytes"] == r["edge_bytes"])
                             & (launches["root"] == r["root"])]  # fmt: skip
            extra.append(other.assign(variant=variant, launch=other["launch"] + 10**6, weight=phi))
    for own, w in keep:
        launches.loc[own, "weight"] = w
    return workloads, pd.concat([launches, *extra], ignore_index=True)


class WeightedLaunches(Launches):
    """model.gpu_work_v3.Launches with each launch's row scaled by its weight (1 where there is none)."""

    def __init__(self, rows: pd.DataFrame, n_cells: int):
        super().__init__(rows, n_cells)
        self.w = rows["weight"].to_numpy(float) if "weight" in rows else np.ones(len(rows))
        self.x = self.x * self.w[:, None]

    def predict(self, p, form: str) -> np.ndarray:
        a, b, c, m, s = np.asarray(p, float)
        work = b * self.x[:, 1] + c * self.x[:, 2] + m * self.x[:, 3]  # weighted already, as is the walk
        per = a * self.w + (np.maximum(work, s * self.x[:, 4]) if form == "max" else work + s * self.x[:, 4])
        return np.bincount(self.cell, weights=per, minlength=self.n)


def launches_of(launches: pd.DataFrame, keys: pd.DataFrame, mu: dict) -> WeightedLaunches:
    """Weighted launches of the workloads `keys` (in their order); `mu`: (graph, algorithm) -> μ."""
    idx = keys[WORK].reset_index(drop=True).assign(cell=lambda f: np.arange(len(f)))
    rows = launches.merge(idx, on=WORK)
    rows["mu"] = [mu[g, a] for g, a in zip(rows["graph"], rows["algorithm"], strict=True)]
    return WeightedLaunches(rows, len(idx))


def fit_costs(table: pd.DataFrame, launches: pd.DataFrame, mu: dict, train: str,
              check_fit_set: Callable[[Iterable[str]], None]) -> pd.DataFrame:  # fmt: skip
    """a, b, c, m, s (both forms) per algorithm, variant and width on the `device` cells whose split is `train`:
    v3's fit over the weighted launches."""
    return v3.fit_costs(table, launches, mu, train, check_fit_set, make=launches_of)


def floor_ms(table: pd.DataFrame, launches: pd.DataFrame, costs: pd.DataFrame, mu: dict,
             form: str = FLOOR_FORM) -> np.ndarray:  # fmt: skip
    """Every row's floor in `form` with its group's costs; NaN where the group has none."""
    return v3.floor_ms(table, launches, costs, mu, form, make=launches_of)


def serial_steps(launches: pd.DataFrame, vertices: dict) -> np.ndarray:
    """σ_l per launch row: its longest walk, or for gauss-seidel at least lists_l / ⌈V/32⌉ (`vertices`: graph -> V)."""
    walk = launches["walk"].to_numpy(float)
    serial = launches["variant"].isin(SERIAL_LISTS_VARIANTS).to_numpy()
    if not serial.any():
        return walk
    warps = np.array([np.ceil(float(vertices[g]) / WARP) for g in launches["graph"]])
    return np.where(serial, np.maximum(walk, launches["lists"].to_numpy(float) / np.maximum(warps, 1.0)), walk)


def serial_of(table: pd.DataFrame, launches: pd.DataFrame, vertices: dict) -> np.ndarray:
    """Σ_l w_l σ_l for every row of `table` (its workload's launches; 0 where it has none)."""
    rows = launches.merge(table[WORK].drop_duplicates(), on=WORK)
    weight = rows["weight"].to_numpy(float) if "weight" in rows else 1.0
    per = rows[WORK].assign(serial=serial_steps(rows, vertices) * weight).groupby(WORK, as_index=False)["serial"].sum()
    return table[WORK].merge(per, on=WORK, how="left")["serial"].fillna(0.0).to_numpy(float)


def link_features(table: pd.DataFrame, launches: pd.DataFrame, params, vertices: dict) -> tuple[np.ndarray, ...]:
    """Per row: D / T(d) in ms and Σ_l w_l σ_l · L in ms (both 0 for device rows and workloads without requests)."""
    zc = ((table["mode"] == "zerocopy") & (table["requests"] > 0)).to_numpy()
    d = np.where(zc, table["d_bytes"].to_numpy(float), 1.0)
    transfer = np.where(zc, table["D_bytes"].to_numpy(float) / (np.asarray(throughput_gbps(d, params)) * 1e9) * 1e3, 0)
    serial = np.where(zc, np.asarray(chain_ms(serial_of(table, launches, vertices), params)), 0.0)
    return transfer, serial


def fit_link_group(floor: np.ndarray, transfer: np.ndarray, serial: np.ndarray, measured: np.ndarray) -> np.ndarray:
    """η, g ≥ 0 minimising Σ ((floor + η·transfer + g·serial) / measured − 1)² (a column that is 0 in every cell
    stays 0)."""
    x = np.stack([transfer, serial], axis=1) / measured[:, None]
    y = 1.0 - floor / measured
    use = x.max(axis=0) > 0
    out = np.zeros(2)
    if use.any():
        out[use], _ = nnls(x[:, use], y)
    return out


def fit_link(table: pd.DataFrame, train: str, check_fit_set: Callable[[Iterable[str]], None]) -> pd.DataFrame:
    """η and g per algorithm, variant and width on the zero-copy cells whose split is `train` (columns floor_ms,
    link_transfer_ms, link_serial_ms, measured_ms); groups with fewer than 2 such cells get none."""
    out = []
    for a, v, w, fit in fit_groups(table, "zerocopy", train, check_fit_set):
        p = fit_link_group(*(fit[c].to_numpy(float) for c in
                             ("floor_ms", "link_transfer_ms", "link_serial_ms", "measured_ms")))  # fmt: skip
        out.append({"algorithm": a, "variant": v, "edge_bytes": int(w), "zc_train_cells": len(fit)}
                   | dict(zip(LINK_PARAMS, p, strict=True)))  # fmt: skip
    return pd.DataFrame(out, columns=[*GROUP, "zc_train_cells", *LINK_PARAMS])


def predict_table(table: pd.DataFrame, launches: pd.DataFrame, params, vertices: dict, train: str,
                  check_fit_set: Callable[[Iterable[str]], None]) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """Every row (with its fitted floor_ms) predicted: device = floor; zero-copy = floor + transfer_ms + chain_ms,
    transfer_ms = η·D/T(d), chain_ms = g·Σ w σ·L; zero-copy rows of groups without link costs get NaN. Returns the
    table and the link costs."""
    transfer, serial = link_features(table, launches, params, vertices)
    t = table.assign(link_transfer_ms=transfer, link_serial_ms=serial)
    link = fit_link(t, train, check_fit_set)
    p = t[GROUP].merge(link, on=GROUP, how="left")
    zc = (t["mode"] == "zerocopy").to_numpy()
    eta, g = p["eta"].to_numpy(float), p["g"].to_numpy(float)
    t["transfer_ms"] = np.where(zc, eta * transfer, 0.0)
    t["chain_ms"] = np.where(zc, g * serial, 0.0)
    t["predicted_ms"] = t["floor_ms"] + t["transfer_ms"] + t["chain_ms"]
    return t.drop(columns=["link_transfer_ms", "link_serial_ms"]), link
