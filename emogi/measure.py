"""Run the `emogi` binary for the measure stage: one GPU job at a time, rows stamped with provenance.

    python -m emogi.measure bfs    --binary build/emogi --out runs.csv -- --graph G.csr --roots-file R ...
    python -m emogi.measure run    --binary build/emogi --out apps.csv -- --algorithm sssp --graph G.csr ...
    python -m emogi.measure linkbw --binary build/emogi --out link.csv -- --sizes 1M,1G --reps 5
    python -m emogi.measure toy|chase|concurrency --binary build/emogi --out X.csv -- ...   (microbenchmarks)

Everything after `--` goes to the binary. `run` on a directed graph with `--algorithm cc` writes a header-only
table and says why, as the paper skips CC on SK and UK5. A lock file serialises GPU work even across separate
snakemake invocations (Snakemake's `gpu` resource already does so within one).
"""

import argparse
import contextlib
import fcntl
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

from emogi import csr, provenance, schema
from emogi.atomic import write_csv
from emogi.registry import vocabulary

# binary command -> the table its rows belong to (emogi/schema.py)
TABLE_OF = {
    "bfs": "runs",
    "run": "apps",
    "linkbw": "link",
    "toy": "toy",
    "chase": "latency",
    "concurrency": "concurrency",
}


@contextlib.contextmanager
def gpu_lock(device=0):
    path = Path(f"/tmp/emogi-gpu{device}.lock")
    with open(path, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"waiting for another emogi GPU job to finish ({path})", file=sys.stderr, flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


@contextlib.contextmanager
def binary_run(binary, command, args, where, device=0, prefix=(), capture_stderr=False):
    """Run `binary command args --out tmp` (optionally under `prefix`, e.g. ncu) under the GPU lock, `tmp` in a
    temporary folder in `where`; yields the finished process and `tmp` while the folder exists. With
    `capture_stderr` the process's stderr is kept (text) for the caller to read and echo."""
    Path(where).mkdir(parents=True, exist_ok=True)
    with gpu_lock(device), tempfile.TemporaryDirectory(dir=where) as tmpdir:
        tmp = Path(tmpdir) / "rows.csv"
        cmd = [*prefix, str(binary), command, *args, "--out", str(tmp), "--device", str(device)]
        print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
        yield subprocess.run(cmd, stderr=subprocess.PIPE if capture_stderr else None, text=True), tmp


def run_binary(binary, command, args, out, device=0, prefix=()):
    """Run `binary command args --out tmp` (optionally under `prefix`, e.g. ncu) and return the rows it wrote."""
    with binary_run(binary, command, args, Path(out).parent, device, prefix) as (done, tmp):
        if done.returncode != 0:
            sys.exit(f"emogi {command} failed (exit {done.returncode}); nothing was written to {out}")
        return pd.read_csv(tmp)


def skip_reason(command, args):
    """Why a `run` cannot apply to its graph (empty when it can): an algorithm that emogi/registry.yaml says needs
    an undirected graph (CC) is skipped on a directed one, as the paper skips CC on SK and UK5 (EMOGI §5.4)."""

    def value(flag):
        return args[args.index(flag) + 1] if flag in args[:-1] else None

    graph, algorithm = value("--graph"), value("--algorithm")
    vocab = vocabulary()
    needs = {a.name: a.requires for a in vocab.algorithms}.get(algorithm, {})
    if command == "run" and "undirected" in needs and graph and csr.read_header(graph).directed:
        return f"{graph} {vocab.requirements['undirected']}: {needs['undirected']} (EMOGI §5.4)"
    return ""


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    split = argv.index("--") if "--" in argv else len(argv)
    p = argparse.ArgumentParser(description="Run an emogi measurement and stamp its rows with provenance.")
    p.add_argument("command", choices=sorted(TABLE_OF))
    p.add_argument("--binary", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--device", type=int, default=0)
    a = p.parse_args(argv[:split])
    table, binary_args = TABLE_OF[a.command], argv[split + 1 :]
    why = skip_reason(a.command, binary_args)
    if why:
        print(f"skipped: {why}; {a.out} has no rows", file=sys.stderr)
        write_csv(pd.DataFrame(columns=schema.TABLES[table]), a.out)
        return
    prov = provenance.collect(a.binary, a.device)
    rows = run_binary(a.binary, a.command, binary_args, a.out, a.device)
    write_csv(schema.check_columns(provenance.stamp(rows, prov), table), a.out)


if __name__ == "__main__":
    main()
