"""Validation 5's miss analysed in sample (issue 21; CPU only, archived files only): which per-session measure
predicts a session's floor factor leave-one-session-out, the cold runs' spread by run index, time and algorithm,
and the worst a perfect shape with the best rule would reach at 5 runs. Writes the CSVs and JSON beside it.

    python archive/uvm-validation5-analysis-2026-11-27/explore.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from model import uvm_run_spread  # noqa: E402
from model.uvm_access_shape import load_shapes, migration_ms  # noqa: E402
from model.uvm_session_fit import PAGEABLE_SIZES, pageable_gbps  # noqa: E402
from model.uvm_validation4 import call_micro, instance_factors  # noqa: E402
from model.uvm_warp_faults import KEYS  # noqa: E402

HERE = Path(__file__).resolve().parent
A = ROOT / "archive"
REG = json.loads((A / "uvm-validation5-registration-2026-11-27/registered_params.json").read_text())
SHAPES = load_shapes(REG)
STUDY = [f"h100-80gb-hbm3-2026-11-21-{t}" for t in ("0121", "0328", "0336", "0419", "0455", "0732")]
CALLS = {  # judged call -> (folder, session folder)
    "v3": ("uvm-validation3-h100-2026-11-27", "session/uvm3"),
    "v4": ("uvm-validation4-h100-2026-11-27", "session/uvm4"),
    "v5": ("uvm-validation5-h100-2026-11-27", "session/uvm5"),
}
P_REF = 10.0
SEED, DRAWS = 28, 4000


def pinned_gbps(link: pd.DataFrame) -> float:
    rows = link[(link["direction"] == "h2d") & (link["host_memory"] == "pinned")]
    return float(rows[rows["size_bytes"].isin(PAGEABLE_SIZES)]["gbps"].median())


def judged_cells(call: str) -> pd.DataFrame:
    folder = A / CALLS[call][0]
    cells = pd.read_csv(next(folder.glob("validation*_cells.csv")))
    return cells.assign(mig=migration_ms(cells, SHAPES))


def floor_of(cells: pd.DataFrame) -> float:
    return float(np.median((cells["uvm_ms"] - cells["device_ms"]) / cells["mig"]))


def sessions() -> pd.DataFrame:
    """Per session: its floor factor under validation 5's registered shapes and each measure (NaN where absent)."""
    rows = []
    for s in STUDY:
        link = pd.read_csv(A / s / "link.csv.gz")
        p = pageable_gbps(link)
        rows.append(
            {"session": s, "floor": REG["session_factors"][s], "floor_from": "registered fit's session factor",
             "pageable_start": p, "pageable_mid": p, "pinned": pinned_gbps(link)}
        )  # fmt: skip
    for call, (folder, sess) in CALLS.items():
        d = A / folder / sess
        link = pd.read_csv(d / "micro/link.csv")
        start = pageable_gbps(link)
        end = pageable_gbps(pd.read_csv(d / "micro/link_end.csv")) if (d / "micro/link_end.csv").exists() else start
        inst = instance_factors(call_micro(d), SHAPES).drop_duplicates("when").set_index("when")["factor"]
        u_end = inst.get("end", np.nan)
        rows.append(
            {"session": call, "floor": floor_of(judged_cells(call)), "floor_from": "median over its judged cells",
             "pageable_start": start, "pageable_end": end, "pageable_mid": float(np.median([start, end])),
             "pinned": pinned_gbps(link), "uvmfault_start": float(inst["start"]), "uvmfault_end": float(u_end),
             "uvmfault_mid": float(np.median([inst["start"], u_end]))}
        )  # fmt: skip
    return pd.DataFrame(rows)


def loso(tab: pd.DataFrame) -> pd.DataFrame:
    """Each rule's prediction of each session's floor with that session left out."""
    out = []
    for i, row in tab.iterrows():
        rest = tab.drop(index=i)
        pred = {"none": 1.0, "constant": float(rest["floor"].median())}
        for m in ("pageable_start", "pageable_mid", "pinned"):
            r = rest.dropna(subset=[m])
            k, c = np.polyfit(np.log(P_REF / r[m]), np.log(r["floor"]), 1)
            pred[m] = float(np.exp(c + k * np.log(P_REF / row[m])))
        for m in ("uvmfault_start", "uvmfault_mid"):
            pred[m] = row[m]  # uvmfault's factor is f itself (validation 4's micro rules): nothing fitted
        for rule, f in pred.items():
            out.append({"session": row["session"], "rule": rule, "floor": row["floor"], "f": f})
    d = pd.DataFrame(out).dropna(subset=["f"])
    return d.assign(f_error=d["f"] / d["floor"] - 1)


