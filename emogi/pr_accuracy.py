"""How close each PageRank result of an archived call lies to a tightly converged reference (issue 22: the GPU's and
the CPU's stopping rules differ, so each result's L1 distance is reported beside its time).

An archive holds
  runs/streamed_pagerank_<G>_w<width>_<b<block>|zerocopy>[...].csv/.log   `emogi run --pr-reference REF`: the
      timed rows, and per verified run (warm-up too) a line `pagerank l1_to_reference: X (G pagerank VARIANT|MODE)`
  cpu/cpu_pr_<G>_<stop>.csv   `emogi_cpu pagerank --reference REF`: one row per kernel, l1_to_reference filled
  host.txt                    nvidia-smi, lscpu and `commit <hash>` of the call
REF is the CPU's Gauss-Seidel in double to a total change / V below 1e-10 (emogi_cpu's --reference-epsilon),
written by the first CPU run and read by every later one. X is sum |x_v - ref_v| / V on unnormalised values.

    python -m emogi.pr_accuracy --archive archive/pr-reference-h100-2026-11-27 --out A/pr_accuracy.csv

writes one row per (graph, width, run, variant, mode): median, min and max time of the timed runs, their median
iterations, whether all verified, and the min / median / max L1 over the run's logged results.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pandas as pd

from emogi.atomic import write_csv
from emogi.streamed_runs import FILE, host_record

L1 = re.compile(r"^pagerank l1_to_reference: (?P<x>\S+) \(\S+ pagerank (?P<variant>\S+)\|(?P<mode>\S+)\)$", re.M)
CPU_FILE = re.compile(r"cpu_pr_(?P<graph>.+)_(?P<stop>residual|total-change)\.csv$")
COLUMNS = ["graph", "width", "device", "run", "variant", "mode", "stop", "median_ms", "min_ms", "max_ms"]
COLUMNS += ["iterations", "verified", "results", "l1_min", "l1_median", "l1_max"]


class AccuracyArchiveError(ValueError):
    """An archive whose files do not make the table: no runs, a run without its L1 lines."""


def run_label(m: re.Match) -> str:
    """'zero-copy' or 'b64M, F 0.5, packed' from a run file's name."""
    if m["what"] == "zerocopy":
        return "zero-copy"
    return f"{m['what']}, F {m['below'] or 0}" + (", packed" if m["pack"] == "on" else "")


def gpu_rows(folder: Path) -> list[dict]:
    rows = []
    for csv in sorted(folder.glob("streamed_pagerank_*.csv")):
        m = FILE.match(csv.name)
        if not m:
            raise AccuracyArchiveError(f"{csv}: not named streamed_pagerank_<graph>_w<width>_<b<size>|zerocopy>...")
        t = pd.read_csv(csv)
        found = pd.DataFrame([x.groupdict() for x in L1.finditer(csv.with_suffix(".log").read_text())])
        for (variant, mode), g in t.groupby(["variant", "mode"]):
            l1 = found[(found["variant"] == variant) & (found["mode"] == mode)]["x"].astype(float) if len(found) else []
            if not len(l1):
                raise AccuracyArchiveError(f"{csv.with_suffix('.log')}: no l1_to_reference line for {variant}|{mode}")
            time = g["time_ms"]
            rows.append({"graph": m["graph"], "width": int(m["width"]), "device": "gpu", "run": run_label(m),
                         "variant": variant, "mode": mode, "stop": "residual", "median_ms": time.median(),
                         "min_ms": time.min(), "max_ms": time.max(), "iterations": g["iterations"].median(),
                         "verified": bool(g["verified"].all()), "results": len(l1), "l1_min": l1.min(),
                         "l1_median": l1.median(), "l1_max": l1.max()})  # fmt: skip
    return rows


def cpu_rows(folder: Path) -> list[dict]:
    rows = []
    for csv in sorted(folder.glob("cpu_pr_*.csv")):
        m = CPU_FILE.match(csv.name)
        if not m:
            continue
        for _, r in pd.read_csv(csv).iterrows():
            rows.append({"graph": m["graph"], "width": int(r["index_bytes"]), "device": "cpu",
                         "run": f"{r['kernel']}, {r['threads']} threads", "variant": r["form"], "mode": "cpu",
                         "stop": r["stop"], "median_ms": r["median_ms"], "min_ms": r["min_ms"], "max_ms": r["max_ms"],
                         "iterations": r["iterations"], "verified": str(r["verified"]) in ("yes", "True", "true"),
                         "results": 1, "l1_min": r["l1_to_reference"], "l1_median": r["l1_to_reference"],
                         "l1_max": r["l1_to_reference"]})  # fmt: skip
    return rows


def accuracy_table(archive: Path) -> pd.DataFrame:
    rows = gpu_rows(archive / "runs") + cpu_rows(archive / "cpu")
    if not rows:
        raise AccuracyArchiveError(f"{archive}: no runs/streamed_pagerank_*.csv and no cpu/cpu_pr_*.csv")
    return pd.DataFrame(rows, columns=COLUMNS).sort_values(["graph", "width", "device", "median_ms"], kind="stable")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--archive", type=Path, required=True, help="the call's archive folder")
    ap.add_argument("--out", type=Path, required=True, help="the table (CSV)")
    a = ap.parse_args(argv)
    try:
        t = accuracy_table(a.archive)
    except (AccuracyArchiveError, OSError, KeyError, pd.errors.ParserError) as e:
        print(f"pr_accuracy: {e}", file=sys.stderr)
        return 1
    write_csv(t, a.out)
    host = host_record(a.archive / "host.txt")
    print(f"{len(t)} rows from {a.archive} ({host['gpu']}, commit {host['commit']}, {host['date']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
