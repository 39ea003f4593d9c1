"""The kernel benchmark (`snakemake --cores all bench`, workflow/rules/bench.smk): every algorithm x variant x
mode x edge width on GAP graphs, verified and timed, in one table: median time, edges/s, GB/s of lists read and
the fraction of the link limit W (the pinned cudaMemcpy host-to-device peak, measured in the same workflow).

The workflow holds the plan and this module its pieces. Config `bench.graphs` (kind:scale) become graphs of the
study's kind (`graph_specs`), made by the study's own rules (workflow/rules/datasets.smk) under its names
(resources/graphs/kron21.w8.csr, .w4.csr). Rule bench_link measures W (results/bench/link.csv); rule bench_run
times one algorithm on one graph and width (results/bench/runs/<algorithm>.<graph>.w<width>.csv, `cells` names
them all) with `python -m emogi.measure run`, which verifies every run before its row is written: a failed
verification fails the job. Rule bench gathers the cells:

    python -m emogi.bench summary --runs PART.csv ... --link link.csv --provenance provenance.json \
        [--profiles PART.csv ...] --out-dir results/bench

writes runs.csv, summary.csv and link_limit_gbps.txt there and prints the summary table.

With config bench.profile, every run that reads host memory (zerocopy, zerocopy-pinned, zerocopy-registered,
auto) is run once more under Nsight Compute (rule bench_profile, emogi.profile), which counts the 32-byte
sectors it fetched from host memory. The table then also gives `fetched_ratio` (sectors x 32 over the list bytes
the run needed: the partial sectors at list ends, and lists read twice when neighbouring lists share a sector) and
`fetched_fraction_of_w`, the link's use in bytes actually fetched per second (GB/s of lists read x fetched_ratio,
over W).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv, write_text
from emogi.schema import ALL_VARIANTS, HOST_READING_MODES, ROOTED_ALGORITHMS, VARIANTS_OF, entry_bytes, fetched_bytes

SUMMARY_COLUMNS = [
    "algorithm",
    "graph",
    "edge_bytes",
    "variant",
    "mode",
    "runs",
    "median_ms",
    "min_ms",
    "max_ms",
    "edges_traversed",
    "edges_per_s",
    "gbps",
    "fraction_of_w",
    "loads_in_flight",
    "fetched_ratio",
    "fetched_fraction_of_w",
]
KEYS = ["algorithm", "graph", "edge_bytes", "variant", "mode"]
EDGE_FACTOR = 16  # GAP's
OUT_DIR = "results/bench"


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------- the plan


def graph_name(spec: str) -> str:
    """bench.graphs' kind:scale -> the graph's name (kron:21 -> kron21), as the study names its graphs."""
    kind, scale = spec.split(":")
    return f"{kind}{int(scale)}"


def graph_specs(bench: dict, graphs: dict) -> dict[str, dict]:
    """The bench graphs as the study's graph specs (config `graphs:`, emogi.datasets.sources): name -> a generator
    spec, GAP's edge factor, seed and weights' seed bench.seed. ValueError where a study graph of the same name is
    made otherwise: both would be the one file resources/graphs/<name>.w8.csr."""
    out = {}
    for spec in bench["graphs"]:
        kind, scale = spec.split(":")
        name = graph_name(spec)
        mine = {
            "source": "generator",
            "generator": kind,
            "scale": int(scale),
            "edge_factor": EDGE_FACTOR,
            "seed": bench["seed"],
            "weights_seed": bench["seed"],
        }
        theirs = graphs.get(name)
        if theirs is not None:
            defaults = {"source": "generator", "edge_factor": EDGE_FACTOR, "weights_seed": 1}
            differ = [k for k, v in mine.items() if theirs.get(k, defaults.get(k)) != v]
            if theirs.get("initiator") is not None:
                from emogi.datasets.generators import GRAPH500_ABC  # only where needed: the bench needs no generator

                if tuple(theirs["initiator"]) != GRAPH500_ABC:
                    differ.append("initiator")
            if differ:
                raise ValueError(
                    f"bench.graphs' {spec} would be resources/graphs/{name}.w8.csr, which config "
                    f"graphs.{name} makes with another {', '.join(differ)}: rename that graph, or "
                    "change bench.seed to match it"
                )
            continue  # the study's own graph, made once for both
        out[name] = mine
    return out


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
        raise ValueError(
            f"none of the variants {named} applies to {', '.join(empty)}: leave it out of "
            "bench.algorithms (`emogi list` shows each algorithm's variants)"
        )
    return picked


def host_modes(modes) -> list[str]:
    """The modes whose runs read host memory, those a profile counts (empty: nothing to profile)."""
    return [m for m in modes if m in HOST_READING_MODES]


def cells(bench: dict) -> list[tuple[str, str, int]]:
    """(algorithm, graph name, width) of every timing job, in the table's order: graph, then width, then
    algorithm."""
    return [
        (algorithm, graph_name(spec), int(width))
        for spec in bench["graphs"]
        for width in bench["widths"]
        for algorithm in bench["algorithms"]
    ]


def run_parts(bench: dict, out_dir=OUT_DIR) -> list[str]:
    """The per-cell tables of timed runs that rule bench gathers."""
    return [f"{out_dir}/runs/{a}.{g}.w{w}.csv" for a, g, w in cells(bench)]


def profile_parts(bench: dict, out_dir=OUT_DIR) -> list[str]:
    """The per-cell Nsight Compute tables (none unless bench.profile, or when no mode reads host memory)."""
    if not bench["profile"] or not host_modes(bench["modes"]):
        return []
    return [f"{out_dir}/profiles/{a}.{g}.w{w}.csv" for a, g, w in cells(bench)]


def roots_file(algorithm: str, graph: str, out_dir=OUT_DIR):
    """A cell's roots: BFS and SSSP start from the bench's (rule bench_roots); CC and PageRank from none ([])."""
    return f"{out_dir}/roots/{graph}.txt" if algorithm in ROOTED_ALGORITHMS else []


def run_args(variants: dict, algorithm: str, graph_path, name: str, roots_path) -> str:
    """The `emogi run` arguments a cell's timing (rule bench_run) and its profile (bench_profile) share."""
    args = f"--algorithm {algorithm} --graph {graph_path} --name {name} --variants {','.join(variants[algorithm])}"
    return args + (f" --roots-file {roots_path}" if roots_path else "")


