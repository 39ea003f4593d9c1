"""One device call that ran v12's held-out session part three times, as three separate processes per cell: how much
of the judged statistic's per-cell noise is process-level, how the call compares with the v12 call on the same
graphs, and v12's registered judgement (not refitted) of each pass, of the median over passes and of the min over
passes (issue 24; archive/holdout-v12-processes-h100-2026-11-28).

Inputs are model.holdout's own judgements (`holdout_cells.csv`, split v12) of each pass's combined session, with the
registered link (the train session's) and with the pass's own `parameters.json`, plus each pass's runs tables (for
the within-process split half). With the registered link a held-out cell's prediction does not depend on what the
call measured (the costs are fitted on the train graphs only), so a statistic over passes is judged against the
same prediction; with each pass's own link the prediction differs by pass, and a statistic over passes is judged
against the median of the passes' predictions.

    python -m model.process_repeat --judged J1 J2 J3 --own K1 K2 K3 --sessions S1 S2 S3 \
        --v12 archive/holdout-v12-h100-2026-11-28 --out-dir DIR
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from model import noise_floor as nf
from model.holdout import CELL, read_runs, summary
from model.holdout_passes import over_passes

GROUP = nf.GROUP
PASSES = ("p1", "p2", "p3")
PAIRS = (("p1", "p2"), ("p1", "p3"), ("p2", "p3"))
STATS = ("p1", "p2", "p3", "median3", "min3")


def held_out(path) -> pd.DataFrame:
    t = pd.read_csv(path)
    return t[t["split"] != "train"].reset_index(drop=True)


def cell_table(judged, own, v12_cells, v12_own) -> pd.DataFrame:
    """Per held-out cell: each pass's measured (m_p1..), the registered prediction (equal over passes: checked),
    each pass's own-link prediction (q_p1..), the v12 call's measured and its own-link prediction."""
    base = held_out(v12_cells)[[*CELL, "measured_ms", "predicted_ms"]].rename(
        columns={"measured_ms": "m_v12", "predicted_ms": "predicted_ms"}
    )
    base = base.merge(held_out(v12_own)[[*CELL, "predicted_ms"]].rename(columns={"predicted_ms": "q_v12"}), on=CELL)
    for name, j, k in zip(PASSES, judged, own, strict=True):
        t = held_out(Path(j) / "holdout_cells.csv")[[*CELL, "measured_ms", "predicted_ms"]]
        t = t.rename(columns={"measured_ms": f"m_{name}", "predicted_ms": f"r_{name}"})
        u = held_out(Path(k) / "holdout_cells.csv")[[*CELL, "predicted_ms"]].rename(
            columns={"predicted_ms": f"q_{name}"}
        )
        base = base.merge(t, on=CELL, how="outer").merge(u, on=CELL, how="outer")
    if base.isna().any().any() or len(base) != len(held_out(v12_cells)):
        raise ValueError("the passes and the v12 call do not judge the same held-out cells")
    for name in PASSES:  # the registered prediction must not depend on the pass
        if not np.allclose(base[f"r_{name}"], base["predicted_ms"], rtol=1e-12, atol=0):
            raise ValueError(f"{name}: registered prediction differs from the v12 call's")
    base = base.drop(columns=[f"r_{n}" for n in PASSES])
    m = base[[f"m_{n}" for n in PASSES]]
    stat = over_passes(m)  # model.holdout_passes's statistic: the median over passes of each pass's min
    base["m_median3"], base["m_min3"] = stat["median"], m.min(axis=1)
    base["q_median3"] = base["q_min3"] = over_passes(base[[f"q_{n}" for n in PASSES]])["median"]
    base["process_range"] = stat["process_range"]
    return base


def _q(s, q):
    return float(np.nanquantile(s, q)) if len(s) else np.nan


def _by(table, fn, extra=()):
    rows = []
    for key, t in table.groupby(GROUP):
        rows.append(dict(zip(GROUP, key, strict=True), **fn(t)))
    for mode, t in table.groupby("mode"):
        rows.append({"algorithm": "all", "variant": "all", "mode": mode, **fn(t)})
    rows.append({"algorithm": "all", "variant": "all", "mode": "all", **fn(table)})
    return pd.DataFrame(rows)


def process_pairs(cells: pd.DataFrame) -> pd.DataFrame:
    """Every cell's three pass pairs: log ratio (later pass over earlier), the pass pair's median per mode (the
    process-level shift within the call) and the residual."""
    out = []
    for a, b in PAIRS:
        out.append(cells[[*CELL]].assign(pair=f"{a}-{b}", log=np.log(cells[f"m_{b}"] / cells[f"m_{a}"])))
    p = pd.concat(out, ignore_index=True)
    p["shift"] = p.groupby(["pair", "mode"])["log"].transform("median")
    p["resid"] = p["log"] - p["shift"]
    return p


def split_halves(sessions) -> pd.DataFrame:
    """Per pass and cell the within-process split half (min of the even reps over the min of the odd), as
    model.noise_floor.cells computes it, from each pass's runs tables."""
    frames = []
    for name, s in zip(PASSES, sessions, strict=True):
        runs = read_runs(s)
        ok = runs["verified"].astype(str).str.lower().isin(["true", "1"]) & (runs["max_warps"].fillna(0) == 0)
        runs = runs[ok].assign(root=runs["root"].fillna(-1).astype(int), checksum="", call=name)
        frames.append(nf.cells(runs))
    c = pd.concat(frames, ignore_index=True)
    return c.assign(log=np.log(c["half_ratio"]))


