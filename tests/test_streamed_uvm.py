"""model/streamed_uvm.py on hand-built graphs (no number here was measured): the touched-unit curve against a brute
force over every set of active vertices, the simulated UVM pass at its limits and monotone in x, and crossings."""

import itertools
import math

import numpy as np
import pytest

from emogi import csr
from emogi.traces import CHUNK_BYTES, mark_units
from model import streamed_uvm as su
from model.uvm_sim import UvmParams

ENTRY = 4
LIST = 1024  # entries: 4 KiB lists at 4 bytes, 512 per chunk
CHUNKS = 8


def test_the_touched_fraction_is_the_brute_force_expectation():
    """Lists of 0-7 entries (two empty) in 8-byte units, so that units hold parts of several lists: the expected
    fraction of units touched, summed over all 2^V sets of active vertices with their probabilities."""
    deg = np.array([3, 0, 1, 5, 2, 0, 7, 4])
    off = np.concatenate([[0], np.cumsum(deg)])
    v, units = len(deg), -(-off[-1] * ENTRY // 8)
    for x in (0.1, 0.37, 0.9):
        expected = 0.0
        for active in itertools.product((False, True), repeat=v):
            sel = np.flatnonzero(np.array(active) & (deg > 0))  # an empty list reads nothing
            touched = np.zeros(units, dtype=bool)
            mark_units(touched, off[sel] * ENTRY, off[sel + 1] * ENTRY, 8)
            k = sum(active)
            expected += x**k * (1 - x) ** (v - k) * touched.mean()
        assert su.touched_fraction(off, ENTRY, 8, [x])[0] == pytest.approx(expected, rel=1e-12)
    assert su.touched_fraction(off, ENTRY, 8, [0.0, 1.0]) == pytest.approx([0.0, 1.0])


@pytest.fixture(scope="module")
def uniform(tmp_path_factory):
    """CHUNKS chunks of lists at 4-byte entries (the file holds 8-byte ids; the curve reads only its offsets)."""
    lists = CHUNKS * CHUNK_BYTES // (LIST * ENTRY)
    path = tmp_path_factory.mktemp("g") / "uniform.csr"
    csr.write_csr(path, np.arange(lists + 1, dtype=np.uint64) * LIST, np.zeros(lists * LIST, dtype=np.uint32))
    return su.graph_file(path)


@pytest.fixture(scope="module")
def simulated(uniform):
    return su.curve("toy", uniform, ENTRY, [0.5], fractions=np.array([1e-3, 1e-2, 0.1, 1.0]))


def test_a_full_pass_faults_on_every_chunk_and_counts_grow_with_x(simulated):
    full = simulated.iloc[-1]
    assert full["migrated_per_byte"] == pytest.approx(1.0)  # every chunk migrates whole, every pass
    assert full["serviced_per_chunk"] == 1.0 and full["evicted_per_chunk"] == 1.0
    assert full["fault_entries_per_byte"] == pytest.approx(1 / 4096)  # one entry per 4 KiB page
    for k in (*su.COUNTS, "blocks_touched"):
        assert np.all(np.diff(simulated[k]) >= 0), k
    assert (simulated[["pages_touched", "blocks_touched", "chunks_touched"]] <= 1).all().all()


def test_the_line_runs_from_the_fixed_work_to_every_chunk_faulting(simulated):
    params, e, cost = UvmParams(), 0.02, (0.1, 1e-6, 1e-7)
    lists, v = 4 * CHUNK_BYTES * CHUNKS, 1000  # a graph 4x the curve's: counts scale with its bytes
    x = np.logspace(-9, 0, 50)
    ms = su.uvm_pass_ms(simulated, x, lists, lists / ENTRY, v, params, e, cost)
    assert np.all(np.diff(ms) > 0)
    assert ms[0] == pytest.approx(0.1 + 1e-6 * v, rel=1e-4)  # x -> 0: only the per-pass fixed work
    chunks = lists / CHUNK_BYTES
    full = params.migration_ms(lists * 1.0, lists * simulated.iloc[-1]["batches_per_byte"], chunks) + e * chunks
    assert ms[-1] == pytest.approx(full + 0.1 + 1e-6 * v + 1e-7 * lists / ENTRY)
    with pytest.raises(su.UvmCurveError):
        su.uvm_pass_ms(simulated.iloc[:0], x, lists, 1, v, params, e, cost)


def test_crossing_is_the_highest_change_of_order():
    f = np.array([0.01, 0.1, 1.0])
    assert su.crossing(f, [1, 3, 9], [2, 2, 2]) == pytest.approx(10 ** (-2 + 0.5))  # log-linear between 0.01, 0.1
    assert math.isnan(su.crossing(f, [3, 4, 9], [2, 2, 2]))
    assert 0.1 < su.crossing(f, [1, 3, 1], [2, 2, 2]) < 1.0  # two changes: the higher one
