"""Capped validation 2: uvm-capped predicted from the cold-UVM model of validation 7 plus a cost per evicted chunk,
registered before the session (docs/uvm-capped-validations.md, "Capped validation 2"; the analysis is
archive/uvm-capped-analysis-2026-11-27; tools/device/uvm_capped_validation2.sh makes it).

    python -m model.uvm_capped_validation2 judge --tarball uvmc2.tgz --graph-dir /tmp/ucap2g --out D [--jobs 2]
    python -m model.uvm_capped_validation2 register --out registered_params.json   (the registered input)

Per judged cell (uvm-capped at a capacity of 1/4 or 1/2 of the edge list and K = 1 or 4 sub-launches; the median of
its timed runs) the prediction is model.uvm_capped's: the device-mode median of the same call + f x the capped
simulation's migration time by the cell's access pattern's shape + e x the simulated evicted chunks, the counts
from the trace the call recorded in device mode (`--trace-out`; packed apart as uvmc2_traces.tar.xz.partNN beside the
tarball) on the regenerated graph, f by each rule:
  pageable  (primary) exp(c + k log(P_ref / P)), P the median of the call's pageable h2d copies at its start and end
  none      1
and reported beside them, not judged: `floor` (f fitted on the judged capped cells, e as registered) and
`no_eviction_cost` (the pageable f, e = 0). The call's cold `uvm` cells are predicted by the same f (validation 7's
rule) and reported in capped_validation2_cold.csv.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
import tarfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv, write_text
from emogi.cli import exit_status
from emogi.tables import read_measured_csv
from model import uvm_capped, uvm_validation4, uvm_validation7
from model.uvm_access_shape import load_shapes
from model.uvm_session_fit import OOM_SESSION
from model.uvm_validation3 import judge_cli, regenerate, source_of, summarise, unpack

SEED = 30
SET = {
    "kron20s30": "--kind kron --scale 20 --edge-factor 16",
    "urand20s30": "--kind urand --scale 20 --edge-factor 16",
}
ALGORITHMS = ("bfs", "sssp", "cc", "pagerank")
VARIANTS = ("merged-aligned", "naive")
FRACTIONS = (0.25, 0.5)  # capacity: this share of the edge list (8-byte ids), whole 2 MiB chunks
SUBLAUNCHES = (1, 4)
REPS = 5  # timed runs per capped cell, no warm-up (as the OOM study's fitted runs); the cell's median
RULES = ("pageable", "none")
HERE = Path(__file__).resolve().parents[1] / "archive/uvm-capped-analysis-2026-11-27"
REGISTERED = HERE / "registered_params.json"
FIT_GRAPHS = ("kron24", "urand24", "kron20")  # the archived capped runs the rule is fitted on
TERMS = ("evicted",)
CELL = ["graph", "algorithm", "variant", "edge_bytes", "root", "budget_fraction", "sublaunches"]
CAPPED_FILE = re.compile(r"capped\.(?P<algorithm>\w+)\.(?P<graph>\w+)\.f(?P<fraction>[\d.]+)\.k(?P<k>\d+)\.csv")


def capacity_bytes(edge_list_bytes: int, fraction: float) -> int:
    """The capacity the call passes: `fraction` of the edge list in whole 2 MiB chunks (tools/device script)."""
    return int(edge_list_bytes * fraction) >> 21 << 21


def fit_rule(cells: pd.DataFrame, shapes: dict, factors: dict) -> dict:
    """e (ms per evicted chunk) on archived capped cells (analysis cells.csv); refuses any held-out graph."""
    held = sorted(set(cells["graph"]) - set(FIT_GRAPHS))
    if held:
        raise uvm_capped.CappedError(f"the fit sees only the archived capped runs {FIT_GRAPHS}, not {held}")
    f = cells["graph"].map(lambda g: factors.get(g, 1.0)).to_numpy(float)
    return uvm_capped.fit_terms(cells, uvm_capped.base_ms(cells, shapes, f), TERMS)


def register(cells: pd.DataFrame, shape_fit: dict, mids: dict, oom_factor: float) -> dict:
    v7 = "uvm-validation7-h100-2026-11-27"  # named v7 like validation 7's names for validations 3-6
    named = {("v7" if s == v7 else s): f for s, f in shape_fit["session_factors"].items()}
    reg = uvm_validation7.register(shape_fit | {"session_factors": named}, mids)
    reg["capped_terms"] = fit_rule(cells, load_shapes(shape_fit), {"kron24": oom_factor, "urand24": oom_factor})
    reg["capped_fit"] = {"graphs": list(FIT_GRAPHS), "cells": len(cells), "oom_session_factor": oom_factor}
    return reg


def session_mids(archive: Path = uvm_validation7.ARCHIVE) -> dict:
    v7 = json.loads((archive / "uvm-validation7-h100-2026-11-27/validation7_factors.json").read_text())
    return uvm_validation7.session_mids(archive) | {"v7": float(v7["pageable_gbps"])}


def _simulate(graph_path: str, trace_path: str, capacities: list) -> list[dict]:
    from emogi.csr import read_csr
    from emogi.trace_recording import load_recorded
    from model.uvm_sim import lists_per_warp_of, simulate

    g = read_csr(graph_path)
    t = load_recorded(trace_path, g)
    per_warp = lists_per_warp_of(t)
    key = {"graph": Path(graph_path).name.split(".")[0], "algorithm": t.algorithm, "variant": t.variant,
           "edge_bytes": t.edge_bytes, "root": int(t.root)}  # fmt: skip
    rows = []
    for fraction, cap, k in [(np.nan, None, 1), *capacities]:
        mode = "cold" if cap is None else "capped"
        r = simulate(t, g, mode=mode, capacity_bytes=cap, sub_launches=k, lists_per_warp=per_warp).totals()
        keep = ("launches", "migrated_bytes", "batches", "serviced_chunks", "list_faults", "evicted_chunks")
        rows.append({**key, "budget_fraction": fraction, "sublaunches": k, "sim_mode": mode, "capacity_bytes": cap,
                     **{c: r[c] for c in keep}})  # fmt: skip
    return rows


def trace_counts(session: Path, graph_dir: Path, how: dict, jobs: int, seed: int = SEED, sim=_simulate) -> pd.DataFrame:
    """Cold and capped counts of every device-mode trace the call recorded, on each regenerated graph (`sim`: a
    module-level function of (graph path, trace path, capacities) -> rows, run in worker processes)."""
    args = []
    for meta_file in sorted((session / "graphs").glob("*.w8.json")):
        name = meta_file.name.split(".")[0]
        meta = json.loads(meta_file.read_text())
        traces = sorted((session / "traces").glob(f"{name}.*.device.w8*.trace"))
        if not traces:
            continue
        path = str(regenerate(name, graph_dir, meta, how, seed))
        caps = [(f, capacity_bytes(meta["edge_list_bytes"], f), k) for f in FRACTIONS for k in SUBLAUNCHES]
        args += [(path, str(t), caps) for t in traces]
    with ProcessPoolExecutor(max(jobs, 1)) as pool:
        rows = [r for part in pool.map(sim, *zip(*args)) for r in part] if args else []
    return pd.DataFrame(rows)


def load_runs(session: Path) -> pd.DataFrame:
    """Every run of the call; uvm-capped rows tagged with their file's fraction and K."""
    frames = []
    for f in sorted((session / "runs").glob("*.csv")):
        t = read_measured_csv(f)
        m = CAPPED_FILE.fullmatch(f.name)
        frames.append(
            t.assign(budget_fraction=float(m["fraction"]) if m else np.nan, sublaunches=int(m["k"]) if m else 1)
        )
    if not frames:
        raise ValueError(f"{session / 'runs'} holds no run table")
    return pd.concat(frames, ignore_index=True).assign(root=lambda t: t["root"].fillna(-1).astype(int))