def _var(x):  # a robust variance (MAD-based) beside the plain one: a few slow processes must not set it alone
    x = np.asarray(x, float)
    return float(np.var(x, ddof=1)), float((1.4826 * np.median(np.abs(x - np.median(x)))) ** 2)


def call_pairs(cells: pd.DataFrame) -> pd.DataFrame:
    """Every cell's pass over the v12 call (two calls, each its own process): log ratio, the per pass and mode median
    (the calls' shift) and the residual."""
    p = pd.concat([cells[[*CELL]].assign(pair=f"v12-{n}", log=np.log(cells[f"m_{n}"] / cells["m_v12"]))
                   for n in PASSES], ignore_index=True)  # fmt: skip
    p["shift"] = p.groupby(["pair", "mode"])["log"].transform("median")
    p["resid"] = p["log"] - p["shift"]
    return p


def _sel(t, key):
    ok = (t["mode"] == key[2]) & ((t["algorithm"] == key[0]) | (key[0] == "all"))
    return t[ok & ((t["variant"] == key[1]) | (key[1] == "all"))]


def spread(cells, pp, halves, between_pool, cp) -> pd.DataFrame:
    """Per group: the process pairs' |ratio − 1| (whole and less the pass pair's shift), the per-cell range over the
    3 processes, the same cells' within-process split half, and the process share s of the per-cell residual
    variance between calls: s against model.noise_floor's pool (between_pool: other graphs, rounds calls) and
    s_same against the same cells' pass-over-v12-call pairs (cp); each a pair's variance over a pair's variance,
    clipped at 1 (plain variance; _mad: a robust one)."""
    rows = []
    for key, t in [*pp.groupby(GROUP), *[(("all", "all", m), g) for m, g in pp.groupby("mode")]]:
        h, c = _sel(halves, key)["log"], _sel(cells, key)
        vp, vp_r = _var(t["resid"])
        vb, vb_r = _var(_sel(between_pool, key)["resid"])
        vc, vc_r = _var(_sel(cp, key)["resid"])
        d, r = np.expm1(t["log"].abs()), np.expm1(t["resid"].abs())
        rows.append(dict(zip(GROUP, key, strict=True), cells=len(c), proc_abs_p50=_q(d, .5),
                         proc_abs_p90=_q(d, .9), proc_abs_max=float(d.max()), proc_resid_p50=_q(r, .5),
                         proc_resid_p90=_q(r, .9), proc_resid_max=float(r.max()),
                         range_p50=_q(c["process_range"], .5), range_p90=_q(c["process_range"], .9),
                         range_max=float(c["process_range"].max()),
                         half_abs_p50=_q(np.expm1(h.abs()), .5), half_abs_p90=_q(np.expm1(h.abs()), .9),
                         var_process=vp / 2, var_process_mad=vp_r / 2, var_call=vb / 2, var_call_mad=vb_r / 2,
                         var_same=vc / 2, s=min(1.0, vp / vb), s_mad=min(1.0, vp_r / vb_r),
                         s_same=min(1.0, vp / vc), s_same_mad=min(1.0, vp_r / vc_r)))  # fmt: skip
    return pd.DataFrame(rows)