def judge_with(cells: pd.DataFrame, f: float) -> tuple[float, float]:
    e = ((cells["device_ms"] + f * cells["mig"]) / cells["uvm_ms"] - 1).abs()
    return float(e.median()), float(e.max())


def rule_table(per: pd.DataFrame) -> pd.DataFrame:
    cells = {c: judged_cells(c) for c in CALLS}
    rows = []
    for rule, d in per.groupby("rule", sort=False):
        e = d["f_error"].abs()
        calls = d[d["session"].isin(CALLS)]
        row = {"rule": rule, "sessions": len(d), "f_error_median": e.median(), "f_error_max": e.max()}
        row |= {
            "f_error_median_calls": calls["f_error"].abs().median(),
            "f_error_max_calls": calls["f_error"].abs().max(),
        }
        for c in CALLS:
            hit = d[d["session"] == c]
            if hit.empty:
                continue
            f = float(hit["f"].iloc[0])
            row[f"{c}_f"], (row[f"{c}_median"], row[f"{c}_worst"]) = f, judge_with(cells[c], f)
        rows.append(row)
    floor = {"rule": "floor (fitted on the judged cells; not a prediction)"}
    for c in CALLS:
        f = floor_of(cells[c])
        floor[f"{c}_f"], (floor[f"{c}_median"], floor[f"{c}_worst"]) = f, judge_with(cells[c], f)
    return pd.concat([pd.DataFrame(rows), pd.DataFrame([floor])], ignore_index=True)


def call_runs(call: str) -> pd.DataFrame:
    folder, sess = CALLS[call]
    files = sorted((A / folder / sess / "runs").glob("*.csv"))
    return pd.concat([pd.read_csv(f).assign(row=np.arange(len(pd.read_csv(f)))) for f in files], ignore_index=True)