def measured_cells(runs: pd.DataFrame, counts: pd.DataFrame) -> pd.DataFrame:
    keys = CELL[:5]
    med = runs.groupby([*CELL, "mode"], as_index=False, dropna=False)["time_ms"].median()
    n = runs.groupby([*CELL, "mode"], as_index=False, dropna=False)["time_ms"].size()
    med = med.merge(n, on=[*CELL, "mode"])
    cap = med[med["mode"] == "uvm-capped"].rename(columns={"time_ms": "capped_ms", "size": "capped_runs"})
    device = med[med["mode"] == "device"][[*keys, "time_ms"]].rename(columns={"time_ms": "device_ms"})
    cold = med[med["mode"] == "uvm"][[*keys, "time_ms"]].rename(columns={"time_ms": "uvm_ms"})
    c0 = counts[counts["sim_mode"] == "cold"][[*keys, "migrated_bytes"]]
    c1 = counts[counts["sim_mode"] == "capped"].drop(columns="sim_mode")
    cells = cap.drop(columns="mode").merge(device, on=keys).merge(cold, on=keys, how="left").merge(c1, on=CELL)
    cells = cells.merge(c0.rename(columns={"migrated_bytes": "cold_migrated_bytes"}), on=keys)
    return uvm_capped.with_counts(cells)


