"""The analytic model (model/littles_law.py) and the link-bound table (model/bounds.py), on SYNTHETIC inputs."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from model.bounds import link_bound, traversal_time_ms
from model.littles_law import (
    LinkParams,
    fit_link_bandwidth,
    mean_request_bytes,
    request_rate_miops,
    runtime_ms,
    throughput_gbps,
)


# --- the worked example -----------------------------------------------------------------------------------
def test_worked_example_mean_request_size():
    # d = 0.2*32 + 0.2*64 + 0.2*96 + 0.4*128 = 89.6 B
    assert mean_request_bytes({32: 0.2, 64: 0.2, 96: 0.2, 128: 0.4}) == pytest.approx(89.6)


def test_worked_example_slope():
    # S = 100 MIOPS, L = 16 us, N_max = 768: N_max / L = 48 MIOPS < S, so the slope is 48 MB/s per byte of d
    p = LinkParams(W_gbps=math.inf, S_miops=100, N_max=768, L_us=16)
    assert request_rate_miops(p) == pytest.approx(48.0)
    assert throughput_gbps(1.0, p) * 1e3 == pytest.approx(48.0)  # MB/s per byte
    assert throughput_gbps(89.6, p) == pytest.approx(48e6 * 89.6 / 1e9)  # 4.3008 GB/s
    # linear below the knee
    assert throughput_gbps(128.0, p) / throughput_gbps(32.0, p) == pytest.approx(4.0)


def test_mean_request_bytes_rejects_bad_fractions():
    with pytest.raises(ValueError, match="sum"):
        mean_request_bytes({32: 0.5, 128: 0.4})


# --- throughput is the minimum of the three terms ---------------------------------------------------------
@pytest.mark.parametrize(
    "S,N,L,W,d,expected",
    [
        (100, 768, 16, 50.0, 89.6, 48 * 89.6 / 1e3),  # Little's-law term binds
        (10, 768, 16, 50.0, 89.6, 10 * 89.6 / 1e3),  # issue-rate term binds
        (100, 768, 16, 2.0, 89.6, 2.0),  # link bandwidth binds
        (math.inf, math.inf, math.nan, 12.3, 32.0, 12.3),  # only W known: the others drop out
        (100, math.inf, math.nan, 50.0, 128.0, 100 * 128 / 1e3),  # N_max unknown: Little's term drops out
    ],
)
def test_throughput_is_min_of_three_terms(S, N, L, W, d, expected):
    p = LinkParams(W_gbps=W, S_miops=S, N_max=N, L_us=L)
    assert throughput_gbps(d, p) == pytest.approx(expected)
    terms = [S * d / 1e3, (N * d / L / 1e3) if math.isfinite(N) else math.inf, W]
    assert throughput_gbps(d, p) == pytest.approx(min(terms))


def test_throughput_vectorised_and_link_only_ignores_d():
    p = LinkParams(W_gbps=12.3)
    np.testing.assert_allclose(throughput_gbps(np.array([32.0, 64.0, np.nan]), p), [12.3, 12.3, 12.3])


def test_runtime_is_bytes_over_throughput():
    p = LinkParams(W_gbps=10.0)
    assert runtime_ms(1e9, 128.0, p) == pytest.approx(100.0)  # 1 GB at 10 GB/s = 0.1 s
    p = LinkParams(W_gbps=math.inf, S_miops=100, N_max=768, L_us=16)
    assert runtime_ms(4.3008e9, 89.6, p) == pytest.approx(1000.0)


def test_params_validation():
    with pytest.raises(ValueError, match="latency"):
        LinkParams(W_gbps=10, N_max=256)  # a finite N_max needs L
    with pytest.raises(ValueError):
        LinkParams(W_gbps=0)
    with pytest.raises(ValueError):
        throughput_gbps(0.0, LinkParams(W_gbps=1))


# --- fitting W from the link probe ------------------------------------------------------------------------
def _link(rows):
    return pd.DataFrame(rows, columns=["direction", "host_memory", "size_bytes", "rep", "gbps"])


def test_fit_link_bandwidth_synthetic():
    rows = []
    for size, reps in (
        (1 << 20, [5.0, 6.0, 7.0, 8.0, 9.0]),
        (1 << 28, [10.0, 11.0, 12.0, 13.0, 14.0]),
        (1 << 30, [11.0, 11.5, 11.8, 12.0, 30.0]),
    ):
        rows += [("h2d", "pinned", size, i, g) for i, g in enumerate(reps)]
    rows += [("h2d", "pageable", 1 << 28, 0, 99.0), ("d2h", "pinned", 1 << 28, 0, 99.0)]  # must be ignored
    W, spread = fit_link_bandwidth(_link(rows))
    assert W == pytest.approx(12.0)  # the 256 MiB size: median 12.0 beats 11.8 (the 30 is an outlier)
    assert spread == pytest.approx(13.0 - 11.0)  # IQR of that size's reps


def test_fit_link_bandwidth_needs_pinned_h2d():
    with pytest.raises(ValueError, match="pinned h2d"):
        fit_link_bandwidth(_link([("d2h", "pinned", 1 << 20, 0, 10.0)]))


# --- the link-bound table ---------------------------------------------------------------------------------
def _runs(rows):
    cols = ["graph", "algorithm", "variant", "mode", "edge_bytes", "root", "rep", "time_ms", "verified"]
    return pd.DataFrame(rows, columns=cols)


def test_traversal_time_is_mean_over_roots_of_median_over_reps():
    rows = [("g", "bfs", "merged", "zerocopy", 4, 1, i, t, True) for i, t in enumerate([1.0, 2.0, 100.0])]
    rows += [("g", "bfs", "merged", "zerocopy", 4, 2, i, t, True) for i, t in enumerate([4.0, 4.0, 5.0])]
    rows += [("g", "bfs", "merged", "zerocopy", 4, 2, 3, 1e6, False)]  # unverified: ignored
    t = traversal_time_ms(_runs(rows))
    assert len(t) == 1 and t["time_ms"].iloc[0] == pytest.approx((2.0 + 4.0) / 2)
    assert t["n_roots"].iloc[0] == 2


def test_link_bound_table():
    runs = _runs(
        [
            ("g", "bfs", "merged", m, 4, root, rep, t, True)
            for m, t in (("zerocopy", 20.0), ("zerocopy-pinned", 25.0), ("uvm", 90.0))
            for root in (1, 2)
            for rep in range(3)
        ]
    )
    runs.loc[runs["root"] == 2, "time_ms"] *= 10  # root 2 was never profiled: it must not count
    profile = pd.DataFrame(
        [
            {
                "graph": "g",
                "algorithm": "bfs",
                "variant": "merged",
                "mode": m,
                "edge_bytes": 4,
                "root": 1,
                "sysmem_read_sectors": 3e6,
                "sysmem_read_requests": 1e6,
                "pcie_read_bytes": 1e8,
                "gpu_time_ns": 1.5e7,
            }
            for m in ("zerocopy", "zerocopy-pinned", "uvm")
        ]
    )
    link = _link([("h2d", "pinned", 1 << 28, i, 10.0) for i in range(3)])
    out = link_bound(runs, profile, link)
    assert list(out["mode"]) == ["zerocopy", "zerocopy-pinned"]  # zero-copy modes only
    row = out.iloc[0]
    assert row["D_bytes"] == 1e8 and row["d_bytes"] == pytest.approx(96.0)
    assert row["predicted_ms"] == pytest.approx(10.0)  # 1e8 B / 10 GB/s = 10 ms
    assert row["measured_ms"] == pytest.approx(20.0) and row["time_roots"] == "profiled"
    assert row["ratio"] == pytest.approx(2.0)
    assert row["achieved_gbps"] == pytest.approx(5.0)


def _gpu_work_table(scales, cost):
    """Cells of made-up launches (grid V = 2**scale, entries and longest walk varying) timed by `cost`."""
    import pandas as pd

    cells, launches = [], []
    for scale in scales:
        for root, (n, k) in enumerate(((10**6, 10), (3 * 10**6, 50_000), (2 * 10**6, 300), (10**5, 90_000))):
            key = {"kind": "kron", "scale": scale, "seed": 1, "algorithm": "bfs", "family": "scan", "root": root,
                   "variant": "naive", "edge_bytes": 8}  # fmt: skip
            rows = [key | {"launch": i, "lists": 1, "entries": n * (i + 1), "grid": 2**scale, "walk": k // (i + 1)}
                    for i in range(3)]  # fmt: skip
            launches += rows
            cells.append(key | {"device_ms": sum(cost(r) for r in rows)})
    return pd.DataFrame(cells), pd.DataFrame(launches)


def test_the_gpu_work_term_recovers_known_costs():
    """model.gpu_work (v2, max form) on launches timed by known costs (b = 1e-7 ms per grid vertex, c = 1e-6 ms
    per entry, s = 2e-4 ms per walk step, a = 0): recovered, and it extrapolates exactly to a held-out scale."""
    from model import gpu_work

    def cost(r):
        return max(1e-7 * r["grid"] + 1e-6 * r["entries"], 2e-4 * r["walk"])

    cells, launches = _gpu_work_table((21, 23), cost)
    out, params = gpu_work.predict(cells, launches)
    assert set(out["split"]) == {"fit", "held-out"}
    assert out["error_max"].abs().max() < 1e-4
    fitted = params[params["form"] == "max"].iloc[0]
    assert fitted["s_ms"] == pytest.approx(2e-4, rel=1e-3) and fitted["a_ms"] == 0


def test_the_gpu_work_split_is_enforced():
    """A held-out scale in the training table is refused (docs/predictor.md's split), whatever put it there."""
    from model import gpu_work

    cells, _ = _gpu_work_table((21, 24), lambda r: 1.0)
    cells["split"] = "fit"
    with pytest.raises(gpu_work.GpuWorkError, match="held-out scale"):
        gpu_work.check_split(cells)
    assert 21 in gpu_work.FIT_SCALES and not set(gpu_work.FIT_SCALES) & set(gpu_work.HELD_OUT_SCALES)
    assert {23, 24, 25} <= set(gpu_work.HELD_OUT_SCALES)
