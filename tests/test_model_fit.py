"""model/fit.py on SYNTHETIC tables drawn from known parameters with multiplicative noise."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model.fit import fit, load_parameters, observed_in_flight, params_for

REPO = Path(__file__).resolve().parent.parent
MiB, GiB = 1 << 20, 1 << 30

# The truth the tables are drawn from.
W = 50.0  # GB/s: copies of >= 256 MiB run at W, smaller ones well below
N_MAX = 800.0  # requests in flight the link sustains
LATENCY_US = {  # chase latency per mode and footprint
    "device": {4 * MiB: 0.35, 64 * MiB: 0.35, 256 * MiB: 0.36, GiB: 0.36, 4 * GiB: 0.37, 8 * GiB: 0.37},
    "zerocopy": {4 * MiB: 1.2, 64 * MiB: 1.2, 256 * MiB: 1.21, GiB: 1.24, 4 * GiB: 1.29, 8 * GiB: 1.31},
    "zerocopy-pinned": {4 * MiB: 1.2, 64 * MiB: 1.2, 256 * MiB: 1.22, GiB: 1.4, 4 * GiB: 1.65, 8 * GiB: 1.74},
}
S_PINNED = {GiB: 117.0, 2 * GiB: 70.0, 4 * GiB: 47.0, 8 * GiB: 43.0}  # MIOPS: the translation cliff
DEVICE_RATE = 20000.0  # MIOPS the device memory serves (far above the link)
SIZES = [4 << 10, 64 << 10, 1 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, GiB]
SWEEP_FOOTPRINTS = [256 * MiB, 8 * GiB]
FOOTPRINTS = [64 * MiB, 256 * MiB, 512 * MiB, GiB, 2 * GiB, 4 * GiB, 8 * GiB]
WARPS = [2**i for i in range(13)]
REQUEST_BYTES = [32, 64, 96, 128]


def true_latency(mode, footprint):
    """Latency between the chase's footprints: linear in log(footprint), as the fit interpolates."""
    fps = sorted(LATENCY_US[mode])
    x = math.log(footprint)
    return float(np.interp(x, np.log(fps), [LATENCY_US[mode][f] for f in fps]))


def true_S(mode, footprint):
    return S_PINNED.get(footprint, math.inf) if mode == "zerocopy-pinned" else math.inf


def true_rate(mode, footprint, d, in_flight):
    """MIOPS of random d-byte reads with `in_flight` of them outstanding: T = min{S d, N d / L, W}."""
    L = true_latency(mode, footprint)
    if mode == "device":
        return min(in_flight / L, DEVICE_RATE)
    return min(in_flight / L, N_MAX / L, W * 1e3 / d, true_S(mode, footprint))


def synthetic_tables(reps=8, noise=0.02, seed=1, modes=("device", "zerocopy", "zerocopy-pinned")):
    rng = np.random.default_rng(seed)
    jitter = lambda: float(np.exp(noise * rng.standard_normal()))  # noqa: E731
    link = [
        {
            "direction": "h2d",
            "host_memory": "pinned",
            "size_bytes": s,
            "rep": r,
            "gbps": (W if s >= 256 * MiB else W * s / (s + 64 * MiB)) * jitter(),
        }
        for s in SIZES
        for r in range(reps)
    ]
    link += [
        {"direction": "d2h", "host_memory": "pinned", "size_bytes": GiB, "rep": r, "gbps": 99.0} for r in range(reps)
    ]  # must be ignored
    latency = [
        {"mode": m, "footprint_bytes": f, "rep": r, "latency_ns": 1e3 * L * jitter(), "verified": True}
        for m in modes
        for f, L in LATENCY_US[m].items()
        for r in range(reps)
    ]
    conc = []
    settings = [(f, w, k) for f in SWEEP_FOOTPRINTS for w in WARPS for k in (1, 4)]
    settings += [(f, WARPS[-1], 4) for f in FOOTPRINTS]
    for m in modes:
        for f, w, k in settings:
            for d in REQUEST_BYTES:
                for r in range(reps):
                    mrps = true_rate(m, f, d, w * k) * jitter()
                    conc.append(
                        {
                            "mode": m,
                            "footprint_bytes": f,
                            "request_bytes": d,
                            "warps": w,
                            "reads_per_warp": k,
                            "rep": r,
                            "mrps": mrps,
                            "gbps": mrps * d / 1e3,
                        }
                    )
    return pd.DataFrame(link), pd.DataFrame(latency), pd.DataFrame(conc)


@pytest.fixture(scope="module")
def fitted():
    link, latency, conc = synthetic_tables()
    return fit(link, latency, conc, seed=0)


def _within(entry, truth, key="value", rel=0.03):
    return entry["lo"] <= truth <= entry["hi"], abs(entry[key] / truth - 1) <= rel