def cold_cells(runs: pd.DataFrame, counts: pd.DataFrame) -> pd.DataFrame:
    """The call's cold `uvm` cells (median of their runs) with the device median and the cold simulation's counts."""
    keys = CELL[:5]
    med = runs[runs["mode"].isin(["uvm", "device"])].groupby([*keys, "mode"], as_index=False)["time_ms"].median()
    wide = med.pivot_table(index=keys, columns="mode", values="time_ms").reset_index()
    wide = wide.rename(columns={"uvm": "uvm_ms", "device": "device_ms"}).dropna(subset=["uvm_ms", "device_ms"])
    return wide.merge(counts[counts["sim_mode"] == "cold"].drop(columns=["sim_mode", "budget_fraction"]), on=keys)


def predict(cells: pd.DataFrame, shapes: dict, factors: dict, terms: dict) -> pd.DataFrame:
    out = cells.copy()
    mig = uvm_capped.base_ms(out, shapes, 1.0) - out["device_ms"].to_numpy(float)
    extra = uvm_capped.predict(out, np.zeros(len(out)), terms)
    out["simulated_migration_ms"], out["eviction_cost_ms"] = mig, extra
    need = out["capped_ms"] - out["device_ms"] - extra
    floor = float(np.median(need / mig)) if len(out) else np.nan
    rules = [
        *((r, factors[r], extra) for r in RULES),
        ("floor", floor, extra),
        ("no_eviction_cost", factors["pageable"], 0),
    ]
    for rule, f, e in rules:
        out[f"factor_{rule}"] = f
        out[f"predicted_ms_{rule}"] = out["device_ms"] + f * mig + e
        out[f"error_{rule}"] = out[f"predicted_ms_{rule}"] / out["capped_ms"] - 1
    return out


def missing_cells(cells: pd.DataFrame, session: Path, how: dict = SET) -> pd.DataFrame:
    have = set(zip(cells["graph"], cells["algorithm"], cells["variant"], cells["root"], cells["budget_fraction"],
                   cells["sublaunches"]))  # fmt: skip
    rows = []
    for name in how:
        roots_file = session / "graphs" / f"{name}.roots.txt"
        roots = [int(r) for r in roots_file.read_text().split()] if roots_file.exists() else [-2]
        for a in ALGORITHMS:
            for v in VARIANTS:
                for r in roots if a in ("bfs", "sssp") else [-1]:
                    for f in FRACTIONS:
                        for k in SUBLAUNCHES:
                            if (name, a, v, r, f, k) not in have:
                                rows.append(dict(zip(CELL, (name, a, v, 8, r, f, k), strict=True)))
    return pd.DataFrame(rows, columns=CELL)


def unpack_traces(tarball: Path, out: Path) -> int:
    """The call's traces, packed apart beside the tarball (uvmc2_traces.tar.xz.partNN; calls before xz packing:
    uvmc2_traces.tgz.partNN) in parts of at most 15 MiB, as each file brought back from a device call is at most 16
    MiB; joined and unpacked into the session. Returns how many parts."""
    stem = tarball.name.replace(".tgz", "")
    parts = sorted(tarball.parent.glob(f"{stem}_traces.tar.xz.part*")) or sorted(
        tarball.parent.glob(f"{stem}_traces.tgz.part*")
    )
    if parts:
        joined = io.BytesIO(b"".join(p.read_bytes() for p in parts))
        with tarfile.open(fileobj=joined, mode="r:*") as tar:
            tar.extractall(out / "session", filter="data")
    return len(parts)


