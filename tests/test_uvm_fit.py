"""The UVM simulator's fit: the archived cells and their split, the fit itself, graphs checked by checksum."""

import numpy as np
import pandas as pd
import pytest

from emogi import csr
from emogi.trace_derive import bfs_trace
from emogi.traces import TraceError
from model import uvm_calibrate, uvm_graphs
from model.uvm_cells import measured_cells, split_of, trace_family
from model.uvm_fit import predict, retarget
from model.uvm_sim import UvmParams
from tests.graphs import write_generated


def test_archived_cells_and_the_split_written_in_the_docs():
    cells = measured_cells("archive")
    assert len(cells) > 500 and (cells["uvm_ms"] > 0).all() and (cells["device_ms"] > 0).all()
    fit = cells[cells["split"] == "fit"]
    assert set(fit["kind"]) == {"kron"} and set(fit["algorithm"]) == {"bfs"}
    assert "direction-optimizing" not in set(fit["variant"])
    val = cells[cells["split"] == "validation"]
    assert {"bfs", "sssp", "cc", "pagerank"} <= set(val["algorithm"]) and "urand" in set(val["kind"])
    # the study's kron23 (seed 23) and the bench's (seed 24) are different graphs under one name
    assert set(cells[cells["graph"] == "kron23"]["seed"]) == {23, 24}
    assert "h200" not in " ".join(cells["source"])
    assert split_of("kron", "bfs", "frontier") == "fit" and split_of("urand", "bfs", "naive") == "validation"
    assert trace_family("pagerank", "frontier") == "scan" and trace_family("sssp", "frontier") == "frontier"


def synthetic_cells(rng, n: int, device_ms_hi: float, **columns) -> pd.DataFrame:
    """SYNTHETIC UVM cells: made-up migrated bytes, batches, serviced chunks and device times (and `columns`)."""
    return pd.DataFrame(
        {
            "migrated_bytes": rng.uniform(0.2e9, 5e9, n),
            "batches": rng.integers(100, 5000, n),
            "serviced_chunks": rng.integers(100, 3000, n),
            "device_ms": rng.uniform(2, device_ms_hi, n),
            **columns,
        }
    )


def test_fit_recovers_known_costs():
    rng = np.random.default_rng(3)
    n = 40
    cells = synthetic_cells(rng, n, 50)
    truth = UvmParams(throughput_gbps=30.0, batch_us=40.0, service_us=12.0)
    cells["uvm_ms"] = cells["device_ms"] + truth.migration_ms(
        cells["migrated_bytes"], cells["batches"], cells["serviced_chunks"]
    )
    got = uvm_calibrate.fit(cells).params()
    assert got.throughput_gbps == pytest.approx(30.0, rel=1e-6)
    assert (got.batch_us, got.service_us) == (pytest.approx(40.0, rel=1e-6), pytest.approx(12.0, rel=1e-6))
    assert np.allclose(predict(cells, got, "x")["error_x"], 0, atol=1e-9)


def test_session_factors_and_overlap_are_recovered():
    rng = np.random.default_rng(4)
    n = 60
    cells = synthetic_cells(rng, n, 300, source=[f"s{i % 3}/runs.csv" for i in range(n)])
    truth = UvmParams(throughput_gbps=30.0, batch_us=40.0, service_us=12.0, overlap=0.5)
    factor = cells["source"].map({"s0/runs.csv": 1.0, "s1/runs.csv": 1.5, "s2/runs.csv": 0.8})
    migration = factor * truth.migration_ms(cells["migrated_bytes"], cells["batches"], cells["serviced_chunks"])
    cells["uvm_ms"] = truth.total_ms(cells["device_ms"], migration)
    model = uvm_calibrate.fit(cells, overlap=0.5, per_session=True)
    assert np.allclose(model.predict(cells)[0], cells["uvm_ms"], rtol=1e-6)
    f = model.factors
    assert f["s1"] / f["s0"] == pytest.approx(1.5) and f["s2"] / f["s0"] == pytest.approx(0.8)
    assert model.params("s1").batch_us == pytest.approx(1.5 * model.params().batch_us)
    cv = uvm_calibrate.cross_validate(
        cells.assign(graph="g", seed=1, variant=[f"v{i % 5}" for i in range(n)], edge_bytes=8),
        overlaps=(0.0, 0.5),
        batches_from=("pages",),
    )
    best = cv.loc[cv["cv_p90_abs_error"].idxmin()]
    assert bool(best["per_session"]) and best["overlap"] == 0.5 and best["cv_worst_abs_error"] < 1e-3


def test_retarget_keeps_the_lists_and_refuses_width_dependent_traces(tmp_path):
    wide = csr.read_csr(write_generated(tmp_path / "w8.csr", "kron", 8, dtype=np.uint64, seed=2))
    narrow = csr.read_csr(write_generated(tmp_path / "w4.csr", "kron", 8, dtype=np.uint32, seed=2))
    trace = bfs_trace(wide, 0, name="g")
    moved = retarget(trace, narrow)
    assert moved.edge_bytes == 4 and moved.checksum != trace.checksum
    assert all(np.array_equal(moved.mask(i), bfs_trace(narrow, 0, name="g").mask(i)) for i in range(trace.num_launches))
    with pytest.raises(TraceError, match="edge width"):
        retarget(bfs_trace(wide, 0, "direction-optimizing", name="g"), narrow)


def test_a_regenerated_graph_must_match_the_archived_checksum(tmp_path):
    spec = uvm_graphs.GraphSpec("kron", 21, 24, 8)
    write_generated(spec.path(tmp_path), "kron", 6)  # not the archived kron21
    with pytest.raises(csr.GraphFormatError, match="the archives recorded dc9cba51e4ae8bfc"):
        uvm_graphs.make(spec, tmp_path)
