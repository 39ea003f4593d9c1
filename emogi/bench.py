"""The kernel benchmark (`snakemake bench`): build, verify and time algorithm x variant x mode x edge width on
benchmark graphs in one GPU job, then print one table: median time, edges/s, GB/s of lists read and the fraction
of the link limit W (the pinned cudaMemcpy host-to-device peak, measured in the same job).

    python -m emogi.bench --binary build/emogi --graphs kron:24,urand:24 --widths 8,4 --out-dir results/bench

Graphs are generated (with weights, emogi.datasets.weights) into --graph-dir if absent. Every timed run is verified by
the binary before its row is written; a failed verification fails the job. Rows carry provenance.

With --profile, every run that reads host memory (zerocopy, zerocopy-pinned, auto) is run once more under Nsight
Compute (emogi.profile), which counts the 32-byte sectors it fetched from host memory. The table then also gives
`fetched_ratio` (sectors x 32 over the list bytes the run needed: the partial sectors at list ends, and lists
read twice when neighbouring lists share a sector) and `fetched_fraction_of_w`, the link's use in bytes actually
fetched per second (GB/s of lists read x fetched_ratio, over W).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from emogi import csr, gpu, provenance
from emogi.atomic import write_csv, write_text
from emogi.datasets import external_build, generators, roots
from emogi.measure import run_binary
from emogi.schema import (ALGORITHMS, ALL_MODES, ALL_VARIANTS, VARIANTS_OF, ZERO_COPY_MODES, entry_bytes,
                          fetched_bytes)

MODES = ",".join(ALL_MODES)
SUMMARY_COLUMNS = ["algorithm", "graph", "edge_bytes", "variant", "mode", "runs", "median_ms", "min_ms", "max_ms",
                   "edges_traversed", "edges_per_s", "gbps", "fraction_of_w", "loads_in_flight", "fetched_ratio",
                   "fetched_fraction_of_w"]
HOST_READING_MODES = ZERO_COPY_MODES + ("zerocopy-registered", "auto")  # whose reads Nsight Compute sees as sysmem
KEYS = ["algorithm", "graph", "edge_bytes", "variant", "mode"]


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def make_graph(kind: str, scale: int, seed: int, graph_dir: Path, widths) -> dict[int, Path]:
    """The graph in the widths asked for, with weights; built once (streaming, all cores) and kept."""
    name = f"{kind}{scale}"
    paths = {width: graph_dir / f"{name}.w{width}.csr" for width in widths}
    for width, path in paths.items():
        if path.exists():
            continue
        t0 = time.perf_counter()
        log(f"generating {path.name} (seed {seed})")
        stream = generators.PairStream(kind, scale, 16, seed)
        result = external_build.build_csr_file(path, stream, num_vertices=stream.num_vertices, index_bytes=width,
                                               weights_seed=seed, log=lambda msg: log(f"  {msg}"))
        log(f"{path.name}: V={result.header.num_vertices} E={result.header.num_edges} "
            f"in {time.perf_counter() - t0:.0f} s")
    return paths


def link_limit(binary, device: int) -> float:
    """W: the best pinned host-to-device cudaMemcpy bandwidth over 256 MiB and 1 GiB copies, GB/s."""
    rows = run_binary(binary, "linkbw", ["--sizes", "256M,1G", "--reps", "5"], Path("/tmp/emogi-bench-link.csv"),
                      device)
    pinned = rows[(rows["direction"] == "h2d") & (rows["host_memory"] == "pinned")]
    return float(pinned.groupby("size_bytes")["gbps"].median().max())


def fetched_ratios(runs: pd.DataFrame, profile: pd.DataFrame) -> pd.DataFrame:
    """Per KEYS: host bytes fetched (Nsight Compute's sysmem sectors x 32) over the list bytes the profiled runs
    needed (their median edges_traversed, from the timed runs of the same root)."""
    per_root = runs.groupby(KEYS + ["root"], dropna=False)["edges_traversed"].median().reset_index()
    per_root["root"] = per_root["root"].astype("Int64")
    both = profile[KEYS + ["root", "sysmem_read_sectors"]].merge(per_root, on=KEYS + ["root"], how="inner")
    both["fetched"] = fetched_bytes(both)
    both["needed"] = both["edges_traversed"] * entry_bytes(both)
    sums = both.groupby(KEYS, sort=False)[["fetched", "needed"]].sum().reset_index()
    sums["fetched_ratio"] = sums["fetched"] / sums["needed"]
    return sums[KEYS + ["fetched_ratio"]]


def summarise(runs: pd.DataFrame, w_gbps: float, depth: int = 0, profile: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per (algorithm, graph, width, variant, mode): medians over all runs, and the fastest and slowest run (lent
    GPUs spread several percent between runs; a median near a target says little without them); bytes include SSSP's
    weights, counted as read even where `frontier` skips them (an effective rate there). With a profile
    (emogi.profile's table of the same runs), also the bytes fetched from host memory."""
    out = runs.groupby(KEYS, sort=False).agg(runs=("time_ms", "size"), median_ms=("time_ms", "median"),
                                             min_ms=("time_ms", "min"), max_ms=("time_ms", "max"),
                                             edges_traversed=("edges_traversed", "median")).reset_index()
    out["edges_per_s"] = out["edges_traversed"] / (out["median_ms"] / 1e3)
    out["gbps"] = out["edges_per_s"] * entry_bytes(out) / 1e9
    out["fraction_of_w"] = out["gbps"] / w_gbps
    out["loads_in_flight"] = depth
    if profile is not None and len(profile):
        out = out.merge(fetched_ratios(runs, profile), on=KEYS, how="left")
    else:
        out["fetched_ratio"] = np.nan
    out["fetched_fraction_of_w"] = out["fraction_of_w"] * out["fetched_ratio"]
    return out[SUMMARY_COLUMNS]


def profile_runs(binary, args: list[str], modes: str, report: Path, device: int) -> pd.DataFrame | None:
    """The same runs (one per variant x host-reading mode x root) under Nsight Compute; None if no mode reads host
    memory. Its table (and the .ncu-rep beside it) is kept in the output folder."""
    host_modes = [m for m in modes.split(",") if m in HOST_READING_MODES]
    if not host_modes:
        return None
    out = report.with_suffix(".csv")
    cmd = [sys.executable, "-m", "emogi.profile", "run", "--binary", str(binary), "--report", str(report),
           "--out", str(out), "--device", str(device), "--", *args, "--modes", ",".join(host_modes)]
    log("profiling: " + " ".join(cmd))
    if subprocess.run(cmd).returncode != 0:
        raise SystemExit(f"emogi bench: profiling failed ({' '.join(cmd)})")
    profile = pd.read_csv(out)
    profile["root"] = profile["root"].astype("Int64")
    return profile


def variants_by_algorithm(algorithms, named: str) -> dict:
    """algorithm -> the variants to run: every variant it has, or those of `named` (comma-separated) that it has.
    ValueError when a named variant belongs to none of the algorithms or an algorithm is left with none."""
    if not named:
        return {algorithm: VARIANTS_OF[algorithm] for algorithm in algorithms}
    wanted = named.split(",")
    picked = {algorithm: tuple(v for v in wanted if v in VARIANTS_OF[algorithm]) for algorithm in algorithms}
    stray = [v for v in wanted if not any(v in picked[algorithm] for algorithm in algorithms)]
    if stray:
        raise ValueError(f"no chosen algorithm has variant(s) {', '.join(stray)} ({', '.join(ALL_VARIANTS)} exist)")
    empty = [algorithm for algorithm in algorithms if not picked[algorithm]]
    if empty:
        raise ValueError(f"none of the variants {named} applies to {', '.join(empty)}: leave it out with "
                         "--algorithms (`emogi list` shows each algorithm's variants)")
    return picked


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m emogi.bench", description=__doc__.split("\n")[0])
    p.add_argument("--binary", required=True)
    p.add_argument("--graphs", default="kron:24,urand:24", help="kind:scale,... (GAP kron/urand, edge factor 16)")
    p.add_argument("--seed", type=int, default=24)
    p.add_argument("--widths", default="8,4")
    p.add_argument("--algorithms", default=",".join(ALGORITHMS))
    p.add_argument("--modes", default=MODES)
    p.add_argument("--variants", default="", help="only these variants (default: every variant of each algorithm)")
    p.add_argument("--roots", type=int, default=3, help="BFS/SSSP roots per graph, drawn among vertices with edges")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--graph-dir", default="resources/bench")
    p.add_argument("--out-dir", default="results/bench")
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--profile", action="store_true",
                   help="also count the bytes each host-reading run fetched (Nsight Compute; one extra run each)")
    a = p.parse_args(argv)
    graph_dir, out_dir = Path(a.graph_dir), Path(a.out_dir)
    algorithms = a.algorithms.split(",")
    unknown = set(algorithms) - set(ALGORITHMS)
    if unknown:
        p.error(f"unknown algorithm(s) {sorted(unknown)}; choose from {', '.join(ALGORITHMS)}")
    try:
        variants = variants_by_algorithm(algorithms, a.variants)
    except ValueError as e:
        p.error(str(e))
    has_gpu, detail = gpu.detect_gpu()
    if not has_gpu:
        p.error(f"the bench times the kernels on a CUDA GPU, and none is usable here ({detail}); without one, "
                "`snakemake --cores all` draws the figures and the report from archived measurements")
    graph_dir.mkdir(parents=True, exist_ok=True)

    prov = provenance.collect(a.binary, a.device, command=" ".join(["python -m emogi.bench", *(argv or sys.argv[1:])]))
    w = link_limit(a.binary, a.device)
    depth = prov["loads_in_flight"]
    log(f"link limit W = {w:.1f} GB/s (pinned cudaMemcpy host-to-device); {depth} loads in flight per lane")
    write_text(f"{w}\n", out_dir / "link_limit_gbps.txt")
    tables, profiles = [], []
    for spec in a.graphs.split(","):
        kind, scale = spec.split(":")
        widths = [int(x) for x in a.widths.split(",")]
        paths = make_graph(kind, int(scale), a.seed, graph_dir, widths)
        name = f"{kind}{scale}"
        picked = roots.pick_roots(csr.read_csr(paths[widths[0]]).offsets, a.roots, a.seed)
        for width in widths:
            for algorithm in algorithms:
                args = ["--algorithm", algorithm, "--graph", str(paths[width]), "--name", name,
                        "--variants", ",".join(variants[algorithm])]
                if algorithm in ("bfs", "sssp"):
                    args += ["--roots", ",".join(map(str, picked))]
                log(f"{algorithm} on {name} w{width}")
                tables.append(run_binary(a.binary, "run", args + ["--modes", a.modes, "--reps", str(a.reps),
                                                                  "--warmup", str(a.warmup)],
                                         out_dir / "runs.csv", a.device))
                if a.profile:
                    report = out_dir / "profiles" / f"{algorithm}.{name}.w{width}.ncu-rep"
                    profile = profile_runs(a.binary, args, a.modes, report, a.device)
                    if profile is not None:
                        profiles.append(profile)
                # Written after every step, so a job stopped part-way keeps what it verified and timed.
                runs = provenance.stamp(pd.concat(tables, ignore_index=True), prov)
                write_csv(runs, out_dir / "runs.csv")
                summary = summarise(runs, w, depth, pd.concat(profiles, ignore_index=True) if profiles else None)
                write_csv(summary, out_dir / "summary.csv")
    with pd.option_context("display.width", 200, "display.max_rows", 1000):
        print(summary.to_string(index=False, float_format=lambda x: f"{x:.3g}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
