"""The `warp-faults` cost set: the simulator's three costs and a cost per (warp, cold page) fault entry, fitted and
judged on the split docs/model.md wrote down before fitting ("A cost per faulting warp").

    python -m model.uvm_warp_faults counts --graph G.csr --name urand24 --oom-table oom.csv.gz --out counts.csv
    python -m model.uvm_warp_faults evaluate --cells cells.csv --oom-table oom.csv.gz --counts C.csv [C2.csv] \
        --params params.json --out DIR

`counts` derives on the CPU the trace of every cold `uvm` run of one graph in an OOM archive and simulates it cold
(model/uvm_sim.py, with the kernels' lists per warp per launch); `evaluate` fits the four costs (least absolute
relative deviation of the total time, non-negative, model.uvm_calibrate's linear program) on the validation
archive's fit cells and reports, per validation set, the median and worst error of the total time beside the
registered cost set's on the same runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv, write_text
from emogi.cli import exit_status
from emogi.csr import read_csr
from emogi.trace_derive import derive
from model.oom_simulate import load_params
from model.uvm_calibrate import _lad
from model.uvm_sim import UvmParams, lists_per_warp_of, simulate

NAME = "warp-faults"
KEYS = ["graph", "algorithm", "variant", "edge_bytes", "root"]
FEATURES = ["migrated_gb", "batches", "serviced_chunks", "list_faults"]
FIT_GRAPH_KIND, FIT_ALGORITHMS = "kron", ("bfs", "sssp")  # docs/model.md: the fit set


def cold_runs(oom: pd.DataFrame, graph: str | None = None) -> pd.DataFrame:
    """Each cold `uvm` run of the OOM table (median over reps) beside its device-mode median."""
    oom = oom.assign(root=oom["root"].fillna(-1).astype(int))
    if graph is not None:
        oom = oom[oom["graph"] == graph]
    med = oom.groupby([*KEYS, "mode"], as_index=False)["time_ms"].median()
    uvm = med[med["mode"] == "uvm"].drop(columns="mode").rename(columns={"time_ms": "uvm_ms"})
    dev = med[med["mode"] == "device"].drop(columns="mode").rename(columns={"time_ms": "device_ms"})
    return uvm.merge(dev, on=KEYS, how="left")


def _count_one(graph_path: str, name: str, algorithm: str, variant: str, root: int) -> dict:
    graph = read_csr(graph_path, verify_checksum=False)
    trace = derive(graph, algorithm, variant, None if root < 0 else root, name)
    t = simulate(trace, graph, lists_per_warp=lists_per_warp_of(trace)).totals()
    keep = ("launches", "migrated_bytes", "fault_entries", "list_faults", "batches", "serviced_chunks")
    row = {"graph": name, "algorithm": algorithm, "variant": variant, "edge_bytes": trace.edge_bytes, "root": root}
    print(f"counted {algorithm} {variant} {root}", file=sys.stderr, flush=True)
    return {**row, **{k: t[k] for k in keep}, "trace_source": trace.source}


def counts(graph_path: str, name: str, oom: pd.DataFrame, jobs: int = 1) -> pd.DataFrame:
    runs = cold_runs(oom, name)[["algorithm", "variant", "root"]].drop_duplicates()
    args = [(graph_path, name, *r) for r in runs.itertuples(index=False)]
    with ProcessPoolExecutor(max(jobs, 1)) as pool:
        rows = list(pool.map(_count_one, *zip(*args)))
    return pd.DataFrame(rows)


def features(cells: pd.DataFrame) -> np.ndarray:
    return np.column_stack(
        [cells["migrated_bytes"] / 1e9, cells["batches"], cells["serviced_chunks"], cells["list_faults"]]
    ).astype(float)


def fit(cells: pd.DataFrame) -> UvmParams:
    """The four costs minimising sum |predicted / measured - 1| of the total time (ms per GB, batch, region,
    warp fault)."""
    uvm, device = cells["uvm_ms"].to_numpy(float), cells["device_ms"].to_numpy(float)
    a, tb, ts, te = _lad(features(cells), uvm - device, 1 / uvm)
    return UvmParams(
        throughput_gbps=1e3 / a if a > 0 else float("inf"),
        batch_us=tb * 1e3,
        service_us=ts * 1e3,
        warp_fault_us=te * 1e3,
    )


def predict(cells: pd.DataFrame, params: UvmParams) -> np.ndarray:
    migration = params.migration_ms(
        cells["migrated_bytes"], cells["batches"], cells["serviced_chunks"], cells["list_faults"]
    )
    return np.asarray(params.total_ms(cells["device_ms"].to_numpy(float), np.asarray(migration, float)))


def fit_set(cells: pd.DataFrame) -> pd.Series:
    return (cells["kind"] == FIT_GRAPH_KIND) & cells["algorithm"].isin(FIT_ALGORITHMS)


def judged(cells: pd.DataFrame, oom: pd.DataFrame, oom_counts: pd.DataFrame) -> pd.DataFrame:
    """Every judged row: the validation archive's cells (fit, validation 3) and the OOM archive's cold runs with
    their re-simulated counts (validation 1 and 2), with the set each belongs to."""
    c = cells.assign(root=cells["root"].fillna(-1).astype(int), session=cells["source"].str.split("/").str[0])
    c["set"] = np.where(fit_set(c), "fit", "")
    v3 = (c["kind"] == "urand") & c["algorithm"].isin(["cc", "pagerank"]) & (c["variant"] != "afforest")
    c.loc[v3, "set"] = "validation 3"
    o = cold_runs(oom).merge(oom_counts, on=KEYS)
    o["session"] = "oom-h100-80gb-hbm3-2026-11-25-1207"
    o["set"] = np.where(o["graph"].str.startswith("urand"), "validation 1", "validation 2")
    cols = [*KEYS, "session", "set", "uvm_ms", "device_ms", "launches", "migrated_bytes", "fault_entries"]
    cols += ["list_faults", "batches", "serviced_chunks"]
    return pd.concat([c[c["set"] != ""][cols], o[cols]], ignore_index=True)


def _errors(frame: pd.DataFrame, column: str) -> dict:
    err = (frame[column] / frame["uvm_ms"] - 1).abs()
    return {
        "n": len(err),
        "median": float(err.median()),
        "worst": float(err.max()),
        "within_25": float((err <= 0.25).mean()),
    }


def evaluate(cells: pd.DataFrame, oom: pd.DataFrame, oom_counts: pd.DataFrame, registered: UvmParams):
    rows = judged(cells, oom, oom_counts)
    params = fit(rows[rows["set"] == "fit"])
    rows["predicted_ms_registered"] = predict(rows, registered)
    rows[f"predicted_ms_{NAME}"] = predict(rows, params)
    for tag in ("registered", NAME):
        rows[f"error_{tag}"] = rows[f"predicted_ms_{tag}"] / rows["uvm_ms"] - 1
    groups = [("set", rows["set"]), ("set, algorithm", rows["set"] + ", " + rows["algorithm"])]
    summary = []
    for kind, key in groups:
        for value, part in rows.groupby(key):
            for tag in ("registered", NAME):
                summary.append({"group": kind, "value": value, "cost_set": tag, **_errors(part, f"predicted_ms_{tag}")})
    return params, rows, pd.DataFrame(summary)


def session_test(rows: pd.DataFrame, cells: pd.DataFrame, registered: UvmParams) -> tuple[pd.DataFrame, pd.DataFrame]:
    """docs/model.md's second test: the shape fitted on every archived cell but Afforest, one factor for the OOM
    session from kron24's cold runs (median of measured over predicted migration), judged on urand24's; the
    registered costs with a factor fitted the same way beside it. Returns (summary, per-run errors)."""
    every = cells[cells["variant"] != "afforest"]
    oom = rows[rows["set"].isin(["validation 1", "validation 2"])].copy()
    out, per_run = [], oom[KEYS + ["uvm_ms", "device_ms"]].copy()
    for tag, params in (("registered", registered), (f"{NAME} (every cell)", fit(every))):
        mig = np.asarray(
            params.migration_ms(oom["migrated_bytes"], oom["batches"], oom["serviced_chunks"], oom["list_faults"]),
            float,
        )
        on = (oom["graph"] == "kron24").to_numpy()
        factor = float(np.median((oom["uvm_ms"].to_numpy() - oom["device_ms"].to_numpy())[on] / mig[on]))
        err = (oom["device_ms"].to_numpy() + factor * mig) / oom["uvm_ms"].to_numpy() - 1
        per_run[f"error_{tag}"] = err
        for part, where in (("kron24 (factor fit)", on), ("urand24 (judged)", ~on)):
            e = np.abs(err[where])
            out.append(
                {"cost_set": tag, "factor": factor, "runs": part, "n": int(where.sum())}
                | {"median": float(np.median(e)), "worst": float(e.max()), **asdict(params)}
            )
    return pd.DataFrame(out), per_run


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.uvm_warp_faults", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("counts", help="cold counts of an OOM archive's uvm runs of one graph, from derived traces")
    c.add_argument("--graph", required=True)
    c.add_argument("--name", required=True, help="the graph's name in the OOM table (kron24, urand24)")
    c.add_argument("--oom-table", required=True, type=Path)
    c.add_argument("--out", required=True, type=Path)
    c.add_argument("--jobs", type=int, default=1)
    e = sub.add_parser("evaluate", help="fit the four costs and judge them on the validation sets")
    e.add_argument("--cells", required=True, type=Path, help="archive/uvm-sim-validation-2026-11-25/cells.csv")
    e.add_argument("--oom-table", required=True, type=Path)
    e.add_argument("--counts", required=True, nargs="+", type=Path, help="`counts` outputs")
    e.add_argument("--params", required=True, type=Path, help="params.json holding the registered cost set")
    e.add_argument("--out", required=True, type=Path)
    a = p.parse_args(argv)

    def go():
        oom = pd.read_csv(a.oom_table)
        if a.command == "counts":
            write_csv(counts(a.graph, a.name, oom, a.jobs), a.out)
            return
        oom_counts = pd.concat([pd.read_csv(f) for f in a.counts], ignore_index=True)
        params, rows, summary = evaluate(pd.read_csv(a.cells), oom, oom_counts, load_params(a.params))
        a.out.mkdir(parents=True, exist_ok=True)
        write_csv(rows, a.out / "warp_faults_cells.csv")
        write_csv(summary, a.out / "warp_faults_summary.csv")
        write_text(json.dumps({NAME: asdict(params)}, indent=2) + "\n", a.out / "warp_faults_params.json")
        print(summary[summary["group"] == "set"].to_string(index=False))
        if {"kron24", "urand24"} <= set(oom_counts["graph"]):
            second, per_run = session_test(rows, pd.read_csv(a.cells), load_params(a.params))
            write_csv(second, a.out / "warp_faults_session_test.csv")
            write_csv(per_run, a.out / "warp_faults_session_runs.csv")
            print(second.drop(columns=["batch_entries", "prefetch_threshold", "overlap"]).to_string(index=False))

    return exit_status(go, (OSError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
