"""One algorithm on one graph out of GPU memory (issue 21; EMOGI §5.3-5.4 in the paper's regime): one GPU job.

    python -m emogi.oom_measure --binary build/emogi --graph G.csr --name kron24 --algorithm bfs \
        --roots-file R.txt --roots 2 --hot-roots 2 --budgets 0.5,0.25 --variants naive,merged-aligned \
        --trace-dir oom/traces --out oom/kron24.bfs.csv [--sublaunches 4] [--reps 2] [--warmup 1]

The GPU memory a run may use is `--gpu-memory-budget` M = fraction x the bytes of the lists the algorithm reads
(neighbour ids, and SSSP's 4-byte weights): the paper's GK and GU are about twice its 16 GB V100 (fraction 0.5),
ML three times. Vertex data comes out of M first; the lists get what is left. Each run is verified against the
CPU reference, as every `emogi run` is. What is measured, and how the rows say how they were obtained (`regime`,
the words of emogi/registry.yaml):
  fits      device and cold uvm with no budget: the GPU's own work (the simulator's device term) and UVM as the
            study's other tables measure it
  budget    zerocopy at the smallest budget (it keeps only vertex data in GPU memory, so one budget stands for
            all) with --trace-out (the lists each launch reads: the simulator's input); auto at each budget, a
            prefix of the lists and, where the binary has it, the hottest lists of traces from other roots
            (a read weighed as its reader pays for it: emogi.trace_hotness.HOT_WEIGHTS)
  emulated  uvm-capped at each budget: cold UVM whose lists keep at most what auto's prefix kept, the least
            recently used 2 MiB chunks pushed back to the host after each of --sublaunches vertex ranges
`--only-hottest-first` measures a supplement to an earlier part: only zerocopy (with traces) and hottest-first at
each budget, so that item 6a's gain pairs runs of one call (figures/oom_data.py pairs them by the part's `date`).
The rows are the binary's (emogi/schema.py APP_COLUMNS) with OOM_COLUMNS first and provenance stamped.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from emogi import csr, provenance, schema
from emogi.atomic import write_csv
from emogi.cli import exit_status
from emogi.measure import binary_run

# Columns an OOM row carries before the binary's (emogi/schema.py OOM_COLUMNS lists them with their meaning).
PLACED = re.compile(r"placed [^:]*: edges [\d.]+ GiB in GPU memory \((\d+) of \d+ entries")
WEIGHTS = re.compile(r"weights (\d+) MiB in GPU memory")
IN_USE = re.compile(r"(\d+) bytes in use before placing the lists")
HOT_ORDER = "hottest-first"


class OomMeasureError(RuntimeError):
    """A run of the binary failed or said less than the study needs."""


def list_bytes(header, algorithm: str) -> int:
    """Bytes of the lists `algorithm` reads: ids, plus its weights (SSSP)."""
    return header.num_edges * (header.index_bytes + schema.WEIGHT_BYTES.get(algorithm, 0))


def gpu_memory(lists: int, fraction: float) -> int:
    """M for a budget fraction, whole MiB (the binary takes sizes in bytes)."""
    if not 0 < fraction < 1:
        raise OomMeasureError(f"budget fraction {fraction} must be in (0, 1): a budget below the lists' bytes")
    return int(lists * fraction) >> 20 << 20


def placed_bytes(log: str, header, algorithm: str) -> int:
    """The list bytes `auto` kept in GPU memory, from its "placed" line."""
    m = PLACED.search(log)
    if not m:
        raise OomMeasureError("auto's log has no 'placed' line: cannot tell what the lists kept")
    w = WEIGHTS.search(log)
    return int(m[1]) * header.index_bytes + (int(w[1]) << 20 if w else 0)


def lists_budget(log: str, memory: int, header) -> int:
    """What a whole-list `auto` order had for the lists: M less the vertex data in use before it placed them and
    V x 8 bytes of list starts, from its log (the budget emogi.trace_hotness.hot_placement takes)."""
    m = IN_USE.search(log)
    if not m:
        raise OomMeasureError("auto's log does not say what was in use before the lists were placed")
    return max(memory - int(m[1]) - 8 * header.num_vertices, 0)


def binary_has(binary, word: str) -> bool:
    out = subprocess.run([str(binary), "list"], capture_output=True, text=True)
    return word in out.stdout


def run(binary, args: list[str], device: int, what: str, where) -> tuple[pd.DataFrame, str]:
    """`binary run ARGS` (emogi.measure.binary_run, its temporary folder in `where`): its rows and its stderr,
    echoed."""
    print(f"== {what}", file=sys.stderr, flush=True)
    start = time.monotonic()
    with binary_run(binary, "run", args, where, device, capture_stderr=True) as (done, out):
        sys.stderr.write(done.stderr)
        # where a part's time goes (its runs, or the graph's checks and CPU references): the next plan's input
        print(f"== {what}: {time.monotonic() - start:.1f} s", file=sys.stderr, flush=True)
        if done.returncode != 0:
            tail = done.stderr.strip().splitlines()[-1:] or ["no message"]
            raise OomMeasureError(f"{what} failed (exit {done.returncode}): {tail[0]}")
        return pd.read_csv(out), done.stderr


def _hot_counts(path, graph_path: str, weight: str) -> np.ndarray:
    """One trace's hotness by `weight` (emogi.trace_hotness), with the exact parts of lists a recording counts
    whole where the weight is the bytes read (emogi.trace_exact): int64, V entries."""
    from emogi.trace_exact import exact_reads
    from emogi.trace_hotness import hotness, load_any

    graph = csr.read_csr(graph_path, verify_checksum=False)
    trace = load_any(path, graph)
    if weight == "bytes":
        trace = exact_reads(trace, graph)
    return hotness(trace, graph.offsets, weight).astype(np.int64)


def hot_file(binary, base: list[str], hot_roots: str | None, device: int, folder: Path, a) -> Path:
    """Per-vertex read counts of each variant's traced runs from other roots (PageRank and CC: the same run),
    summed over roots, by the weight its reader calls for (emogi.trace_hotness.HOT_WEIGHTS): what hottest-first
    keeps. Returns the folder of one HOT.u32 per variant."""
    from emogi.trace_hotness import weight_of, write_hotness  # only when hot lists are asked

    if hot_roots:  # BFS and SSSP: traces of other roots than the measured ones
        traces = folder / "hot_traces"
        args = [*base, "--modes", "zerocopy", "--reps", "1", "--warmup", "0", "--trace-out", str(traces)]
        run(binary, [*args, "--roots-file", hot_roots], device, "traces for hottest-first", a.trace_dir)
    else:  # CC and PageRank have no roots: the zerocopy run's own traces, recorded already
        traces = Path(a.trace_dir)
    for variant in a.variants.split(","):
        start = time.monotonic()
        paths = sorted(traces.glob(f"*.{a.algorithm}.{variant}.zerocopy.*trace"))
        if not paths:
            raise OomMeasureError(f"no trace of {variant} in {traces}")
        weight = weight_of(variant)
        with ProcessPoolExecutor(min(len(paths), a.jobs)) as pool:  # a CPU derivation per trace where bytes
            counts = sum(pool.map(_hot_counts, paths, [a.graph] * len(paths), [weight] * len(paths)))
        write_hotness(np.minimum(counts, np.iinfo(np.uint32).max), folder / f"{variant}.u32")
        print(f"== hot counts of {variant} by {weight}: {time.monotonic() - start:.1f} s", file=sys.stderr, flush=True)
    return folder


def split_roots(a) -> tuple[str, str | None]:
    """The measured roots (the first --roots of the file) and the hot roots (the --hot-roots after them), as files
    in the trace folder."""
    roots = Path(a.roots_file).read_text().split()
    if len(roots) < a.roots + a.hot_roots:
        raise OomMeasureError(f"{a.roots_file} has {len(roots)} roots; --roots {a.roots} and --hot-roots {a.hot_roots}")
    folder = Path(a.trace_dir)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "roots.txt").write_text("\n".join(roots[: a.roots]) + "\n")
    (folder / "hot_roots.txt").write_text("\n".join(roots[a.roots : a.roots + a.hot_roots]) + "\n")
    return str(folder / "roots.txt"), str(folder / "hot_roots.txt")


def measure(a) -> pd.DataFrame:
    header = csr.read_header(a.graph)
    lists = list_bytes(header, a.algorithm)
    fractions = sorted((float(f) for f in a.budgets.split(",")), reverse=True)
    rooted = a.algorithm in schema.ROOTED_ALGORITHMS
    roots, hot_roots = split_roots(a) if rooted else (None, None)

    def what_args(variants):  # which runs, without roots and repetitions
        return ["--algorithm", a.algorithm, "--graph", a.graph, "--name", a.name, "--variants", variants]

    def timed_args(variants):
        return [*what_args(variants), *(["--roots-file", roots] if rooted else []), "--reps", str(a.reps)]

    def go(args, what):
        return run(a.binary, args, a.device, what, a.trace_dir)

    timed = timed_args(a.variants)
    frames = []

    def add(rows, regime, fraction=np.nan, memory=np.nan, capacity=np.nan, order="", sublaunches=np.nan):
        extra = {
            "regime": regime,
            "budget_fraction": fraction,
            "gpu_memory_bytes": memory,
            "list_bytes": lists,
            "list_capacity_bytes": capacity,
            "auto_order": order,
            "uvm_sublaunches": sublaunches,
        }
        for i, (k, v) in enumerate(extra.items()):
            rows.insert(i, k, v)
        frames.append(rows)

    warm = ["--warmup", str(a.warmup)]
    if not a.only_hot:
        rows, _ = go([*timed, *warm, "--modes", "device,uvm"], "device and cold uvm (fits)")
        add(rows, "fits")
    smallest = gpu_memory(lists, fractions[-1])
    args = [*timed, *warm, "--modes", "zerocopy", "--gpu-memory-budget", str(smallest), "--trace-out", a.trace_dir]
    rows, _ = go(args, f"zerocopy at {fractions[-1]} (budget) with traces")
    add(rows, "budget", fractions[-1], smallest)
    hot = None
    if a.hot and binary_has(a.binary, HOT_ORDER):
        hot = hot_file(a.binary, what_args(a.variants), hot_roots, a.device, Path(a.trace_dir) / "hot", a)
    elif a.only_hot:
        raise OomMeasureError(f"--only-hottest-first: the binary has no {HOT_ORDER} order (or --no-hot was given)")
    for f in fractions:
        memory = gpu_memory(lists, f)
        budget = ["--gpu-memory-budget", str(memory), "--auto-reserve", "0"]
        if not a.only_hot:
            rows, log = go([*timed, *warm, "--modes", "auto", *budget, "--auto-order", "prefix"], f"auto at {f}")
            capacity = placed_bytes(log, header, a.algorithm)
            add(rows, "budget", f, memory, capacity, "prefix")
        for variant in a.variants.split(",") if hot else []:
            hot_args = [*timed_args(variant), *warm, "--modes", "auto", *budget, "--auto-order", HOT_ORDER]
            rows, log = go([*hot_args, "--auto-hot", str(hot / f"{variant}.u32")], f"hot {f}")  # its own counts
            add(rows, "budget", f, memory, lists_budget(log, memory, header), HOT_ORDER)
        if a.only_hot:
            continue
        cap = capacity >> 21 << 21  # whole 2 MiB chunks
        capped = [*timed, "--warmup", "0", "--modes", "uvm-capped", "--uvm-capacity", str(cap)]
        rows, _ = go([*capped, "--uvm-sublaunches", str(a.sublaunches)], f"uvm-capped at {f}")
        add(rows, "emulated", f, memory, cap, "", a.sublaunches)
    return pd.concat(frames, ignore_index=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m emogi.oom_measure", description=__doc__.split("\n\n")[0])
    p.add_argument("--binary", required=True)
    p.add_argument("--graph", required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--algorithm", required=True, choices=schema.ALGORITHMS)
    p.add_argument("--variants", required=True, help="comma-separated")
    p.add_argument("--roots-file", help="BFS and SSSP: roots, one per line")
    p.add_argument("--roots", type=int, default=2, help="BFS and SSSP: measure from the first this many")
    p.add_argument("--hot-roots", type=int, default=2, help="and rank hottest-first by the traces of this many after")
    p.add_argument("--no-hot", dest="hot", action="store_false", help="skip the hottest-first placement")
    p.add_argument(
        "--only-hottest-first",
        dest="only_hot",
        action="store_true",
        help="a supplement: only zerocopy (with traces) and hottest-first at each budget",
    )
    p.add_argument("--budgets", default="0.5,0.25", help="GPU memory as fractions of the lists' bytes")
    p.add_argument("--sublaunches", type=int, default=4, help="uvm-capped: vertex ranges per sweep")
    p.add_argument("--reps", type=int, default=2)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--trace-dir", required=True, help="where the zerocopy runs' traces go")
    p.add_argument("--out", required=True)
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2, help="processes ranking the hot traces (one per trace at most)")
    a = p.parse_args(argv)

    def go():
        if a.algorithm in schema.ROOTED_ALGORITHMS and not a.roots_file:
            raise OomMeasureError(f"{a.algorithm} needs --roots-file")
        prov = provenance.collect(a.binary, a.device)
        rows = provenance.stamp(measure(a), prov)
        write_csv(schema.check_columns(rows, "oom"), a.out)
        print(f"wrote {len(rows)} rows to {a.out}", file=sys.stderr)

    return exit_status(go, (OomMeasureError, csr.GraphFormatError, OSError))


if __name__ == "__main__":
    sys.exit(main())
