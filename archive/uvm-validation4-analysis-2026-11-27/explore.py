"""Exploratory, CPU only, IN SAMPLE: how much of validation 4's worst error is the cold runs' own spread, where the
spread sits, what refitting the per-access shapes on validation 4's cells would give, and what a validation 5
call could afford. Writes the tables of this folder's README from archived tables (run from the repository root):

    python archive/uvm-validation4-analysis-2026-11-27/explore.py

Every number here is chosen after seeing validation 4's judged runs: none is a validation.
"""

import glob
import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from model.uvm_access_shape import fit_access_shapes, judged_cells, migration_ms  # noqa: E402
from model.uvm_cells import SOURCES, _read  # noqa: E402
from model.uvm_session_fit import (  # noqa: E402
    archived_cells,
    fit_pageable_rule,
    pageable_factor,
    pageable_gbps,
    session_pageable,
)
from model.uvm_validation4 import load_access  # noqa: E402
from model.uvm_warp_faults import KEYS  # noqa: E402

A = Path("archive")
OUT = A / "uvm-validation4-analysis-2026-11-27"
V4, V3 = A / "uvm-validation4-h100-2026-11-27", A / "uvm-validation3-h100-2026-11-27"
OOM = A / "oom-h100-80gb-hbm3-2026-11-25-1207/oom.csv.gz"
VALIDATION = A / "uvm-sim-validation-2026-11-25/cells.csv"
COUNTS = "archive/uvm-sim-structure-2026-11-27/counts_*.csv"
OLD_GRAPHS = ("kron23", "urand23", "kron24", "urand24")  # the older tables' graphs of validation 4's size
SEED, DRAWS = 27, 4000
# non-GPU seconds per extra run, an upper bound from call.log: a BFS step (20 runs) took at most 1.8 s more
# besides its GPU time than the CC step of the same graph (12 runs), reference BFS included
PER_RUN_S = 0.25


def call_runs(session: Path) -> pd.DataFrame:
    """A validation call's rows in run order; `seq` = position among the timed runs of one (graph, algorithm,
    variant, mode) process step (0: the first timed run after the warm-up, which ran on the first root)."""
    runs = pd.concat([pd.read_csv(f) for f in sorted((session / "runs").glob("*.csv"))], ignore_index=True)
    runs["root"] = runs["root"].fillna(-1).astype(int)
    runs["seq"] = runs.groupby(["graph", "algorithm", "variant", "mode"]).cumcount()
    return runs


def older_runs() -> dict:
    """Cold uvm rows of the older archives with several reps (naive and merged-aligned, scale 23-24 graphs)."""
    keep = ["naive", "merged-aligned"]
    old = [_read(A, t) for t, g in SOURCES]
    old = pd.concat(old, ignore_index=True)
    old = old[(old["mode"] == "uvm") & old["graph"].isin(OLD_GRAPHS) & old["variant"].isin(keep)]
    oom = pd.read_csv(OOM)
    oom = oom[(oom["mode"] == "uvm") & oom["variant"].isin(keep)].assign(root=lambda d: d["root"].fillna(-1))
    return {"uvm-sim-validation tables": old.assign(cell_src=old["source"]), "oom-h100 2026-11-25": oom}


def deviations(runs: pd.DataFrame, by=KEYS) -> pd.DataFrame:
    """Per run: x / cell mean - 1, scaled by sqrt(n / (n - 1)) to one run's noise about the cell's expectation."""
    g = runs.groupby(by)["time_ms"]
    n = g.transform("size")
    dev = (runs["time_ms"] / g.transform("mean") - 1) * np.sqrt(n / (n - 1).clip(lower=1))
    return runs.assign(n=n, dev=dev, raw=runs["time_ms"] / g.transform("mean") - 1)[n >= 2]


