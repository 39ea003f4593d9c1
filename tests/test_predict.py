"""model/predict.py on a SYNTHETIC runs/profile/parameters set, against values computed by hand."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model.littles_law import LinkParams
from model.predict import OUT_COLUMNS, chain_bytes_per_step, predict, predict_runtime_ms, requests_per_warp

REPO = Path(__file__).resolve().parent.parent
MiB, GiB = 1 << 20, 1 << 30

PARAMETERS = {
    "W_gbps": {"value": 50.0, "lo": 49.0, "hi": 51.0, "source": "synthetic"},
    "N_max": {
        "value": 800.0,
        "lo": 790.0,
        "hi": 810.0,
        "from": {"mode": "zerocopy", "footprint_bytes": 64 * MiB, "request_bytes": 32},
    },
    "latency": [
        {"mode": m, "footprint_bytes": f, "L_us": L, "lo": L, "hi": L}
        for m, f, L in (
            ("device", 64 * MiB, 0.3),
            ("zerocopy", 64 * MiB, 1.0),
            ("zerocopy", 8 * GiB, 1.25),
            ("zerocopy-pinned", 64 * MiB, 1.0),
            ("zerocopy-pinned", 8 * GiB, 2.0),
        )
    ],
    "request_rate": [],
    "S": [
        {"mode": m, "footprint_bytes": f, "S_miops": S, "lo": S, "hi": S, "limiting": S is not None}
        for m, f, S in (
            ("zerocopy", 64 * MiB, None),
            ("zerocopy", 8 * GiB, None),
            ("zerocopy-pinned", 64 * MiB, None),
            ("zerocopy-pinned", GiB, None),
            ("zerocopy-pinned", 8 * GiB, 40.0),
        )
    ],
    "method": "synthetic",
}
EDGES = 100_000_000  # edges traversed from every root: the edge list is 8e8 bytes at 8-byte ids

# measured medians of root 1 (the profiled root) per (variant, mode, max_warps); root 2 runs 10x slower
TIMES = {
    ("merged-aligned", "zerocopy", 0): 25.0,
    ("merged-aligned", "zerocopy-pinned", 0): 30.0,
    ("merged-aligned", "device", 0): 5.0,
    ("merged-aligned", "uvm", 0): 90.0,
    ("naive", "zerocopy", 0): 40.0,
    ("naive", "device", 0): 10.0,
    ("merged-aligned", "zerocopy", 100): 60.0,
    ("merged-aligned", "device", 100): 8.0,
    ("merged", "zerocopy", 0): 33.0,
    ("merged", "device", 0): 6.0,  # merged: never profiled
    ("naive", "zerocopy-pinned", 0): 45.0,
}
# profiled root 1: sectors, requests -> D = 32 x sectors, d = 32 x sectors / requests
PROFILE = {
    ("merged-aligned", "zerocopy"): (3e7, 1e7),
    ("merged-aligned", "zerocopy-pinned"): (3e7, 1e7),
    ("naive", "zerocopy"): (2e7, 2e7),
    ("naive", "zerocopy-pinned"): (2e7, 2e7),
    ("merged-aligned", "device"): (0.0, 0.0),
    ("merged-aligned", "uvm"): (0.0, 0.0),
}


def synthetic_runs():
    rows = []
    for (variant, mode, warps), t in TIMES.items():
        for root, scale in ((1, 1.0), (2, 10.0)):
            for rep, jitter in enumerate((0.9, 1.0, 1.3)):  # median = t
                rows.append(
                    {
                        "graph": "g",
                        "algorithm": "bfs",
                        "variant": variant,
                        "mode": mode,
                        "edge_bytes": 8,
                        "max_warps": warps,
                        "root": root,
                        "rep": rep,
                        "time_ms": t * scale * jitter,
                        "edges_traversed": EDGES,
                        "levels": 5,
                        "verified": True,
                    }
                )
    return pd.DataFrame(rows)


def synthetic_profile():
    return pd.DataFrame(
        [
            {
                "graph": "g",
                "algorithm": "bfs",
                "variant": v,
                "mode": m,
                "edge_bytes": 8,
                "root": 1,
                "max_warps": 0,
                "launches": 5,
                "sysmem_read_sectors": s,
                "sysmem_read_requests": r,
                "pcie_read_bytes": 1.1 * 32 * s,
                "gpu_time_ns": 1e6,
                "avg_request_bytes": 32 * s / r if r else math.nan,
            }
            for (v, m), (s, r) in PROFILE.items()
        ]
    )


@pytest.fixture(scope="module")
def result():
    return predict(synthetic_runs(), synthetic_profile(), PARAMETERS)


def _row(table, variant, mode, warps=0):
    hit = table[(table["variant"] == variant) & (table["mode"] == mode) & (table["max_warps"] == warps)]
    assert len(hit) == 1, (variant, mode, warps)
    return hit.iloc[0]


def test_columns_are_the_declared_ones(result):
    # what the readers rely on is pinned by tests/test_model_outputs.py (model.outputs.PREDICTION_COLUMNS)
    table, _ = result
    assert list(table.columns) == OUT_COLUMNS


def test_bandwidth_bound_run_by_hand(result):
    r = _row(result[0], "merged-aligned", "zerocopy")
    assert r["D_bytes"] == 32 * 3e7 and r["d_bytes"] == pytest.approx(96.0)
    assert r["footprint_bytes"] == EDGES * 8
    # sweep rule: L at the smallest footprint, 1.0 us; 800 x 96 B / 1 us = 76.8 GB/s > W = 50
    assert r["T_gbps"] == pytest.approx(50.0) and r["bound"] == "W"
    assert r["transfer_ms"] == pytest.approx(9.6e8 / 50e9 * 1e3)  # 19.2 ms
    assert r["floor_ms"] == pytest.approx(5.0)  # device run, profiled root only
    assert r["measured_ms"] == pytest.approx(25.0)  # root 2 (10x slower) left out
    assert r["predicted_ms"] == pytest.approx(19.2 + 5.0)
    assert r["rel_error"] == pytest.approx((24.2 - 25.0) / 25.0)


def test_latency_bound_run_by_hand(result):
    r = _row(result[0], "naive", "zerocopy")
    # d = 32 B: 800 x 32 B / 1 us = 25.6 GB/s < W
    assert r["d_bytes"] == pytest.approx(32.0) and r["bound"] == "latency"
    assert r["T_gbps"] == pytest.approx(25.6)
    assert r["transfer_ms"] == pytest.approx(6.4e8 / 25.6e9 * 1e3)  # 25 ms
    assert r["predicted_ms"] == pytest.approx(25.0 + 10.0)
    assert r["rel_error"] == pytest.approx((35.0 - 40.0) / 40.0)


def test_throttled_run_limits_requests_in_flight(result):
    r = _row(result[0], "merged-aligned", "zerocopy", 100)
    n = requests_per_warp("merged-aligned", 8) * 100  # 2 lines x 100 warps = 200 < 800
    assert n == 200
    assert r["T_gbps"] == pytest.approx(200 / 1.0 * 96 / 1e3) and r["bound"] == "latency"  # 19.2 GB/s
    assert r["D_bytes"] == 32 * 3e7  # the default launch's profile
    assert r["floor_ms"] == pytest.approx(8.0)  # device run with 100 warps
    assert r["predicted_ms"] == pytest.approx(9.6e8 / 19.2e9 * 1e3 + 8.0)  # 50 + 8 ms


def test_requests_per_warp():
    assert requests_per_warp("merged-aligned", 8) == 2 and requests_per_warp("merged-aligned", 4) == 1
    assert requests_per_warp("merged", 8) == 3 and requests_per_warp("merged", 4) == 2
    assert requests_per_warp("naive", 8) == 32
    # k steps read before any is used: k times the lines of one step; naive reads one entry at a time
    assert requests_per_warp("merged-aligned", 8, 4) == 8 and requests_per_warp("merged", 4, 4) == 8
    assert requests_per_warp("naive", 8, 4) == 32
    with pytest.raises(ValueError, match="variant"):
        requests_per_warp("frontier", 8)
    with pytest.raises(ValueError, match="loads_in_flight"):
        requests_per_warp("merged", 8, 0)


def test_summary(result):
    table, summary = result
    err = table["rel_error"].abs()
    assert summary["n_runs"] == len(table) == 5
    assert summary["median_abs_error"] == pytest.approx(float(np.median(err)))
    assert summary["worst_abs_error"] == pytest.approx(float(err.max()))
    worst = table.loc[err.idxmax()]
    assert summary["worst_run"]["variant"] == worst["variant"] and summary["worst_run"]["mode"] == worst["mode"]
    assert summary["worst_run"]["rel_error"] == pytest.approx(worst["rel_error"])
    assert summary["rule"] == "sum"
    mx = np.maximum(table["transfer_ms"], table["floor_ms"])
    assert summary["by_rule"]["max"]["median_abs_error"] == pytest.approx(
        float(np.median(np.abs(mx / table["measured_ms"] - 1)))
    )
    json.dumps(summary, allow_nan=False)


def test_excluded_with_reasons(result):
    table, summary = result
    assert set(table["mode"]) <= {"zerocopy", "zerocopy-pinned"}
    text = "\n".join(summary["excluded"])
    assert "device: not a zero-copy run" in text and "uvm: not a zero-copy run" in text
    assert "g/merged/zerocopy/w8/max_warps=0: no profile row" in text


def test_edge_list_rule_uses_the_whole_edge_list():
    table, summary = predict(synthetic_runs(), synthetic_profile(), PARAMETERS, footprint_rule="edge-list")
    r = _row(table, "merged-aligned", "zerocopy-pinned")
    # L linear in log(footprint) between 64 MiB (1.0 us) and 8 GiB (2.0 us), at 8e8 bytes
    w = (math.log(8 * GiB) - math.log(8e8)) / (math.log(8 * GiB) - math.log(64 * MiB))
    L = w * 1.0 + (1 - w) * 2.0
    assert r["T_gbps"] == pytest.approx(min(800 / L * 96 / 1e3, 50.0))
    assert summary["footprint_rule"] == "edge-list"
    assert summary["other_footprint_rule"]["footprint_rule"] == "sweep"


def test_max_rule_and_footprints_override():
    sizes = pd.DataFrame({"graph": ["g"], "edge_bytes": [8], "footprint_bytes": [12345]})
    table, summary = predict(synthetic_runs(), synthetic_profile(), PARAMETERS, footprints=sizes, rule="max")
    r = _row(table, "naive", "zerocopy")
    assert r["predicted_ms"] == pytest.approx(max(25.0, 10.0)) and r["footprint_bytes"] == 12345
    assert summary["rule"] == "max"
    with pytest.raises(ValueError, match="rule"):
        predict(synthetic_runs(), synthetic_profile(), PARAMETERS, rule="mean")


def test_predict_runtime_ms():
    p = LinkParams(W_gbps=50.0, N_max=800, L_us=1.0)
    assert predict_runtime_ms(9.6e8, 96.0, p) == pytest.approx(19.2)
    assert predict_runtime_ms(9.6e8, 96.0, p, floor_ms=5.0) == pytest.approx(24.2)
    assert predict_runtime_ms(9.6e8, 96.0, p, floor_ms=50.0, rule="max") == pytest.approx(50.0)
    np.testing.assert_allclose(predict_runtime_ms(np.array([6.4e8, 9.6e8]), np.array([32.0, 96.0]), p), [25.0, 19.2])


def test_missing_columns_fail_clearly():
    with pytest.raises(ValueError, match="profile table lacks columns"):
        predict(synthetic_runs(), synthetic_profile().drop(columns="sysmem_read_sectors"), PARAMETERS)


def test_loads_in_flight_shorten_the_chain_and_raise_the_throttled_limit():
    amplification = synthetic_amplification({1: 2_000_000, 2: 9_000_000})
    one, summary1 = predict(synthetic_runs(), synthetic_profile(), PARAMETERS, amplification=amplification)
    four, summary4 = predict(
        synthetic_runs(), synthetic_profile(), PARAMETERS, amplification=amplification, loads_in_flight=4
    )
    assert (summary1["loads_in_flight"], summary4["loads_in_flight"]) == (1, 4)
    merged = _row(four, "merged-aligned", "zerocopy")
    assert merged["chain_steps"] == math.ceil(2_000_000 / 1024) and merged["requests_per_warp"] == 8
    assert _row(four, "naive", "zerocopy")["chain_steps"] == _row(one, "naive", "zerocopy")["chain_steps"]
    throttled = _row(four, "merged-aligned", "zerocopy", 100)  # 8 x 100 = 800 = N_max: no longer binds
    assert throttled["T_gbps"] > _row(one, "merged-aligned", "zerocopy", 100)["T_gbps"]


def test_cli(tmp_path):
    prov = {"gpu": "synthetic", "driver": "0", "cuda": "0", "commit": "0", "date": "0"}
    synthetic_runs().assign(**prov).to_csv(tmp_path / "runs.csv", index=False)
    synthetic_profile().assign(**prov).to_csv(tmp_path / "profile.csv", index=False)
    (tmp_path / "parameters.json").write_text(json.dumps(PARAMETERS))
    out, summ = tmp_path / "model" / "predictions.csv", tmp_path / "model" / "prediction_summary.json"
    cmd = [
        sys.executable,
        "-m",
        "model.predict",
        "--runs",
        tmp_path / "runs.csv",
        "--profile",
        tmp_path / "profile.csv",
        "--parameters",
        tmp_path / "parameters.json",
        "--out",
        out,
        "--summary",
        summ,
    ]
    res = subprocess.run([str(c) for c in cmd], cwd=REPO, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    table = pd.read_csv(out)
    assert list(table.columns) == OUT_COLUMNS and len(table) == 5
    summary = json.loads(summ.read_text())
    assert {"median_abs_error", "worst_abs_error", "worst_run", "n_runs", "rule", "excluded"} <= set(summary)
    assert summary["loads_in_flight"] == 1  # no --source: the artifact's one step
    (tmp_path / "source.json").write_text(json.dumps({"loads_in_flight": 4}))
    res = subprocess.run(
        [str(c) for c in cmd + ["--source", tmp_path / "source.json"]], cwd=REPO, capture_output=True, text=True
    )
    assert res.returncode == 0 and json.loads(summ.read_text())["loads_in_flight"] == 4
    (tmp_path / "parameters.json").write_text("{}")
    res = subprocess.run([str(c) for c in cmd], cwd=REPO, capture_output=True, text=True)
    assert res.returncode != 0 and "parameters.json" in res.stderr


def synthetic_amplification(longest_by_root):
    """Rows of the amplification table for graph g: only max_list_bytes matters to the chain term."""
    return pd.DataFrame(
        [
            {
                "graph": "g",
                "edge_bytes": 8,
                "root": root,
                "alignment_bytes": a,
                "bytes_needed": 1,
                "bytes_fetched": 1,
                "raf": 1.0,
                "max_list_bytes": longest,
            }
            for root, longest in longest_by_root.items()
            for a in (32, 128)
        ]
    )


def test_without_amplification_the_chain_is_zero_and_said(result):
    table, summary = result
    assert (table["chain_steps"] == 0).all() and (table["chain_ms"] == 0).all()
    assert summary["chain"].startswith("omitted")


def test_chain_term_by_hand():
    # the profiled root 1 expands a 2,000,000-byte list; root 2's longer list must not be used
    table, summary = predict(
        synthetic_runs(),
        synthetic_profile(),
        PARAMETERS,
        amplification=synthetic_amplification({1: 2_000_000, 2: 9_000_000}),
    )
    naive = _row(table, "naive", "zerocopy")
    # one thread walks it a 32-byte sector per round trip of L = 1.0 us (sweep rule: smallest footprint)
    assert naive["chain_steps"] == 62_500 and naive["chain_ms"] == pytest.approx(62.5)
    merged = _row(table, "merged-aligned", "zerocopy")
    # a warp walks 32 x 8 = 256 bytes per round trip
    assert merged["chain_steps"] == math.ceil(2_000_000 / 256) and merged["chain_ms"] == pytest.approx(7.813)
    assert merged["predicted_ms"] == pytest.approx(merged["transfer_ms"] + merged["floor_ms"] + merged["chain_ms"])
    assert "amplification" in summary["chain"] and "without_chain" in summary


def test_chain_bytes_per_step():
    assert chain_bytes_per_step("naive", 8) == 32 and chain_bytes_per_step("naive", 4) == 32
    assert chain_bytes_per_step("merged", 4) == 128 and chain_bytes_per_step("merged-aligned", 8) == 256
    assert chain_bytes_per_step("merged-aligned", 8, 4) == 1024 and chain_bytes_per_step("naive", 8, 4) == 32
    with pytest.raises(ValueError, match="unknown variant"):
        chain_bytes_per_step("fancy", 8)
