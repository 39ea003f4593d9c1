"""The cold-UVM runs' own spread within one validation call, reported beside the verdict (docs/uvm-validations.md,
"Validation 5 of the UVM simulator: registered before the session"): each cell's spread over its timed runs, the judged
predictions against each run, and the worst |error| a perfect predictor would have on the call's own noise. The
method is archive/uvm-validation4-analysis-2026-11-27's (explore.py: `deviations`, `perfect_predictor` with the
median statistic, `judge_by_run`), for any number of runs per cell.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from model.uvm_warp_faults import KEYS

SEED, DRAWS = 27, 4000  # the analysis's resampling: numpy's default generator


def cold_uvm(runs: pd.DataFrame) -> pd.DataFrame:
    """The call's timed cold `uvm` rows in run order, `run` numbering each cell's runs from 0."""
    uvm = runs[runs["mode"] == "uvm"].assign(root=lambda d: d["root"].fillna(-1).astype(int))
    return uvm.assign(run=uvm.groupby(KEYS).cumcount())


def cell_spread(runs: pd.DataFrame) -> pd.DataFrame:
    """Per cell (KEYS): how many timed cold runs, their min and max, and the spread max / min - 1."""
    g = cold_uvm(runs).groupby(KEYS)["time_ms"]
    out = pd.DataFrame({"uvm_runs": g.size(), "uvm_min_ms": g.min(), "uvm_max_ms": g.max()}).reset_index()
    return out.assign(uvm_spread=out["uvm_max_ms"] / out["uvm_min_ms"] - 1)


def run_errors(cells: pd.DataFrame, runs: pd.DataFrame, rules: tuple) -> pd.DataFrame:
    """Each judged cell's prediction by each rule against each of its timed cold runs: one row per cell and run."""
    keep = [*KEYS, *(f"predicted_ms_{r}" for r in rules)]
    d = cold_uvm(runs)[[*KEYS, "run", "time_ms"]].merge(cells[keep], on=KEYS)
    for r in rules:
        d[f"error_{r}"] = d[f"predicted_ms_{r}"] / d["time_ms"] - 1
    return d.drop(columns=[f"predicted_ms_{r}" for r in rules])


def by_run(cells: pd.DataFrame, runs: pd.DataFrame, rules: tuple) -> pd.DataFrame:
    """Per rule: the median and worst |error| judged against the cell's median (the registered statistic), each
    run position, the min, the max, the run closest to and farthest from the prediction; for the median, the run
    positions, the min and the max also the floor refitted against that statistic (not a prediction)."""
    wide = cold_uvm(runs).pivot_table(index=KEYS, columns="run", values="time_ms")
    wide.columns = [f"run{k}" for k in wide.columns]
    each = list(wide.columns)
    wide = wide.assign(min=wide[each].min(axis=1), max=wide[each].max(axis=1), median=wide[each].median(axis=1))
    d = cells.merge(wide.reset_index(), on=KEYS)
    mig = d["simulated_migration_ms"]
    rows = []
    for rule in rules:
        pred = d[f"predicted_ms_{rule}"]
        errs = {s: (pred / d[s] - 1).abs() for s in ("median", *each, "min", "max")}
        every = pd.concat([errs[s] for s in each], axis=1)
        errs["closest run"], errs["farthest run"] = every.min(axis=1), every.max(axis=1)
        for s, e in errs.items():
            row = {"rule": rule, "judged_against": s, "n": int(e.notna().sum()), "median": e.median()}
            row |= {"worst": e.max(), "over_25": int((e > 0.25).sum())}
            if s not in ("closest run", "farthest run"):
                f = np.nanmedian((d[s] - d["device_ms"]) / mig)
                ef = ((d["device_ms"] + f * mig) / d[s] - 1).abs()
                row |= {"floor_f": f, "floor_median": ef.median(), "floor_worst": ef.max()}
            rows.append(row)
    return pd.DataFrame(rows)


def deviations(runs: pd.DataFrame) -> pd.DataFrame:
    """Per timed cold run of a cell with two or more: x / the cell's mean - 1, scaled by sqrt(n / (n - 1)) to one
    run's noise about the cell's expectation (`dev`)."""
    uvm = cold_uvm(runs)
    g = uvm.groupby(KEYS)["time_ms"]
    n = g.transform("size")
    dev = (uvm["time_ms"] / g.transform("mean") - 1) * np.sqrt(n / (n - 1).clip(lower=1))
    return uvm.assign(n=n, dev=dev)[n >= 2]


