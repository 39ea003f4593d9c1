"""Validation 3 of the UVM simulator: a session's cold-UVM runs predicted with a factor that the session's own
microbenchmarks measure, never one fitted on the judged runs (docs/uvm-validations.md, "Session-calibrated simulator and
validation 3: registered before the session"; tools/device/uvm_validation3.sh makes the session).

    python -m model.uvm_validation3 judge --tarball uvm3.tgz --graph-dir /tmp/uvm3g --out archive/<dir> [--jobs 2]

Per judged cell (graph, algorithm, variant, root; cold `uvm` mode, the median over reps) the prediction is the
same session's device-mode median + f x the registered shape's migration time of the cell's CPU-derived trace
(model/uvm_sim.py, the kernels' lists per warp), with f by each registered rule:
  micro     (primary) the median, over uvmfault's four back-to-back patterns of the call's start (thread and warp
            per list, 256 B and 8 KiB lists), of the measured median time over the shape's simulated migration
            of that pattern (model/uvm_micro_sim.py)
  pageable  exp(c + k log(P_ref / P)), P the session's pageable h2d copy bandwidth (model/uvm_session_fit.py)
  none      1: the shape at the archive's median session
Reported beside them, not a prediction: `floor`, the factor fitted on the judged runs themselves (the median of
measured over simulated migration), which no measured factor can beat by much.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv, write_text
from emogi.cli import exit_status
from emogi.csr import read_csr, read_header
from emogi.tables import read_measured_csv
from emogi.trace_derive import SCAN_VARIANTS, derive
from model.uvm_micro_sim import counts as micro_counts
from model.uvm_session_fit import pageable_factor, pageable_gbps
from model.uvm_sim import UvmParams, lists_per_warp_of, simulate
from model.uvm_warp_faults import KEYS, cold_runs

# The registered set (tools/device/uvm_validation3.sh measures it): graph -> generator arguments; seed 25 for all.
SEED = 25
SET = {
    "kron23s25": "--kind kron --scale 23 --edge-factor 16",
    "urand23s25": "--kind urand --scale 23 --edge-factor 16",
    "rmat22ef32": "--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20",
    "urand24s25": "--kind urand --scale 24 --edge-factor 16",
}
ALGORITHMS = ("bfs", "sssp", "cc", "pagerank")
VARIANTS = ("merged-aligned", "naive")
MICRO_PATTERNS = [("thread", 256), ("warp", 256), ("thread", 8192), ("warp", 8192)]  # back to back (stride 0)
RULES = ("micro", "pageable", "none")
REGISTERED = Path(__file__).resolve().parents[1] / "archive/uvm-sim-calibration-2026-11-27/registered_params.json"


def load_registered(path=REGISTERED) -> tuple[UvmParams, dict]:
    d = json.loads(Path(path).read_text())
    return UvmParams(**d["shape"]), d["pageable_rule"]


def micro_factor(micro: pd.DataFrame, shape: UvmParams) -> tuple[float, pd.DataFrame]:
    """The primary rule's factor from a uvmfault table (the call's start) and its per-pattern ratios."""
    rows = []
    for access, size in MICRO_PATTERNS:
        part = micro[(micro["access"] == access) & (micro["list_bytes"] == size) & (micro["stride_bytes"] == size)]
        if part.empty:
            raise ValueError(f"the uvmfault table has no {access} pattern of {size}-byte lists back to back")
        buffer = int(part["buffer_bytes"].iloc[0])
        c = micro_counts(buffer, size, 0, access)
        sim = float(shape.migration_ms(c["migrated_bytes"], c["batches"], c["serviced_chunks"], c["list_faults"]))
        measured = float(part["time_ms"].median())
        rows.append({"access": access, "list_bytes": size, "measured_ms": measured, "simulated_ms": sim})
    table = pd.DataFrame(rows).assign(ratio=lambda t: t["measured_ms"] / t["simulated_ms"])
    return float(table["ratio"].median()), table


def session_factors(session: Path, shape: UvmParams, rule: dict) -> tuple[dict, pd.DataFrame]:
    """Each registered rule's factor for the session folder (micro/uvmfault_start.csv, micro/link.csv)."""
    f_micro, table = micro_factor(pd.read_csv(session / "micro/uvmfault_start.csv"), shape)
    gbps = pageable_gbps(pd.read_csv(session / "micro/link.csv"))
    return {"micro": f_micro, "pageable": pageable_factor(rule, gbps), "none": 1.0, "pageable_gbps": gbps}, table


