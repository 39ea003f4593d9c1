"""`emogi_cpu pagerank`'s stopping rules (the residual rule and GAP's total change), its Gauss-Seidel form and its
l1_to_reference column (docs/cpu.md), against numpy on the edge cases of test_cpu.py; synthetic graphs only."""

import csv
import io

import numpy as np
import pytest

from conftest import run
from emogi import csr
from graphs import numpy_pagerank, scipy_matrix, write_generated, write_lists, write_undirected

ALPHA = 0.85
CASES = {  # as test_cpu.py's: isolated vertices, a hub pulling from every segment, one vertex
    "isolated": ([(0, 1), (1, 2), (4, 5)], 9),
    "hub_in_every_segment": ([(0, v) for v in range(1, 16)] + [(3, 9), (12, 15)], 16),
    "single_vertex": ([], 1),
}


@pytest.fixture(scope="module")
def cpu_binary(emogi_binary):
    binary = emogi_binary.parent / "emogi_cpu"
    assert binary.exists(), f"{binary} was not built beside {emogi_binary}"
    return binary


def pagerank(binary, path, tmp_path, *extra, kernels="unblocked", segments="2"):
    out = tmp_path / "values.f32"
    args = [binary, "pagerank", "--graph", path, "--kernels", kernels, "--segments", segments, "--reps", 1]
    done = run([*args, "--warmup", 0, "--out", out, *extra])
    assert done.returncode == 0, done.stderr
    return list(csv.DictReader(io.StringIO(done.stdout))), np.fromfile(out, dtype=np.float32)


def jacobi_changes(path, rounds):
    """Total change / V of each of the first `rounds` Jacobi rounds from x = 0, in float64."""
    g = csr.read_csr(path)
    a = scipy_matrix(path)
    degree = np.diff(np.asarray(g.offsets)).astype(np.float64)
    share = np.divide(1.0, degree, out=np.zeros_like(degree), where=degree > 0)
    x, changes = np.zeros(g.num_vertices), []
    for _ in range(rounds):
        nxt = (1.0 - ALPHA) + ALPHA * (a.T @ (x * share))
        changes.append(np.abs(nxt - x).sum() / g.num_vertices)
        x = nxt
    return changes


