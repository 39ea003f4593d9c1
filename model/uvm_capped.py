"""uvm-capped predicted from the cold-UVM model: the simulator's capped counts priced by the per-access shapes of
validation 7 (model/uvm_access_shape.py) times the session factor, plus the emulation's own terms
(docs/uvm-capped-validations.md, "Capped validation 2"; the analysis is archive/uvm-capped-analysis-2026-11-27).

Predicted capped time of a cell = its device-mode median + f x shape.migration_ms(the capped simulation's migrated
bytes, fault batches, serviced 2 MiB regions and warp faults) + sum over TERMS of coefficient x count:
  steps     (sub-)launches the emulation synchronised after (launches x K): the sync, the chunk-marking kernel,
            the flag copy and the host's LRU step
  evicted   2 MiB chunks moved back to the host (ReadMostly unset, prefetched to the CPU, set again)
  refault   GB migrated beyond the cold run's (what the evictions make the run fault in again), priced apart
  thread_evicted  evicted chunks of a thread-per-list cell (naive: its re-faults come from scattered threads)
and, with no coefficient (capped validation 3; archive/uvm-capped-validation2-analysis-2026-11-27), the tail a
thread-per-list kernel adds by sub-launching: each sub-launch waits for the longest list read in its vertex range, so
the device-mode median (taken as the longest thread's time) grows by the summed per-range longest lists over the
unsplit ones (`tail_ms`, from `sublaunch_tails` of the recorded trace and the graph's degrees).
The coefficients (ms per count, non-negative) minimise the summed |predicted / measured - 1| over the fit cells
(a linear program, model.uvm_calibrate._lad). Neither pattern (Afforest, chunked) has a shape: its cells are left
out (access '').
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from model.uvm_access_shape import access_of, migration_ms
from model.uvm_calibrate import _lad

KEYS = ["graph", "algorithm", "variant", "edge_bytes", "root", "budget_fraction"]
TERMS = ("steps", "evicted", "refault")
COUNT_COLUMNS = {
    "steps": "steps",
    "evicted": "evicted_chunks",
    "refault": "refault_gb",
    "migrated": "migrated_gb",
    "thread_evicted": "thread_evicted_chunks",
}


class CappedError(ValueError):
    """Nothing to fit on, or a fit given cells it must not see."""


def _median(frame: pd.DataFrame, keys: list[str], name: str) -> pd.DataFrame:
    return frame.groupby(keys, as_index=False)["time_ms"].median().rename(columns={"time_ms": name})


def oom_cells(oom: pd.DataFrame, sim: pd.DataFrame, counts: pd.DataFrame) -> pd.DataFrame:
    """The OOM archive's capped cells (median over reps) with their device and cold medians, the registered capped
    simulation's counts and the cold simulation's migrated bytes; warp faults of the capped run estimated as the
    cold run's (`counts`, model.uvm_warp_faults) scaled by the capped over the cold fault batches."""
    oom = oom.assign(root=oom["root"].fillna(-1))
    cap = _median(oom[oom["mode"] == "uvm-capped"], KEYS, "capped_ms")
    device = _median(oom[oom["mode"] == "device"], KEYS[:-1], "device_ms")
    cold = _median(oom[oom["mode"] == "uvm"], KEYS[:-1], "uvm_ms")
    sim = sim[sim["params"] == "registered"].assign(root=sim["root"].fillna(-1))
    cols = ["migrated_bytes", "batches", "serviced_chunks", "evicted_chunks", "launches", "sublaunches"]
    capped = sim[sim["sim_mode"] == "capped"][KEYS + cols + ["trace_source"]]
    cold_sim = sim[sim["sim_mode"] == "cold"][KEYS[:-1] + ["migrated_bytes", "batches"]]
    cold_sim = cold_sim.rename(columns={"migrated_bytes": "cold_migrated_bytes", "batches": "cold_batches"})
    lf = counts.assign(root=counts["root"].fillna(-1))[KEYS[:-1] + ["list_faults"]]
    cells = (
        cap.merge(device, on=KEYS[:-1])
        .merge(cold, on=KEYS[:-1])
        .merge(capped, on=KEYS)
        .merge(cold_sim, on=KEYS[:-1])
        .merge(lf.rename(columns={"list_faults": "cold_list_faults"}), on=KEYS[:-1], how="left")
    )
    cells["list_faults"] = cells["cold_list_faults"].fillna(0) * cells["batches"] / cells["cold_batches"]
    return with_counts(cells)