def between_calls(cells) -> pd.DataFrame:
    """This call's cells over the v12 call's (same graphs, same kernels): per pass and for the median over passes,
    the per-mode shift and |ratio − 1| whole and less the shift."""
    rows = []
    for stat in (*PASSES, "median3"):
        x = cells.assign(log=np.log(cells[f"m_{stat}"] / cells["m_v12"]))
        x["shift"] = x.groupby("mode")["log"].transform("median")
        x["resid"] = x["log"] - x["shift"]

        def fn(t):
            d, r = np.expm1(t["log"].abs()), np.expm1(t["resid"].abs())
            return {"cells": len(t), "signed_p50": float(np.expm1(t["log"].median())), "abs_p50": _q(d, .5),
                    "abs_p90": _q(d, .9), "abs_max": float(d.max()), "resid_p50": _q(r, .5),
                    "resid_p90": _q(r, .9), "resid_max": float(r.max())}  # fmt: skip

        rows.append(_by(x, fn).assign(statistic=stat))
    return pd.concat(rows, ignore_index=True)


def judgements(cells) -> tuple[pd.DataFrame, pd.DataFrame]:
    """v12's registered judgement of each statistic (registered link; and each pass's own link, secondary), with
    the v12 call's archived judgement beside; and every cell's errors."""
    errs, rows = cells[[*CELL]].copy(), []
    stats = [("v12 call", "m_v12", "predicted_ms", "q_v12")]
    stats += [(s, f"m_{s}", "predicted_ms", f"q_{s}") for s in STATS]
    for name, m, r, q in stats:
        for link, pred in (("registered", r), ("own", q)):
            e = cells[pred] / cells[m] - 1
            errs[f"{name}|{link}"] = e
            t = cells[[*CELL]].assign(split="held-out", error=e)
            rows.append(summary(t).assign(statistic=name, link=link))
    s = pd.concat(rows, ignore_index=True)
    s = s[s["mode"] == "all"].drop(columns=["split", "mode", "target_median", "target_worst"])
    s["past_15"] = [int((errs[f"{r.statistic}|{r.link}"].abs()[(errs["algorithm"] == r.algorithm) |
                         (r.algorithm == "all")] > 0.15).sum()) for r in s.itertuples()]  # fmt: skip
    return s.reset_index(drop=True), errs


def classify(errs) -> pd.DataFrame:
    """Every cell past 15% in any judgement (registered link), by its error in the four measurements (the v12 call
    and the three passes): model error where all four are past 15% with one sign; a model error near 15% that noise
    carries past it where all four have one sign and are past 10%; else noise."""
    cols = ["v12 call|registered", *[f"{p}|registered" for p in PASSES]]
    hit = (errs[[c for c in errs.columns if c.endswith("|registered")]].abs() > 0.15).any(axis=1)
    out = errs[hit][[*CELL, *cols, "median3|registered", "min3|registered"]].copy()
    e = out[cols]
    one_sign = np.sign(e).nunique(axis=1) == 1
    out["verdict"] = np.select(
        [one_sign & (e.abs() > 0.15).all(axis=1), one_sign & (e.abs() > 0.10).all(axis=1)],
        ["model error", "model error near 15%, noise carries it past"],
        "noise",
    )
    return out.reset_index(drop=True)


