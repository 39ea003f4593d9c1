"""The CUDA project compiles, and its host side (graph reader, CPU reference BFS, CLI) is right. No GPU needed."""

import json
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

from conftest import run
from emogi import csr, schema

UNREACHED = 0xFFFFFFFF


def write_graph(path, edges_by_vertex, num_vertices, dtype=np.uint64, directed=True):
    """A CSR file from {vertex: [neighbours]} (neighbour order kept)."""
    degrees = [len(edges_by_vertex.get(v, [])) for v in range(num_vertices)]
    offsets = np.concatenate([[0], np.cumsum(degrees)]).astype(np.uint64)
    edges = np.array([u for v in range(num_vertices) for u in edges_by_vertex.get(v, [])], dtype=dtype)
    csr.write_csr(path, offsets, edges, directed=directed)
    return path


def scipy_depths(path, root):
    g = csr.read_csr(path)
    n = g.num_vertices
    matrix = sp.csr_matrix(
        (np.ones(g.num_edges), np.asarray(g.edges, dtype=np.int64), np.asarray(g.offsets, dtype=np.int64)), shape=(n, n)
    )
    dist = shortest_path(matrix, unweighted=True, indices=root)
    return np.where(np.isinf(dist), UNREACHED, dist).astype(np.uint32)


def reference_depths(binary, path, root, tmp_path):
    out = tmp_path / f"depth-{root}.u32"
    done = run([binary, "reference", "--graph", path, "--root", root, "--out", out])
    assert done.returncode == 0, done.stderr
    return np.fromfile(out, dtype=np.uint32), json.loads(done.stdout)


def test_list_agrees_with_schema(emogi_binary):
    listed = json.loads(run([emogi_binary, "list"]).stdout)
    assert 1 <= listed.pop("loads_in_flight") <= 16  # a build setting (access.cuh), shown for the record
    assert listed == {
        "algorithms": list(schema.ALGORITHMS),
        "variants": list(schema.ALL_VARIANTS),
        "variants_of": {a: list(v) for a, v in schema.VARIANTS_OF.items()},
        "modes": list(schema.ALL_MODES),
        "auto_orders": list(schema.AUTO_ORDERS),
    }


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_info_reads_python_written_file(emogi_binary, tmp_path, dtype):
    path = write_graph(tmp_path / "g.csr", {0: [1, 2], 2: [0]}, 4, dtype=dtype, directed=True)
    info = json.loads(run([emogi_binary, "info", "--graph", path]).stdout)
    header = csr.read_header(path)
    assert info == {
        "num_vertices": 4,
        "num_edges": 3,
        "index_bytes": np.dtype(dtype).itemsize,
        "directed": True,
        "has_weights": False,
        "checksum": f"{header.checksum:016x}",
    }


def corrupt(path, how):
    data = bytearray(path.read_bytes())
    if how == "too_many_for_4_bytes":  # header V = 2^32 (offset 24: after magic, version, flags, width, reserved)
        data[24:32] = (2**32).to_bytes(8, "little")
    elif how == "truncated":
        data = data[:-3]
    elif how == "magic":
        data[0:8] = b"NOTACSR!"
    elif how == "payload":
        data[-1] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "how,message",
    [
        ("truncated", "truncated"),
        ("magic", "not an EMOGI CSR file"),
        ("payload", "corrupt: checksum"),
        ("too_many_for_4_bytes", "4294967296 vertices with 4-byte edge ids"),
    ],
)
def test_reader_rejects_bad_files(emogi_binary, tmp_path, how, message):
    width = np.uint32 if how == "too_many_for_4_bytes" else np.uint64
    path = write_graph(tmp_path / "g.csr", {0: [1], 1: [0, 2], 2: [1]}, 3, dtype=width)
    corrupt(path, how)
    done = run([emogi_binary, "info", "--graph", path])
    assert done.returncode == 1
    assert message in done.stderr and str(path) in done.stderr


EDGE_CASES = {
    "path with isolated vertices": ({0: [1], 1: [2], 2: [3], 5: [0]}, 7, [0, 5]),
    "root without out-edges": ({0: [1], 1: [0]}, 3, [2]),
    "single vertex": ({}, 1, [0]),
    "two components": ({0: [1], 1: [0], 2: [3], 3: [2]}, 4, [0, 3]),
    "star": ({0: list(range(1, 50))}, 50, [0, 7]),
}


@pytest.mark.parametrize("case", EDGE_CASES)
def test_reference_bfs_edge_cases(emogi_binary, tmp_path, case):
    adjacency, n, roots = EDGE_CASES[case]
    path = write_graph(tmp_path / "g.csr", adjacency, n)
    for root in roots:
        depth, summary = reference_depths(emogi_binary, path, root, tmp_path)
        expected = scipy_depths(path, root)
        np.testing.assert_array_equal(depth, expected)
        assert summary["levels"] == int(expected[expected != UNREACHED].max()) + 1
        assert summary["reached"] == int((expected != UNREACHED).sum())


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_reference_bfs_random_graph(emogi_binary, tmp_path, dtype):
    rng = np.random.default_rng(5)
    n = 3000
    matrix = sp.random(n, n, density=0.002, format="csr", random_state=rng)
    adjacency = {v: list(matrix.indices[matrix.indptr[v] : matrix.indptr[v + 1]]) for v in range(n)}
    path = write_graph(tmp_path / "g.csr", adjacency, n, dtype=dtype)
    for root in rng.choice(n, 5, replace=False):
        depth, summary = reference_depths(emogi_binary, path, int(root), tmp_path)
        np.testing.assert_array_equal(depth, scipy_depths(path, int(root)))
        reached = depth != UNREACHED
        assert summary["edges_traversed"] == int(np.diff(csr.read_csr(path).offsets)[reached].sum())