def with_counts(cells: pd.DataFrame) -> pd.DataFrame:
    """The term counts and the access pattern from a cell table's simulated columns."""
    access = access_of(cells["variant"])
    return cells.assign(
        steps=cells["launches"] * cells["sublaunches"],
        migrated_gb=cells["migrated_bytes"] / 1e9,
        refault_gb=np.maximum(cells["migrated_bytes"] - cells["cold_migrated_bytes"], 0) / 1e9,
        access=access,
        thread_evicted_chunks=np.where(access == "thread", cells["evicted_chunks"], 0),
    )


def sublaunch_tails(trace, degree: np.ndarray, k: int) -> tuple[int, int]:
    """(sum over launches of the longest list each reads, the same summed over its k vertex ranges), in edges; the
    ranges as the GPU splits a launch (model.uvm_sim: arange(k + 1) x n // k)."""
    bounds = np.arange(k + 1, dtype=np.int64) * trace.num_vertices // k
    whole = split = 0
    for i in range(trace.num_launches):
        d = np.where(trace.mask(i), degree, 0)
        per = [int(d[a:b].max()) if b > a else 0 for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
        whole, split = whole + max(per), split + sum(per)
    return whole, split


def tail_ms(cells: pd.DataFrame) -> np.ndarray:
    """What sub-launching adds to a thread-per-list kernel: device median x (tail_split / tail_whole - 1) where K > 1
    and the access is 'thread' (0 elsewhere, and where the trace reads no list)."""
    whole = cells["tail_whole"].to_numpy(float)
    grow = np.divide(cells["tail_split"].to_numpy(float), whole, out=np.ones(len(cells)), where=whole > 0) - 1
    on = (cells["access"].to_numpy() == "thread") & (cells["sublaunches"].to_numpy() > 1)
    return np.where(on, cells["device_ms"].to_numpy(float) * grow, 0.0)


def base_ms(cells: pd.DataFrame, shapes: dict, factor) -> np.ndarray:
    """Device median + f x the capped counts' migration time by the cell's access pattern's shape (NaN: neither)."""
    return cells["device_ms"].to_numpy(float) + np.asarray(factor, float) * migration_ms(cells, shapes)


def term_matrix(cells: pd.DataFrame, terms=TERMS) -> np.ndarray:
    return np.column_stack([cells[COUNT_COLUMNS[t]].to_numpy(float) for t in terms]).reshape(len(cells), len(terms))


def fit_terms(cells: pd.DataFrame, base: np.ndarray, terms=TERMS) -> dict:
    """{term: ms per count} minimising sum |(base + terms) / measured - 1| over `cells` (non-negative)."""
    ok = np.isfinite(base)
    if not ok.any() or not terms:
        return dict.fromkeys(terms, 0.0)
    m = cells["capped_ms"].to_numpy(float)[ok]
    coef = _lad(term_matrix(cells[ok], terms), m - base[ok], 1 / m)
    return {t: float(c) for t, c in zip(terms, coef, strict=True)}


def predict(cells: pd.DataFrame, base: np.ndarray, coef: dict) -> np.ndarray:
    terms = tuple(coef)
    return base + (term_matrix(cells, terms) @ np.array([coef[t] for t in terms]) if terms else 0.0)


def errors(predicted, measured) -> dict:
    err = np.abs(np.asarray(predicted, float) / np.asarray(measured, float) - 1)
    err = err[np.isfinite(err)]
    if not len(err):
        return {"cells": 0}
    return {"cells": int(len(err)), "median": float(np.median(err)), "worst": float(err.max())}
