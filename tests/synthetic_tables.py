"""SYNTHETIC measurement tables for the figure and report tests (made up here, in tmp dirs; never written to
results/): runs, profile, link, apps and the microbenchmark tables, in the schema's columns, with made-up numbers
of a plausible shape; and the figure scripts run as the workflow runs them.

`write_synthetic_tables` is shared by test_figures*.py and test_report*.py; tests/synthetic_model.py adds model
outputs for them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.schema import (
    AMPLIFICATION_COLUMNS,
    APP_COLUMNS,
    CONCURRENCY_COLUMNS,
    LATENCY_COLUMNS,
    LINK_COLUMNS,
    MODES,
    PROFILE_COLUMNS,
    RUN_COLUMNS,
    TOY_COLUMNS,
    TOY_PROFILE_COLUMNS,
    VARIANTS,
)

REPO = Path(__file__).resolve().parents[1]

SYNTHETIC_PROVENANCE = {
    "gpu": "SYNTHETIC-GPU (test data)",
    "driver": "0.0",
    "cuda": "0.0",
    "commit": "synthetic",
    "date": "2000-01-01",
}
GRAPHS = ("synth-kron", "synth-urand")
EDGE_BYTES = (4, 8)
ROOTS = (1, 7, 42)
REPS = 3


def write_synthetic_tables(folder: Path, source: str = "fresh", micro: bool = True) -> dict:
    """Write runs.csv, profile.csv, link.csv, source.json and (with `micro`) the microbenchmark tables toy.csv,
    toy_profile.csv, latency.csv, concurrency.csv, amplification.csv of made-up numbers into `folder`; return the
    paths. Runs and profile include throttled rows (max_warps > 0) that figures of default launches must ignore."""
    rng = np.random.default_rng(0)
    folder.mkdir(parents=True, exist_ok=True)
    # made-up shape: device fastest, uvm slowest, merged-aligned < merged < naive in the zero-copy modes
    mode_ms = {"device": 2.0, "zerocopy": 12.0, "zerocopy-pinned": 14.0, "uvm": 40.0}
    variant_f = {"naive": 4.0, "merged": 1.2, "merged-aligned": 1.0}
    rows = []
    for g_i, graph in enumerate(GRAPHS):
        for w in EDGE_BYTES:
            for v in VARIANTS:
                for m in MODES:
                    vf = variant_f[v] if m in ("zerocopy", "zerocopy-pinned") else 1 + 0.1 * VARIANTS.index(v)
                    throttles = (0,) + (THROTTLES if m != "uvm" else ())
                    for max_warps in throttles:
                        slow = throttle_slowdown(v, w, max_warps)  # not a time of the configuration: ignored
                        for root in ROOTS:
                            for rep in range(REPS):
                                t = mode_ms[m] * vf * (1 + 0.5 * g_i) * (w / 4) * (1 + root / 100) * slow
                                t *= 1 + 0.05 * rng.standard_normal()
                                rows.append(
                                    {
                                        **SYNTHETIC_PROVENANCE,
                                        "graph": graph,
                                        "algorithm": "bfs",
                                        "variant": v,
                                        "mode": m,
                                        "edge_bytes": w,
                                        "max_warps": max_warps,
                                        "root": root,
                                        "rep": rep,
                                        "time_ms": t,
                                        "edges_traversed": 1000,
                                        "levels": 5,
                                        "verified": True,
                                    }
                                )
    runs = pd.DataFrame(rows, columns=RUN_COLUMNS)

    bw = {"naive": 4.0, "merged": 10.0, "merged-aligned": 11.0}  # made-up GB/s in the zero-copy modes
    req = {"naive": 34.0, "merged": 90.0, "merged-aligned": 110.0}
    rows = []
    for graph in GRAPHS:
        for w in EDGE_BYTES:
            for v in VARIANTS:
                for m in MODES:
                    throttles = (0,) + (THROTTLES[:1] if m in ("zerocopy", "zerocopy-pinned") else ())
                    for max_warps in throttles:
                        gbps = {"device": 0.01, "uvm": 9.0}.get(m, bw[v] * (0.95 if m == "zerocopy-pinned" else 1))
                        gbps /= throttle_slowdown(v, w, max_warps)
                        time_ns = 5e6 * w
                        read = gbps * time_ns
                        d = req[v] if m != "device" else np.nan
                        requests = read / d if m != "device" else 0
                        rows.append(
                            {
                                **SYNTHETIC_PROVENANCE,
                                "graph": graph,
                                "algorithm": "bfs",
                                "variant": v,
                                "mode": m,
                                "edge_bytes": w,
                                "root": ROOTS[0],
                                "max_warps": max_warps,
                                "launches": 5,
                                "sysmem_read_sectors": requests * d / 32 if requests else 0,
                                "sysmem_read_requests": requests,
                                "pcie_read_bytes": read,
                                "pcie_write_bytes": requests * 16,
                                "dram_read_bytes": 1e6,
                                "gpu_time_ns": time_ns,
                                "avg_request_bytes": d,
                                "pcie_read_gbps": gbps,
                            }
                        )
    profile = pd.DataFrame(rows, columns=PROFILE_COLUMNS)

    rows = []  # copy bandwidth saturating with size: top * s / (s + half)
    for direction in ("h2d", "d2h"):
        for host in ("pinned", "pageable"):
            top = {"pinned": 52.0, "pageable": 13.0}[host] * (1.0 if direction == "h2d" else 0.95)
            half = {"pinned": 1 << 18, "pageable": 1 << 20}[host]
            for size in LINK_SIZES:
                for rep in range(5):
                    g = top * size / (size + half) * (1 + 0.02 * rng.standard_normal())
                    rows.append(
                        {
                            **SYNTHETIC_PROVENANCE,
                            "direction": direction,
                            "host_memory": host,
                            "size_bytes": size,
                            "rep": rep,
                            "time_ms": size / g / 1e6,
                            "gbps": g,
                        }
                    )
    link = pd.DataFrame(rows, columns=LINK_COLUMNS)

    frames = {"runs": runs, "apps": synthetic_apps(rng), "profile": profile, "link": link}
    if micro:
        frames.update(_synthetic_micro(rng))
    paths = {}
    for name, frame in frames.items():
        paths[name] = folder / f"{name}.csv"
        frame.to_csv(paths[name], index=False)
    paths["source"] = folder / "source.json"
    src = {
        "source": source,
        "archive_id": "synthetic-archive" if source == "archive" else None,
        "gpu": SYNTHETIC_PROVENANCE["gpu"],
        "driver": "0.0",
        "cuda": "0.0",
        "link": "SYNTHETIC link",
        "commit": "synthetic",
        "date": "2000-01-01",
        "command": "pytest (synthetic tables)",
    }
    paths["source"].write_text(json.dumps(src))
    return paths


def run_figure(script: Path, inputs: dict, source, out_dir: Path):
    """A figure script as the workflow runs it: --<flag> PATH per input; returns (process, png, csv)."""
    png, csv_path = out_dir / f"{script.stem}.png", out_dir / f"{script.stem}.csv"
    args = [a for flag, path in inputs.items() for a in (f"--{flag}", str(path))]
    done = run_script(script, *args, "--source", source, "--out", png, "--out-csv", csv_path)
    return done, png, csv_path


# --- the applications table (Figs. 11, 12): made-up times, uvm slowest, 4-byte edges 1.6x faster in zero-copy ---
APP_VARIANTS = {
    "bfs": ("merged-aligned", "direction-optimizing"),
    "sssp": ("merged-aligned", "frontier"),
    "cc": ("merged-aligned", "afforest"),
    "pagerank": ("merged-aligned", "frontier"),
}
APP_MODES = ("device", "zerocopy", "uvm")


def synthetic_app_ms(graph_index, algorithm, variant, mode, width):
    base = {"bfs": 10.0, "sssp": 30.0, "cc": 20.0, "pagerank": 400.0}[algorithm] * (1 + 0.5 * graph_index)
    mode_f = {"device": 0.2, "zerocopy": 1.0, "uvm": 2.5}[mode]
    variant_f = 1.0 if variant == "merged-aligned" else 0.6
    width_f = 1.0 if width == 8 or mode != "zerocopy" else 1 / 1.6
    return base * mode_f * variant_f * width_f


def synthetic_apps(rng) -> pd.DataFrame:
    rows = []
    for g_i, graph in enumerate(GRAPHS):
        for algorithm, variants in APP_VARIANTS.items():
            roots = ROOTS[:2] if algorithm in ("bfs", "sssp") else (None,)
            for w in EDGE_BYTES:
                for v in variants:
                    for m in APP_MODES:
                        for root in roots:
                            for rep in range(REPS):
                                t = synthetic_app_ms(g_i, algorithm, v, m, w) * (1 + 0.03 * rng.standard_normal())
                                rows.append(
                                    {
                                        **SYNTHETIC_PROVENANCE,
                                        "graph": graph,
                                        "algorithm": algorithm,
                                        "variant": v,
                                        "mode": m,
                                        "edge_bytes": w,
                                        "max_warps": 0,
                                        "root": root,
                                        "rep": rep,
                                        "time_ms": t,
                                        "edges_traversed": 1000,
                                        "levels": 5 if algorithm == "bfs" else 0,
                                        "iterations": 5,
                                        "components": 3 if algorithm == "cc" else 0,
                                        "verified": True,
                                    }
                                )
    return pd.DataFrame(rows, columns=APP_COLUMNS)


# --- the microbenchmark tables (made up, shaped like a host link: ~1.2 us, ~640 in flight, a pinned cliff) ------
LINK_SIZES = tuple(4096 * 4**k for k in range(10))  # 4 KiB ... 1 GiB
THROTTLES = (16, 64, 256)  # max_warps of throttled BFS runs


def throttle_slowdown(variant, edge_bytes, max_warps):
    """Made-up slowdown of a BFS run throttled to max_warps warps: Little's law with ~640 requests needed in flight
    and r requests per warp (32 naive, edge_bytes / 4 merged), plus 10% (so throttled rows always differ)."""
    if not max_warps:
        return 1.0
    r = 32 if variant == "naive" else max(1, edge_bytes // 4)
    return 1.1 * max(1.0, 640 / (r * max_warps))


MICRO_MODES_ = ("device", "zerocopy", "zerocopy-pinned")
LAT_FOOTPRINTS = tuple(1 << k for k in (22, 26, 28, 30, 32, 33))  # 4 MiB ... 8 GiB
CONC_FOOTPRINTS = tuple(1 << k for k in (28, 29, 30, 31, 32, 33))  # 256 MiB ... 8 GiB
SWEPT_FOOTPRINTS = (1 << 28, 1 << 33)  # full concurrency sweep at these two
CONC_WARPS = tuple(2**k for k in range(13))  # 1 ... 4096
REQUEST_BYTES = (32, 64, 96, 128)
ALIGNMENTS = tuple(32 * 2**k for k in range(8))  # 32 B ... 4 KiB


def synthetic_latency_us(mode, footprint):
    if mode == "device":
        return 0.35
    base = 1.2 if footprint <= 1 << 28 else 1.3
    return base + (0.45 if mode == "zerocopy-pinned" and footprint > 1 << 30 else 0.0)


def synthetic_throughput_gbps(mode, footprint, d, in_flight):
    L = synthetic_latency_us(mode, footprint)
    n = min(in_flight, 100000 if mode == "device" else 640)
    S = {"device": 20000.0, "zerocopy": 730.0}.get(
        mode, 730.0 if footprint < 1 << 30 else (140.0 if footprint == 1 << 30 else 43.0)
    )
    W = 2000.0 if mode == "device" else 52.0 * d / (d + 4)
    return min(n / L * d / 1e3, S * d / 1e3, W)


def _synthetic_micro(rng) -> dict:
    def noise(scale=0.02):
        return 1 + scale * rng.standard_normal()

    toy_gbps = {  # (pattern, element_bytes) -> zero-copy GB/s (made up)
        ("strided", 4): 11.0,
        ("strided", 8): 14.8,
        ("merged-aligned", 4): 50.0,
        ("merged-aligned", 8): 51.1,
        ("merged-misaligned", 4): 16.4,
        ("merged-misaligned", 8): 42.1,
    }
    toy_d = {"strided": 32.0, "merged-aligned": 128.0, "merged-misaligned": 64.0}
    array = 1 << 30
    toy, toy_prof = [], []
    for pattern in ("strided", "merged-aligned", "merged-misaligned"):
        for mode in MICRO_MODES_:
            for eb in (4, 8):
                g0 = toy_gbps[(pattern, eb)] * (0.97 if mode == "zerocopy-pinned" else 1)
                if mode == "device":
                    g0 = 1500.0 if pattern != "strided" else 900.0
                for rep in range(5):
                    g = g0 * noise()
                    toy.append(
                        {
                            **SYNTHETIC_PROVENANCE,
                            "pattern": pattern,
                            "mode": mode,
                            "element_bytes": eb,
                            "array_bytes": array,
                            "rep": rep,
                            "time_ms": array / g / 1e6,
                            "gbps": g,
                            "verified": True,
                        }
                    )
                d = toy_d[pattern] if mode != "device" else np.nan
                read = 0.0 if mode == "device" else array * (1 + 12 / d)
                t_ns = array / (g0 * 0.98)
                req = 0.0 if mode == "device" else array / d
                toy_prof.append(
                    {
                        **SYNTHETIC_PROVENANCE,
                        "pattern": pattern,
                        "mode": mode,
                        "element_bytes": eb,
                        "array_bytes": array,
                        "launches": 1,
                        "sysmem_read_sectors": req * d / 32 if req else 0.0,
                        "sysmem_read_requests": req,
                        "pcie_read_bytes": read,
                        "pcie_write_bytes": req * 16,
                        "dram_read_bytes": array if mode == "device" else 0.0,
                        "gpu_time_ns": t_ns,
                        "avg_request_bytes": d,
                        "pcie_read_gbps": read / t_ns,
                    }
                )

    latency = []
    for mode in MICRO_MODES_:
        for fp in LAT_FOOTPRINTS:
            for rep in range(5):
                ns = synthetic_latency_us(mode, fp) * 1e3 * noise(0.01)
                latency.append(
                    {
                        **SYNTHETIC_PROVENANCE,
                        "mode": mode,
                        "footprint_bytes": fp,
                        "steps": 100000,
                        "rep": rep,
                        "time_ms": ns * 100000 / 1e6,
                        "latency_ns": ns,
                        "verified": True,
                    }
                )

    conc = []
    for mode in MICRO_MODES_:
        for fp in CONC_FOOTPRINTS:
            warps = CONC_WARPS if fp in SWEPT_FOOTPRINTS else CONC_WARPS[-1:]
            for d in REQUEST_BYTES:
                for w in warps:
                    for k in (1, 4):
                        for rep in range(3):
                            g = synthetic_throughput_gbps(mode, fp, d, w * k) * noise()
                            n_req = w * k * 256
                            conc.append(
                                {
                                    **SYNTHETIC_PROVENANCE,
                                    "mode": mode,
                                    "footprint_bytes": fp,
                                    "request_bytes": d,
                                    "warps": w,
                                    "reads_per_warp": k,
                                    "rep": rep,
                                    "requests": n_req,
                                    "time_ms": n_req * d / g / 1e6,
                                    "gbps": g,
                                    "mrps": g * 1e3 / d,
                                }
                            )

    amp = []
    for g_i, graph in enumerate(GRAPHS):
        for w in EDGE_BYTES:
            for root in ROOTS:
                need = 1e9 * (1 + g_i) * (w / 4) * (1 + root / 1000)
                for a in ALIGNMENTS:
                    raf = 1.02 + (0.43 + 0.1 * g_i) * np.log2(a / 32)
                    amp.append(
                        {
                            "graph": graph,
                            "edge_bytes": w,
                            "root": root,
                            "alignment_bytes": a,
                            "bytes_needed": need,
                            "bytes_fetched": need * raf,
                            "raf": raf,
                        }
                    )
    return {
        "toy": pd.DataFrame(toy, columns=TOY_COLUMNS),
        "toy_profile": pd.DataFrame(toy_prof, columns=TOY_PROFILE_COLUMNS),
        "latency": pd.DataFrame(latency, columns=LATENCY_COLUMNS),
        "concurrency": pd.DataFrame(conc, columns=CONCURRENCY_COLUMNS),
        "amplification": pd.DataFrame(amp, columns=AMPLIFICATION_COLUMNS),
    }


def run_script(script: Path, *args) -> subprocess.CompletedProcess:
    """Run a figure script the way the workflow does: a fresh interpreter, `python -m figures.NAME`, with the
    repository importable (the workflow puts it on PYTHONPATH; here it is the working directory)."""
    return subprocess.run(
        [sys.executable, "-m", f"figures.{script.stem}", *map(str, args)], cwd=REPO, capture_output=True, text=True
    )