def perfect_predictor(pool: pd.DataFrame, algorithms: pd.Series, reps: int, stat: str, rng) -> dict:
    """Resampled |error| of a predictor that knows each cell's expected time, judged against `stat` (median or
    min, each draw's factor fitted as the floor's) of `reps` runs drawn from the pool's per-run deviations (the
    cell's algorithm's, if it has 8 or more)."""
    by_alg = {a: d["dev"].to_numpy() for a, d in pool.groupby("algorithm") if len(d) >= 8}
    every = pool["dev"].to_numpy()
    stats = []
    for a, m in algorithms.value_counts().items():
        x = 1 + rng.choice(by_alg.get(a, every), (DRAWS, m, reps))
        stats.append(np.median(x, axis=2) if stat == "median" else x.min(axis=2))
    s = np.concatenate(stats, axis=1)
    centre = 1.0 if stat == "median" else np.median(s, axis=1, keepdims=True)  # min: a fitted factor absorbs its bias
    e = np.abs(centre / s - 1)
    w, med = e.max(axis=1), np.median(e, axis=1)
    return {
        "median_of_median": float(np.median(med)),
        "worst_p50": float(np.median(w)),
        "worst_p90": float(np.quantile(w, 0.9)),
        "p_worst_over_25": float((w > 0.25).mean()),
    }


def judge_by_run(cells: pd.DataFrame, runs: pd.DataFrame, rules: tuple) -> pd.DataFrame:
    """Each cell's prediction judged against each of its timed cold runs and against their min and max."""
    uvm = runs[runs["mode"] == "uvm"].copy()
    uvm["k"] = uvm.groupby(KEYS).cumcount()
    wide = uvm.pivot_table(index=KEYS, columns="k", values="time_ms").add_prefix("run")
    wide = wide.assign(min=wide.min(axis=1), max=wide.max(axis=1), median=wide.median(axis=1))
    d = cells.merge(wide.reset_index(), on=KEYS)
    rows = []
    for rule in rules:
        pred = d[f"predicted_ms_{rule}"]
        errs = {s: (pred / d[s] - 1).abs() for s in ("median", "run0", "run1", "min", "max")}
        both = pd.concat([errs["run0"], errs["run1"]], axis=1)
        errs["closest run"], errs["farthest run"] = both.min(axis=1), both.max(axis=1)
        mig = d["simulated_migration_ms"]
        for s, e in errs.items():
            row = {"rule": rule, "judged_against": s, "n": len(e), "median": e.median(), "worst": e.max()}
            if s in ("median", "run0", "run1", "min", "max"):  # the floor refitted against this statistic
                f = np.median((d[s] - d["device_ms"]) / mig)
                ef = ((d["device_ms"] + f * mig) / d[s] - 1).abs()
                row |= {"floor_f": f, "floor_median": ef.median(), "floor_worst": ef.max()}
            rows.append(row | {"over_25": int((e > 0.25).sum())})
    return pd.DataFrame(rows)


def spread_by_position(runs: pd.DataFrame, call: str) -> pd.DataFrame:
    """Pairs of reps of one cell: the first timed run after the warm-up (the first root's rep 0, or the only
    root's) against its cell's second run, and the second root's pair as the control."""
    uvm = runs[runs["mode"].isin(["uvm", "device"])].copy()
    uvm["rep0"] = uvm.groupby([*KEYS, "mode"]).cumcount() == 0
    first = uvm[uvm["rep0"]].set_index([*KEYS, "mode"])
    second = uvm[~uvm["rep0"]].groupby([*KEYS, "mode"]).first()
    pair = first[["time_ms", "seq"]].join(second[["time_ms"]].add_suffix("_2")).dropna().reset_index()
    pair["ratio"] = pair["time_ms"] / pair["time_ms_2"]
    pair["pair"] = np.where(pair["seq"] == 0, "first after warm-up", "second root (control)")
    rows = []
    for (mode, alg, kind), g in pair.groupby(["mode", "algorithm", "pair"]):
        s = (g["ratio"] - 1).abs()
        rows.append(
            {
                "call": call,
                "mode": mode,
                "algorithm": alg,
                "pair": kind,
                "n": len(g),
                "median_ratio": g["ratio"].median(),
                "median_spread": s.median(),
                "max_spread": s.max(),
                "over_20": int((s > 0.2).sum()),
            }
        )
    return pd.DataFrame(rows)


def refit(base: pd.DataFrame, v3_cells: pd.DataFrame, v4_cells: pd.DataFrame, gbps: dict, with_v3, with_v4):
    parts = [base] + [c[base.columns] for c, w in ((v3_cells, with_v3), (v4_cells, with_v4)) if w]
    shapes, factors = fit_access_shapes(pd.concat(parts, ignore_index=True))
    return shapes, fit_pageable_rule(factors, session_pageable(A, factors) | gbps)


