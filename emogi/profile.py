"""Profile stage: Nsight Compute counters of one traversal per variant x mode, summed over its kernel launches.

    python -m emogi.profile bfs --binary build/emogi --report R.ncu-rep --out profile.csv -- --graph G --roots 5 ...
    python -m emogi.profile run --binary build/emogi --report R.ncu-rep --out p.csv -- --algorithm cc --graph G ...
        (--launches L.csv before the `--`: also one row per kernel launch, e.g. per SSSP bucket)
    python -m emogi.profile toy --binary build/emogi --report T.ncu-rep --out toy_profile.csv -- --bytes 2G ...
    python -m emogi.profile lists --binary build/emogi --report L.ncu-rep --out lists_profile.csv -- --graph G ...

How ncu is run, and why the counts are valid:
  --replay-mode kernel   each level kernel is replayed until every metric is collected. ncu saves and restores
                         the GPU memory a kernel writes (depths, the flag), so every pass sees the same input; the
                         edge list is read-only, so zero-copy passes read exactly the same host bytes. For UVM the
                         first pass faults the pages in; we checked on the H100 that kernel and application replay
                         report the same PCIe bytes (docs/profiling.md), so the migration is counted once.
  --clock-control none   the GPU's clocks are left as they are: we never change clock settings on a shared GPU.
  --cache-control all    caches are flushed before each pass, so no pass profits from another's reads.
  --nvtx                 launches are attributed to their run by the NVTX range the binary opens around it:
                         "<algorithm>|variant|mode|root|max_warps" for the algorithms (root empty for CC and
                         PageRank), "toy|pattern|mode|element_bytes" for the zero-copy toy, "lists|variant|mode"
                         for every list read once, "concurrency|mode|footprint|request_bytes|reads_per_warp|warps"
                         for the random reads.
Profiled runs are separate from timed runs: the profiler's replay perturbs timing, so only the counters are kept.
"""

import argparse
import importlib
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from emogi import provenance, schema
from emogi.atomic import write_csv
from emogi.measure import gpu_lock

NCU_FLAGS = [
    "--replay-mode",
    "kernel",
    "--clock-control",
    "none",
    "--cache-control",
    "all",
    "--nvtx",
    "--kernel-name",
    "regex:bfs_|_worklist",
    "--metrics",
    ",".join(schema.NCU_METRICS),
]


class ProfileError(RuntimeError):
    pass


def _nsight_compute_dirs(exe):
    """Folders that may hold Nsight Compute: beside the executable, inside the CUDA toolkit, and what a wrapper
    script (CUDA's bin/ncu is one) points at."""
    exe = Path(exe).resolve()
    dirs = [exe.parent, *exe.parent.parent.glob("nsight-compute*"), *Path("/opt/nvidia/nsight-compute").glob("*")]
    try:
        text = exe.read_text(errors="ignore") if exe.stat().st_size < 100_000 else ""
    except OSError:
        text = ""
    for match in re.findall(r"[\w./-]*nsight-compute[\w.-]*", text):
        dirs += [Path(match), (exe.parent / match.lstrip("/")).resolve()]  # absolute, or relative to the script
    return dirs


def load_ncu_report_module(ncu="ncu"):
    """Import Nsight Compute's own report reader from the installation that `ncu` belongs to."""
    exe = shutil.which(ncu)
    if exe is None:
        raise ProfileError(f"Nsight Compute '{ncu}' not found on PATH (config profile.ncu)")
    for folder in _nsight_compute_dirs(exe):
        candidate = folder / "extras" / "python"
        if (candidate / "ncu_report.py").is_file():
            sys.path.insert(0, str(candidate))
            return importlib.import_module("ncu_report")
    raise ProfileError(f"ncu_report.py not found for {exe} (looked for <nsight-compute>/extras/python)")