def test_shape_is_the_documented_one(fitted):
    assert set(fitted) == {"W_gbps", "N_max", "latency", "request_rate", "S", "method"}
    assert set(fitted["W_gbps"]) == {"value", "lo", "hi", "source"}
    assert set(fitted["N_max"]) == {"value", "lo", "hi", "from"}
    assert set(fitted["N_max"]["from"]) == {"mode", "footprint_bytes", "request_bytes"}
    assert all(set(e) == {"mode", "footprint_bytes", "L_us", "lo", "hi"} for e in fitted["latency"])
    assert all(
        set(e) == {"mode", "footprint_bytes", "request_bytes", "R_miops", "lo", "hi"} for e in fitted["request_rate"]
    )
    assert all(set(e) == {"mode", "footprint_bytes", "S_miops", "lo", "hi", "limiting"} for e in fitted["S"])
    json.dumps(fitted, allow_nan=False)  # no inf / NaN: JSON has none


def test_recovers_W_and_N_max_within_interval_and_few_percent(fitted):
    assert _within(fitted["W_gbps"], W) == (True, True)
    assert _within(fitted["N_max"], N_MAX) == (True, True)
    # the highest plateau is an unthrottled zero-copy cell of small reads, never a translation-limited one
    src = fitted["N_max"]["from"]
    assert src["mode"] in ("zerocopy", "zerocopy-pinned") and src["request_bytes"] in (32, 64)
    assert not (src["mode"] == "zerocopy-pinned" and src["footprint_bytes"] >= GiB)


def test_recovers_latency_and_request_rates(fitted):
    covered = []
    for e in fitted["latency"]:
        truth = LATENCY_US[e["mode"]][e["footprint_bytes"]]
        inside, close = _within(e, truth, "L_us")
        assert close, e
        covered.append(inside)
    for e in fitted["request_rate"]:
        truth = true_rate(e["mode"], e["footprint_bytes"], e["request_bytes"], WARPS[-1] * 4)
        inside, close = _within(e, truth, "R_miops")
        assert close, e
        covered.append(inside)
    assert np.mean(covered) >= 0.85  # 95% intervals: most, not necessarily all, hold the truth


def test_S_limits_only_past_the_pinned_cliff(fitted):
    S = {(e["mode"], e["footprint_bytes"]): e for e in fitted["S"]}
    assert {m for m, _ in S} == {"zerocopy", "zerocopy-pinned"}  # device memory is not behind the link
    for (mode, f), e in S.items():
        truth = true_S(mode, f)
        if math.isfinite(truth):
            assert e["limiting"], e
            assert _within(e, truth, "S_miops") == (True, True), e
        else:
            assert not e["limiting"] and e["S_miops"] is None and e["lo"] is None, e


def test_intervals_shrink_with_more_reps():
    few = fit(*synthetic_tables(reps=3, seed=5), seed=0)
    many = fit(*synthetic_tables(reps=30, seed=5), seed=0)
    width = lambda e: e["hi"] - e["lo"]  # noqa: E731
    assert width(many["W_gbps"]) < width(few["W_gbps"])
    assert width(many["N_max"]) < width(few["N_max"])
    assert np.median([width(e) for e in many["latency"]]) < np.median([width(e) for e in few["latency"]])
    lim = lambda p: [width(e) for e in p["S"] if e["limiting"]]  # noqa: E731
    assert np.median(lim(many)) < np.median(lim(few))


def test_seeded_bootstrap_is_reproducible():
    tables = synthetic_tables(reps=4, seed=2)
    assert fit(*tables, seed=3) == fit(*tables, seed=3)
    assert fit(*tables, seed=3)["N_max"] != fit(*tables, seed=4)["N_max"]  # the seed drives the intervals


def test_params_for_interpolates_and_clamps(fitted):
    lat = {(e["mode"], e["footprint_bytes"]): e["L_us"] for e in fitted["latency"]}
    p = params_for(fitted, "zerocopy-pinned", 2 * GiB)  # halfway (in log) between 1 and 4 GiB
    assert p.L_us == pytest.approx((lat[("zerocopy-pinned", GiB)] + lat[("zerocopy-pinned", 4 * GiB)]) / 2)
    assert params_for(fitted, "zerocopy", 1 << 10).L_us == lat[("zerocopy", 4 * MiB)]  # clamped below
    assert params_for(fitted, "zerocopy", 1 << 40).L_us == lat[("zerocopy", 8 * GiB)]  # clamped above
    assert p.W_gbps == fitted["W_gbps"]["value"] and p.N_max == fitted["N_max"]["value"]
    S = {(e["mode"], e["footprint_bytes"]): e["S_miops"] for e in fitted["S"]}
    assert params_for(fitted, "zerocopy-pinned", 8 * GiB).S_miops == pytest.approx(S[("zerocopy-pinned", 8 * GiB)])
    assert math.isinf(params_for(fitted, "zerocopy-pinned", 256 * MiB).S_miops)
    assert math.isinf(params_for(fitted, "zerocopy", 8 * GiB).S_miops)
    # between a non-limiting footprint and the first limiting one, 1/S is interpolated: S finite, above S(1 GiB)
    mid = params_for(fitted, "zerocopy-pinned", int(math.sqrt(512 * MiB * GiB))).S_miops
    assert mid == pytest.approx(2 * S[("zerocopy-pinned", GiB)], rel=1e-6)
    with pytest.raises(ValueError, match="uvm"):
        params_for(fitted, "uvm", GiB)


