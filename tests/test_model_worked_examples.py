"""The CXL paper's worked examples (§3.2-3.4, §4.2.2), exactly as printed, from model/littles_law.py."""

from __future__ import annotations

import math

import pytest

from model.littles_law import (
    LinkParams,
    binding_term,
    max_L,
    mean_request_bytes,
    optimal_transfer_size,
    required_S,
    slope,
    throughput_gbps,
    with_in_flight_limit,
)

D_EMOGI = 89.6


def test_d_emogi():
    # 0.2 x 32 + 0.2 x 64 + 0.2 x 96 + 0.4 x 128
    assert mean_request_bytes({32: 0.2, 64: 0.2, 96: 0.2, 128: 0.4}) == pytest.approx(D_EMOGI, abs=1e-12)


def test_pcie4_requirements():
    # min{S, 768 / L} x 89.6 >= 24,000 MB/s  ->  S >= 268 MIOPS and L <= 2.87 us (eq. 6)
    assert round(required_S(24.0, D_EMOGI)) == 268
    assert round(max_L(768, D_EMOGI, 24.0), 2) == 2.87
    assert required_S(24.0, D_EMOGI) == pytest.approx(24000 / 89.6)
    assert max_L(768, D_EMOGI, 24.0) == pytest.approx(768 * 89.6 / 24000)


def test_pcie3_requirements():
    # S = 12,000 / 89.6 = 134 MIOPS, L = 256 x 89.6 / 12,000 = 1.91 us (§4.2.2)
    assert round(required_S(12.0, D_EMOGI)) == 134
    assert round(max_L(256, D_EMOGI, 12.0), 2) == 1.91


def test_requirements_are_the_knee_of_T():
    # at exactly the required S (or the longest allowed L) the link is just filled: T(d_EMOGI) = W
    S = required_S(24.0, D_EMOGI)
    assert throughput_gbps(D_EMOGI, LinkParams(W_gbps=24.0, S_miops=S)) == pytest.approx(24.0)
    assert throughput_gbps(D_EMOGI, LinkParams(W_gbps=24.0, S_miops=0.99 * S)) < 24.0
    L = max_L(768, D_EMOGI, 24.0)
    assert throughput_gbps(D_EMOGI, LinkParams(W_gbps=24.0, N_max=768, L_us=L)) == pytest.approx(24.0)
    assert throughput_gbps(D_EMOGI, LinkParams(W_gbps=24.0, N_max=768, L_us=1.01 * L)) < 24.0


def test_slope_example():
    # S = 100 MIOPS, L = 16 us, N_max = 768: s = min{100, 48} = 48 MB/s per byte; T = min{100d, 48d, 24,000}
    assert slope(100, 768, 16) == pytest.approx(48.0)
    assert slope(10, 768, 16) == pytest.approx(10.0)
    p = LinkParams(W_gbps=24.0, S_miops=100, N_max=768, L_us=16)
    assert throughput_gbps(100.0, p) == pytest.approx(4.8)
    assert throughput_gbps(1000.0, p) == pytest.approx(24.0)  # 48,000 MB/s capped at W


def test_emogi_slope_on_host_dram():
    # (768 / 1.2) x 89.6 = 57,344 MB/s > 24,000: host DRAM leaves the PCIe 4.0 link bandwidth-bound (§3.3.1)
    assert slope(math.inf, 768, 1.2) * D_EMOGI == pytest.approx(57344.0)
    assert binding_term(D_EMOGI, LinkParams(W_gbps=24.0, N_max=768, L_us=1.2)) == "W"


def test_bam_optimal_transfer_size():
    # W / S = 24,000 / 6 = 4,000 B, "about 4 kB" (§3.3.2)
    assert optimal_transfer_size(24.0, 6.0) == pytest.approx(4000.0)
    assert round(optimal_transfer_size(24.0, 6.0) / 1000) == 4


def test_xlfdd_requirement():
    # d = 256 B: S x 256 >= 24,000  ->  S >= 93.75 MIOPS (§4.1.1)
    assert required_S(24.0, 256.0) == pytest.approx(93.75)


def test_binding_term_names_each_regime():
    assert binding_term(89.6, LinkParams(W_gbps=50.0, S_miops=100, N_max=768, L_us=16)) == "latency"
    assert binding_term(89.6, LinkParams(W_gbps=50.0, S_miops=10, N_max=768, L_us=16)) == "request_rate"
    assert binding_term(89.6, LinkParams(W_gbps=2.0, S_miops=100, N_max=768, L_us=16)) == "W"
    assert binding_term(89.6, LinkParams(W_gbps=2.0)) == "W"


def test_in_flight_limit_lowers_N_max_only():
    p = LinkParams(W_gbps=50.0, N_max=768, L_us=1.2)
    assert with_in_flight_limit(p, 512).N_max == 512
    assert with_in_flight_limit(p, 4096).N_max == 768
    with pytest.raises(ValueError, match="in flight"):
        with_in_flight_limit(p, 0)


@pytest.mark.parametrize(
    "call",
    [
        lambda: required_S(0, 89.6),
        lambda: max_L(768, -1, 24),
        lambda: slope(100, 768, 0),
        lambda: optimal_transfer_size(24, 0),
    ],
)
def test_helpers_reject_non_positive_inputs(call):
    with pytest.raises(ValueError, match="must be positive"):
        call()
