"""The warp-faults cost set (model/uvm_warp_faults.py) and the sessions' scatter floor (model/uvm_scatter.py), on
SYNTHETIC tables whose answer is known."""

import numpy as np
import pandas as pd
import pytest

from model import uvm_scatter, uvm_warp_faults
from model.uvm_sim import UvmParams


def test_fit_recovers_a_known_warp_fault_cost():
    rng = np.random.default_rng(5)
    n = 50
    cells = pd.DataFrame(  # SYNTHETIC counts and device times
        {
            "migrated_bytes": rng.uniform(0.2e9, 5e9, n),
            "batches": rng.integers(100, 5000, n),
            "serviced_chunks": rng.integers(100, 3000, n),
            "list_faults": rng.integers(1e5, 2e7, n),
            "device_ms": rng.uniform(2, 50, n),
        }
    )
    truth = UvmParams(throughput_gbps=30.0, batch_us=40.0, service_us=12.0, warp_fault_us=0.01)
    cells["uvm_ms"] = cells["device_ms"] + truth.migration_ms(
        cells["migrated_bytes"], cells["batches"], cells["serviced_chunks"], cells["list_faults"]
    )
    got = uvm_warp_faults.fit(cells)
    assert got.throughput_gbps == pytest.approx(30.0, rel=1e-6)
    assert got.warp_fault_us == pytest.approx(0.01, rel=1e-6) and got.batch_us == pytest.approx(40.0, rel=1e-6)
    assert np.allclose(uvm_warp_faults.predict(cells, got), cells["uvm_ms"], rtol=1e-9)


def _cells(rows):
    cols = ["graph", "seed", "algorithm", "variant", "edge_bytes", "root", "session", "uvm_ms", "device_ms", "launches"]
    return pd.DataFrame(rows, columns=cols)


def test_scatter_floor_of_one_cell_in_two_sessions():
    # SYNTHETIC: one cell at 100 and 150 ms with the same GPU work: no prediction is within 20% of both
    m = _cells([("g", 1, "bfs", "v", 8, 0, "a", 100.0, 10.0, 7), ("g", 1, "bfs", "v", 8, 0, "b", 150.0, 10.2, 7)])
    g = uvm_scatter.spread(m)
    assert len(g) == 1 and bool(g["same_work"].iloc[0])
    assert g["bound"].iloc[0] == pytest.approx(0.2) and g["uvm_spread"].iloc[0] == pytest.approx(1.5)
    p = 2 * 100 * 150 / 250  # the harmonic middle reaches the floor
    assert max(abs(p / 100 - 1), abs(p / 150 - 1)) == pytest.approx(0.2)
    # other GPU work (device time 20% apart, or other launches) is not the same cell's scatter
    assert not uvm_scatter.spread(m.assign(device_ms=[10.0, 12.0]))["same_work"].iloc[0]
    assert not uvm_scatter.spread(m.assign(launches=[7, 8]))["same_work"].iloc[0]


def test_session_factor_removes_a_machine_wide_slowdown():
    # SYNTHETIC: session b is 1.5x session a on every cell; per-session factors leave no scatter
    rows = []
    for k, t in enumerate((50.0, 80.0, 120.0)):
        rows += [("g", 1, "bfs", "v", 8, k, "a", t, 5.0, 3), ("g", 1, "bfs", "v", 8, k, "b", 1.5 * t, 5.0, 3)]
    m = _cells(rows)
    f = uvm_scatter.session_factors(m)
    assert f["b"] / f["a"] == pytest.approx(1.5)
    norm = uvm_scatter.spread(m.assign(uvm_ms=m["uvm_ms"] / m["session"].map(f)))
    assert np.allclose(norm["bound"], 0)


def test_session_test_recovers_a_slower_session():
    # SYNTHETIC: archived cells follow `truth`; the OOM session's runs take 1.3x its migration time
    rng = np.random.default_rng(6)
    truth = UvmParams(throughput_gbps=30.0, batch_us=40.0, service_us=12.0, warp_fault_us=0.01)

    def frame(n, **cols):
        f = pd.DataFrame(
            {
                "migrated_bytes": rng.uniform(0.2e9, 5e9, n),
                "batches": rng.integers(100, 5000, n),
                "serviced_chunks": rng.integers(100, 3000, n),
                "list_faults": rng.integers(1e5, 2e7, n),
                "device_ms": rng.uniform(2, 50, n),
                **cols,
            }
        )
        mig = truth.migration_ms(f["migrated_bytes"], f["batches"], f["serviced_chunks"], f["list_faults"])
        return f.assign(mig=mig)

    cells = frame(40, variant="merged")
    cells["uvm_ms"] = cells["device_ms"] + cells["mig"]
    oom = frame(20, graph=["kron24"] * 10 + ["urand24"] * 10, set="validation 1")
    oom["uvm_ms"] = oom["device_ms"] + 1.3 * oom["mig"]
    got, per_run = uvm_warp_faults.session_test(
        oom.assign(**dict.fromkeys(uvm_warp_faults.KEYS[1:], 0)), cells, UvmParams()
    )
    got = got.set_index(["cost_set", "runs"])
    assert len(per_run) == 20 and np.allclose(per_run["error_warp-faults (every cell)"], 0, atol=1e-6)
    fitted = got.loc[("warp-faults (every cell)", "urand24 (judged)")]
    assert fitted["factor"] == pytest.approx(1.3, rel=1e-6) and fitted["worst"] < 1e-6