def score_call(cells: pd.DataFrame, shapes: dict, rule: dict, gbps: float) -> dict:
    mig = migration_ms(cells, shapes)
    out = {}
    for name, f in (("floor", np.median((cells["uvm_ms"] - cells["device_ms"]) / mig)),
                    ("pageable", pageable_factor(rule, gbps))):  # fmt: skip
        e = ((cells["device_ms"] + f * mig) / cells["uvm_ms"] - 1).abs()
        out |= {
            f"{name}_f": f,
            f"{name}_median": e.median(),
            f"{name}_worst": e.max(),
            f"{name}_over_25": (e > 0.25).sum(),
        }
    return out


def shape_refits() -> pd.DataFrame:
    counts = pd.concat([pd.read_csv(f) for f in sorted(glob.glob(COUNTS))], ignore_index=True)
    base = archived_cells(pd.read_csv(VALIDATION), pd.read_csv(OOM), counts)
    v3, g3 = judged_cells(V3)
    v4 = pd.read_csv(V4 / "validation4_cells.csv").assign(session=V4.name)
    gbps = g3 | {V4.name: pageable_gbps(pd.read_csv(V4 / "session/uvm4/micro/link.csv"))}
    reg_shapes, reg_rule = load_access()
    sets = {
        "v4 registered (archives + v3)": (reg_shapes, reg_rule),
        "archives + v4": refit(base, v3, v4, gbps, False, True),
        "archives + v3 + v4 (v5 candidate)": refit(base, v3, v4, gbps, True, True),
    }
    rows, params = [], {}
    for name, (shapes, rule) in sets.items():
        for call, cells in (("validation3", v3), ("validation4", v4)):
            rows.append({"shapes": name, "judged": call} | score_call(cells, shapes, rule, gbps[cells["session"][0]]))
        params[name] = {a: vars(s) for a, s in shapes.items()} | {"c": rule["c"], "k": rule["k"]}
    write = {k: {a: v if isinstance(v, float) else {n: round(x, 4) for n, x in v.items()} for a, v in p.items()}
             for k, p in params.items()}  # fmt: skip
    (OUT / "refit_params.json").write_text(json.dumps(write, indent=2) + "\n")
    return pd.DataFrame(rows)


def call_timing(session: Path, runs: pd.DataFrame) -> pd.DataFrame:
    """Per `emogi run` step of the call: wall seconds (call.log), GPU seconds of its warm-up and timed runs
    (each mode and variant's warm-up counted at its first timed run's time), their difference."""
    stamps = re.findall(r"^== (.*) \((\d\d:\d\d:\d\d)\)$", (session / "call.log").read_text(), re.M)
    t = pd.to_timedelta([s for _, s in stamps]).total_seconds()
    rows = []
    for i, (what, _) in enumerate(stamps[:-1]):
        m = re.match(r"(\w+) (\S+) \(limit", what)
        if not m:
            continue
        g = runs[(runs["algorithm"] == m[1]) & (runs["graph"] == m[2])]
        warm = g[g["seq"] == 0]["time_ms"].sum()
        gpu = (g["time_ms"].sum() + warm) / 1e3
        n_roots = max(g["root"].nunique(), 1)
        rows.append({"step": what.split(" (")[0], "wall_s": t[i + 1] - t[i], "gpu_s": gpu, "roots": n_roots})
    return pd.DataFrame(rows).assign(other_s=lambda d: d["wall_s"] - d["gpu_s"])


def projection(timing: pd.DataFrame, total_s: float) -> pd.DataFrame:
    """The measuring steps' seconds for REPS and WARMUP, two ways: only the GPU time grows with the run count
    (lower), or the whole step does (upper), or the GPU time and PER_RUN_S more per run (mid: each uvm run moves
    the lists back to the host first); the rest of the call (build, graphs, uvmfault, linkbw) as it was."""
    rest = total_s - timing["wall_s"].sum()
    base = 1 + 2 * timing["roots"]  # validation 4: WARMUP=1, REPS=2 per (mode, variant)
    rows = []
    for warmup in (1, 2):
        for reps in (2, 3, 4, 5, 7):
            scale = (warmup + reps * timing["roots"]) / base
            lo = rest + (timing["other_s"] + timing["gpu_s"] * scale).sum()
            hi = rest + (timing["wall_s"] * scale).sum()
            extra = (4 * (warmup + reps * timing["roots"] - base)).sum()  # runs more than validation 4's
            mid = lo + PER_RUN_S * extra
            rows.append({"warmup": warmup, "reps": reps, "call_s_lower": lo, "call_s_mid": mid, "call_s_upper": hi})
    return pd.DataFrame(rows)