# What each profiled command labels its runs with (the NVTX range the binary opens around each run), the
# kernels that belong to it, the table its counters go to, and the columns that join them to the command's rows.
ALGORITHM_FIELDS = ["algorithm", "variant", "mode", "root", "max_warps"]
KINDS = {
    "bfs": {
        "kernels": "regex:bfs_|_worklist",
        "fields": ALGORITHM_FIELDS,
        "table": "profile",
        "join": ["graph", "edge_bytes"],
    },
    # any algorithm (`emogi run --algorithm A`): its kernels, each inside its run's range, whose name starts with A
    "run": {
        "kernels": "regex:^(" + "|".join(a + "_" for a in schema.ALGORITHMS) + "|build_worklist|expand_worklist)",
        "fields": ALGORITHM_FIELDS,
        "ranges": tuple(a + "|" for a in schema.ALGORITHMS),
        "table": "profile",
        "join": ["graph", "edge_bytes"],
    },
    "toy": {
        "kernels": "regex:toy_",
        "fields": ["algorithm", "pattern", "mode", "element_bytes"],
        "table": "toy_profile",
        "join": ["array_bytes"],
    },
    "lists": {
        "kernels": "regex:sum_lists",
        "fields": ["algorithm", "variant", "mode"],
        "table": "lists_profile",
        "join": ["graph", "edge_bytes", "list_bytes"],
    },
    "concurrency": {
        "kernels": "regex:random_reads",
        "fields": ["algorithm", "mode", "footprint_bytes", "request_bytes", "reads_per_warp", "warps"],
        "table": "concurrency_profile",
        "join": ["reads"],
        "rename": {"requests": "reads"},
    },
}


def _range_of(action, prefix):
    """The NVTX range starting with `prefix` (a string or a tuple of them) that a kernel launch ran inside, or
    None."""
    state = action.nvtx_state()
    if state is None:
        return None
    for domain_id in state.domains():
        for name in state.domain_by_id(domain_id).push_pop_ranges():
            if name.startswith(prefix):
                return name
    return None


def launch_rows(path, ncu_report, kind="bfs"):
    """One row per kernel launch, in launch order: its run's label fields, `launch` (its place within the run),
    `kernel` (its name) and each metric. Where a run's time or bytes go, launch by launch (a BFS level, an SSSP
    bucket)."""
    fields = KINDS[kind]["fields"]
    prefixes = KINDS[kind].get("ranges", (kind + "|",))
    context = ncu_report.load_report(str(path))
    rows, launches = [], {}
    for r in range(context.num_ranges()):
        rng = context.range_by_idx(r)
        for a in range(rng.num_actions()):
            action = rng.action_by_idx(a)
            label = _range_of(action, prefixes)
            if label is None:
                inside = " or ".join(f"'{p}...'" for p in prefixes)
                raise ProfileError(f"{path}: kernel {action.name()} ran outside an NVTX {inside} range")
            parts = label.split("|")
            if len(parts) != len(fields):
                raise ProfileError(f"{path}: NVTX range '{label}' does not have the fields {fields}")
            row = {**dict(zip(fields, parts)), "launch": launches.get(label, 0), "kernel": action.name()}
            launches[label] = row["launch"] + 1
            for metric, column in schema.NCU_METRICS.items():
                value = action.metric_by_name(metric)
                if value is None:
                    raise ProfileError(f"{path}: ncu did not collect {metric}")
                row[column] = value.as_double()
            rows.append(row)
    if not rows:
        raise ProfileError(f"{path}: the report holds no {KINDS[kind]['kernels']} launches")
    return pd.DataFrame(rows)


def sum_launches(per_launch, kind="bfs"):
    """One row per labelled run: launches and each metric summed over the run's kernels (launch_rows' table)."""
    fields = KINDS[kind]["fields"]
    runs = per_launch.groupby(fields, sort=False)[list(schema.NCU_METRICS.values())].sum()
    runs["launches"] = per_launch.groupby(fields, sort=False).size()
    return _integer_keys(runs.reset_index())