def perfect_median3(p, comp, share, k=3, stat="median", sims=10000, seed=0) -> pd.DataFrame:
    """model.noise_floor's primary perfect-predictor scenario (the archive's noise3.py) with each group's process
    share `share[(algorithm, variant, mode)]` of the per-cell residual variance drawn k times and summarised by
    `stat` (median; min, centred on its mean over the draws: a perfect predictor knows the statistic's level),
    1 − share once, and one call shift per set common to every process."""
    rng = np.random.default_rng(seed)
    pools = {key: t["resid"].to_numpy() / np.sqrt(2) for key, t in p.groupby(GROUP)}
    shifts = p.groupby(["call_a", "call_b", "mode"])["shift"].first().unstack("mode")
    common = shifts.iloc[rng.integers(0, len(shifts), sims)].to_numpy() / np.sqrt(2)
    signs = rng.choice([-1, 1], sims)
    rows = []
    for alg, c_alg in comp.groupby("algorithm"):
        errs = []
        for _, c in c_alg.iterrows():
            key = (c["algorithm"], c["variant"], c["mode"])
            pool, n, s = pools[key], int(c["cells"]), float(np.clip(share[key], 0, 1))

            def draw(m, pool=pool, n=n):
                return pool[rng.integers(0, len(pool), (sims, n, m))] * rng.choice([-1, 1], (sims, n, m))

            many = draw(k)
            y = np.median(many, axis=2) if stat == "median" else many.min(axis=2)
            y = y - y.mean() if stat == "min" else y
            x = np.sqrt(1 - s) * draw(1)[..., 0] + np.sqrt(s) * y
            x = x + (signs * common[:, list(shifts.columns).index(c["mode"])])[:, None]
            errs.append(np.abs(np.expm1(x)))
            rows.append(nf._row(alg, c["variant"], c["mode"], errs[-1], 2**-0.5, "resid", True, "") | {"s": s})
        rows.append(nf._row(alg, "all", "all", np.hstack(errs), 2**-0.5, "resid", True, ""))
    return pd.DataFrame(rows).assign(processes=k, statistic=stat)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--judged", nargs=3, required=True, help="the three passes' judgements (registered link)")
    ap.add_argument("--own", nargs=3, required=True, help="the three passes' judgements with their own link")
    ap.add_argument("--sessions", nargs=3, required=True, help="the three passes' session folders (runs/)")
    ap.add_argument("--v12", default="archive/holdout-v12-h100-2026-11-28")
    ap.add_argument("--archive", default="archive")
    ap.add_argument("--sims", type=int, default=10000)
    ap.add_argument("--out-dir", required=True)
    a = ap.parse_args(argv)
    out = Path(a.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    cells = cell_table(a.judged, a.own, Path(a.v12, "holdout_cells.csv"),
                       Path(a.v12, "judged_call_link", "holdout_cells.csv"))  # fmt: skip
    pp, halves = process_pairs(cells), split_halves(a.sessions)
    table = nf.cells(nf.read_runs(a.archive))
    same = table[table["call"].isin(nf.ROUNDS_CALLS)]
    pool = nf.pairs(same[~same["graph"].str.endswith("17")], nf.ROUNDS_CALLS)  # noise_floor's primary pool
    sp = spread(cells, pp, halves, pool, call_pairs(cells))
    s, errs = judgements(cells)
    share = {tuple(r[g] for g in GROUP): r["s"] for _, r in sp.iterrows() if r["algorithm"] != "all"}
    by_mode = sp[sp["algorithm"] == "all"].set_index("mode")["s_same"]  # the same cells' s, one per mode
    same = {k: by_mode[k[2]] for k in share}
    comp = nf.composition_of(Path(a.v12, "holdout_cells.csv"))
    perfect = [perfect_median3(pool, comp, {k: 0.0 for k in share}, 1, "median", a.sims).assign(design="one process")]
    perfect += [perfect_median3(pool, comp, share, 3, st, a.sims).assign(design=f"{st} of 3, measured s")
                for st in ("median", "min")]  # fmt: skip
    perfect += [perfect_median3(pool, comp, same, 3, "median", a.sims).assign(design="median of 3, same-cell s")]
    perfect += [
        perfect_median3(pool, comp, {k: 1.0 for k in share}, 3, "median", a.sims).assign(design="median of 3, s=1")
    ]
    cells.to_csv(out / "cells.csv", index=False, float_format="%.6g")
    sp.to_csv(out / "process_spread.csv", index=False, float_format="%.4f")
    between_calls(cells).to_csv(out / "between_call.csv", index=False, float_format="%.4f")
    s.to_csv(out / "judgements.csv", index=False, float_format="%.4f")
    classify(errs).to_csv(out / "past15.csv", index=False, float_format="%.4f")
    pd.concat(perfect, ignore_index=True).to_csv(out / "perfect.csv", index=False, float_format="%.4f")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