def perfect_predictor(runs: pd.DataFrame, algorithms: pd.Series, reps: int, seed: int = SEED, draws: int = DRAWS):
    """The |error| of a predictor that knows each cell's expected time, judged against the median of `reps` runs
    drawn from the call's own per-run deviations (the cell's algorithm's where it has 8 or more, else every
    run's), one cell per entry of `algorithms` (the judged cells'): the resampled median and worst over draws."""
    pool = deviations(runs)
    if pool.empty:
        raise ValueError("no cell has two timed cold runs: no spread to resample")
    by_alg = {a: p["dev"].to_numpy() for a, p in pool.groupby("algorithm") if len(p) >= 8}
    every, rng = pool["dev"].to_numpy(), np.random.default_rng(seed)
    stats = [
        np.median(1 + rng.choice(by_alg.get(a, every), (draws, m, reps)), axis=2)
        for a, m in algorithms.value_counts().items()
    ]
    e = np.abs(1 / np.concatenate(stats, axis=1) - 1)
    worst = e.max(axis=1)
    half = pool.groupby(KEYS)["time_ms"].agg(lambda x: (x / x.mean() - 1).abs().max())
    return pd.DataFrame(
        [
            {
                "runs": len(pool),
                "cells": len(half),
                "cell_dev_median": half.median(),
                "cell_dev_max": half.max(),
                "median_abs_dev": pool["dev"].abs().median(),
                "reps": reps,
                "judged_cells": len(algorithms),
                "draws": draws,
                "seed": seed,
                "median_of_median": float(np.median(np.median(e, axis=1))),
                "worst_p50": float(np.median(worst)),
                "worst_p90": float(np.quantile(worst, 0.9)),
                "p_worst_over_25": float((worst > 0.25).mean()),
            }
        ]
    )


def perfect_in_blocks(runs: pd.DataFrame, cells: pd.DataFrame, reps: int, block: int = 3, seed: int = SEED,
                      draws: int = DRAWS) -> dict:  # fmt: skip
    """The perfect predictor's worst with runs drawn in blocks of `block` consecutive runs (archive/uvm-validation6-
    analysis-2026-11-27, explore.py `perfect`, "block3"): per (graph, algorithm, variant), the cold runs of all its
    roots in the call's time order, each over its cell's floor prediction (`predicted_ms_floor`, which carries the
    roots' simulated difference), as log deviations from that sequence's median; each judged cell's statistic the
    median of `reps` values taken from random blocks of its algorithm's sequences."""
    uvm = cold_uvm(runs)
    pred = cells.assign(root=cells["root"].fillna(-1).astype(int)).set_index(KEYS)["predicted_ms_floor"]
    pool: dict = {}
    for (_, alg, _), d in uvm.groupby(["graph", "algorithm", "variant"], sort=False):
        x = np.log(d["time_ms"].to_numpy(float) / pred.reindex(pd.MultiIndex.from_frame(d[KEYS])).to_numpy(float))
        x = x[np.isfinite(x)]
        x = x - np.median(x) if len(x) else x
        pool.setdefault(alg, []).extend(x[i : i + block] for i in range(len(x) - block + 1))
    every = [b for v in pool.values() for b in v]
    if not every:
        raise ValueError(f"no step has {block} timed cold runs: no blocks to resample")
    rng, per = np.random.default_rng(seed), -(-reps // block)
    stats = []
    for a, m in cells["algorithm"].value_counts().items():
        blocks = np.array(pool.get(a) if len(pool.get(a, [])) >= 2 else every)
        pick = blocks[rng.integers(len(blocks), size=(draws, m, per))].reshape(draws, m, per * block)[:, :, :reps]
        stats.append(np.median(pick, axis=2))
    worst = np.abs(np.exp(np.concatenate(stats, axis=1)) - 1).max(axis=1)
    return {
        f"block{block}_worst_p50": float(np.median(worst)),
        f"block{block}_worst_p90": float(np.quantile(worst, 0.9)),
        f"block{block}_p_worst_over_25": float((worst > 0.25).mean()),
    }