def regenerate(name: str, graph_dir: Path, meta: dict, how: dict = SET, seed: int = SEED) -> Path:
    """The session's graph, made again with its command and seed; its checksum must equal the session's."""
    path = graph_dir / f"{name}.w8.csr"
    if name not in how:
        raise ValueError(f"{name} is not in the registered set ({', '.join(how)})")
    if not path.exists():
        graph_dir.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "emogi.datasets.generators", *how[name].split(), "--seed", str(seed)]
        cmd += ["--weights-seed", str(seed), "--out", str(path)]
        subprocess.run(cmd, check=True)
    have = f"{read_header(path).checksum:016x}"
    if have != meta["checksum"]:
        raise ValueError(f"{path}: checksum {have}, the session's {name} had {meta['checksum']}")
    return path


def _count_group(graph_path: str, name: str, algorithm: str, root: int, variants: tuple) -> list[dict]:
    """Cold counts of one (algorithm, root) for each variant: the scan variants read the same lists (one derived
    trace, emogi/trace_derive.py), each simulated with its kernel's lists per warp."""
    graph = read_csr(graph_path, verify_checksum=False)
    keep = ("launches", "migrated_bytes", "fault_entries", "list_faults", "batches", "serviced_chunks")
    rows, shared = [], None
    for variant in variants:
        if variant in SCAN_VARIANTS and shared is not None:
            trace = replace(shared, variant=variant)
        else:
            trace = derive(graph, algorithm, variant, None if root < 0 else root, name)
            shared = trace if variant in SCAN_VARIANTS else shared
        t = simulate(trace, graph, lists_per_warp=lists_per_warp_of(trace)).totals()
        key = {"graph": name, "algorithm": algorithm, "variant": variant, "edge_bytes": trace.edge_bytes, "root": root}
        rows.append({**key, **{k: t[k] for k in keep}, "trace_source": trace.source})
    print(f"counted {name} {algorithm} {root}", file=sys.stderr, flush=True)
    return rows


# Counts already derived in this process, by (graph file, its size and time, name, algorithm, root, variants): a
# validation judged over several calls (model/uvm_validation13.py) derives each of its graphs' traces once, not once
# a call. The file's size and modification time key a regenerated graph apart.
_COUNTED: dict = {}


def trace_counts(graph_path: str, name: str, runs: pd.DataFrame, jobs: int = 1) -> pd.DataFrame:
    """Cold counts of every cold `uvm` cell of graph `name` in `runs`, from CPU-derived traces."""
    cells = cold_runs(runs, name)[["algorithm", "variant", "root"]].drop_duplicates()
    groups = [(graph_path, name, a, int(r), tuple(g["variant"])) for (a, r), g in cells.groupby(["algorithm", "root"])]
    stat = Path(graph_path).stat()
    keys = [(stat.st_size, stat.st_mtime_ns, *group) for group in groups]
    todo = [(key, group) for key, group in zip(keys, groups, strict=True) if key not in _COUNTED]
    if todo:
        with ProcessPoolExecutor(max(jobs, 1)) as pool:
            done = pool.map(_count_group, *zip(*(group for _, group in todo)))
            _COUNTED.update(zip((key for key, _ in todo), done, strict=True))
    return pd.DataFrame([row for key in keys for row in _COUNTED[key]])


def missing_cells(cells: pd.DataFrame, session: Path, how: dict = SET) -> pd.DataFrame:
    """The registered cells the session did not measure (a graph deferred, a run failed or stopped): graph,
    algorithm, variant and root (-1: no root; "?" for a graph whose roots were never drawn)."""
    have = set(zip(cells["graph"], cells["algorithm"], cells["variant"], cells["root"].astype(int)))
    rows = []
    for name in how:
        roots_file = session / "graphs" / f"{name}.roots.txt"
        roots = [int(r) for r in roots_file.read_text().split()] if roots_file.exists() else ["?"]
        for a in ALGORITHMS:
            for v in VARIANTS:
                for r in roots if a in ("bfs", "sssp") else [-1]:
                    if (name, a, v, r) not in have:
                        rows.append({"graph": name, "algorithm": a, "variant": v, "root": r})
    return pd.DataFrame(rows, columns=["graph", "algorithm", "variant", "root"])


def predict(cells: pd.DataFrame, shape: UvmParams, factors: dict) -> pd.DataFrame:
    out = cells.copy()
    mig = np.asarray(
        shape.migration_ms(out["migrated_bytes"], out["batches"], out["serviced_chunks"], out["list_faults"]), float
    )
    out["simulated_migration_ms"] = mig
    floor = float(np.median((out["uvm_ms"] - out["device_ms"]) / mig))
    for rule, f in [*((r, factors[r]) for r in RULES), ("floor", floor)]:
        out[f"factor_{rule}"] = f
        out[f"predicted_ms_{rule}"] = out["device_ms"] + f * mig
        out[f"error_{rule}"] = out[f"predicted_ms_{rule}"] / out["uvm_ms"] - 1
    return out


