"""Issue 24's held-out validation of one device session (docs/predictor.md, "Held-out validation (issue 24)"): the
GPU-work costs fitted on the train graphs' `device` cells (model.gpu_work.fit_group, max form), every cell then
predicted from its graph file alone (model/graph_predict.py: device = floor; zero-copy = D / T(d) + floor + chain
steps × L, T(d) from the session's microbenchmarks) and judged against its measured median.

    python -m model.holdout --runs DIR --graphs GDIR --out-dir ODIR [--workloads WDIR ...] [--parameters P.json]
        [--jobs N] [--derive-only] [--only GRAPH,...] [--archive-id NAME] [--split v2|v3|v4 [--l2 L2.csv|--l2-bytes C]]

--split: the registered split judged (model/holdout_split.py, the default v2, with the GPU-work term v2;
model/holdout_split_v3.py with the term v3, model/gpu_work_v3.py, whose L2 capacity C is fitted from the
session's `DIR/micro/l2.csv` by model/l2_capacity.py unless --l2 or --l2-bytes says otherwise;
model/holdout_split_v4.py with v3's floor and v4's fitted zero-copy link terms, model/gpu_work_v4.py;
model/holdout_split_v5.py with the floor v5, v4's plus a cost per list, model/gpu_work_v5.py;
model/holdout_split_v6.py with the floor v6, v5's with isolated vertices priced apart and Gauss-Seidel's warp steps,
model/gpu_work_v6.py, whose cells also carry the runs' iterations min-max; model/holdout_split_v7.py with v6's floor
fitted once more without the train cells it misses by over 30%, model/gpu_work_v7.py; model/holdout_split_v8.py
with v7's, direction-optimizing BFS fitted per degree class, every cell the min of its runs, model/gpu_work_v8.py;
model/holdout_split_v9.py to model/holdout_split_v11.py with v8's term and statistic, unchanged; v11's session
assembled from two, model/holdout_combine.py; model/holdout_split_v12.py with v8's floor and statistic and a cost
per list in the zero-copy link terms, model/gpu_work_v12.py, its session assembled as v11's; v13 its term, 3 passes).

--runs DIR: `DIR/runs/*.csv` (emogi.measure run's apps tables, tools/device/holdout_study.sh) and, unless
--parameters, `DIR/parameters.json` (model.fit on the session's link, latency and concurrency tables).
--graphs GDIR: `NAME.w8.json` and `NAME.w4.json` per graph of the runs (the metadata: checksum, how it was made),
and the `.csr` files beside them where the workloads are to be derived (or their checksums checked).
The workloads (per cell the CPU-derived trace's launches, D, d, chain steps) are derived from the graph files
(`--jobs` processes, the longest traces first) and written to ODIR, or read from the WDIRs (former ODIRs, e.g.
one `--derive-only --only GRAPH` per graph).

Writes ODIR/workloads.csv and launches.csv.gz (when derived); unless --derive-only, holdout_cells.csv (every cell:
measured, predicted, error, split), holdout_costs.csv (the fitted a, b, c, s per algorithm, variant, width and
form), holdout_summary.csv (median and worst |error| per split, algorithm and mode, against the targets) and
source.json (the session's GPU, date, commit; with --archive-id, the archive folder the runs were read from) for
figures/fig_holdout.py. Bad input (a table lacking a column, a
graph outside the split or made otherwise, a checksum that differs from the metadata, a missing file) is one line
on stderr, exit 2, and nothing written.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv, write_text
from emogi.csr import GraphFormatError, read_csr
from emogi.csr_header import read_header
from emogi.tables import read_measured_csv
from emogi.traces import TraceError
from model import gpu_work_v3, gpu_work_v4, gpu_work_v5, gpu_work_v6, gpu_work_v7, gpu_work_v8, gpu_work_v12
from model import gpu_work_v16 as term_v16
from model import holdout_split as hs
from model import holdout_split_v3 as hs3
from model import holdout_split_v4 as hs4
from model import holdout_split_v5 as hs5
from model import holdout_split_v6 as hs6
from model import holdout_split_v7 as hs7
from model import holdout_split_v8 as hs8
from model import holdout_split_v9 as hs9
from model import holdout_split_v10 as hs10
from model import holdout_split_v11 as hs11
from model import holdout_split_v12 as hs12
from model import holdout_split_v13 as hs13
from model import holdout_split_v14 as hs14
from model import holdout_split_v15 as hs15
from model import holdout_split_v16 as hs16
from model.gpu_work import FORMS, LAUNCH_COST_VARIANTS, PARAMS, Launches, fit_group
from model.graph_predict import GraphPredictError, derive_trace, predict, trace_counts
from model.l2_capacity import L2Error, read_capacity
from model.littles_law import throughput_gbps
from model.predict import chain_ms
from model.presets import MEASURED, get_preset

ROOTED = ("bfs", "sssp")
CELL = ["graph", "algorithm", "variant", "mode", "edge_bytes", "root"]
WORK = ["graph", "algorithm", "variant", "edge_bytes", "root"]  # a workload serves both modes
RUN_COLUMNS = ["gpu", "date", "commit", *CELL, "time_ms", "verified"]
WORKLOAD_COLUMNS = [*WORK, "checksum", "derived_width", "launches", "fidelity", "bytes_needed", "requests",
                    "D_bytes", "d_bytes", "chain_steps", "trace_s", "refused"]  # fmt: skip
LAUNCH_COLUMNS = [*WORK, "launch", "lists", "entries", "grid", "walk"]
WIDTH_BOUND_VARIANTS = ("direction-optimizing",)  # traces that differ by width (bottom-up reads whole lines)
# relative cost of a trace per edge, to start the longest first (PageRank's rounds dominate: docs/predictor.md)
TRACE_WEIGHT = {"pagerank": 10.0}
# --split: the split (and its term)
SPLITS = {"v2": hs, "v3": hs3, "v4": hs4, "v5": hs5, "v6": hs6, "v7": hs7, "v8": hs8, "v9": hs9, "v10": hs10,
          "v11": hs11, "v12": hs12, "v13": hs13, "v14": hs14, "v15": hs15, "v16": hs16}  # fmt: skip
V8_TERM = (hs8, hs9, hs10, hs11)  # the splits judged with v8's term (model/gpu_work_v8.py), v9 to v11 unchanged
V12_TERM = (hs12, hs13, hs14, hs15, hs16)  # term v12 (model/gpu_work_v12.py): v13 to v15 refit it on 25 graphs
V16_TERM = (hs16,)  # term v16 (model/gpu_work_v16.py): v12 with Jacobi PageRank's critical path in its floor
V8_FLOOR = (*V8_TERM, *V12_TERM)  # v8's floor, classes and statistic; v12 adds a cost per list to the link terms
LINKED = (hs4, hs5, hs6, hs7, *V8_FLOOR)  # v4's zero-copy link terms and Gauss-Seidel's expected launches
STATISTICS = ("median", "min")  # a cell's statistic over its timed runs (--statistic; a split's STATISTIC)


class HoldoutError(ValueError):
    """Input the judge refuses; one line."""


# ------------------------------------------------------------------------------------------------- inputs


def _need(frame: pd.DataFrame, columns, what: str) -> pd.DataFrame:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise HoldoutError(f"{what} lacks column(s) {missing}")
    return frame


def read_runs(runs_dir) -> pd.DataFrame:
    """Every row of DIR/runs/*.csv (header-only tables, e.g. CC on a directed graph, add nothing)."""
    paths = sorted(Path(runs_dir, "runs").glob("*.csv"))
    if not paths:
        raise HoldoutError(f"no runs tables in {Path(runs_dir, 'runs')}")
    frames = [_need(read_measured_csv(p), RUN_COLUMNS, str(p)) for p in paths]
    return pd.concat([f for f in frames if len(f)], ignore_index=True)


def cells_of(runs: pd.DataFrame, log=print, sp=hs, stat: str | None = None) -> pd.DataFrame:
    """The statistic `stat` (median or min; default the split's STATISTIC, else median) of the verified
    default-launch runs per cell of the registered matrix of split `sp` (others are counted). With min, each cell's
    slowest run and spread (slowest / min − 1) come beside it (split v8)."""
    stat = stat or getattr(sp, "STATISTIC", "median")
    if stat not in STATISTICS:
        raise HoldoutError(f"statistic {stat!r}: one of {', '.join(STATISTICS)}")
    runs = _need(runs, RUN_COLUMNS, "the runs table")
    ok = runs["verified"].astype(str).str.lower().isin(["true", "1"])
    if "max_warps" in runs:
        ok &= runs["max_warps"].fillna(0) == 0
    runs = runs[ok].assign(root=runs["root"].fillna(-1).astype(int), edge_bytes=runs["edge_bytes"].astype(int))
    widths_of, algorithms_of = getattr(sp, "WIDTHS_OF", {}), getattr(sp, "ALGORITHMS_OF", {})
    keep = (
        runs["mode"].isin(sp.MODES)
        & runs["edge_bytes"].isin(sp.WIDTHS)
        & np.array([v in sp.VARIANTS.get(a, ()) for a, v in zip(runs["algorithm"], runs["variant"], strict=True)])
        & np.array([a in algorithms_of.get(g, (a,)) and w in widths_of.get(g, (w,))
                    for g, a, w in zip(runs["graph"], runs["algorithm"], runs["edge_bytes"], strict=True)])
    )  # fmt: skip
    if (~keep).any():
        log(f"{int((~keep).sum())} runs outside the registered variants, modes and widths left out")
    spread = {"iterations_min": ("iterations", "min"), "iterations_max": ("iterations", "max")}
    spread = spread if "iterations" in runs else {}  # the rounds' spread over repetitions (split v6 reports it)
    spread |= {"slowest_ms": ("time_ms", "max")} if stat == "min" else {}
    cells = (
        runs[keep]
        .groupby(CELL, as_index=False)
        .agg(
            measured_ms=("time_ms", stat),
            reps=("time_ms", "size"),
            gpu=("gpu", "first"),
            date=("date", "min"),
            commit=("commit", "first"),
            **spread,
        )  # fmt: skip
    )
    if cells.empty:
        raise HoldoutError("no verified run of the registered matrix in the runs tables")
    if stat == "min":
        cells["spread"] = cells["slowest_ms"] / cells["measured_ms"] - 1
    return cells


def graph_file(graphs_dir, name: str, width: int) -> Path:
    return Path(graphs_dir) / f"{name}.w{width}.csr"


def read_metadata(graphs_dir, names, widths, sp=hs) -> dict:
    """(name, width) -> metadata; each graph checked to be the registered one (its 8-byte file's `source`), and
    each .csr present checked against its metadata's checksum. `widths`: the widths to read for every graph, or
    per graph (a dict name -> widths: a graph measured at 8 bytes only has no 4-byte metadata)."""
    metas = {}
    for name in sorted(names):
        for width in sorted(set(widths[name] if isinstance(widths, dict) else widths) | {8}):
            path = graph_file(graphs_dir, name, width).with_suffix(".json")
            try:
                metas[name, width] = json.loads(path.read_text())
            except (OSError, json.JSONDecodeError) as e:
                raise HoldoutError(f"metadata of {name} at {width} bytes: {e}") from None
            want = metas[name, width].get("checksum")
            csr = graph_file(graphs_dir, name, width)
            if csr.exists():
                try:
                    have = f"{read_header(csr).checksum:016x}"
                except GraphFormatError as e:
                    raise HoldoutError(str(e)) from None
                if have != want:
                    raise HoldoutError(f"{csr}: checksum {have} differs from its metadata {path} ({want})")
        sp.split_of(name, metas[name, 8].get("source") or {})
        narrowed = metas.get((name, 4), {}).get("narrowed_from")
        if narrowed and narrowed.get("checksum") != metas[name, 8].get("checksum"):
            raise HoldoutError(f"{name}.w4 was narrowed from another file than {name}.w8 (checksums differ)")
    return metas


# ---------------------------------------------------------------------------------------- the workloads


def _jobs(cells: pd.DataFrame, metas: dict) -> list[tuple]:
    """One trace per graph, algorithm, variant and root, on the 8-byte file, read at both widths; traces that
    depend on the width are derived on each width's file. Longest first."""
    jobs = {}
    for (g, a, v, r), grp in cells.groupby(["graph", "algorithm", "variant", "root"]):
        widths = sorted(set(grp["edge_bytes"].astype(int)), reverse=True)
        if v in WIDTH_BOUND_VARIANTS:
            for w in widths:
                jobs[g, a, v, r, w] = (w,)
        else:
            jobs[g, a, v, r, 8] = tuple(widths)
    cost = {k: metas[k[0], 8].get("num_edges", 0) * TRACE_WEIGHT.get(k[1], 1.0) for k in jobs}
    return [(*k, jobs[k]) for k in sorted(jobs, key=cost.get, reverse=True)]


def derive_job(graphs_dir, job) -> tuple[pd.DataFrame, list[dict]]:
    """One trace of `_jobs` (name, algorithm, variant, root, file width, widths read) from GRAPHS_DIR/NAME.wW.csr:
    its launches and one workload row per width; a trace the graph refuses is a row with its reason in `refused`."""
    name, algorithm, variant, root, file_width, widths = job
    path = graph_file(graphs_dir, name, file_width)
    graph = read_csr(path, verify_checksum=False)  # its checksum was checked against the metadata already
    t0 = time.perf_counter()
    launches, rows = [pd.DataFrame(columns=LAUNCH_COLUMNS)], []
    try:
        trace = derive_trace(graph, algorithm, variant, root if algorithm in ROOTED else None)
    except (TraceError, GraphPredictError) as e:  # e.g. direction-optimizing on a directed graph: left out, said why
        key = {"graph": name, "algorithm": algorithm, "variant": variant, "root": int(root)}
        return launches[0], [key | {"edge_bytes": int(w), "checksum": f"{graph.header.checksum:016x}",
                                    "derived_width": file_width, "refused": str(e)} for w in widths]  # fmt: skip
    seconds = time.perf_counter() - t0
    for width in widths:
        per, w = trace_counts(dataclasses.replace(trace, edge_bytes=int(width)), graph.offsets, variant)
        key = {"graph": name, "algorithm": algorithm, "variant": variant, "edge_bytes": int(width), "root": int(root)}
        launches.append(per.assign(**key))
        rows.append(key | {k: w[k] for k in WORKLOAD_COLUMNS if k in w and k not in key}
                    | {"checksum": f"{graph.header.checksum:016x}", "derived_width": file_width,
                       "trace_s": round(seconds, 2), "refused": ""})  # fmt: skip
    return pd.concat(launches, ignore_index=True), rows


def derive_workloads(cells, graphs_dir, metas, jobs: int = 1, log=print) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The workloads and launches of every cell's graph, algorithm, variant, width and root."""
    todo = _jobs(cells, metas)
    for job in todo:
        if not graph_file(graphs_dir, job[0], job[4]).exists():
            raise HoldoutError(f"no graph file {graph_file(graphs_dir, job[0], job[4])} to derive the workloads from")
    log(f"deriving {len(todo)} traces with {jobs} process(es)")
    if jobs <= 1:
        done = [derive_job(graphs_dir, j) for j in todo]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            done = list(pool.map(derive_job, [graphs_dir] * len(todo), todo))
    launches = pd.concat([d[0] for d in done], ignore_index=True)[LAUNCH_COLUMNS]
    workloads = pd.DataFrame([r for d in done for r in d[1]]).reindex(columns=WORKLOAD_COLUMNS)
    return workloads, launches


def read_workloads(*wdirs) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The workloads and launches written by former runs (e.g. one --derive-only per graph), in one."""
    ws, las = [], []
    for wdir in wdirs:
        try:
            ws.append(_need(pd.read_csv(Path(wdir) / "workloads.csv"), WORKLOAD_COLUMNS, f"{wdir}/workloads.csv"))
            las.append(_need(pd.read_csv(Path(wdir) / "launches.csv.gz"), LAUNCH_COLUMNS, f"{wdir}/launches.csv.gz"))
        except OSError as e:
            raise HoldoutError(f"workloads: {e}") from None
    return pd.concat(ws, ignore_index=True), pd.concat(las, ignore_index=True)


def check_workloads(workloads: pd.DataFrame, metas: dict) -> None:
    """Each workload was derived from the file its metadata describes."""
    for (g, width), grp in workloads.groupby(["graph", "derived_width"]):
        want = metas.get((g, int(width)), {}).get("checksum")
        have = set(grp["checksum"].astype(str))
        if have != {want}:
            raise HoldoutError(f"workloads of {g} at {width} bytes were derived from checksum(s) {sorted(have)}, "
                               f"its metadata says {want}")  # fmt: skip


# ------------------------------------------------------------------------------------------------ the judge


def _launches_of(launches: pd.DataFrame, keys: pd.DataFrame) -> Launches:
    """model.gpu_work.Launches of the workloads `keys` (in their order)."""
    idx = keys[WORK].reset_index(drop=True).assign(cell=lambda f: np.arange(len(f)))
    rows = launches.merge(idx, on=WORK).assign(one=1.0)
    return Launches(rows, len(idx))


def fit_costs(table: pd.DataFrame, launches: pd.DataFrame) -> pd.DataFrame:
    """a, b, c, s (both forms) per algorithm, variant and width, fitted on the train graphs' device cells."""
    out = []
    for (a, v, w), grp in table.groupby(["algorithm", "variant", "edge_bytes"]):
        fit = grp[(grp["mode"] == "device") & (grp["split"] == hs.TRAIN)]
        hs.check_fit_set(fit["graph"])
        if len(fit) < 2:
            continue
        fitted = fit_group(_launches_of(launches, fit), fit["measured_ms"].to_numpy(float), v in LAUNCH_COST_VARIANTS)
        for form in FORMS:
            out.append({"algorithm": a, "variant": v, "edge_bytes": int(w), "form": form, "train_cells": len(fit)}
                       | dict(zip(PARAMS, fitted[form], strict=True)))  # fmt: skip
    return pd.DataFrame(out, columns=["algorithm", "variant", "edge_bytes", "form", "train_cells", *PARAMS])


def judge(cells, workloads, launches, params, log=print, sp=hs, vertices=None, capacity=None, nonisolated=None,
          classes=None, split_of=None, critical=None):  # fmt: skip
    """Every cell with its prediction and error, and the fitted costs: the GPU-work term v2 with split v2, v3
    with split v3, v3's floor and v4's zero-copy link terms with split v4, v5's to v7's floors with theirs
    (`vertices`: graph -> V, `capacity`: the L2's C in bytes, `nonisolated`: graph -> V − isolated vertices, v6;
    `classes`: graph -> degree class, v8 to v12; v12's link terms model/gpu_work_v12.py's). `split_of`: a graph's
    split where not the split's own (model/graph_predict_v12.py: an asked graph is one more held-out graph).
    `critical`: term v16's critical-path tables (model/gpu_work_v16.read_critical)."""
    if sp in LINKED:  # Gauss-Seidel's expected launches on the GPU (model/gpu_work_v4.py)
        workloads, launches = gpu_work_v4.expected(workloads, launches, vertices)
    table = cells.merge(workloads, on=WORK, how="left")
    refused = table["refused"].astype("string").fillna("") != ""  # an all-empty column reads as float
    for why, grp in table[refused].groupby("refused"):
        log(f"{len(grp)} cells not predicted: {why}")
    table = table[~refused]
    lacking = table["launches"].isna()
    if lacking.any():
        which = sorted({f"{r.graph} {r.algorithm} {r.variant}" for r in table[lacking].itertuples()})
        log(f"{int(lacking.sum())} cells without a workload left out: {', '.join(which)}")
        table = table[~lacking]
    table = table.assign(split=[(split_of or sp.split_of)(g) for g in table["graph"]]).reset_index(drop=True)
    if sp in V8_FLOOR:  # v8 (v9-v11 its term unchanged, v12 its floor): direction-optimizing BFS per degree class
        mu = gpu_work_v8.mu_table(table, vertices, capacity)
        floor_launches, rho = launches, None
        if sp in V16_TERM:  # v16: Jacobi PageRank's longest walk becomes its critical path C(rho), rho fitted
            floor_launches, rho = term_v16.floor_launches(table, launches, critical, mu, nonisolated, classes, sp)
        costs = gpu_work_v8.fit_costs(table, floor_launches, mu, nonisolated, classes, sp.TRAIN, sp.check_fit_set)
        table["floor_ms"] = gpu_work_v8.floor_ms(table, floor_launches, costs, mu, nonisolated, classes)
        costs = costs if rho is None else term_v16.with_rho(costs, rho)
    elif sp in (hs6, hs7):  # v7: v6's floor, its fit trimmed once
        term = gpu_work_v7 if sp is hs7 else gpu_work_v6
        mu = term.mu_table(table, vertices, capacity)
        costs = term.fit_costs(table, launches, mu, nonisolated, sp.TRAIN, sp.check_fit_set)
        table["floor_ms"] = term.floor_ms(table, launches, costs, mu, nonisolated)
    elif sp is hs5:
        mu = gpu_work_v5.mu_table(table, vertices, capacity)
        costs = gpu_work_v5.fit_costs(table, launches, mu, sp.TRAIN, sp.check_fit_set)
        table["floor_ms"] = gpu_work_v5.floor_ms(table, launches, costs, mu)
    elif sp is hs3 or sp is hs4:
        mu = gpu_work_v3.mu_table(table, vertices, capacity)
        term = gpu_work_v4 if sp is hs4 else gpu_work_v3
        costs = term.fit_costs(table, launches, mu, sp.TRAIN, sp.check_fit_set)
        table["floor_ms"] = term.floor_ms(table, launches, costs, mu)
    else:
        costs = fit_costs(table, launches)
        maxc = costs[costs["form"] == "max"].set_index(["algorithm", "variant", "edge_bytes"])
        table["floor_ms"] = np.nan
        for key, grp in table.groupby(["algorithm", "variant", "edge_bytes"]):
            if key in maxc.index:
                p = maxc.loc[key, PARAMS].to_numpy(float)
                table.loc[grp.index, "floor_ms"] = _launches_of(launches, grp).predict(p, "max")
    unfitted = table["floor_ms"].isna()
    if unfitted.any():
        log(f"{int(unfitted.sum())} cells of groups with fewer than 2 train cells left out")
        table = table[~unfitted].reset_index(drop=True)
    if sp in LINKED:
        term = gpu_work_v12 if sp in V12_TERM else gpu_work_v4  # v12: a cost per list beside v4's link terms
        table, link = term.predict_table(table, launches, params, vertices, sp.TRAIN, sp.check_fit_set)
        costs = costs.merge(link, on=gpu_work_v4.GROUP, how="left")
        unlinked = table["predicted_ms"].isna()
        if unlinked.any():
            log(f"{int(unlinked.sum())} zero-copy cells of groups with fewer than 2 train cells left out")
            table = table[~unlinked].reset_index(drop=True)
    else:
        pred, transfer, chain = [], [], []
        for r in table.itertuples(index=False):
            w = r._asdict()
            pred.append(predict(w, r.mode, params))
            zc = r.mode == "zerocopy" and r.requests > 0
            transfer.append(r.D_bytes / (throughput_gbps(r.d_bytes, params) * 1e9) * 1e3 if zc else 0.0)
            chain.append(chain_ms(r.chain_steps, params) if zc else 0.0)
        table = table.assign(transfer_ms=transfer, chain_ms=chain, predicted_ms=pred)
    table["error"] = table["predicted_ms"] / table["measured_ms"] - 1
    table["role"] = np.where(table["variant"] == "merged-aligned", "paper (EMOGI)", "project's fastest")
    order = ["split", *CELL, "role", "reps", "measured_ms", "predicted_ms", "error", "floor_ms", "transfer_ms",
             "chain_ms", "D_bytes", "d_bytes", "chain_steps", "launches", "fidelity", "checksum", "gpu", "date",
             "commit"]  # fmt: skip
    if sp in (hs6, hs7, *V8_FLOOR):  # Gauss-Seidel's rounds vary over repetitions: each cell's spread beside its error
        order += ["iterations_min", "iterations_max"] + (["slowest_ms", "spread"] if "spread" in table else [])
        table = table.reindex(columns=list(dict.fromkeys([*table.columns, *order])))
    return table[order].sort_values(["split", *CELL], ascending=[False, *[True] * len(CELL)]), costs


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Median and worst |error| per split, algorithm and mode (each also over all), against issue 24's targets."""
    rows = []
    e = table.assign(abs_error=table["error"].abs())
    for s, by_split in e.groupby("split", sort=False):
        for a in [*sorted(by_split["algorithm"].unique()), "all"]:
            for m in ["all", *hs.MODES]:
                g = by_split[((by_split["algorithm"] == a) | (a == "all")) & ((by_split["mode"] == m) | (m == "all"))]
                if g.empty:
                    continue
                med, worst = g["abs_error"].median(), g["abs_error"].max()
                rows.append({"split": s, "algorithm": a, "mode": m, "cells": len(g), "median": med, "worst": worst,
                             "signed_median": g["error"].median(), "within_5": float((g["abs_error"] <= 0.05).mean()),
                             "within_15": float((g["abs_error"] <= 0.15).mean()), "target_median": hs.TARGET_MEDIAN,
                             "target_worst": hs.TARGET_WORST, "met": bool(med <= hs.TARGET_MEDIAN and
                                                                           worst <= hs.TARGET_WORST)})  # fmt: skip
    return pd.DataFrame(rows)


def source_record(table: pd.DataFrame, archive_id: str | None = None, extra: dict | None = None) -> dict:
    """Where the measurements came from (figures' source.json): the session's GPU, first date and commit(s);
    `archive_id` names the archive folder the runs were read from (source: archive); `extra` (split v3: the split
    and the L2 capacity used, and where it came from) is added after the note."""
    commits = sorted(set(table["commit"].astype(str)))
    where = {"source": "archive", "archive_id": archive_id} if archive_id else {"source": "fresh"}
    record = {**where, "gpu": str(table["gpu"].iloc[0]), "date": str(table["date"].min()),
              "commit": ",".join(commits), "note": "issue 24 held-out validation (model.holdout)"}  # fmt: skip
    return record | (extra or {})


# ------------------------------------------------------------------------------------------------------ CLI


def _capacity(a) -> tuple[float | None, dict]:
    """Split v3-v12's L2 capacity: --l2-bytes, else from --l2 (default RUNS/micro/l2.csv); and its record."""
    if a.split == "v2":
        return None, {}
    if a.l2_bytes:
        return float(a.l2_bytes), {"split": a.split, "l2_bytes": float(a.l2_bytes), "l2_from": "--l2-bytes"}
    path = a.l2 or Path(a.runs) / "micro" / "l2.csv"
    if not Path(path).is_file():
        raise HoldoutError(f"no L2 table {path} (split {a.split}: the session's device random-read microbenchmark)")
    cap = read_capacity(path)
    return cap, {"split": a.split, "l2_bytes": cap, "l2_from": str(path)}


def run(a, log=print) -> None:
    sp = SPLITS[a.split]
    runs = read_runs(a.runs)
    cells = cells_of(runs, log, sp, a.statistic)
    if a.only:
        cells = cells[cells["graph"].isin(a.only.split(","))]
        if cells.empty:
            raise HoldoutError(f"no cells of {a.only} in the runs tables")
    widths = {g: set(w.astype(int)) for g, w in cells.groupby("graph")["edge_bytes"]}  # the widths each graph ran
    metas = read_metadata(a.graphs, set(cells["graph"]), widths, sp)  # every graph checked before any work
    params, capacity, extra = None, None, {}
    if not a.derive_only:
        capacity, extra = _capacity(a)
        pfile = a.parameters or Path(a.runs) / "parameters.json"
        if not Path(pfile).is_file():
            raise HoldoutError(f"no link parameters {pfile} (python -m model.fit on the session's microbenchmarks)")
        params = get_preset(MEASURED, pfile)
    if a.workloads:
        workloads, launches = read_workloads(*a.workloads)
    else:
        workloads, launches = derive_workloads(cells, a.graphs, metas, a.jobs, log)
    check_workloads(workloads, metas)
    critical = None  # v16: the critical-path tables beside the workloads, else from the graph files
    if sp in V16_TERM and not a.derive_only:
        critical = term_v16.read_critical(*a.workloads) if a.workloads else term_v16.critical_of(
            {g: graph_file(a.graphs, g, 8) for g in set(cells["graph"])})  # fmt: skip
    out = Path(a.out_dir)
    if a.derive_only:
        write_csv(workloads, out / "workloads.csv")
        write_csv(launches, out / "launches.csv.gz")
        log(f"{out}: {len(workloads)} workloads")
        return
    vertices = {g: metas[g, 8].get("num_vertices") for g in set(cells["graph"])}
    nonisolated = {g: v - metas[g, 8].get("isolated_vertices", 0) for g, v in vertices.items()}
    try:  # split v8 to v12: each graph's degree class from its metadata, before any fit
        classes = {g: gpu_work_v8.degree_class(metas[g, 8]) for g in vertices} if sp in V8_FLOOR else None
    except ValueError as e:
        raise HoldoutError(str(e)) from None
    table, costs = judge(cells, workloads, launches, params, log=log, sp=sp, vertices=vertices, capacity=capacity,
                         nonisolated=nonisolated, classes=classes, critical=critical)  # fmt: skip
    s = summary(table)
    if not a.workloads:
        write_csv(workloads, out / "workloads.csv")
        write_csv(launches, out / "launches.csv.gz")
    write_csv(table, out / "holdout_cells.csv")
    write_csv(costs, out / "holdout_costs.csv")
    write_csv(s, out / "holdout_summary.csv")
    write_text(json.dumps(source_record(table, a.archive_id, extra), indent=2) + "\n", out / "source.json")
    shown = s[s["mode"] == "all"][["split", "algorithm", "cells", "median", "worst", "met"]]
    log(shown.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.holdout", description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", required=True, type=Path, help="DIR with runs/*.csv and parameters.json")
    p.add_argument("--graphs", type=Path, help="DIR with NAME.wW.json (and .csr to derive from; default DIR/graphs)")
    p.add_argument("--out-dir", required=True, type=Path)
    p.add_argument("--workloads", type=Path, nargs="+", help="DIRs with workloads.csv, launches.csv.gz (else derived)")
    p.add_argument("--only", help="GRAPH[,GRAPH]: only these graphs' cells (e.g. to derive one graph's workloads)")
    p.add_argument("--parameters", type=Path, help="model.fit's parameters.json (default DIR/parameters.json)")
    p.add_argument("--jobs", type=int, default=1, help="processes deriving the traces (default 1)")
    p.add_argument("--derive-only", action="store_true", help="write the workloads, judge nothing")
    p.add_argument("--archive-id", help="the archive folder the runs come from (source.json says source: archive)")
    p.add_argument("--split", choices=sorted(SPLITS), default="v2", help="the registered split (and GPU-work term)")
    p.add_argument(
        "--statistic", choices=STATISTICS, help="a cell's statistic (default the split's: v8-v12 min, else median)"
    )
    p.add_argument("--l2", type=Path, help="split v3-v12: the L2 microbenchmark table (default DIR/micro/l2.csv)")
    p.add_argument("--l2-bytes", type=float, help="split v3-v12: the L2 capacity C itself (explorations only)")
    a = p.parse_args(argv)
    a.graphs = a.graphs or a.runs / "graphs"  # an assembled session keeps its graphs' metadata beside its runs
    try:
        run(a)
    except (HoldoutError, hs.SplitError, L2Error, GraphPredictError, TraceError, GraphFormatError, OSError, KeyError,
            ValueError) as e:  # fmt: skip
        print(f"error: {str(e).splitlines()[0] if str(e) else type(e).__name__}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["HoldoutError", "cells_of", "derive_workloads", "fit_costs", "judge", "main", "summary"]