def open_call(tarball: Path, out: Path, folder: str, registered) -> tuple:
    """A capped call unpacked into `out` (its tarball and its trace parts), with its registered input, the shapes,
    the session's factors and its runs: what every capped validation's judge starts from."""
    session = unpack(Path(tarball), out, folder)
    unpack_traces(Path(tarball), out)
    reg = json.loads(Path(registered).read_text())
    shapes = load_shapes(reg)
    factors, _ = uvm_validation7.session_factors(session, shapes, reg["pageable_rule"])
    return session, reg, shapes, factors, load_runs(session)


def write_judgement(out: Path, name: str, session: Path, how: dict, runs, tables: dict, factors: dict, note: str):
    """A capped validation's judgement: `tables` (cells, summary, cold) as NAME_<table>.csv, the registered cells
    not measured, the factors and terms as NAME_factors.json, and source.json with the runs' provenance."""
    for table, frame in tables.items():
        write_csv(frame, out / f"{name}_{table}.csv")
    write_csv(missing_cells(tables["cells"], session, how), out / f"{name}_missing.csv")
    write_text(json.dumps(factors, indent=2) + "\n", out / f"{name}_factors.json")
    write_text(json.dumps(source_of(runs, out) | {"note": note}, indent=2) + "\n", out / "source.json")


def finish(out: Path, n, session, how, runs, cells, counts, fit, rules, cold_rules, term_keys, name=None,
           note=None) -> pd.DataFrame:  # fmt: skip
    """Capped validation n's end: the summary over `rules`, the call's cold cells by the same shapes and factors
    (`cold_rules`), and write_judgement with the registered terms `term_keys`. `fit` is (shapes, factors,
    registered). `name` and `note` (default: capped validation n's) name the tables and the source record of a call
    that is not a numbered validation (the graph-or-machine check). Returns the summary."""
    shapes, factors, reg = fit
    summary = summarise(cells, rules=rules)
    cold_counts = counts.drop(columns=["tail_whole", "tail_split"], errors="ignore")  # the tail: capped cells only
    cold = uvm_validation4.predict(cold_cells(runs, cold_counts), shapes, factors, None, cold_rules)
    tables = {"cells": cells, "summary": summary, "cold": cold}
    note = note or f"issue 21 uvm-capped, capped validation {n} (model.uvm_capped_validation{n})"
    terms = {k: reg[k] for k in term_keys}
    write_judgement(out, name or f"capped_validation{n}", session, how, runs, tables, factors | terms, note)
    return summary


def judge(tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    session, reg, shapes, factors, runs = open_call(tarball, out, "uvmc2", registered)
    counts = trace_counts(session, graph_dir, how, jobs)
    if counts.empty:
        raise ValueError(f"{session}: no device-mode trace to simulate")
    cells = predict(measured_cells(runs, counts), shapes, factors, reg["capped_terms"])
    rules = (*RULES, "floor", "no_eviction_cost")
    return finish(out, 2, session, how, runs, cells, counts, (shapes, factors, reg), rules, RULES, ["capped_terms"])


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] != ["register"]:
        return judge_cli(argv, "python -m model.uvm_capped_validation2", __doc__.split("\n\n")[0], judge,
                         "uvmc2.tgz", REGISTERED, "capped_validation2_missing.csv")  # fmt: skip
    p = argparse.ArgumentParser(prog="python -m model.uvm_capped_validation2 register")
    p.add_argument("--cells", type=Path, default=HERE / "cells.csv", help="the analysis's archived capped cells")
    p.add_argument("--shape-fit", type=Path, default=HERE / "shape_fit.json", help="uvm_access_shape, v3-7 judged")
    p.add_argument("--out", required=True, type=Path)
    a = p.parse_args(argv[1:])

    def go():
        shape_fit = json.loads(a.shape_fit.read_text())
        oom = shape_fit["session_factors"][OOM_SESSION]
        reg = register(pd.read_csv(a.cells), shape_fit, session_mids(), oom)
        write_text(json.dumps(reg, indent=2) + "\n", a.out)
        print(json.dumps({k: reg[k] for k in ("capped_terms", "capped_fit")} | {
            "pageable_rule": {k: v for k, v in reg["pageable_rule"].items() if k != "sessions"}}))  # fmt: skip

    return exit_status(go, (OSError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