def run_order(runs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """v5's cold runs: each run's ratio to its cell's median, by run index, by position in the call, by algorithm
    and variant; device mode beside as control."""
    r = runs.assign(root=runs["root"].fillna(-1).astype(int))
    r = r.assign(ratio=r["time_ms"] / r.groupby([*KEYS, "mode"])["time_ms"].transform("median"))
    r = r.assign(t=pd.to_datetime(r["date"]))
    r["step_order"] = r["t"].rank(method="dense").astype(int)
    g = r.groupby([*KEYS, "mode"])["time_ms"]
    r["slowest"] = r["time_ms"] == g.transform("max")
    r["fastest"] = r["time_ms"] == g.transform("min")
    by_rep = (
        r.groupby(["mode", "rep"])
        .agg(runs=("ratio", "size"), ratio_median=("ratio", "median"), ratio_mean=("ratio", "mean"),
             ratio_p90=("ratio", lambda x: x.quantile(0.9)), over_1_2=("ratio", lambda x: int((x > 1.2).sum())),
             slowest=("slowest", "sum"), fastest=("fastest", "sum"))
        .reset_index()
    )  # fmt: skip
    by_step = (
        r[r["mode"] == "uvm"]
        .groupby(["step_order", "date", "graph", "algorithm"])
        .agg(runs=("ratio", "size"), ratio_median=("ratio", "median"), ratio_max=("ratio", "max"))
        .reset_index()
    )
    sp = uvm_run_spread.cell_spread(runs)
    by_kind = (
        sp.groupby(["algorithm", "variant"])
        .agg(cells=("uvm_spread", "size"), spread_median=("uvm_spread", "median"), spread_max=("uvm_spread", "max"),
             over_20=("uvm_spread", lambda x: int((x > 0.2).sum())))
        .reset_index()
    )  # fmt: skip
    return r, by_rep, pd.concat([by_kind, by_step], keys=["kind", "step"]).reset_index(level=0, names="table")


def trend(r: pd.DataFrame) -> dict:
    """Rank correlations of the cold runs' log ratio with run index and with the step's time in the call."""
    u = r[r["mode"] == "uvm"]
    lr = np.log(u["ratio"])
    sec = (u["t"] - u["t"].min()).dt.total_seconds()
    slope = np.polyfit(u["rep"], lr, 1)[0]
    return {
        "uvm_runs": len(u),
        "spearman_rep": float(pd.Series(lr.to_numpy()).corr(pd.Series(u["rep"].to_numpy()), method="spearman")),
        "log_ratio_slope_per_rep": float(slope),
        "spearman_step_time": float(pd.Series(lr.to_numpy()).corr(pd.Series(sec.to_numpy()), method="spearman")),
        "abs_log_ratio_spearman_step_time": float(
            pd.Series(lr.abs().to_numpy()).corr(pd.Series(sec.to_numpy()), method="spearman")
        ),
    }


def perfect_with_rule(runs: pd.DataFrame, cells: pd.DataFrame, f_errors: np.ndarray, reps: int = 5) -> dict:
    """Worst |error| over validation 5's 36 cells of a predictor with exact shapes whose session factor is off by
    a relative error drawn from the rule's LOSO errors (one per draw, on the migration share of each cell), judged
    against the median of `reps` runs drawn from the call's own per-algorithm deviations."""
    pool = uvm_run_spread.deviations(runs)
    by_alg = {a: p["dev"].to_numpy() for a, p in pool.groupby("algorithm")}
    rng = np.random.default_rng(SEED)
    share = (cells["floor_f"] * cells["mig"] / (cells["device_ms"] + cells["floor_f"] * cells["mig"])).to_numpy()
    noise = np.stack([np.median(1 + rng.choice(by_alg[a], (DRAWS, reps)), axis=1) for a in cells["algorithm"]], axis=1)
    fe = rng.choice(f_errors, DRAWS)[:, None]
    worst = np.abs((1 + share[None, :] * fe) / noise - 1).max(axis=1)
    med = np.median(np.abs((1 + share[None, :] * fe) / noise - 1), axis=1)
    return {"median_of_median": float(np.median(med)), "worst_p50": float(np.median(worst)),
            "worst_p90": float(np.quantile(worst, 0.9)), "p_worst_over_25": float((worst > 0.25).mean())}  # fmt: skip


def main() -> None:
    tab = sessions()
    per = loso(tab)
    rules = rule_table(per)
    tab.to_csv(HERE / "sessions.csv", index=False)
    per.to_csv(HERE / "loso.csv", index=False)
    rules.to_csv(HERE / "rules.csv", index=False)

    runs5 = call_runs("v5")
    r, by_rep, kinds = run_order(runs5)
    by_rep.to_csv(HERE / "run_index.csv", index=False)
    kinds.to_csv(HERE / "spread_by_kind_and_step.csv", index=False)
    t = trend(r)

    c5 = judged_cells("v5")
    c5 = c5.assign(floor_f=floor_of(c5))
    pp = []
    for reps in (5, 7):
        for call in CALLS:
            runs = call_runs(call)
            row = uvm_run_spread.perfect_predictor(runs, c5["algorithm"], reps, seed=SEED).iloc[0].to_dict()
            pp.append({"pool": call, "rule": "perfect (exact f)", **row})
        for rule in rules.dropna(subset=["f_error_median"])["rule"]:
            errs = per.loc[per["rule"] == rule, "f_error"].to_numpy()
            pp.append({"pool": "v5", "rule": rule, "reps": reps, **perfect_with_rule(runs5, c5, errs, reps)})
    pd.DataFrame(pp).to_csv(HERE / "perfect_predictor.csv", index=False)
    (HERE / "trend.json").write_text(json.dumps(t, indent=2) + "\n")
    k, c = np.polyfit(np.log(P_REF / tab["pageable_mid"]), np.log(tab["floor"]), 1)
    rule = {"measure": "pageable_mid", "c": float(c), "k": float(k), "p_ref_gbps": P_REF, "sessions": len(tab)}
    (HERE / "pageable_mid_rule.json").write_text(json.dumps(rule, indent=2) + "\n")
    # validation 6's registered input: validation 5's shapes unchanged, this rule (docs/model.md, validation 6)
    reg = {
        "shapes": REG["shapes"],
        "pageable_rule": {k: rule[k] for k in ("c", "k", "p_ref_gbps")}
        | {
            "measure": "median of the call's pageable h2d copies (256 MiB, 1 GiB) at its start and at its end",
            "sessions": tab.set_index("session")[["floor", "pageable_mid"]].to_dict("index"),
        },
    }
    (HERE / "registered_params.json").write_text(json.dumps(reg, indent=2) + "\n")
    print(json.dumps(rule))
    with pd.option_context("display.width", 250, "display.max_columns", 30, "display.precision", 3):
        print(tab.to_string(index=False))
        print(rules.to_string(index=False))
        print(by_rep.to_string(index=False))
        print(kinds.to_string(index=False))
        print(json.dumps(t, indent=2))
        print(
            pd.DataFrame(pp)[["pool", "rule", "reps", "median_of_median", "worst_p50", "worst_p90", "p_worst_over_25"]]
        )


if __name__ == "__main__":
    main()
