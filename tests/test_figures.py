"""The figure scripts on small SYNTHETIC tables (made up here, in tmp dirs; never written to results/).

`write_synthetic_tables` is shared with test_report.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

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
from figures import inputs, style

REPO = Path(__file__).resolve().parents[1]
FIG09 = REPO / "figures" / "fig09_speedup_over_uvm.py"
FIG08 = REPO / "figures" / "fig08_pcie_bandwidth.py"

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


def write_synthetic_model(folder: Path, tables: dict) -> dict:
    """Made-up model outputs in the formats of model.fit and model.predict: parameters.json, predictions.csv and
    prediction_summary.json, for the synthetic tables in `tables`; returns their paths.

    The predictions follow the model's own arithmetic (model.fit.params_for at the smallest chased footprint, the
    in-flight limit r w of throttled runs, predicted = D / T(d) + floor), with D chosen so that predicted = measured
    x (1 + a made-up error): the figures that re-evaluate the model must land on predicted_ms."""
    from model.fit import params_for
    from model.littles_law import binding_term, throughput_gbps, with_in_flight_limit
    from model.predict import requests_per_warp

    folder.mkdir(parents=True, exist_ok=True)
    lat = pd.read_csv(tables["latency"]).groupby(["mode", "footprint_bytes"])["latency_ns"]
    latency = [
        {
            "mode": m,
            "footprint_bytes": int(fp),
            "L_us": float(v) / 1e3,
            "lo": float(v) / 1e3 * 0.98,
            "hi": float(v) / 1e3 * 1.02,
        }
        for (m, fp), v in lat.median().items()
    ]
    S = []
    for mode in ("zerocopy", "zerocopy-pinned"):
        for fp in CONC_FOOTPRINTS:
            limiting = mode == "zerocopy-pinned" and fp >= 1 << 30
            s = (140.0 if fp == 1 << 30 else 43.0) if limiting else None
            S.append(
                {
                    "mode": mode,
                    "footprint_bytes": fp,
                    "S_miops": s,
                    "lo": None if s is None else 0.95 * s,
                    "hi": None if s is None else 1.05 * s,
                    "limiting": limiting,
                }
            )
    rate = [
        {
            "mode": m,
            "footprint_bytes": fp,
            "request_bytes": d,
            "R_miops": synthetic_throughput_gbps(m, fp, d, 4096 * 4) * 1e3 / d,
            "lo": None,
            "hi": None,
        }
        for m in MICRO_MODES_
        for fp in CONC_FOOTPRINTS
        for d in REQUEST_BYTES
    ]
    params = {
        "W_gbps": {"value": 52.0, "lo": 51.5, "hi": 52.5, "source": "SYNTHETIC pinned h2d peak"},
        "N_max": {
            "value": 640.0,
            "lo": 610.0,
            "hi": 670.0,
            "from": {"mode": "zerocopy", "footprint_bytes": 1 << 28, "request_bytes": 32},
        },
        "latency": latency,
        "request_rate": rate,
        "S": S,
        "method": "SYNTHETIC parameters (tests)",
    }
    paths = {
        "parameters": folder / "parameters.json",
        "predictions": folder / "predictions.csv",
        "summary": folder / "prediction_summary.json",
    }
    paths["parameters"].write_text(json.dumps(params))

    runs = pd.read_csv(tables["runs"])
    runs = runs[runs["mode"].isin(["zerocopy", "zerocopy-pinned"])]
    keys = ["graph", "algorithm", "variant", "mode", "edge_bytes", "max_warps"]
    t = runs.groupby(keys + ["root"])["time_ms"].median().groupby(level=list(range(len(keys)))).mean()
    errors = [0.03, -0.06, 0.12, -0.2, 0.35, 0.01]  # made-up, some past 25%
    rows, D_of = [], {}
    for i, (key, measured) in enumerate(sorted(t.items(), key=lambda kv: kv[0][-1])):  # default launches first
        rec = dict(zip(keys, key))
        d = {"naive": 34.0, "merged": 90.0, "merged-aligned": 110.0}[rec["variant"]]
        p = params_for(params, rec["mode"], LAT_FOOTPRINTS[0])  # model.predict's default: the smallest chased
        base = key[:-1]
        if rec["max_warps"]:
            p = with_in_flight_limit(p, requests_per_warp(rec["variant"], rec["edge_bytes"]) * rec["max_warps"])
        T = throughput_gbps(d, p)
        floor = 0.2 * t[base + (0,)]
        if not rec["max_warps"]:
            D_of[base] = max(measured * (1 + errors[i % 6]) - floor, 0.05 * measured) * 1e6 * T
        D = D_of[base]
        transfer = D / (T * 1e9) * 1e3
        predicted = transfer + floor
        rows.append(
            {
                **rec,
                "footprint_bytes": 1 << 31,
                "measured_ms": measured,
                "D_bytes": D,
                "d_bytes": d,
                "T_gbps": T,
                "bound": binding_term(d, p),
                "transfer_ms": transfer,
                "floor_ms": floor,
                "predicted_ms": predicted,
                "rel_error": predicted / measured - 1,
            }
        )
    pred = pd.DataFrame(rows).sort_values(keys, ignore_index=True)
    pred.to_csv(paths["predictions"], index=False)
    worst = pred.loc[pred["rel_error"].abs().idxmax()]
    summary = {
        "median_abs_error": float(pred["rel_error"].abs().median()),
        "worst_abs_error": float(abs(worst["rel_error"])),
        "worst_run": {
            **{k: (v.item() if hasattr(v, "item") else v) for k, v in worst[keys].items()},
            "rel_error": float(worst["rel_error"]),
        },
        "n_runs": int(len(pred)),
        "rule": "sum",
        "footprint_rule": "sweep",
        "excluded": [
            "uvm: not a zero-copy run (SYNTHETIC) (12 configuration(s))",
            "synth-kron/naive/zerocopy/w4/max_warps=9: SYNTHETIC reason",
        ],
    }
    paths["summary"].write_text(json.dumps(summary))
    return paths


def run_script(script: Path, *args) -> subprocess.CompletedProcess:
    """Run a figure script the way the workflow does: a fresh interpreter, `python -m figures.NAME`, with the
    repository importable (the workflow puts it on PYTHONPATH; here it is the working directory)."""
    return subprocess.run(
        [sys.executable, "-m", f"figures.{script.stem}", *map(str, args)], cwd=REPO, capture_output=True, text=True
    )


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return write_synthetic_tables(tmp_path_factory.mktemp("tables"))


# --- fig09 ------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fig09_out(tables, tmp_path_factory):
    """One CLI run writing PNG, PDF and CSV (each run costs seconds: a fresh interpreter and matplotlib)."""
    out = tmp_path_factory.mktemp("fig09")
    p = {"png": out / "fig09.png", "pdf": out / "fig09.pdf", "csv": out / "fig09.csv", "dir": out}
    r = run_script(
        FIG09,
        "--runs",
        tables["runs"],
        "--source",
        tables["source"],
        "--out",
        p["png"],
        p["pdf"],
        "--out-csv",
        p["csv"],
    )
    assert r.returncode == 0, r.stderr
    return p


def test_fig09_writes_png_pdf_and_csv(fig09_out):
    assert fig09_out["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and fig09_out["png"].stat().st_size > 10_000
    assert fig09_out["pdf"].read_bytes()[:4] == b"%PDF"
    assert len(pd.read_csv(fig09_out["csv"])) == len(GRAPHS) * len(EDGE_BYTES) * len(VARIANTS) * 3
    assert not list(fig09_out["dir"].glob(".*")), "temporary files left behind"


def test_fig09_speedups_match_independent_computation(tables, fig09_out):
    got = pd.read_csv(fig09_out["csv"])
    runs = pd.read_csv(tables["runs"])
    runs = runs[runs["max_warps"] == 0]  # throttled runs are not times of the configuration
    per_root = runs.groupby(["graph", "edge_bytes", "variant", "mode", "root"])["time_ms"].median()
    t = per_root.groupby(level=[0, 1, 2, 3]).mean()
    n = 0
    for row in got.itertuples():
        baseline = min(t[(row.graph, row.edge_bytes, v, "uvm")] for v in VARIANTS)
        expected = baseline / t[(row.graph, row.edge_bytes, row.variant, row.mode)]
        assert row.speedup == pytest.approx(expected, rel=1e-5)
        assert row.uvm_baseline_ms == pytest.approx(baseline, rel=1e-5)
        n += 1
    assert n == len(got) > 0
    assert set(got["mode"]) == {"zerocopy", "zerocopy-pinned", "device"}


def test_fig09_baseline_is_fastest_uvm_variant(tables):
    """Make merged the fastest in uvm mode for one graph: the baseline must follow it (never inflate)."""
    from importlib import import_module

    fig09 = import_module("figures.fig09_speedup_over_uvm")
    runs = pd.read_csv(tables["runs"])
    sel = (runs.graph == GRAPHS[0]) & (runs["mode"] == "uvm") & (runs.variant == "merged")
    runs.loc[sel, "time_ms"] /= 10
    out = fig09.speedups(runs)
    first = out[out.graph == GRAPHS[0]]
    assert set(first["uvm_baseline_variant"]) == {"merged"}
    assert set(out[out.graph == GRAPHS[1]]["uvm_baseline_variant"]) == {"naive"}


# --- fig08 ------------------------------------------------------------------------------------------------
def test_fig08_writes_png_and_csv(tables, tmp_path):
    png, csv = tmp_path / "fig08.png", tmp_path / "fig08.csv"
    r = run_script(
        FIG08,
        "--profile",
        tables["profile"],
        "--link",
        tables["link"],
        "--source",
        tables["source"],
        "--out",
        png,
        "--out-csv",
        csv,
    )
    assert r.returncode == 0, r.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    got = pd.read_csv(csv)
    assert set(got["mode"]) == {"zerocopy", "zerocopy-pinned", "uvm"}

    prof = pd.read_csv(tables["profile"])
    prof = prof[prof["max_warps"] == 0]
    for row in got.itertuples():
        sel = prof[
            (prof.graph == row.graph)
            & (prof.edge_bytes == row.edge_bytes)
            & (prof.variant == row.variant)
            & (prof["mode"] == row.mode)
        ]
        assert row.pcie_read_gbps == pytest.approx(sel.pcie_read_bytes.sum() / sel.gpu_time_ns.sum(), rel=1e-5)
    link = pd.read_csv(tables["link"])
    pinned = link[(link.direction == "h2d") & (link.host_memory == "pinned")]
    assert np.allclose(got["peak_gbps"], pinned.groupby("size_bytes").gbps.median().max())


# --- missing / empty tables -------------------------------------------------------------------------------
@pytest.mark.parametrize("state", ["missing", "zero-bytes", "header-only"])
def test_load_table_no_data(tmp_path, state):
    path = tmp_path / "runs.csv"
    if state == "zero-bytes":
        path.write_text("")
    elif state == "header-only":
        path.write_text(",".join(RUN_COLUMNS) + "\n")
    with pytest.raises(inputs.FigureDataError) as e:
        inputs.load_table(path, "runs", "fig09")
    msg = str(e.value)
    assert msg.startswith("figure fig09 has no data: ")
    assert str(path) in msg and "'runs' table" in msg
    assert ("is missing" if state == "missing" else "is empty") in msg


def test_load_table_lacking_columns(tmp_path):
    path = tmp_path / "link.csv"
    path.write_text("direction,gbps\nh2d,1.0\n")
    with pytest.raises(inputs.FigureDataError, match="figure fig08.*link table lacks columns"):
        inputs.load_table(path, "link", "fig08")


def test_fig09_cli_reports_missing_table(tables, tmp_path):
    r = run_script(FIG09, "--runs", tmp_path / "nope.csv", "--source", tables["source"], "--out", tmp_path / "x.png")
    assert r.returncode != 0
    assert "figure fig09 has no data" in r.stderr and "'runs' table" in r.stderr
    assert not (tmp_path / "x.png").exists()


def test_fig08_cli_reports_empty_profile(tables, tmp_path):
    empty = tmp_path / "profile.csv"
    empty.write_text(",".join(PROFILE_COLUMNS) + "\n")
    r = run_script(
        FIG08, "--profile", empty, "--link", tables["link"], "--source", tables["source"], "--out", tmp_path / "x.png"
    )
    assert r.returncode != 0
    assert "figure fig08 has no data" in r.stderr and "'profile' table" in r.stderr


# --- the source label -------------------------------------------------------------------------------------
def test_source_label_fresh():
    src = {"source": "fresh", "gpu": "NVIDIA H100 80GB HBM3", "date": "2026-11-20"}
    assert inputs.source_label(src) == "fresh measurements on NVIDIA H100 80GB HBM3, 2026-11-20"


def test_source_label_archive():
    src = {"source": "archive", "archive_id": "h100-2026-11-20", "gpu": "NVIDIA H100 80GB HBM3", "date": "2026-11-20"}
    assert inputs.source_label(src) == "archived measurements from NVIDIA H100 80GB HBM3 on 2026-11-20"


@pytest.mark.parametrize("src", [{"source": "fresh", "gpu": "X"}, {"source": "guess", "gpu": "X", "date": "d"}])
def test_source_label_rejects_incomplete(src):
    with pytest.raises(inputs.FigureDataError):
        inputs.source_label(src)


def test_save_is_atomic_and_by_extension(tmp_path):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([0, 1])
    out = style.save(fig, [tmp_path / "a.png", tmp_path / "a.pdf"])
    assert [p.name for p in out] == ["a.png", "a.pdf"]
    assert (tmp_path / "a.pdf").read_bytes()[:4] == b"%PDF"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf", "a.png"]
    with pytest.raises(ValueError, match="format"):
        style.save(plt.figure(), tmp_path / "a.jpeg2")
