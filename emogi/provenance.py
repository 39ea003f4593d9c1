"""Where a measurement came from: GPU, driver, CUDA, link, commit, date, command. Stored beside every table and
repeated on every row (schema.PROVENANCE_COLUMNS), so a number can always be traced to its run."""

import datetime
import json
import os
import platform
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

_SMI_FIELDS = [
    "name",
    "driver_version",
    "pcie.link.gen.max",
    "pcie.link.gen.current",
    "pcie.link.width.max",
    "pcie.link.width.current",
    "memory.total",
]


def _run(cmd, cwd=None):
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=cwd)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def git_commit():
    """Short commit hash, with -dirty when tracked files differ from it. $EMOGI_COMMIT, where set, wins: a copy
    sent to a GPU machine may carry no .git, or a stale one. Otherwise 'unknown'."""
    if os.environ.get("EMOGI_COMMIT"):
        return os.environ["EMOGI_COMMIT"]
    commit = _run(["git", "rev-parse", "--short=12", "HEAD"], cwd=REPO)
    if commit is None:
        return "unknown"
    dirty = _run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO)
    return commit + ("-dirty" if dirty else "")


def _loads_in_flight(binary):
    """The kernels' build setting (access.cuh), as `emogi list` reports it; None without a binary."""
    listed = _run([str(binary), "list"]) if binary else None
    return json.loads(listed).get("loads_in_flight") if listed else None


def nvidia_smi(device=0):
    out = _run(["nvidia-smi", f"--id={device}", f"--query-gpu={','.join(_SMI_FIELDS)}", "--format=csv,noheader"])
    if not out:
        return {}
    return dict(zip(_SMI_FIELDS, [v.strip() for v in out.splitlines()[0].split(",")]))


def collect(binary=None, device=0, command=None):
    """Provenance of a run made now on `device`; `binary` (the built `emogi`) reports the CUDA versions."""
    smi = nvidia_smi(device)
    dev = json.loads(_run([str(binary), "device", "--device", str(device)]) or "{}") if binary else {}
    link = "unknown"
    if smi.get("pcie.link.gen.max"):
        link = f"PCIe Gen{smi['pcie.link.gen.max']} x{smi['pcie.link.width.max']}"
    return {
        "gpu": dev.get("name") or smi.get("name", "unknown"),
        "driver": smi.get("driver_version", "unknown"),
        "cuda": dev.get("cuda_runtime", "unknown"),
        "cuda_driver_api": dev.get("cuda_driver", "unknown"),
        "link": link,
        "link_current": (
            f"PCIe Gen{smi['pcie.link.gen.current']} x{smi['pcie.link.width.current']}"
            if smi.get("pcie.link.gen.current")
            else "unknown"
        ),
        "gpu_memory": smi.get("memory.total", "unknown"),
        "pci_bus_id": dev.get("pci_bus_id", "unknown"),
        "commit": git_commit(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "hostname": platform.node(),
        "command": command if command is not None else os.environ.get("EMOGI_INVOCATION", ""),
        "loads_in_flight": _loads_in_flight(binary),
    }


def stamp(frame, prov):
    """Prepend the provenance columns to a table of rows measured under `prov`."""
    from emogi.schema import PROVENANCE_COLUMNS

    for i, col in enumerate(PROVENANCE_COLUMNS):
        frame.insert(i, col, prov[col])
    return frame


def stamp_runs(folder, binary, annotate=lambda path, log: {}):
    """The CSVs of `folder` (one per `emogi run`, its stderr beside it as the same name .log) in one table: each
    CSV's rows with the columns annotate(csv path, log text) returns first, then provenance of now; written to
    folder/runs.csv and returned. Device scripts that sweep `emogi run` over options collect their runs with it."""
    import pandas as pd

    folder = Path(folder)
    frames = []
    for path in sorted(folder.glob("*.csv")):
        if path.name == "runs.csv":
            continue
        log = path.with_suffix(".log")
        frame = pd.read_csv(path)
        for i, (column, value) in enumerate(annotate(path, log.read_text() if log.exists() else "").items()):
            frame.insert(i, column, value)
        frames.append(frame)
    if not frames:
        raise FileNotFoundError(f"{folder}: no run CSVs to collect")
    runs = stamp(pd.concat(frames, ignore_index=True), collect(binary))
    runs.to_csv(folder / "runs.csv", index=False)
    return runs


def main(argv=None):
    import argparse

    from emogi.atomic import write_text

    p = argparse.ArgumentParser(description="Record the provenance of the measurements made on this machine now.")
    p.add_argument("--binary", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--device", type=int, default=0)
    a = p.parse_args(argv)
    write_text(json.dumps(collect(a.binary, a.device), indent=2) + "\n", a.out)


if __name__ == "__main__":
    main()
