"""SYNTHETIC model outputs (parameters.json, predictions.csv, prediction_summary.json) for the synthetic tables
of tests/synthetic_tables.py, made with the model's own arithmetic; for the model figures' and report's tests."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from tests.synthetic_tables import (
    CONC_FOOTPRINTS,
    LAT_FOOTPRINTS,
    MICRO_MODES_,
    REQUEST_BYTES,
    synthetic_throughput_gbps,
)


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
