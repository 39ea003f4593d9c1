"""Validation 6's one miss analysed in sample (issue 21; CPU only, archived files only): the worst cell against its
graph's other root and validations 4 and 5's uniform-graph BFS cells, every rule pooled over validations 4-6, the
warp shape refitted leave-one-call-out, and the worst a perfect predictor reaches at 7 and 9 runs with the runs
resampled in blocks. Writes the CSVs beside it and prints the tables.

    python archive/uvm-validation6-analysis-2026-11-27/explore.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from model.uvm_access_shape import fit_all, load_shapes, migration_ms  # noqa: E402
from model.uvm_session_fit import archived_cells  # noqa: E402

HERE = Path(__file__).resolve().parent
A = ROOT / "archive"
REG5 = json.loads((A / "uvm-validation5-analysis-2026-11-27/registered_params.json").read_text())
SHAPES = load_shapes(REG5)  # validation 6's registered shapes (validation 5's)
CALLS = {c: A / f"uvm-validation{c[1]}-h100-2026-11-27" for c in ("v3", "v4", "v5", "v6")}
JUDGED = ("v4", "v5", "v6")
RULES = ("pageable", "none", "floor")
SEED, DRAWS = 29, 2000
COUNTS = ["migrated_bytes", "fault_entries", "list_faults", "batches", "serviced_chunks"]
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 30)


def cells_of(call: str) -> pd.DataFrame:
    c = pd.read_csv(next(CALLS[call].glob("validation*_cells.csv")))
    kind = c["graph"].str.extract(r"^(kron|urand|rmat)")[0]
    return c.assign(call=call, kind=kind, mig6=migration_ms(c, SHAPES))


def stats(err: pd.Series) -> str:
    e = err.abs()
    return f"{e.median():.1%} / {e.max():.1%} (n {len(e)}, >25%: {(e > 0.25).sum()})"


def worst_cell(allc: pd.DataFrame) -> None:
    print("## (a) the worst cell beside the other uniform-graph BFS cells (validation 6's shapes for every call)")
    u = allc[(allc["kind"] == "urand") & (allc["algorithm"] == "bfs")].copy()
    u["implied_f"] = (u["uvm_ms"] - u["device_ms"]) / u["mig6"]
    u["min_f"] = (u["uvm_min_ms"] - u["device_ms"]) / u["mig6"]
    cols = ["call", "graph", "variant", "root", "uvm_ms", "uvm_min_ms", "uvm_max_ms", "device_ms", *COUNTS]
    cols += ["mig6", "implied_f", "min_f", "error_pageable", "error_floor"]
    u = u[cols].sort_values(["variant", "call", "root"])
    u.to_csv(HERE / "urand_bfs_cells.csv", index=False)
    print(u.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    runs = pd.read_csv(CALLS["v6"] / "validation6_runs.csv")
    r = runs[(runs["graph"] == "urand23s28") & (runs["algorithm"] == "bfs")]
    tab = r.pivot_table(index=["variant", "root"], columns="run", values="time_ms")
    print("\nvalidation 6's urand23s28 BFS runs in run order (ms):")
    print(tab.to_string(float_format=lambda v: f"{v:.1f}"))
    ma = r[r["variant"] == "merged-aligned"]
    pool = ma["time_ms"]
    print(
        f"both MA roots' 14 runs pooled: median {pool.median():.1f}, min {pool.min():.1f} ms; "
        f"the worst cell's prediction 105.8 ms is {105.8 / pool.median() - 1:+.1%} from the pooled median"
    )


def pooled(allc: pd.DataFrame) -> None:
    print("\n## (b) each rule over validations 4, 5, 6 (108 cells, 3 calls), median / worst |error|")
    rows = []
    for rule in RULES:
        e = allc[f"error_{rule}"]
        row = {"rule": rule, "pooled": stats(e)}
        for c in JUDGED:
            row[c] = stats(allc.loc[allc["call"] == c, f"error_{rule}"])
        rows.append(row)
    t = pd.DataFrame(rows)
    t.to_csv(HERE / "rules_pooled.csv", index=False)
    print(t.to_string(index=False))
    allc = allc.assign(abs_p=allc["error_pageable"].abs(), abs_fl=allc["error_floor"].abs())
    g = allc.groupby(["kind", "algorithm", "variant"])
    by = pd.DataFrame(
        {
            "cells": g.size(),
            "calls_over20_pageable": g.apply(lambda d: d.loc[d["abs_p"] > 0.2, "call"].nunique()),
            "over20_pageable": g["abs_p"].apply(lambda s: int((s > 0.2).sum())),
            "over20_floor": g["abs_fl"].apply(lambda s: int((s > 0.2).sum())),
            "median_signed_floor": g["error_floor"].median(),
            "median_abs_floor": g["abs_fl"].median(),
            "max_abs_floor": g["abs_fl"].max(),
            "median_spread": g["uvm_spread"].median(),
        }
    ).reset_index()
    by.to_csv(HERE / "by_group.csv", index=False)
    print(
        "\nby graph kind x algorithm x variant (24 groups: 6 cells for BFS and SSSP, 3 for CC and PageRank;"
        " floor = each call's own fitted f; spread from v5 and v6 only):"
    )
    print(by.to_string(index=False, float_format=lambda v: f"{v:+.3f}"))
    rep = by[by["calls_over20_pageable"] >= 2]
    print("\ngroups past 20% (pageable) in 2 or more calls:")
    print(rep.to_string(index=False, float_format=lambda v: f"{v:+.3f}"))
    for col, lab in (("variant", "variant"), ("kind", "graph kind"), ("algorithm", "algorithm")):
        s = allc.groupby(col)["error_floor"].agg(["median", lambda x: x.abs().median(), lambda x: x.abs().max()])
        s.columns = ["signed median", "|median|", "|max|"]
        print(f"\nfloor error by {lab} (pooled):\n{s.to_string(float_format=lambda v: f'{v:+.3f}')}")
    w = allc[(allc["variant"] == "merged-aligned") & (allc["algorithm"] == "bfs")]
    print("\nBFS merged-aligned floor error by kind and call (signed):")
    print(w.pivot_table(index="kind", columns="call", values="error_floor", aggfunc=list).to_string())


def loco(allc: pd.DataFrame) -> None:
    print("\n## (c) shapes refitted leave-one-call-out (registration's inputs + the other judged calls)")
    base = archived_cells(
        pd.read_csv(A / "uvm-sim-validation-2026-11-25/cells.csv"),
        pd.read_csv(A / "oom-h100-80gb-hbm3-2026-11-25-1207/oom.csv.gz"),
        pd.concat([pd.read_csv(f) for f in sorted((A / "uvm-sim-structure-2026-11-27").glob("counts_*.csv"))]),
    )
    mids = {s: v["pageable_mid"] for s, v in REG5["pageable_rule"]["sessions"].items()}
    mids["v6"] = json.loads((CALLS["v6"] / "validation6_factors.json").read_text())["pageable_gbps"]
    rows, shapes_out = [], {}
    for held in (None, *JUDGED):
        judged = [CALLS[c] for c in CALLS if c != held]
        fit = fit_all(base, A, judged)
        shapes = load_shapes(fit)
        shapes_out[held or "all"] = fit["shapes"]
        name = {CALLS[c].name: c for c in CALLS}
        fac = {name.get(s, s): f for s, f in fit["session_factors"].items()}
        both = [s for s in fac if s in mids]
        x = np.log(10.0 / np.array([mids[s] for s in both]))
        k, c = np.polyfit(x, np.log([fac[s] for s in both]), 1)
        for call in JUDGED if held is None else (held,):
            d = allc[allc["call"] == call]
            mig = migration_ms(d, shapes)
            extra = d["uvm_ms"] - d["device_ms"]
            floor = float(np.median(extra / mig))
            f_rule = float(np.exp(c + k * np.log(10.0 / mids[call])))
            for rule, f in (("floor", floor), ("pageable_mid_refit", f_rule), ("none", 1.0)):
                err = (d["device_ms"] + f * mig) / d["uvm_ms"] - 1
                i = err.abs().idxmax()
                rows.append(
                    {
                        "held_out": held or "nothing (all in fit)",
                        "judged": call,
                        "rule": rule,
                        "f": f,
                        "c": c,
                        "k": k,
                        "median": err.abs().median(),
                        "worst": err.abs().max(),
                        "worst_cell": " ".join(str(d.at[i, k]) for k in ("graph", "algorithm", "variant", "root")),
                        "urand_bfs_ma_7145700": float(
                            err[(d["root"] == 7145700) & (d["variant"] == "merged-aligned")].iloc[0]
                        )
                        if call == "v6"
                        else np.nan,
                    }
                )
    t = pd.DataFrame(rows)
    t.to_csv(HERE / "loco.csv", index=False)
    (HERE / "loco_shapes.json").write_text(json.dumps(shapes_out, indent=2) + "\n")
    print(t.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    for k, s in shapes_out.items():
        w = s["warp"]
        print(
            f"warp shape, {k} held out: {w['throughput_gbps']:.1f} GB/s, batch {w['batch_us']:.2f} us, "
            f"service {w['service_us']:.2f} us, fault {w['warp_fault_us']:.4f} us"
        )


def run_seqs(call: str) -> list[tuple[str, np.ndarray]]:
    """Per cell, its runs' log(time / the cell's median) in run order, with the cell's algorithm."""
    runs = pd.read_csv(next(CALLS[call].glob("validation*_runs.csv")))
    out = []
    for (_, alg, *_), d in runs.groupby(["graph", "algorithm", "variant", "root"]):
        t = d.sort_values("run")["time_ms"].to_numpy(float)
        out.append((alg, np.log(t / np.median(t))))
    return out