@pytest.mark.parametrize(
    "args,message",
    [
        (["bfs", "--bogus", "1"], "unknown option --bogus"),
        (["bfs", "--graph", "g.csr", "--out", "x.csv", "stray"], "unexpected argument 'stray'"),
        (
            ["bfs", "--graph", "g.csr", "--out", "x.csv", "--roots", "0", "--variants", "fancy"],
            "unknown variant 'fancy'",
        ),
        (
            ["bfs", "--graph", "g.csr", "--out", "x.csv", "--roots", "0", "--modes", "swap"],
            "unknown memory mode 'swap'",
        ),
        (
            ["bfs", "--graph", "g.csr", "--out", "x.csv", "--roots", "0", "--modes", "uvm-warm", "--warmup", "0"],
            "uvm-warm needs --warmup 1 or more",
        ),
        (
            ["run", "--algorithm", "cc", "--graph", "g.csr", "--out", "x.csv", "--variants", "frontier"],
            "cc has no variant frontier (it has naive, merged, merged-aligned, chunked, afforest)",
        ),
        (["reference", "--graph", "g.csr", "--out", "d"], "missing required option --root"),
        (
            ["lists", "--graph", "g.csr", "--out", "x.csv", "--variants", "frontier"],
            "emogi lists walks lists the paper's ways only (naive, merged, merged-aligned, chunked), not frontier",
        ),
        (
            ["lists", "--graph", "g.csr", "--out", "x.csv", "--modes", "uvm"],
            "microbenchmarks take device, zerocopy or zerocopy-pinned",
        ),
        (["uvmfault", "--out", "x.csv", "--bytes", "3M"], "--bytes must be a positive multiple of 2M"),
        (["uvmfault", "--out", "x.csv", "--bytes", "32G"], "is more than 16G"),
        (["uvmfault", "--out", "x.csv", "--access", "block"], "unknown access 'block' (thread, warp)"),
        (["uvmfault", "--out", "x.csv", "--list-bytes", "12"], "--list-bytes must be positive multiples of 8"),
        (
            ["uvmfault", "--out", "x.csv", "--list-bytes", "256", "--strides", "128"],
            "a stride of 128 bytes is shorter than its list of 256 bytes",
        ),
        (["uvmfault", "--out", "x.csv", "--strides", "3000"], "stride 3000 must be a multiple of 8 dividing --bytes"),
        (["uvmfault", "--out", "x.csv", "--reps", "0"], "--reps must be at least 1"),
        (["uvmfault", "--bytes", "1G"], "missing required option --out"),
    ],
)
def test_cli_errors_are_clear(emogi_binary, tmp_path, args, message):
    done = run([emogi_binary, *args], cwd=tmp_path)
    assert done.returncode == 1 and message in done.stderr


def test_help_lists_the_commands(emogi_binary):
    done = run([emogi_binary, "--help"])
    assert done.returncode == 0
    for command in (
        "run",
        "bfs",
        "linkbw",
        "reference",
        "info",
        "list",
        "device",
        "toy",
        "lists",
        "chase",
        "concurrency",
        "uvmfault",
    ):
        assert f"\n  {command} " in done.stdout, done.stdout


def test_run_help_lists_its_options(emogi_binary):
    done = run([emogi_binary, "run", "--help"])
    assert done.returncode == 0
    for option in (
        "--algorithm",
        "--graph",
        "--roots",
        "--roots-file",
        "--variants",
        "--modes",
        "--reps",
        "--warmup",
        "--out",
        "--device",
        "--gpu-memory-budget",
        "--max-warps",
        "--sssp-delta",
        "--pr-alpha",
        "--pr-tolerance",
        "--pr-max-iterations",
        "--auto-reserve",
        "--auto-order",
        "--auto-hot",
        "--allow-managed-oversubscription",
        "--no-verify-checksum",
        "--trace-out",
        "--uvm-capacity",
        "--uvm-sublaunches",
    ):
        assert option in done.stdout, option
    assert "--reps INT=3" in done.stdout  # defaults are shown


def test_run_needs_the_algorithm(emogi_binary, tmp_path):
    """`emogi run` has no default algorithm (it used to run BFS): one line naming the missing option."""
    done = run([emogi_binary, "run", "--graph", "g.csr", "--out", "x.csv", "--roots", "0"], cwd=tmp_path)
    assert done.returncode == 1 and "--algorithm" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_missing_or_unknown_command_shows_usage(emogi_binary):
    for args in ([], ["fly"]):
        done = run([emogi_binary, *args])
        assert done.returncode == 2 and "usage: emogi {run|" in done.stderr and "--help" in done.stderr


def test_build_setting_reaches_cmake(monkeypatch, tmp_path):
    """config build.loads_in_flight -> emogi.toolchain -> -DEMOGI_LOADS_IN_FLIGHT (absent: access.cuh's default)."""
    from emogi import toolchain

    calls = []

    def fake_run(cmd, **kwargs):
        calls.append(cmd)
        (tmp_path / "emogi").touch()
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(toolchain, "find_nvcc", lambda _: tmp_path / "nvcc")
    monkeypatch.setattr(toolchain.subprocess, "run", fake_run)
    toolchain.build("kernels", tmp_path, loads_in_flight=1)
    assert "-DEMOGI_LOADS_IN_FLIGHT=1" in calls[0]
    toolchain.build("kernels", tmp_path)
    assert not any(a.startswith("-DEMOGI_LOADS_IN_FLIGHT") for a in calls[2])