def summarise(cells: pd.DataFrame, rules: tuple = (*RULES, "floor")) -> pd.DataFrame:
    rows = []
    every = pd.Series("all", index=cells.index)
    groups = [("all", every), ("graph", cells["graph"]), ("algorithm", cells["algorithm"])]
    for kind, key in groups:
        for value, part in cells.groupby(key):
            for rule in rules:
                e = part[f"error_{rule}"].abs()
                rows.append(
                    {
                        "group": kind,
                        "value": value,
                        "rule": rule,
                        "factor": float(part[f"factor_{rule}"].iloc[0]),
                        "n": len(e),
                        "median": float(e.median()),
                        "worst": float(e.max()),
                        "within_10": float((e <= 0.10).mean()),
                        "within_25": float((e <= 0.25).mean()),
                        "meets_targets": bool(e.median() <= 0.10 and e.max() <= 0.25),
                    }
                )
    return pd.DataFrame(rows)


def unpack(tarball: Path, out: Path, folder: str) -> Path:
    """The device call's tarball unpacked under out/session; the session folder (`folder`: uvm3, uvm4)."""
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball) as tar:
        tar.extractall(out / "session", filter="data")
    return out / "session" / folder


def counted_cells(session: Path, graph_dir: Path, how: dict, seed: int, jobs: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The session's runs, and its cold `uvm` cells with their CPU-derived trace counts (each graph regenerated with
    the session's command and seed, its checksum checked)."""
    runs = pd.concat([read_measured_csv(f) for f in sorted((session / "runs").glob("*.csv"))], ignore_index=True)
    found = []
    for name in sorted(set(runs["graph"])):
        meta = json.loads((session / "graphs" / f"{name}.w8.json").read_text())
        found.append(trace_counts(str(regenerate(name, graph_dir, meta, how, seed)), name, runs, jobs))
    return runs, cold_runs(runs).merge(pd.concat(found, ignore_index=True), on=KEYS)


def judge(
    tarball: Path, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET
) -> pd.DataFrame:
    session = unpack(tarball, out, "uvm3")
    shape, rule = load_registered(registered)
    factors, micro_table = session_factors(session, shape, rule)
    runs, cells = counted_cells(session, graph_dir, how, SEED, jobs)
    write_csv(missing_cells(cells, session, how), out / "validation3_missing.csv")
    judged = predict(cells, shape, factors)
    summary = summarise(judged)
    write_csv(judged, out / "validation3_cells.csv")
    write_csv(summary, out / "validation3_summary.csv")
    write_csv(micro_table, out / "validation3_micro.csv")
    write_text(json.dumps(factors, indent=2) + "\n", out / "validation3_factors.json")
    write_text(json.dumps(source_of(runs, out), indent=2) + "\n", out / "source.json")
    return summary


def source_of(runs: pd.DataFrame, out: Path) -> dict:
    """Where the judged times come from, as the figures' source.json has it."""
    first = runs.iloc[0] if len(runs) else {}
    return {
        "source": "archive",
        "archive_id": out.name,
        "gpu": str(first.get("gpu", "")),
        "date": str(first.get("date", "")),
        "commit": str(first.get("commit", "")),
        "note": "issue 21 UVM simulator, validation 3 (model.uvm_validation3; registered in docs/uvm-validations.md)",
    }


def judge_cli(argv, prog: str, description: str, judge_fn, tarball: str, registered: Path, missing: str) -> int:
    """The `judge` command validations 3 and 4 share: --tarball, --graph-dir, --out, --jobs, --registered; prints
    the summary's overall rows and how many registered cells the call did not measure (the `missing` CSV)."""
    p = argparse.ArgumentParser(prog=prog, description=description)
    sub = p.add_subparsers(dest="command", required=True)
    j = sub.add_parser("judge", help="predict the session's cold runs by each registered rule and judge them")
    j.add_argument("--tarball", required=True, type=Path, help=f"the device call's {tarball}")
    j.add_argument("--graph-dir", required=True, type=Path, help="where the graphs are (re)generated")
    j.add_argument("--out", required=True, type=Path)
    j.add_argument("--jobs", type=int, default=1)
    j.add_argument("--registered", type=Path, default=registered)
    a = p.parse_args(argv)

    def go():
        summary = judge_fn(a.tarball, a.graph_dir, a.out, a.jobs, a.registered)
        print(summary[summary["group"] == "all"].to_string(index=False))
        not_measured = pd.read_csv(a.out / missing)
        print(f"{len(not_measured)} registered cells not measured ({missing})")

    return exit_status(go, (OSError, KeyError, ValueError, subprocess.CalledProcessError))


def main(argv=None) -> int:
    return judge_cli(
        argv, "python -m model.uvm_validation3", __doc__.split("\n\n")[0], judge, "uvm3.tgz", REGISTERED,
        "validation3_missing.csv",
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