@pytest.mark.parametrize("stop", ["residual", "total-change"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_gauss_seidel_matches_numpy(cpu_binary, tmp_path, case, stop):
    path = write_undirected(tmp_path / f"{case}.csr", *CASES[case])
    want = numpy_pagerank(path)
    tight = ["--tolerance", "1e-7", "--epsilon", "1e-9", "--stop", stop, "--form", "gauss-seidel"]
    (row,), got = pagerank(cpu_binary, path, tmp_path, *tight)
    assert row["form"] == "gauss-seidel" and row["stop"] == stop and row["verified"] == "yes"
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_gauss_seidel_on_a_random_and_a_directed_graph(cpu_binary, tmp_path):
    paths = [
        write_generated(tmp_path / "kron10.csr", "kron", 10, dtype=np.uint32),
        write_lists(tmp_path / "directed.csr", {0: [1, 2], 1: [2], 2: [0], 3: [0, 2]}, 5, directed=True),
    ]
    for path in paths:
        want = numpy_pagerank(path)
        for threads in ("1", "2"):  # two threads race on the contributions: values differ within the rule
            (row,), got = pagerank(
                cpu_binary, path, tmp_path, "--form", "gauss-seidel", "--tolerance", "1e-6", "--threads", threads
            )
            assert row["verified"] == "yes", path
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        (jacobi,), _ = pagerank(cpu_binary, path, tmp_path, "--tolerance", "1e-6")
        assert int(row["iterations"]) <= int(jacobi["iterations"]), path


def test_gauss_seidel_blocked_at_one_segment_is_the_sweep(cpu_binary, tmp_path):
    path = write_generated(tmp_path / "kron10.csr", "kron", 10, dtype=np.uint32)
    want = numpy_pagerank(path)
    # 1024 vertices x 4 bytes in half of 1 MiB: auto gives 1 segment, where the blocked kernel is the sweep itself
    extra = ("--form", "gauss-seidel", "--tolerance", "1e-6", "--llc", "1M", "--threads", "1")
    table, got = pagerank(cpu_binary, path, tmp_path, *extra, kernels="unblocked,blocked", segments="auto")
    (plain, blocked) = table
    assert (plain["kernel"], plain["segments"]) == ("unblocked", "")
    assert (blocked["kernel"], blocked["segments"], blocked["home_vertices"]) == ("blocked", "1", "")
    assert blocked["verified"] == "yes" and blocked["iterations"] == plain["iterations"]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kernels", ["unblocked", "blocked"])
def test_total_change_rule_stops_at_the_first_round_below_epsilon(cpu_binary, tmp_path, kernels):
    path = write_generated(tmp_path / "kron9.csr", "kron", 9, dtype=np.uint32)
    (row,), got = pagerank(
        cpu_binary, path, tmp_path, "--stop", "total-change", "--epsilon", "1e-4", kernels=kernels, segments="3"
    )
    rounds = int(row["iterations"])
    changes = jacobi_changes(path, rounds)
    assert row["stop"] == "total-change" and float(row["epsilon"]) == 1e-4 and row["verified"] == "yes"
    assert float(row["criterion"]) == pytest.approx(changes[-1], rel=1e-4)  # sum |x_new - x_old| / V
    assert changes[-1] < 1e-4 <= changes[-2]
    # The values are the last round's (x_new): within alpha / (1 - alpha) * epsilon of the fixed point in L1 / V.
    want = numpy_pagerank(path)
    assert np.abs(got - want).sum() / len(want) <= ALPHA / (1 - ALPHA) * 1e-4


def test_residual_rule_records_its_tolerance_and_largest_residual(cpu_binary, tmp_path):
    path = write_generated(tmp_path / "kron9.csr", "kron", 9, dtype=np.uint32)
    table, _ = pagerank(cpu_binary, path, tmp_path, kernels="unblocked,blocked")
    for row in table:
        assert row["stop"] == "residual" and float(row["epsilon"]) == 1e-3
        assert float(row["criterion"]) == float(row["worst_residual"]) <= 1e-3


def test_l1_to_reference_is_the_normalised_distance_to_the_fixed_point(cpu_binary, tmp_path):
    path = write_generated(tmp_path / "kron10.csr", "kron", 10, dtype=np.uint32)
    want = numpy_pagerank(path)
    ref = tmp_path / "kron10.ref"
    for form, stop in (("jacobi", "residual"), ("jacobi", "total-change"), ("gauss-seidel", "total-change")):
        (row,), got = pagerank(cpu_binary, path, tmp_path, "--form", form, "--stop", stop, "--reference", ref)
        l1 = np.abs(got.astype(np.float64) - want).sum() / len(want)  # got: float32 of the doubles
        assert float(row["l1_to_reference"]) == pytest.approx(l1, rel=1e-3, abs=1e-7), (form, stop)
    # The reference file holds V float64 values: the fixed point, and it is read, not recomputed, once there.
    np.testing.assert_allclose(np.fromfile(ref, dtype=np.float64), want, rtol=1e-9, atol=1e-9)
    done = run([cpu_binary, "pagerank", "--graph", path, "--reps", 1, "--warmup", 0, "--reference", ref])
    assert f"reference: read {ref}" in done.stderr
    (row,), _ = pagerank(cpu_binary, path, tmp_path, "--no-reference")
    assert row["l1_to_reference"] == ""


@pytest.mark.parametrize("form", ["jacobi", "gauss-seidel"])
def test_gap_rule_from_the_uniform_vector(cpu_binary, tmp_path, form):
    """--start uniform (GAP's start, x = 1) under GAP's stop: the same fixed point as numpy within the rule's L1
    bound, in no more rounds than from zero."""
    path = write_generated(tmp_path / "kron10.csr", "kron", 10)
    want = numpy_pagerank(path)
    rule = ["--form", form, "--stop", "total-change", "--epsilon", "1e-4"]
    rows = {}
    for start in ("zero", "uniform"):
        (row,), got = pagerank(cpu_binary, path, tmp_path, *rule, "--start", start)
        assert row["start"] == start and row["verified"] == "yes", row
        assert np.abs(got - want).sum() / len(want) <= ALPHA / (1 - ALPHA) * 1e-4
        rows[start] = row
    assert int(rows["uniform"]["iterations"]) <= int(rows["zero"]["iterations"])


def test_a_bad_start_is_refused(cpu_binary, tmp_path):
    path = write_undirected(tmp_path / "g.csr", *CASES["isolated"])
    done = run([cpu_binary, "pagerank", "--graph", path, "--start", "random"])
    assert done.returncode != 0 and "--start: 'random' is not uniform or zero" in done.stderr
