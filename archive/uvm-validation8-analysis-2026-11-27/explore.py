"""Validation 8's miss analysed in sample (issue 21; CPU only, archived files only): validations 3-8 pooled, each
session-factor rule and the R-MAT BFS term judged leave-one-validation-out on validations 4-8, and the noise floor
of a 9-run median at validation 8's own spread (model/uvm_run_spread.py). Writes the CSVs beside it and prints the
tables.

    python archive/uvm-validation8-analysis-2026-11-27/explore.py
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
from model.uvm_access_shape import fit_all, load_shapes, migration_ms  # noqa: E402
from model.uvm_session_fit import archived_cells, pageable_gbps  # noqa: E402

HERE = Path(__file__).resolve().parent
A = ROOT / "archive"
N = (3, 4, 5, 6, 7, 8)
CALLS = {f"v{n}": A / f"uvm-validation{n}-h100-2026-11-27" for n in N}
HELD = ("v4", "v5", "v6", "v7", "v8")
REG8 = json.loads((A / "uvm-validation8-registration-2026-11-27/registered_params.json").read_text())
RULES = ("pageable_mid", "pageable_start", "pageable_end", "none", "micro_start", "pooled", "floor")
pd.set_option("display.width", 220)
pd.set_option("display.max_columns", 30)


def base_cells() -> pd.DataFrame:
    return archived_cells(
        pd.read_csv(A / "uvm-sim-validation-2026-11-25/cells.csv"),
        pd.read_csv(A / "oom-h100-80gb-hbm3-2026-11-25-1207/oom.csv.gz"),
        pd.concat([pd.read_csv(f) for f in sorted((A / "uvm-sim-structure-2026-11-27").glob("counts_*.csv"))]),
    )


def copies() -> pd.DataFrame:
    """Each session's pageable copy (GB/s) at its start, its end and their median: the six 2026-11-21 study
    sessions have one measure (validation 8's registered `pageable_mid`), used as start, end and median; the calls'
    own from their micro/link.csv and link_end.csv (v3 has no end: its start stands for it)."""
    rows = {s: (v["pageable_mid"],) * 3 for s, v in REG8["pageable_rule"]["sessions"].items() if not s.startswith("v")}
    for call, folder in CALLS.items():
        micro = next(folder.glob("session/*/micro"))
        start = pageable_gbps(pd.read_csv(micro / "link.csv"))
        end = pageable_gbps(pd.read_csv(micro / "link_end.csv")) if (micro / "link_end.csv").exists() else start
        rows[call] = (start, end, float(np.median([start, end])))
    return pd.DataFrame(rows, index=["start", "end", "mid"]).T


def micro_start() -> dict:
    """uvmfault's factor at each call's start, as its own judge computed it (v3's `micro`)."""
    out = {}
    for n in N:
        f = json.loads((CALLS[f"v{n}"] / f"validation{n}_factors.json").read_text())
        out[f"v{n}"] = float(f.get("micro_start", f.get("micro")))
    return out


def judged() -> pd.DataFrame:
    out = []
    for call, folder in CALLS.items():
        c = pd.read_csv(next(folder.glob("validation*_cells.csv")))
        out.append(c.assign(call=call, kind=c["graph"].str.extract(r"^(kron|urand|rmat)")[0]))
    return pd.concat(out, ignore_index=True).assign(root=lambda d: d["root"].fillna(-1).astype(int))


def fit_rule(fac: dict, p: pd.Series) -> tuple[float, float]:
    """log f = c + k log(10 / P) by least squares over the sessions with a factor and a copy."""
    both = [s for s in fac if s in p.index]
    k, c = np.polyfit(np.log(10.0 / p[both].to_numpy(float)), np.log([fac[s] for s in both]), 1)
    return float(c), float(k)


def loco(cells: pd.DataFrame, base: pd.DataFrame, cp: pd.DataFrame, micro: dict):
    """Per held call (and none): shapes fitted on the base cells + the other judged calls; each pageable rule's c
    and k refitted on that fit's session factors against its copy measure; the pooled constant the median of the
    other judged calls' factors; the R-MAT BFS term (one multiplier) fitted on the other calls' R-MAT BFS cells."""
    rows, cell_rows = [], []
    name = {CALLS[c].name: c for c in CALLS}
    for held in (None, *HELD):
        others = [c for c in CALLS if c != held]
        fit = fit_all(base, A, [CALLS[c] for c in others])
        fac = {name.get(s, s): f for s, f in fit["session_factors"].items()}
        d = cells.assign(mig=migration_ms(cells, load_shapes(fit)))
        d["ratio"] = (d["uvm_ms"] - d["device_ms"]) / (d["call"].map(fac) * d["mig"])
        rb = (d["kind"] == "rmat") & (d["algorithm"] == "bfs")
        term = float(d.loc[rb & d["call"].isin(others), "ratio"].median())
        pooled = float(np.median([fac[c] for c in others]))
        ck = {m: fit_rule(fac, cp[m]) for m in ("mid", "start", "end")}
        for call in HELD if held is None else (held,):
            h, hr = d[d["call"] == call], rb[d["call"] == call].to_numpy()
            for with_term in (False, True):
                mig = h["mig"].to_numpy(float) * np.where(hr & with_term, term, 1.0)
                f = {f"pageable_{m}": float(np.exp(c + k * np.log(10.0 / cp.at[call, m]))) for m, (c, k) in ck.items()}
                f |= {"none": 1.0, "micro_start": micro[call], "pooled": pooled,
                      "floor": float(np.median((h["uvm_ms"] - h["device_ms"]) / mig))}  # fmt: skip
                for rule in RULES:
                    err = (h["device_ms"] + f[rule] * mig) / h["uvm_ms"] - 1
                    i = err.abs().idxmax()
                    rows.append({
                        "held_out": held or "nothing", "judged": call, "term": with_term, "rule": rule, "f": f[rule],
                        "rmat_bfs_term": term, "median": err.abs().median(), "worst": err.abs().max(),
                        "signed_median": err.median(), "over_25": int((err.abs() > 0.25).sum()),
                        "worst_cell": " ".join(str(h.at[i, x]) for x in ("graph", "algorithm", "variant", "root")),
                    })  # fmt: skip
                    if held is not None:
                        cell_rows.append(h[["call", "graph", "algorithm", "variant", "root"]].assign(
                            term=with_term, rule=rule, error=err.to_numpy()))  # fmt: skip
    t = pd.DataFrame(rows)
    t.to_csv(HERE / "loco.csv", index=False)
    pd.concat(cell_rows, ignore_index=True).to_csv(HERE / "loco_cells.csv", index=False)
    return t


def pooled_loco(t: pd.DataFrame) -> pd.DataFrame:
    h = t[t["held_out"] != "nothing"]
    rows = []
    for (term, rule), d in h.groupby(["term", "rule"], sort=False):
        row = {"term": term, "rule": rule}
        for _, r in d.iterrows():
            row[r["judged"]] = f"{r['median']:.1%} / {r['worst']:.1%} ({r['over_25']})"
        rows.append(row | {"median_of_medians": d["median"].median(), "median_of_worsts": d["worst"].median(),
                           "calls_median_met": int((d["median"] <= 0.10).sum()),
                           "calls_worst_met": int((d["worst"] <= 0.25).sum()),
                           "cells_over_25": int(d["over_25"].sum())})  # fmt: skip
    return pd.DataFrame(rows)


def noise_floor(cells: pd.DataFrame) -> pd.DataFrame:
    """The perfect predictor (each cell's own true median) against a median of n runs drawn from each call's runs:
    the worst over 36 cells, independently and in blocks of 3 (model/uvm_run_spread.py), for v5-v8 at 9 runs and
    v8 at 5, 9, 15 and 21."""
    res = []
    for call in ("v5", "v6", "v7", "v8"):
        runs = pd.concat([pd.read_csv(f) for f in sorted(CALLS[call].glob("session/*/runs/*.csv"))], ignore_index=True)
        c = cells[cells["call"] == call]
        for reps in (5, 9, 15, 21) if call == "v8" else (9,):
            ind = uvm_run_spread.perfect_predictor(runs, c["algorithm"], reps).iloc[0]
            blk = uvm_run_spread.perfect_in_blocks(runs, c, reps, 3)
            res.append({"pool": call, "reps": reps, "cell_spread_median": float(c["uvm_spread"].median()),
                        "median_p50": ind["median_of_median"], "independent_p50": ind["worst_p50"],
                        "independent_p90": ind["worst_p90"], "independent_p_over_25": ind["p_worst_over_25"],
                        "block3_p50": blk["block3_worst_p50"], "block3_p90": blk["block3_worst_p90"],
                        "block3_p_over_25": blk["block3_p_worst_over_25"]})  # fmt: skip
    r = pd.DataFrame(res)
    r.to_csv(HERE / "noise_floor.csv", index=False)
    return r


def main() -> None:
    cells, base, cp = judged(), base_cells(), copies()
    cp.to_csv(HERE / "copies.csv", index_label="session")
    print("## session copies (GB/s)\n" + cp.loc[list(CALLS)].to_string(float_format=lambda v: f"{v:.3f}"))
    print("\n## (a) rules x term, leave one validation out (shapes, rules and term fitted without the held call)")
    t = loco(cells, base, cp, micro_start())
    cols = ["held_out", "judged", "term", "rule", "f", "rmat_bfs_term", "median", "worst", "signed_median", "over_25"]
    print(t[cols + ["worst_cell"]].to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    p = pooled_loco(t)
    p.to_csv(HERE / "loco_pooled.csv", index=False)
    print("\nheld-out per call, median / worst (cells past 25%):")
    print(p.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print("\n## (b) noise floor: the perfect predictor's worst over 36 cells at n runs")
    print(noise_floor(cells.assign(predicted_ms_floor=cells["uvm_ms"])).to_string(index=False,
          float_format=lambda v: f"{v:.3f}"))  # fmt: skip


if __name__ == "__main__":
    main()
