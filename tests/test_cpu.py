"""The CPU kernels (emogi_cpu, docs/cpu.md), no GPU needed: the unit checks of kernels/tests/cpu_tests.cpp, blocked
and unblocked pull PageRank against the numpy fixed point on edge cases, the micro-benchmark's output, and the
one-line errors on bad input."""

import csv
import io
import json

import numpy as np
import pytest
from scipy.sparse.csgraph import connected_components

from conftest import run
from emogi.csr_transpose import write_transpose
from graphs import numpy_pagerank, scipy_matrix, write_directed, write_generated, write_lists, write_undirected


@pytest.fixture(scope="module")
def cpu_binary(emogi_binary):
    binary = emogi_binary.parent / "emogi_cpu"
    assert binary.exists(), f"{binary} was not built beside {emogi_binary}"
    return binary


def rows(done):
    assert done.returncode == 0, done.stderr
    return list(csv.DictReader(io.StringIO(done.stdout)))


def pagerank(binary, path, tmp_path, kernel, segments="auto", *extra):
    out = tmp_path / f"{kernel}-{segments}.f32"
    args = [binary, "pagerank", "--graph", path, "--kernels", kernel, "--segments", segments, "--reps", 1]
    done = run([*args, "--warmup", 0, "--out", out, "--llc", "1M", *extra])
    return rows(done), np.fromfile(out, dtype=np.float32)


def test_cpu_unit_checks(cpu_binary):
    done = run([cpu_binary.parent / "emogi_cpu_tests"])
    assert done.returncode == 0 and "FAILED" not in done.stdout, done.stdout + done.stderr
    assert done.stdout.strip().endswith("checks passed"), done.stdout


# name -> (pairs, vertices): isolated vertices; vertex 0's in-edges come from every one of 8 segments.
CASES = {
    "isolated": ([(0, 1), (1, 2), (4, 5)], 9),
    "hub_in_every_segment": ([(0, v) for v in range(1, 16)] + [(3, 9), (12, 15)], 16),
    "single_vertex": ([], 1),
}