# ---------------------------------------------------------------------------------------------- the numbers


def link_limit(link: pd.DataFrame) -> float:
    """W: the best pinned host-to-device cudaMemcpy bandwidth, GB/s (median over the reps of each size)."""
    pinned = link[(link["direction"] == "h2d") & (link["host_memory"] == "pinned")]
    if pinned.empty:
        raise ValueError("the link table has no pinned host-to-device rows")
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
    out = (
        runs.groupby(KEYS, sort=False)
        .agg(
            runs=("time_ms", "size"),
            median_ms=("time_ms", "median"),
            min_ms=("time_ms", "min"),
            max_ms=("time_ms", "max"),
            edges_traversed=("edges_traversed", "median"),
        )
        .reset_index()
    )
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


def read_profiles(paths) -> pd.DataFrame | None:
    """The per-cell Nsight Compute tables in one (None without any)."""
    if not paths:
        return None
    profile = pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)
    profile["root"] = profile["root"].astype("Int64")
    return profile


def gather(run_paths, link_path, provenance_path, profile_paths=(), out_dir=OUT_DIR) -> pd.DataFrame:
    """Rule bench: the cells' runs in one table (runs.csv), W (link_limit_gbps.txt) and the summary (summary.csv,
    returned)."""
    out_dir = Path(out_dir)
    w = link_limit(pd.read_csv(link_path))
    depth = json.loads(Path(provenance_path).read_text()).get("loads_in_flight") or 0
    log(f"link limit W = {w:.1f} GB/s (pinned cudaMemcpy host-to-device); {depth} loads in flight per lane")
    runs = pd.concat([pd.read_csv(p) for p in run_paths], ignore_index=True)
    summary = summarise(runs, w, depth, read_profiles(profile_paths))
    write_text(f"{w}\n", out_dir / "link_limit_gbps.txt")
    write_csv(runs, out_dir / "runs.csv")
    write_csv(summary, out_dir / "summary.csv")
    return summary


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m emogi.bench", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("summary", help="gather the cells' runs into runs.csv and summary.csv; print the table")
    s.add_argument("--runs", nargs="+", required=True, help="the cells' tables of timed runs (emogi.measure run)")
    s.add_argument("--link", required=True, help="the link probe's table (emogi.measure linkbw)")
    s.add_argument("--provenance", required=True, help="emogi.provenance's record of the binary (loads in flight)")
    s.add_argument("--profiles", nargs="*", default=[], help="the cells' Nsight Compute tables (emogi.profile run)")
    s.add_argument("--out-dir", default=OUT_DIR)
    a = p.parse_args(argv)
    summary = gather(a.runs, a.link, a.provenance, a.profiles, a.out_dir)
    with pd.option_context("display.width", 200, "display.max_rows", 1000):
        print(summary.to_string(index=False, float_format=lambda x: f"{x:.3g}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
