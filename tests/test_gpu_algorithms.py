"""On a GPU: every algorithm x variant x memory mode x edge width agrees with its CPU reference, on edge cases,
small generated graphs and one graph of more than 1 GiB; a spoiled result fails the run; compute-sanitizer's
memcheck and racecheck find nothing on small graphs."""

import os
import re
import shutil

import numpy as np
import pandas as pd
import pytest

from conftest import run
from emogi import csr, schema
from emogi.trace_derive import SUPPORTED, derive
from emogi.trace_hotness import hot_fraction, hot_placement, hotness, write_hotness
from graphs import EDGE_CASES, write_generated, write_undirected

pytestmark = pytest.mark.gpu

PLAIN_MODES = ",".join(schema.PLAIN_MODES)  # uvm-capped needs a capacity: test_gpu_uvm_capped.py
VARIANTS = schema.VARIANTS_OF  # every variant of each algorithm (test_kernels checks the binary has these)
ROOTED = set(schema.ROOTED_ALGORITHMS)


def roots_of(path, count=3):
    degrees = np.diff(np.asarray(csr.read_csr(path).offsets))
    with_edges = np.flatnonzero(degrees)
    picks = {int(with_edges[0]), int(with_edges[len(with_edges) // 2]), int(np.argmax(degrees))}
    return sorted(picks)[:count]


def run_args(binary, algorithm, path, *options, roots=slice(0, 1)):
    """`emogi run` of `algorithm` on `path` with `options`, then, for a rooted algorithm, `--roots` the `roots`
    slice of roots_of(path)."""
    args = [binary, "run", "--algorithm", algorithm, "--graph", path, *options]
    if algorithm in ROOTED:
        args += ["--roots", ",".join(map(str, roots_of(path)[roots]))]
    return args


def run_matrix(binary, path, algorithm, tmp_path, modes=PLAIN_MODES, reps=1, extra=(), variants=None, roots=3):
    out = tmp_path / f"{algorithm}.csv"
    variants = variants or VARIANTS[algorithm]
    warmup = "1" if "uvm-warm" in modes else "0"
    options = ["--variants", ",".join(variants), "--modes", modes, "--reps", reps, "--warmup", warmup, "--out", out]
    done = run(run_args(binary, algorithm, path, *options, *extra, roots=slice(-roots, None)))
    assert done.returncode == 0, done.stderr[-3000:]
    rows = pd.read_csv(out)
    rows.attrs["stderr"] = done.stderr
    return rows


@pytest.fixture(scope="module")
def small_graphs(tmp_path_factory):
    root = tmp_path_factory.mktemp("small")
    made = [
        write_undirected(root / f"{name}.csr", spec["pairs"], spec["num_vertices"])
        for name, spec in EDGE_CASES.items()
        if spec["pairs"]
    ]  # BFS/SSSP need a root with out-edges
    made += [
        write_generated(root / "kron12.w8.csr", "kron", 12),
        write_generated(root / "urand12.w8.csr", "urand", 12),
        write_generated(root / "kron12.w4.csr", "kron", 12, dtype=np.uint32),
    ]
    return made


@pytest.mark.parametrize("algorithm", sorted(VARIANTS))
def test_every_variant_and_mode_is_verified(emogi_binary, small_graphs, tmp_path, algorithm):
    for path in small_graphs:
        rows = run_matrix(emogi_binary, path, algorithm, tmp_path)
        assert set(rows["variant"]) == set(VARIANTS[algorithm]) and rows["verified"].all(), path
        assert set(rows["mode"]) == set(PLAIN_MODES.split(","))
        if algorithm == "cc":  # every variant finds the same components
            assert rows["components"].nunique() == 1


def vertex_data_in_use(binary, path, algorithm, tmp_path):
    """The bytes a run of `algorithm` has in GPU memory before auto places any list, as its log reports them under
    a budget too large to limit anything."""
    rows = run_matrix(
        binary,
        path,
        algorithm,
        tmp_path,
        modes="auto",
        variants=VARIANTS[algorithm][:1],
        extra=["--gpu-memory-budget", str(1 << 40), "--auto-reserve", "0"],
    )
    return int(re.search(r"(\d+) bytes in use before placing the lists", rows.attrs["stderr"])[1])


@pytest.mark.parametrize("order", ["longest-first", "shortest-first"])
@pytest.mark.parametrize("algorithm", sorted(VARIANTS))
def test_auto_moves_whole_lists_with_room_for_some(emogi_binary, small_graphs, tmp_path, algorithm, order):
    """--auto-order longest-first / shortest-first with room for a third of what the algorithm reads beside the
    vertex data (which the budget counts too): kernels read the moved lists from their copy in GPU memory and the
    others from host memory at shifted positions; every variant verifies."""
    for path in small_graphs[-3:]:  # kron12 (8-byte ids), urand12, kron12 (4-byte ids)
        header = csr.read_header(path)
        entry_bytes = header.index_bytes + (4 if algorithm == "sssp" else 0)
        budget = vertex_data_in_use(emogi_binary, path, algorithm, tmp_path) + header.num_edges * entry_bytes // 3
        rows = run_matrix(
            emogi_binary,
            path,
            algorithm,
            tmp_path,
            modes="auto",
            extra=["--auto-order", order, "--gpu-memory-budget", budget, "--auto-reserve", "0"],
        )
        assert set(rows["variant"]) == set(VARIANTS[algorithm]) and rows["verified"].all(), path
        placed = re.search(rf"auto \({order}\): .*\((\d+) of (\d+) entries, (\d+) whole lists\)", rows.attrs["stderr"])
        assert placed, rows.attrs["stderr"][-2000:]
        in_gpu, edges, lists = map(int, placed.groups())
        assert 0 < in_gpu * entry_bytes <= budget and in_gpu < edges and lists > 0, placed[0]


@pytest.mark.parametrize("algorithm", sorted(VARIANTS))
def test_auto_order_default_per_algorithm(emogi_binary, small_graphs, tmp_path, algorithm):
    """With room for part of the lists, auto's order is the algorithm's default; with room for all of them, the
    prefix is the whole list, whatever order was asked, and the log says so."""
    path = small_graphs[-3]  # urand12
    num_edges = csr.read_header(path).num_edges
    budget = 64 * csr.read_header(path).num_vertices + num_edges * 4  # the vertex data, then half the ids

    def placed(*options):
        args = [
            "--variants",
            "merged-aligned",
            "--modes",
            "auto",
            "--auto-reserve",
            "0",
            "--reps",
            "1",
            "--warmup",
            "0",
        ]
        done = run(run_args(emogi_binary, algorithm, path, *args, "--out", tmp_path / "d.csv", *options))
        assert done.returncode == 0, done.stderr[-2000:]
        return next(line for line in done.stderr.splitlines() if ": placed " in line)

    expected = "longest-first" if algorithm == "pagerank" else "shortest-first"
    assert f"placed auto ({expected}):" in placed("--gpu-memory-budget", budget)
    everything = placed("--auto-order", "longest-first")
    assert "placed auto (prefix):" in everything and f"({num_edges} of {num_edges} entries)" in everything, everything


# Every algorithm the CPU derives traces for (SpMV has none yet: its trace is its whole edge list each sweep).
@pytest.mark.parametrize("algorithm", sorted(SUPPORTED))
def test_auto_keeps_the_lists_a_trace_reads_most(emogi_binary, small_graphs, tmp_path, algorithm):
    """--auto-order hottest-first, counts from the CPU-derived trace, room for a third of the lists beside the
    vertex data and the list starts: the run verifies, and the lists moved and c in the log are those
    emogi.trace_hotness computes for that room."""
    path = small_graphs[-3]  # kron12, 8-byte ids
    g = csr.read_csr(path)
    variant = VARIANTS[algorithm][-1]
    counts = hotness(derive(g, algorithm, variant, roots_of(path)[-1] if algorithm in ROOTED else None), g.offsets)
    hot = write_hotness(counts, tmp_path / "hot.u32")
    entry_bytes = csr.read_header(path).index_bytes + (4 if algorithm == "sssp" else 0)

    def placed(budget):
        extra = ["--auto-order", "hottest-first", "--auto-hot", hot, "--gpu-memory-budget", budget]
        rows = run_matrix(
            emogi_binary,
            path,
            algorithm,
            tmp_path,
            modes="auto",
            variants=[variant],
            roots=1,
            extra=[*extra, "--auto-reserve", "0"],
        )
        assert rows["verified"].all()
        return rows.attrs["stderr"]

    in_use = int(re.search(r"(\d+) bytes in use before placing the lists", placed(1 << 40))[1])
    lists = g.num_edges * entry_bytes // 3
    log = placed(in_use + 8 * g.num_vertices + lists)  # auto takes V x 8 bytes of list starts first
    m = re.search(r"auto \(hottest-first\): .*\((\d+) of \d+ entries, (\d+) whole lists, ([\d.]+)% of the traced", log)
    assert m, log[-2000:]
    moved = hot_placement(counts, g.offsets, entry_bytes, lists)
    degree = np.diff(np.asarray(g.offsets, dtype=np.int64))
    assert (int(m[1]), int(m[2])) == (int(degree[moved].sum()), len(moved)), m[0]
    assert float(m[3]) == pytest.approx(100 * hot_fraction(counts, g.offsets, entry_bytes, lists), abs=0.051)


def test_warm_uvm_keeps_the_pages_cold_uvm_moves_back(emogi_binary, tmp_path):
    # Cold runs migrate the whole edge list again (~10 GB/s); warm ones read the copies already in GPU memory.
    path = write_generated(tmp_path / "kron19.csr", "kron", 19)
    rows = run_matrix(emogi_binary, path, "bfs", tmp_path, modes="uvm,uvm-warm", reps=3, variants=["merged-aligned"])
    median = rows.groupby("mode")["time_ms"].median()
    assert rows["verified"].all() and median["uvm-warm"] < 0.5 * median["uvm"], median


def test_cc_on_a_single_vertex(emogi_binary, tmp_path):
    path = write_undirected(tmp_path / "one.csr", [], 1)
    rows = run_matrix(emogi_binary, path, "cc", tmp_path, modes="device")
    assert (rows["components"] == 1).all()


@pytest.mark.parametrize("algorithm", sorted(VARIANTS))
def test_a_wrong_result_fails_the_run(emogi_binary, small_graphs, tmp_path, algorithm):
    path = small_graphs[-2]
    out = tmp_path / "x.csv"
    done = run(
        run_args(
            emogi_binary, algorithm, path, "--modes", "device", "--reps", "1", "--test-corrupt-result", "--out", out
        )
    )
    assert done.returncode == 1 and "result mismatch" in done.stderr and not out.exists(), done.stderr[-2000:]


@pytest.mark.parametrize("weights", ["with_zeros", "heavy_least"])
def test_sssp_frontier_skips_weights_only_where_safe(emogi_binary, tmp_path, weights):
    """`frontier` SSSP leaves a weight unread where dist[u] <= dist[v] + the least weight of u's in-edges: with
    zero-weight edges (least 0) and with a least weight of 60000 against a greatest of 65536 (most weights skipped),
    the distances still match Dial's, in every mode, and the binary reports the exact least weight."""
    g = csr.read_csr(write_generated(tmp_path / "k.csr", "kron", 12))
    rng = np.random.default_rng(7)
    values = {"with_zeros": [0, 0, 1, 65536], "heavy_least": [60000, 60001, 65536]}[weights]
    w = rng.choice(np.array(values, dtype=np.uint32), size=g.num_edges)
    path = tmp_path / f"{weights}.csr"
    csr.write_csr(path, g.offsets, g.edges, w, directed=False)
    rows = run_matrix(emogi_binary, path, "sssp", tmp_path, variants=["frontier", "merged-aligned"], reps=2)
    assert rows["verified"].all() and len(rows) == 2 * 2 * rows["root"].nunique() * len(schema.PLAIN_MODES)
    assert f"least weight {w.min()}" in rows.attrs["stderr"]


def test_directed_graphs_are_refused_where_undefined(emogi_binary, tmp_path):
    """CC (as the paper skips SK and UK5); direction-optimizing BFS reads the transpose: tests/test_gpu_directed.py."""
    g = csr.read_csr(write_generated(tmp_path / "u.csr", "kron", 8))
    path = tmp_path / "d.csr"
    csr.write_csr(path, g.offsets, g.edges, g.weights, directed=True)
    for algorithm, variant in (("cc", "afforest"), ("cc", "merged-aligned")):
        done = run(
            [
                emogi_binary,
                "run",
                "--algorithm",
                algorithm,
                "--graph",
                path,
                "--variants",
                variant,
                "--roots",
                roots_of(path)[0],
                "--out",
                tmp_path / "x.csv",
            ]
        )
        assert done.returncode == 1 and "directed" in done.stderr


@pytest.mark.parametrize("algorithm", sorted(VARIANTS))
def test_a_graph_over_one_gib(emogi_binary, large_graph, tmp_path, algorithm):
    assert csr.read_header(large_graph).num_edges * 8 >= 1 << 30
    fast = {
        "bfs": "merged-aligned,frontier,direction-optimizing",
        "sssp": "merged-aligned,frontier",
        "cc": "merged-aligned,afforest",
        "pagerank": "merged-aligned,frontier,gauss-seidel",
        "spmv": "naive,merged-aligned",
    }[algorithm]
    # auto as it is on this GPU (everything fits), then with 1 GiB for it: the longest lists moved there.
    for modes in (
        ["zerocopy,auto"],
        ["auto", "--auto-order", "longest-first", "--gpu-memory-budget", "1G", "--auto-reserve", "0"],
    ):
        out = tmp_path / "big.csv"
        options = ["--variants", fast, "--modes", *modes, "--reps", "1", "--warmup", "0", "--out", out]
        done = run(run_args(emogi_binary, algorithm, large_graph, *options, roots=slice(-1, None)))
        assert done.returncode == 0, done.stderr[-3000:]
        assert pd.read_csv(out)["verified"].all()


@pytest.fixture(scope="module")
def large_graph_w4(large_graph):
    """The same graph with 4-byte ids (a 0.96 GiB edge list)."""
    g = csr.read_csr(large_graph)
    path = large_graph.with_name("kron23.w4.csr")
    csr.write_csr(path, g.offsets, np.asarray(g.edges, dtype=np.uint32), g.weights, directed=g.directed)
    return path


LONG_TESTS = "EMOGI_LONG_GPU_TESTS"


@pytest.mark.skipif(
    os.environ.get(LONG_TESTS) != "1",
    reason=f"the whole matrix on a 1.9 GiB edge list takes ~6 min on an H100: set {LONG_TESTS}=1",
)
@pytest.mark.parametrize("width", [8, 4])
@pytest.mark.parametrize("algorithm", sorted(VARIANTS))
def test_every_cell_on_a_graph_over_one_gib(emogi_binary, large_graph, large_graph_w4, tmp_path, algorithm, width):
    """Every variant x memory mode on the graph over 1 GiB, one root, one warm-up and one timed run per cell."""
    path = large_graph if width == 8 else large_graph_w4
    assert csr.read_header(path).index_bytes == width
    rows = run_matrix(emogi_binary, path, algorithm, tmp_path, roots=1)
    cells = set(zip(rows["variant"], rows["mode"]))
    assert cells == {(v, m) for v in VARIANTS[algorithm] for m in schema.PLAIN_MODES}, cells
    assert rows["verified"].all() and (rows["edge_bytes"] == width).all()


SANITIZER_CLEAN = {
    "memcheck": "ERROR SUMMARY: 0 errors",
    "racecheck": "RACECHECK SUMMARY: 0 hazards displayed (0 errors",
}
# Where the lists are: fixed modes, or auto with a third of them moved to GPU memory (shifted positions).
SANITIZER_PLACEMENTS = {
    "fixed": ["--modes", "device,zerocopy"],
    "longest-first": ["--modes", "auto", "--auto-order", "longest-first", "--auto-reserve", "0"],
}


@pytest.mark.skipif(shutil.which("compute-sanitizer") is None, reason="compute-sanitizer not on PATH")
@pytest.mark.parametrize(
    "tool,placement", [("memcheck", "fixed"), ("racecheck", "fixed"), ("memcheck", "longest-first")]
)
@pytest.mark.parametrize("algorithm", sorted(VARIANTS))
def test_sanitizer_is_clean(emogi_binary, small_graphs, tmp_path, tool, placement, algorithm):
    path = small_graphs[-3]  # urand12
    options = ["--variants", ",".join(VARIANTS[algorithm]), *SANITIZER_PLACEMENTS[placement]]
    options += ["--reps", "1", "--warmup", "0", "--out", tmp_path / "s.csv"]
    if placement == "longest-first":
        options += ["--gpu-memory-budget", csr.read_header(path).num_edges * 12 // 3]
    sanitizer = ["compute-sanitizer", "--tool", tool, "--error-exitcode", "9"]
    done = run([*sanitizer, *run_args(emogi_binary, algorithm, path, *options)])
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert SANITIZER_CLEAN[tool] in done.stdout + done.stderr
