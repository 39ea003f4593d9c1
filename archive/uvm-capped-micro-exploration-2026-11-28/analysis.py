"""Does the call's own uvmfault microbenchmark track the call-level shift of uvm-capped times (in sample, CPU only)?

    python archive/uvm-capped-micro-exploration-2026-11-28/analysis.py > .../analysis_output.txt

Seven archived capped calls with uvmfault at their start and end (capped validations 3, 4, 5 and 5's repeat on the
H100; the graph check, capped validation 6 and the check's repeat on three H200 machines). Each candidate predicts a
capped cell as device + tail + g x (a x migration + b x evicted chunks), g from the call's uvmfault (thread, 256 B
lists: microseconds per touched 64 KiB block) or g = 1, a and b fitted by least absolute relative deviation on six
calls and judged on the seventh (leave one call out); in the *_beta candidates g = uvmfault ** beta, beta too
fitted on the six calls (a grid of 0 to 1). Writes calls.csv, loco.csv and loco_summary.csv here.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import linprog

HERE = Path(__file__).resolve().parent
A = HERE.parent
TMP = Path(tempfile.mkdtemp())
# call -> (archive folder, cells table, micro folder or the tarball holding it)
CALLS = {
    "H100 capped 3": ("uvm-capped-validation3-h100-2026-11-27", "capped_validation3", "session/uvmc3/micro"),
    "H100 capped 4": ("uvm-capped-validation4-h100-2026-11-28", "capped_validation4", "session/uvmc4/micro"),
    "H100 capped 5": ("uvm-capped-validation5-h100-2026-11-28", "capped_validation5", "session/uvmc5/micro"),
    "H100 repeat 5": ("uvm-capped-repeat5-h100-2026-11-28", "capped_validation5", "session/uvmc5/micro"),
    "H200 check (90095fd6)": ("uvm-capped-graph-check-h200-2026-11-28", "capped_graph_check", "session/uvmcg.tgz"),
    "H200 capped 6 (87e15e7e)": ("uvm-capped-validation6-h200-2026-11-28", "capped_validation6", "session/uvmc6/micro"),
    "H200 repeat (83ff46d1)": (
        "uvm-capped-graph-check-repeat-h200-2026-11-28",
        "capped_graph_check",
        "session/uvmcg.tgz",
    ),  # fmt: skip
}
MICRO = {"none": None, "start": ["start"], "end": ["end"], "mean": ["start", "end"],
         "end_beta": ["end"], "mean_beta": ["start", "end"]}  # fmt: skip
BETAS = np.round(np.arange(0.0, 1.01, 0.05), 2)  # the *_beta candidates: g = u ** beta, beta fitted on the six calls


def micro_dir(folder: Path, where: str) -> Path:
    if not where.endswith(".tgz"):
        return folder / where
    out = TMP / folder.name
    out.mkdir()
    subprocess.run(["tar", "xzf", str(folder / where), "-C", str(out)], check=True)
    return out / "uvmcg" / "micro"


def thread_256(micro: Path, when: str) -> float:
    u = pd.read_csv(micro / f"uvmfault_{when}.csv")
    return float(u[(u["access"] == "thread") & (u["list_bytes"] == 256)]["us_per_touched_block"].median())


def load() -> tuple[pd.DataFrame, pd.DataFrame]:
    cells, calls = [], []
    for call, (name, table, where) in CALLS.items():
        folder = A / name
        c = pd.read_csv(folder / f"{table}_cells.csv").assign(call=call)
        micro = micro_dir(folder, where)
        u = {w: thread_256(micro, w) for w in ("start", "end")}
        calls.append({"call": call, "cells": len(c), "uvmfault_start_us": u["start"], "uvmfault_end_us": u["end"]})
        keep = ["call", "graph", "algorithm", "variant", "capped_ms", "device_ms", "tail_ms",
                "simulated_migration_ms", "evicted_chunks"]  # fmt: skip
        cells.append(c[keep].assign(u_start=u["start"], u_end=u["end"]))
    return pd.concat(cells, ignore_index=True), pd.DataFrame(calls)


def g_of(c: pd.DataFrame, micro, beta: float = 1.0) -> np.ndarray:
    return np.ones(len(c)) if micro is None else c[[f"u_{w}" for w in micro]].mean(axis=1).to_numpy() ** beta


def lad(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """min sum |w (x c - y)| over c >= 0."""
    n, k = x.shape
    cost = np.concatenate([np.zeros(k), np.ones(n)])
    a_ub = np.block([[w[:, None] * x, -np.eye(n)], [-w[:, None] * x, -np.eye(n)]])
    b_ub = np.concatenate([w * y, -w * y])
    res = linprog(cost, A_ub=a_ub, b_ub=b_ub, bounds=[(0, None)] * (k + n), method="highs")
    return res.x[:k]


def predict(c: pd.DataFrame, coef: np.ndarray, micro, beta: float = 1.0) -> np.ndarray:
    g = g_of(c, micro, beta)
    return c["device_ms"] + c["tail_ms"] + g * (coef[0] * c["simulated_migration_ms"] + coef[1] * c["evicted_chunks"])


def fit(c: pd.DataFrame, micro, beta: float = 1.0) -> np.ndarray:
    g = g_of(c, micro, beta)
    x = np.column_stack([g * c["simulated_migration_ms"], g * c["evicted_chunks"]])
    y = (c["capped_ms"] - c["device_ms"] - c["tail_ms"]).to_numpy()
    return lad(x, y, 1 / c["capped_ms"].to_numpy())


def fit_beta(c: pd.DataFrame, micro) -> tuple[np.ndarray, float]:
    """a, b and the exponent beta with the least training deviation (sum of |relative error|)."""
    best = None
    for beta in BETAS:
        coef = fit(c, micro, beta)
        loss = float((predict(c, coef, micro, beta) / c["capped_ms"] - 1).abs().sum())
        if best is None or loss < best[0]:
            best = (loss, coef, float(beta))
    return best[1], best[2]


def main() -> None:
    cells, calls = load()
    rows = []
    for micro_name, micro in MICRO.items():
        for held in CALLS:
            train, test = cells[cells["call"] != held], cells[cells["call"] == held]
            coef, beta = fit_beta(train, micro) if micro_name.endswith("_beta") else (fit(train, micro), 1.0)
            err = predict(test, coef, micro, beta) / test["capped_ms"] - 1
            rows.append(test.assign(candidate=micro_name, error=err, a=coef[0], b=coef[1], beta=beta))
    loco = pd.concat(rows, ignore_index=True)
    by_call = loco.groupby(["candidate", "call"], sort=False)["error"]
    per_call = pd.DataFrame({"median": by_call.apply(lambda e: e.abs().median()),
                             "worst": by_call.apply(lambda e: e.abs().max()), "signed": by_call.median()})  # fmt: skip
    pooled = loco.groupby("candidate", sort=False)["error"]
    summary = pd.DataFrame({"median": pooled.apply(lambda e: e.abs().median()),
                            "worst": pooled.apply(lambda e: e.abs().max()),
                            "past_25": pooled.apply(lambda e: int((e.abs() > 0.25).sum())),
                            "calls_meeting_both": per_call.groupby(level=0, sort=False).apply(
                                lambda t: int(((t["median"] <= 0.10) & (t["worst"] <= 0.25)).sum()))})  # fmt: skip
    base = loco[loco["candidate"] == "none"].groupby("call", sort=False)["error"].median()
    calls = calls.assign(signed_median_g1=calls["call"].map(base))
    calls.to_csv(HERE / "calls.csv", index=False)
    keep = ["candidate", "call", "graph", "algorithm", "variant", "capped_ms", "error", "a", "b", "beta"]
    loco[keep].to_csv(HERE / "loco.csv", index=False, float_format="%.6g")
    per_call.reset_index().to_csv(HERE / "loco_summary.csv", index=False)
    print("calls (signed median: g = 1, leave one call out):")
    print(calls.round(3).to_string(index=False))
    rho = calls[["uvmfault_start_us", "uvmfault_end_us", "signed_median_g1"]].corr(method="spearman")
    print("\nSpearman rank correlation with the call's signed median:")
    print(rho["signed_median_g1"].round(3).to_string())
    print("\nleave one call out, per call:")
    print(per_call.round(3).to_string())
    print(
        "\nbeta fitted without each call:",
        loco.groupby(["candidate", "call"], sort=False)["beta"]
        .first()
        .loc[["end_beta", "mean_beta"]]
        .round(2)
        .to_dict(),
    )
    print("\npooled over the seven held-out calls:")
    print(summary.round(3).to_string())


if __name__ == "__main__":
    main()