def step_seqs(call: str) -> list[tuple[str, np.ndarray]]:
    """Per (graph, algorithm, variant), the cold runs of all its roots in the call's time order (the session's run
    files list them so), each divided by its cell's floor prediction (which carries the roots' simulated
    difference), then by the median of that sequence: log deviations from the sequence's own level."""
    cells = pd.read_csv(next(CALLS[call].glob("validation*_cells.csv")))
    key = cells["root"].fillna(-1).astype(int)
    pred = cells.assign(root=key).set_index(["graph", "algorithm", "variant", "root"])["predicted_ms_floor"]
    out = []
    for f in sorted((CALLS[call] / "session" / f"uvm{call[1]}" / "runs").glob("*.csv")):
        s = pd.read_csv(f)
        s = s[s["mode"] == "uvm"]
        for (g, alg, var), d in s.groupby(["graph", "algorithm", "variant"], sort=False):
            x = d["time_ms"].to_numpy(float) / pred.loc[
                [(g, alg, var, r) for r in d["root"].fillna(-1).astype(int)]
            ].to_numpy(float)
            out.append((alg, np.log(x / np.median(x))))
    return out


def perfect(allc: pd.DataFrame) -> None:
    print("\n## (d) a perfect predictor's worst over 36 cells (validation 6's algorithm mix)")
    rng = np.random.default_rng(SEED)
    mix = allc.loc[allc["call"] == "v6", "algorithm"].to_numpy()
    rows = []
    for pool_call in ("v5", "v6"):
        cells, steps = run_seqs(pool_call), step_seqs(pool_call)
        for n in (5, 7, 9, 11):
            for model in ("independent", "block2", "block3", "windows"):
                pool = {}
                for a in set(mix):
                    if model == "independent":  # runs drawn one by one from the algorithm's cell-centred runs
                        pool[a] = np.concatenate([s for b, s in cells if b == a])
                    elif model.startswith("block"):  # blocks of L consecutive runs of the step sequences
                        L = int(model[-1])
                        pool[a] = [s[i : i + L] for b, s in steps if b == a for i in range(len(s) - L + 1)]
                    else:  # n consecutive runs of one step's time-ordered sequence, against its own level
                        seqs = [s for b, s in steps if b == a and len(s) >= n]
                        pool[a] = np.array([np.median(s[i : i + n]) for s in seqs for i in range(len(s) - n + 1)])
                if model == "windows" and min(len(v) for v in pool.values()) == 0:
                    continue
                worst = np.empty(DRAWS)
                for i in range(DRAWS):
                    w = 0.0
                    for a in mix:
                        p = pool[a]
                        if model == "independent":
                            m = np.median(rng.choice(p, n))
                        elif model == "windows":
                            m = p[rng.integers(len(p))]
                        else:
                            m = np.median(np.concatenate([p[j] for j in rng.integers(len(p), size=n)])[:n])
                        w = max(w, abs(np.exp(m) - 1))
                    worst[i] = w
                rows.append(
                    {
                        "pool": pool_call,
                        "runs": n,
                        "model": model,
                        "worst_p50": np.median(worst),
                        "worst_p90": np.quantile(worst, 0.9),
                        "p_over_25": float((worst > 0.25).mean()),
                        "p_over_20": float((worst > 0.20).mean()),
                    }
                )
    t = pd.DataFrame(rows)
    t.to_csv(HERE / "perfect_predictor_blocks.csv", index=False)
    print(t.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    wins = []
    for pool_call in ("v5", "v6"):
        for alg, s in step_seqs(pool_call):
            for n in (5, 7, 9):
                if len(s) >= n:
                    m = [np.exp(np.median(s[i : i + n])) - 1 for i in range(len(s) - n + 1)]
                    wins.append({"pool": pool_call, "algorithm": alg, "runs": n, "max_abs": max(map(abs, m))})
    w = pd.DataFrame(wins).groupby(["pool", "algorithm", "runs"])["max_abs"].agg(["count", "median", "max"])
    print("\nper step sequence, the largest |window median - sequence level| (count = sequences):")
    print(w.to_string(float_format=lambda v: f"{v:.3f}"))
    print("\ncold-noise call (one cell, kron23s27 BFS/CC MA, 16 runs in time order): medians of consecutive windows")
    s = pd.read_csv(A / "uvm-cold-noise-h100-2026-11-27/summary.csv")
    wrows = []
    for alg in ("bfs", "cc"):
        t16 = np.array([float(v) for x in s[alg] for v in x.split()])
        ref = np.median(t16)
        for n in (5, 7, 9):
            meds = [np.median(t16[i : i + n]) / ref - 1 for i in range(len(t16) - n + 1)]
            wrows.append({"alg": alg, "window": n, "windows": len(meds), "min": min(meds), "max": max(meds)})
    w = pd.DataFrame(wrows)
    w.to_csv(HERE / "cold_noise_windows.csv", index=False)
    print(w.to_string(index=False, float_format=lambda v: f"{v:+.3f}"))


def main() -> None:
    allc = pd.concat([cells_of(c) for c in JUDGED], ignore_index=True)
    worst_cell(allc)
    pooled(allc)
    loco(allc)
    perfect(allc)


if __name__ == "__main__":
    main()