def parse_report(path, ncu_report, kind="bfs"):
    """One row per labelled run: launches and each metric summed over the run's kernels."""
    return sum_launches(launch_rows(path, ncu_report, kind), kind)


def _integer_keys(frame):
    """The numeric key columns as integers; a root may be empty (CC and PageRank have none), hence Int64."""
    for column in ("root", "max_warps", "element_bytes", "footprint_bytes", "request_bytes", "reads_per_warp", "warps"):
        if column in frame:
            frame[column] = pd.to_numeric(frame[column].replace("", np.nan)).astype("Int64")
    return frame


def derive(frame):
    """Mean request size (32-byte sectors per request) and achieved PCIe read bandwidth."""
    requests = frame["sysmem_read_requests"].replace(0, np.nan)
    frame["avg_request_bytes"] = 32.0 * frame["sysmem_read_sectors"] / requests
    frame["pcie_read_gbps"] = frame["pcie_read_bytes"] / frame["gpu_time_ns"]
    return frame


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    split = argv.index("--") if "--" in argv else len(argv)
    p = argparse.ArgumentParser(
        prog="python -m emogi.profile",
        description="Profile algorithm runs, toy copies or random reads with Nsight Compute.",
    )
    p.add_argument("kind", choices=sorted(KINDS))
    p.add_argument("--binary", required=True)
    p.add_argument("--report", required=True, help="the .ncu-rep file to write (kept for inspection)")
    p.add_argument("--out", required=True)
    p.add_argument("--ncu", default="ncu")
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--launches", help="also write one row per kernel launch to this CSV (where a run's bytes go)")
    a = p.parse_args(argv[:split])
    kind = KINDS[a.kind]
    try:
        ncu_report = load_ncu_report_module(a.ncu)
        prov = provenance.collect(a.binary, a.device)
        Path(a.report).parent.mkdir(parents=True, exist_ok=True)
        with gpu_lock(a.device), tempfile.TemporaryDirectory(dir=Path(a.out).parent) as tmp:
            rows_csv = Path(tmp) / "rows.csv"
            flags = [f if f != "regex:bfs_|_worklist" else kind["kernels"] for f in NCU_FLAGS]
            cmd = [
                a.ncu,
                *flags,
                "--force-overwrite",
                "--export",
                str(a.report),
                str(a.binary),
                a.kind,
                *argv[split + 1 :],
                "--reps",
                "1",
                "--warmup",
                "0",
                "--device",
                str(a.device),
                "--out",
                str(rows_csv),
            ]
            print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
            if subprocess.run(cmd).returncode != 0:
                raise ProfileError(f"ncu run failed; nothing was written to {a.out}")
            rows = pd.read_csv(rows_csv)
        per_launch = launch_rows(a.report, ncu_report, a.kind)
        counters = derive(sum_launches(per_launch, a.kind))
        if a.kind not in ("bfs", "run"):  # the microbenchmarks' rows do not name themselves
            rows["algorithm"] = a.kind
        rows = _integer_keys(rows.rename(columns=kind.get("rename", {})))
        # the rest of each row (graph, edge width, array size) comes from the binary's own rows of the same runs
        keys = [f for f in kind["fields"] if f in rows.columns]
        table = counters.merge(rows[keys + kind["join"]].drop_duplicates(), on=keys, how="left")
        if table[kind["join"]].isna().any().any():
            raise ProfileError("profiled runs do not match the rows the binary reported")
        table = provenance.stamp(table, prov)
        columns = {**schema.TABLES, **schema.TOOL_TABLES}[kind["table"]]
        write_csv(schema.check_columns(table, kind["table"])[columns], a.out)
        if a.launches:
            launches = derive(_integer_keys(per_launch)).merge(
                rows[keys + kind["join"]].drop_duplicates(), on=keys, how="left"
            )
            write_csv(provenance.stamp(launches, prov), a.launches)
    except ProfileError as err:
        sys.exit(f"emogi profile: {err}")


if __name__ == "__main__":
    main()
