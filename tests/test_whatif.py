"""model/whatif.py and model/presets.py: the CLI on good and bad input, the presets, the figure sweeps."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from model.littles_law import LinkParams
from model.presets import FIELDS, Preset, get_preset, load_presets
from model.whatif import runtime_vs_added_latency, runtime_vs_transfer_size

REPO = Path(__file__).resolve().parent.parent
MiB = 1 << 20


def whatif(*args):
    return subprocess.run(
        [sys.executable, "-m", "model.whatif", *map(str, args)], cwd=REPO, capture_output=True, text=True
    )


# --- presets -------------------------------------------------------------------------------------------------
def test_presets_load_and_have_every_field():
    presets = load_presets()
    assert {"pcie3-x16", "pcie4-x16", "pcie5-x16", "pcie6-x16", "cxl"} <= set(presets)
    for name, p in presets.items():
        assert isinstance(p, Preset) and isinstance(p, LinkParams) and p.name == name
        for field in FIELDS:
            assert hasattr(p, field), (name, field)
        assert p.W_gbps > 0 and p.N_max > 0 and p.L_us > 0 and p.S_miops > 0
        assert p.alignment_bytes == 32 and p.source.strip()


def test_preset_values():
    assert (get_preset("pcie3-x16").W_gbps, get_preset("pcie3-x16").N_max) == (12.0, 256)
    assert (get_preset("pcie4-x16").W_gbps, get_preset("pcie4-x16").N_max) == (24.0, 768)
    assert get_preset("pcie5-x16").N_max == 768
    assert math.isinf(get_preset("pcie4-x16").S_miops)  # null: host DRAM's request rate is not limiting
    cxl, base = get_preset("cxl"), get_preset("pcie3-x16")
    assert cxl.W_gbps == base.W_gbps and cxl.L_us == pytest.approx(base.L_us + 0.5)
    assert cxl.N_max == min(base.N_max, 640 / 2)


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(KeyError, match="known presets: .*pcie4-x16"):
        get_preset("pcie9-x16")


def test_measured_preset_from_parameters(tmp_path):
    params = {
        "W_gbps": {"value": 55.1, "lo": 55, "hi": 55.2, "source": "x"},
        "N_max": {"value": 870.0, "lo": 860, "hi": 880, "from": {}},
        "latency": [
            {"mode": "zerocopy", "footprint_bytes": f, "L_us": L, "lo": L, "hi": L}
            for f, L in ((64 * MiB, 1.2), (8192 * MiB, 1.31))
        ],
        "request_rate": [],
        "S": [],
        "method": "x",
    }
    (tmp_path / "p.json").write_text(json.dumps(params))
    assert "h100-measured" not in load_presets()
    p = get_preset("h100-measured", tmp_path / "p.json")
    assert (p.W_gbps, p.N_max, p.L_us) == (55.1, 870.0, 1.2) and math.isinf(p.S_miops)


# --- the CLI -------------------------------------------------------------------------------------------------
def test_cli_good_input_prints_the_prediction():
    # PCIe 4.0, d = 89.6 B: T = W = 24 GB/s; 2.4e9 B take 100 ms, + 15 ms floor
    res = whatif("--preset", "pcie4-x16", "--D-bytes", 2.4e9, "--d-bytes", 89.6, "--floor-ms", 15, "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["T_gbps"] == pytest.approx(24.0) and out["bound"] == "W"
    assert out["transfer_ms"] == pytest.approx(100.0) and out["predicted_ms"] == pytest.approx(115.0)
    text = whatif("--preset", "pcie4-x16", "--D-bytes", 2.4e9, "--d-bytes", 89.6, "--floor-ms", 15)
    assert text.returncode == 0 and "115 ms" in text.stdout and "bound by W" in text.stdout


def test_cli_overrides_make_latency_bind():
    # L = 16 us, S = 100: slope 48 MB/s per byte -> T(89.6) = 4.3008 GB/s, 4.3008e9 B take 1 s
    res = whatif(
        "--preset", "pcie4-x16", "--L-us", 16, "--S-miops", 100, "--D-bytes", 4.3008e9, "--d-bytes", 89.6, "--json"
    )
    out = json.loads(res.stdout)
    assert out["bound"] == "latency" and out["predicted_ms"] == pytest.approx(1000.0)
    # added latency on the cxl preset: L = 1.2 + 0.5 + 1.0 us, N_max = 256 -> T = 256 / 2.7 x 89.6 B
    out = json.loads(
        whatif("--preset", "cxl", "--added-latency-us", 1.0, "--D-bytes", 1e9, "--d-bytes", 89.6, "--json").stdout
    )
    assert out["params"]["L_us"] == pytest.approx(2.7)
    assert out["T_gbps"] == pytest.approx(256 / 2.7 * 89.6 / 1e3)


def test_cli_profile_workload(tmp_path):
    prof = pd.DataFrame(
        [
            {
                "graph": "g",
                "algorithm": "bfs",
                "variant": "merged",
                "mode": m,
                "edge_bytes": 8,
                "root": 1,
                "max_warps": 0,
                "sysmem_read_sectors": s,
                "sysmem_read_requests": r,
                "gpu_time_ns": t,
            }
            for m, s, r, t in (("zerocopy", 3e7, 1e7, 30e6), ("device", 0.0, 0.0, 7e6))
        ]
    )
    prof.to_csv(tmp_path / "profile.csv", index=False)
    res = whatif(
        "--preset",
        "pcie4-x16",
        "--profile",
        tmp_path / "profile.csv",
        "--graph",
        "g",
        "--variant",
        "merged",
        "--mode",
        "zerocopy",
        "--json",
    )
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["D_bytes"] == 9.6e8 and out["d_bytes"] == pytest.approx(96.0)
    assert out["floor_ms"] == pytest.approx(7.0)  # the device-mode kernel time
    assert out["predicted_ms"] == pytest.approx(9.6e8 / 24e9 * 1e3 + 7.0)
    res = whatif(
        "--preset",
        "pcie4-x16",
        "--profile",
        tmp_path / "profile.csv",
        "--graph",
        "h",
        "--variant",
        "merged",
        "--mode",
        "zerocopy",
    )
    assert res.returncode == 2 and "no row for h/merged/zerocopy" in res.stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (["--preset", "pcie4-x16", "--L-us", "-1", "--D-bytes", "1e9", "--d-bytes", "64"], "latency must be positive"),
        (["--preset", "pcie4-x16", "--L-us", "0", "--D-bytes", "1e9", "--d-bytes", "64"], "latency must be positive"),
        (
            ["--preset", "cxl", "--added-latency-us", "-5", "--D-bytes", "1e9", "--d-bytes", "64"],
            "latency must be positive",
        ),
        (["--preset", "pcie9-x16", "--D-bytes", "1e9", "--d-bytes", "64"], "unknown preset 'pcie9-x16'"),
        (["--preset", "pcie4-x16"], "no workload"),
        (["--preset", "pcie4-x16", "--D-bytes", "1e9"], "--d-bytes is missing"),
        (["--preset", "pcie4-x16", "--D-bytes", "1e9", "--d-bytes", "0"], "outside (0, 128]"),
        (["--preset", "pcie4-x16", "--D-bytes", "1e9", "--d-bytes", "200"], "outside (0, 128]"),
        (["--preset", "pcie4-x16", "--D-bytes", "-5", "--d-bytes", "64"], "D-bytes must be a positive"),
        (["--preset", "pcie4-x16", "--W-gbps", "0", "--D-bytes", "1e9", "--d-bytes", "64"], "W_gbps must be positive"),
        (["--preset", "h100-measured", "--D-bytes", "1e9", "--d-bytes", "64"], "needs --parameters"),
        (
            [
                "--preset",
                "pcie4-x16",
                "--profile",
                "nope.csv",
                "--graph",
                "g",
                "--variant",
                "merged",
                "--mode",
                "zerocopy",
            ],
            "missing",
        ),
    ],
)
def test_cli_bad_input_exits_2_naming_the_problem(args, message):
    res = whatif(*args)
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert message in res.stderr
    if "unknown preset" in message:
        assert "pcie4-x16" in res.stderr and "cxl" in res.stderr  # the known ones are listed


def test_larger_requests_with_max_request_bytes():
    res = whatif(
        "--preset",
        "pcie4-x16",
        "--S-miops",
        6,
        "--max-request-bytes",
        4096,
        "--D-bytes",
        2.4e9,
        "--d-bytes",
        4096,
        "--json",
    )
    out = json.loads(res.stdout)
    assert res.returncode == 0 and out["T_gbps"] == pytest.approx(24.0)  # BaM: 6 MIOPS x 4 kB fills 24 GB/s


# --- sweeps for the figures ----------------------------------------------------------------------------------
def _amplification():
    rows = []
    for root in (1, 2):
        for a, D in ((32, 1.0e9), (64, 1.2e9), (128, 1.6e9), (4096, 4.0e9)):
            rows.append(
                {
                    "graph": "g",
                    "edge_bytes": 8,
                    "root": root,
                    "alignment_bytes": a,
                    "bytes_needed": 0.9e9,
                    "bytes_fetched": D * (1.0 if root == 1 else 1.2),
                    "raf": D / 0.9e9,
                }
            )
    return pd.DataFrame(rows)


def test_runtime_vs_transfer_size():
    p = LinkParams(W_gbps=24.0, S_miops=100, N_max=768, L_us=16)  # T = min{100 d, 48 d, 24,000} MB/s
    out = runtime_vs_transfer_size(_amplification(), p, [32, 128, 1024])
    r32 = out[out["size_bytes"] == 32].iloc[0]
    assert r32["D_bytes"] == pytest.approx(1.1e9)  # mean over the two roots
    assert r32["T_gbps"] == pytest.approx(48 * 32 / 1e3) and r32["bound"] == "latency"
    assert r32["runtime_ms"] == pytest.approx(1.1e9 / (48 * 32 * 1e6) * 1e3)
    r1k = out[out["size_bytes"] == 1024].iloc[0]
    # 1024 lies between 128 and 4096: D linear in log2(a), 3/5 of the way
    assert r1k["D_bytes"] == pytest.approx(1.1 * (1.6e9 + 0.6 * (4.0e9 - 1.6e9)))
    assert r1k["T_gbps"] == pytest.approx(24.0) and r1k["bound"] == "W"
    with pytest.raises(ValueError, match="not extrapolated"):
        runtime_vs_transfer_size(_amplification(), p, [16])


def test_runtime_vs_added_latency():
    p = get_preset("pcie3-x16")  # N_max 256, W 12 GB/s, L 1.2 us: latency binds past 1.91 us at d = 89.6
    out = runtime_vs_added_latency(1.2e9, 89.6, p, [0.0, 0.5, 1.0, 3.0], floor_ms=10.0)
    assert list(out["bound"]) == ["W", "W", "latency", "latency"]
    assert out["runtime_ms"].iloc[0] == pytest.approx(100.0 + 10.0) and out["relative"].iloc[0] == 1.0
    L = 1.2 + 3.0
    assert out["runtime_ms"].iloc[3] == pytest.approx(1.2e9 / (256 / L * 89.6 * 1e6) * 1e3 + 10.0)
    assert out["relative"].is_monotonic_increasing
    with pytest.raises(ValueError, match="latency must be positive"):
        runtime_vs_added_latency(1e9, 89.6, p, [-2.0])


def test_every_option_has_help():
    from model.whatif import _parser

    undocumented = [a.option_strings[0] for a in _parser()._actions if not a.help]
    assert undocumented == []