def noise_model(cells: pd.DataFrame, pool: pd.DataFrame, rng) -> pd.DataFrame:
    """Rough, Gaussian in log: the floor's log-error variance less the noise of a median of 2 runs is
    the model's own; then the expected worst of 36 cells with the model's error and a median of N runs."""
    total = np.log(cells["predicted_ms_floor"] / cells["uvm_ms"]).var()
    devs = pool["dev"].to_numpy()
    noise2 = np.var([np.log(1 + rng.choice(devs, 2).mean()) for _ in range(20000)])
    model = max(total - noise2, 0.0)
    rows = []
    for reps in (2, 3, 5, 7):
        w = []
        for _ in range(DRAWS):
            x = 1 + rng.choice(devs, (len(cells), reps))
            e = np.exp(rng.normal(0, np.sqrt(model), len(cells))) / np.median(x, axis=1) - 1
            w.append(np.abs(e).max())
        rows.append({"reps": reps, "sd_total": np.sqrt(total), "sd_noise_median2": np.sqrt(noise2),
                     "sd_model": np.sqrt(model), "worst_p50": np.median(w), "worst_p90": np.quantile(w, 0.9),
                     "p_worst_over_25": np.mean(np.array(w) > 0.25)})  # fmt: skip
    return pd.DataFrame(rows)


def main():
    rng = np.random.default_rng(SEED)
    r4, r3 = call_runs(V4 / "session/uvm4"), call_runs(V3 / "session/uvm3")
    c4, c3 = pd.read_csv(V4 / "validation4_cells.csv"), pd.read_csv(V3 / "validation3_cells.csv")
    older = older_runs()
    pools = {"validation4": deviations(r4[r4["mode"] == "uvm"]), "validation3": deviations(r3[r3["mode"] == "uvm"])}
    for name, runs in older.items():
        pools[name] = deviations(runs, by=[c for c in ("cell_src", "date", *KEYS) if c in runs])
    spread = []
    for name, p in pools.items():
        half = p.groupby([c for c in ("cell_src", "date", *KEYS) if c in p])["raw"].apply(lambda d: d.abs().max())
        row = {"pool": name, "runs": len(p), "cells": len(half), "cell_dev_median": half.median()}
        row |= {"cell_dev_max": half.max(), "median_abs_dev": p["dev"].abs().median()}
        row |= {"p90_abs_dev": p["dev"].abs().quantile(0.9), "max_abs_dev": p["dev"].abs().max()}
        for reps, stat in ((2, "median"), (3, "median"), (5, "median"), (7, "median"), (5, "min")):
            pp = perfect_predictor(p, c4["algorithm"], reps, stat, rng)
            spread.append(row | {"reps": reps, "stat": stat} | pp)
    timing = call_timing(V4 / "session/uvm4", r4)
    total = float(re.search(r"done after (\d+) s", (V4 / "session/uvm4/call.log").read_text())[1])
    tables = {
        "by_run.csv": pd.concat(
            [
                judge_by_run(c4, r4, ("pageable", "floor")).assign(call="validation4"),
                judge_by_run(c3, r3, ("micro", "floor")).assign(call="validation3"),
            ]
        ),  # fmt: skip
        "perfect_predictor.csv": pd.DataFrame(spread),
        "position.csv": pd.concat([spread_by_position(r4, "validation4"), spread_by_position(r3, "validation3")]),
        "noise_model.csv": noise_model(c4, pools["validation4"], rng),
        "refit.csv": shape_refits(),
        "timing.csv": timing,
        "projection.csv": projection(timing, total),
    }
    pd.set_option("display.width", 250)
    pd.set_option("display.max_columns", 40)
    for name, t in tables.items():
        t.to_csv(OUT / name, index=False, float_format="%.4g")
        print(f"== {name}\n{t.round(3).to_string(index=False)}")
    print(json.dumps({"total_s": total, "draws": DRAWS, "seed": SEED}))


if __name__ == "__main__":
    main()