@pytest.mark.parametrize("form", ["jacobi", "delta"])
@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("segments", ["1", "3", "8", "40"])  # 40: more segments than vertices
def test_blocked_and_unblocked_match_numpy(cpu_binary, tmp_path, case, segments, form):
    path = write_undirected(tmp_path / f"{case}.csr", *CASES[case])
    want = numpy_pagerank(path)
    tight = ["--tolerance", "1e-7", "--form", form]
    (plain,), unblocked = pagerank(cpu_binary, path, tmp_path, "unblocked", segments, *tight)
    (row,), blocked = pagerank(cpu_binary, path, tmp_path, "blocked", segments, *tight)
    assert row["segments"] == segments and plain["segments"] == ""
    assert row["verified"] == plain["verified"] == "yes"
    np.testing.assert_allclose(unblocked, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(blocked, want, rtol=1e-5, atol=1e-6)
    assert row["iterations"] == plain["iterations"]


def test_one_row_per_segment_count(cpu_binary, tmp_path):
    path = write_generated(tmp_path / "kron8.csr", "kron", 8, dtype=np.uint32)
    done = run([cpu_binary, "pagerank", "--graph", path, "--segments", "auto,2,7", "--llc", "1K", "--reps", 1])
    table = rows(done)
    # 256 vertices x 4 bytes in half of a 1 KiB cache: 2 segments for auto
    assert [(r["kernel"], r["segments"]) for r in table] == [("unblocked", ""), *[("blocked", s) for s in "227"]]
    assert {r["verified"] for r in table} == {"yes"}


def test_duplication_factor_of_a_hub(cpu_binary, tmp_path):
    pairs, n = CASES["hub_in_every_segment"]
    path = write_undirected(tmp_path / "hub.csr", pairs, n)
    (row,), _ = pagerank(cpu_binary, path, tmp_path, "blocked", "8")
    # Ranges of 2 vertices: vertex 0 pulls from all 8; the leaves 1..15 from range 0 (vertex 0); 3, 9, 12 and 15
    # also from their partner's range: 8 + 15 + 4 home vertices.
    assert int(row["home_vertices"]) == 27
    assert float(row["duplication"]) == pytest.approx(27 / n)


def test_random_graph_and_four_byte_ids(cpu_binary, tmp_path):
    for dtype in (np.uint64, np.uint32):
        path = write_generated(tmp_path / f"kron10-{np.dtype(dtype).itemsize}.csr", "kron", 10, dtype=dtype)
        want = numpy_pagerank(path)
        for form in ("jacobi", "delta"):
            for kernel, segments in (("unblocked", "auto"), ("blocked", "auto"), ("blocked", "5")):
                extra = ("--tolerance", "1e-6", "--form", form)
                (row,), got = pagerank(cpu_binary, path, tmp_path, kernel, segments, *extra)
                assert row["verified"] == "yes" and int(row["index_bytes"]) == np.dtype(dtype).itemsize
                assert row["form"] == form
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_directed_graph_is_pulled_over_its_transpose(cpu_binary, tmp_path):
    lists = {0: [1, 2], 1: [2], 2: [0], 3: [0, 2]}
    path = write_lists(tmp_path / "directed.csr", lists, 5, directed=True)
    want = numpy_pagerank(path)
    for kernel, form in (("unblocked", "jacobi"), ("blocked", "jacobi"), ("blocked", "delta")):
        (row,), got = pagerank(cpu_binary, path, tmp_path, kernel, "2", "--tolerance", "1e-7", "--form", form)
        assert row["verified"] == "yes"
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_a_directed_graph_reads_its_transpose_file_when_there_is_one(cpu_binary, tmp_path):
    path = write_directed(tmp_path / "d.csr", "kron", 9, dtype=np.uint32, transpose=False)
    want = numpy_pagerank(path)
    base = [cpu_binary, "pagerank", "--graph", path, "--kernels", "blocked", "--reps", 1, "--warmup", 0]
    base += ["--tolerance", "1e-6"]
    built = run([*base, "--out", tmp_path / "built.f32"])
    assert "building its transpose in memory (python -m emogi.csr transpose" in built.stderr
    write_transpose(path)
    read = run([*base, "--out", tmp_path / "read.f32"])
    assert f"its in-lists from {tmp_path / 'd.t.csr'}" in read.stderr
    for done, out in ((built, "built.f32"), (read, "read.f32")):
        assert rows(done)[0]["verified"] == "yes"
        np.testing.assert_allclose(np.fromfile(tmp_path / out, dtype=np.float32), want, rtol=1e-4, atol=1e-5)
    other = write_directed(tmp_path / "other.csr", "kron", 9, seed=8, dtype=np.uint32)
    done = run([*base, "--transpose", tmp_path / "other.t.csr"])
    assert (
        done.returncode == 1
        and "not the transpose of" in done.stderr
        and "python -m emogi.csr transpose" in done.stderr
    )
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    done = run([*base, "--transpose", other])
    assert done.returncode == 1 and "not a transpose file" in done.stderr


@pytest.mark.parametrize("segments", ["1", "3", "40"])
def test_cc_blocked_and_unblocked_find_scipys_components(cpu_binary, tmp_path, segments):
    cases = {name: write_undirected(tmp_path / f"{name}.csr", *CASES[name]) for name in CASES}
    cases["kron10"] = write_generated(tmp_path / "kron10.csr", "kron", 10, dtype=np.uint32)
    for name, path in cases.items():
        want, _ = connected_components(scipy_matrix(path), directed=False)
        args = [cpu_binary, "cc", "--graph", path, "--segments", segments, "--reps", 1, "--warmup", 0]
        table = rows(run(args))
        assert [r["kernel"] for r in table] == ["unblocked", "blocked"], name
        assert {r["verified"] for r in table} == {"yes"}, name  # label for label against reference_cc
        assert {int(r["components"]) for r in table} == {want}, name
        assert table[0]["iterations"] == table[1]["iterations"], name


@pytest.mark.parametrize("command", ["pagerank", "cc"])
def test_where_the_data_live_changes_no_result(cpu_binary, tmp_path, command):
    """--graph-memory copy|mapped and --pages huge|small: the same values, recorded in the row."""
    path = write_generated(tmp_path / "kron10.csr", "kron", 10, dtype=np.uint32)
    outputs = []
    for memory in ("copy", "mapped"):
        for pages in ("huge", "small"):
            args = [cpu_binary, command, "--graph", path, "--kernels", "unblocked,blocked", "--segments", "3"]
            args += ["--reps", 1, "--warmup", 0, "--graph-memory", memory, "--pages", pages, "--threads", 1]
            if command == "pagerank":
                args += ["--out", tmp_path / f"{memory}-{pages}.f32", "--no-reference"]
            table = rows(run(args))
            assert {(r["graph_memory"], r["pages"], r["verified"]) for r in table} == {(memory, pages, "yes")}
            assert all(int(r["huge_bytes"]) >= 0 for r in table)
            outputs.append([r["iterations"] for r in table])
            if command == "pagerank":
                outputs.append(np.fromfile(tmp_path / f"{memory}-{pages}.f32", dtype=np.float32).tolist())
    assert all(o == outputs[i % 2] for i, o in enumerate(outputs)), command


def test_cc_refuses_a_directed_graph(cpu_binary, tmp_path):
    path = write_lists(tmp_path / "directed.csr", {0: [1]}, 2, directed=True)
    done = run([cpu_binary, "cc", "--graph", path])
    assert done.returncode == 1 and "is directed: CC needs an undirected graph" in done.stderr


def test_bad_input_is_one_line(cpu_binary, tmp_path):
    path = write_undirected(tmp_path / "g.csr", [(0, 1)], 2)
    base = [cpu_binary, "pagerank", "--graph", path]
    for args, words in [
        (["--segments", "0"], "--segments must be at least 1"),
        (["--segments", "many"], "--segments expects counts or auto, got 'many'"),
        (["--segments", "2,0"], "--segments must be at least 1"),
        (["--kernels", "push"], "is not unblocked or blocked"),
        (["--form", "gauss"], "is not jacobi, delta or gauss-seidel"),
        (["--stop", "never"], "is not residual or total-change"),
        (["--form", "delta", "--stop", "total-change"], "--form delta stops by its residual threshold only"),
        (["--form", "gauss-seidel", "--segments", "2"], "--form gauss-seidel runs the blocked kernel at 1 segment"),
        (["--graph-memory", "disk"], "--graph-memory: 'disk' is not copy or mapped"),
        (["--pages", "tiny"], "--pages: 'tiny' is not huge or small"),
        (["--schedule", "sideways"], "is not static, dynamic or guided"),
        (["--llc-fraction", "0"], "--llc-fraction must lie in (0, 1]"),
    ]:
        done = run([*base, *args])
        assert done.returncode == 1 and words in done.stderr and done.stderr.count("\n") == 1, (args, done.stderr)
    done = run([cpu_binary, "pagerank", "--graph", tmp_path / "missing.csr"])
    assert done.returncode == 1 and "cannot open" in done.stderr


def test_membench_rows(cpu_binary):
    done = run([cpu_binary, "membench", "--size", "4M", "--reps", "2", "--pass-threads", "1,all"])
    table = rows(done)
    assert [(r["pattern"], r["pass_threads"] == "1") for r in table] == [
        ("sequential", True),
        ("sequential", False),
        ("random", True),
        ("random", False),
    ]
    for r in table:
        accesses, seconds = int(r["accesses"]), float(r["seconds"])
        assert int(r["array_bytes"]) == 4 << 20 and accesses == (4 << 20) // 8
        # seconds are printed to 1e-6 and a 4 MiB pass takes ~1e-4 s: allow for that rounding, as for ns' 1e-3
        rel = 1e-2 + 1e-6 / seconds
        assert float(r["ns_per_access"]) == pytest.approx(seconds * 1e9 / accesses, rel=rel, abs=2e-3)
        assert float(r["array_gb_s"]) == pytest.approx(8 * accesses / seconds / 1e9, rel=rel)
        assert int(r["numa_nodes"]) != 1 or r["numa_note"].startswith("one NUMA node")
    assert "NUMA" in done.stderr


def test_machine_reports_the_pinning_asked_for(cpu_binary):
    done = run([cpu_binary, "machine", "--threads", "1", "--bind", "close", "--places", "cores"])
    assert done.returncode == 0, done.stderr
    m = json.loads(done.stdout)
    assert m["threads"] == 1 and m["proc_bind"] == "close" and m["places"].startswith("cores")