def test_observed_in_flight_is_littles_law():
    link, latency, conc = synthetic_tables(reps=3, seed=3)
    n = observed_in_flight(latency, conc)
    row = n[
        (n["mode"] == "zerocopy")
        & (n["footprint_bytes"] == 256 * MiB)
        & (n["request_bytes"] == 32)
        & (n["warps"] == 4096)
        & (n["reads_per_warp"] == 4)
    ].iloc[0]
    assert row["in_flight"] == pytest.approx(row["mrps"] * row["L_us"])
    assert row["in_flight"] == pytest.approx(N_MAX, rel=0.05)


# --- bad tables fail clearly ---------------------------------------------------------------------------------
def test_missing_mode_in_latency_fails_clearly():
    link, latency, conc = synthetic_tables(reps=3)
    with pytest.raises(ValueError, match="latency table has no rows for mode 'zerocopy-pinned'"):
        fit(link, latency[latency["mode"] != "zerocopy-pinned"], conc)


def test_no_zero_copy_concurrency_fails_clearly():
    link, latency, conc = synthetic_tables(reps=3)
    with pytest.raises(ValueError, match="no zero-copy rows"):
        fit(link, latency, conc[conc["mode"] == "device"])


@pytest.mark.parametrize("table", ["link", "latency", "concurrency"])
def test_no_reps_fails_clearly(table):
    tables = dict(zip(["link", "latency", "concurrency"], synthetic_tables(reps=3)))
    tables[table] = tables[table].iloc[0:0]
    with pytest.raises(ValueError, match=f"{table} table has no reps"):
        fit(**tables)


def test_missing_column_and_no_pinned_copies_fail_clearly():
    link, latency, conc = synthetic_tables(reps=3)
    with pytest.raises(ValueError, match=r"concurrency table lacks columns \['mrps'\]"):
        fit(link, latency, conc.drop(columns="mrps"))
    with pytest.raises(ValueError, match="no pinned h2d rows"):
        fit(link[link["direction"] == "d2h"], latency, conc)


def test_load_parameters_checks_the_file(tmp_path, fitted):
    with pytest.raises(ValueError, match="missing"):
        load_parameters(tmp_path / "nope.json")
    (tmp_path / "bad.json").write_text(json.dumps({"W_gbps": {}}))
    with pytest.raises(ValueError, match="lacks"):
        load_parameters(tmp_path / "bad.json")
    (tmp_path / "ok.json").write_text(json.dumps(fitted))
    assert load_parameters(tmp_path / "ok.json") == fitted


def test_cli_writes_parameters(tmp_path):
    link, latency, conc = synthetic_tables(reps=3)
    prov = {"gpu": "synthetic", "driver": "0", "cuda": "0", "commit": "0", "date": "0"}
    paths = {}
    for name, frame, extra in (
        ("link", link, {"time_ms": 1.0}),
        ("latency", latency, {"steps": 100, "time_ms": 1.0}),
        ("concurrency", conc, {"requests": 100, "time_ms": 1.0}),
    ):
        paths[name] = tmp_path / f"{name}.csv"
        frame.assign(**prov, **extra).to_csv(paths[name], index=False)
    out = tmp_path / "model" / "parameters.json"
    cmd = [
        sys.executable,
        "-m",
        "model.fit",
        "--link",
        paths["link"],
        "--latency",
        paths["latency"],
        "--concurrency",
        paths["concurrency"],
        "--out",
        out,
        "--n-boot",
        "200",
    ]
    res = subprocess.run([str(c) for c in cmd], cwd=REPO, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert "N_max" in res.stdout
    assert load_parameters(out)["N_max"]["value"] == pytest.approx(N_MAX, rel=0.05)
    paths["latency"].write_text("")
    res = subprocess.run([str(c) for c in cmd], cwd=REPO, capture_output=True, text=True)
    assert res.returncode != 0 and "latency" in res.stderr and "empty" in res.stderr
