"""On a GPU: `emogi run --trace-out DIR` records, after the timed runs, one more run per variant, mode and root whose
kernels mark every list they read; the traces load into emogi.traces' Trace, and BFS's equal the levels of a CPU
BFS (and, where emogi.trace_derive is present, the CPU-derived traces) on small graphs."""

import numpy as np
import pandas as pd
import pytest

from conftest import run
from emogi import csr, schema
from graphs import write_generated

pytestmark = pytest.mark.gpu
pytest.importorskip("emogi.traces", reason="emogi.traces (the trace format) is on the oom branch until it is merged")
from emogi.trace_recording import load_recorded  # noqa: E402

UNREACHED = np.iinfo(np.int64).max


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    root = tmp_path_factory.mktemp("traces")
    return [
        write_generated(root / "kron12.w8.csr", "kron", 12),
        write_generated(root / "urand12.w8.csr", "urand", 12),
        write_generated(root / "kron12.w4.csr", "kron", 12, dtype=np.uint32),
    ]


def record(binary, path, algorithm, out_dir, variants=None, modes="device", root=None, extra=()):
    """Runs with --trace-out; returns the table and {(variant, mode): Trace} of the recorded runs."""
    g = csr.read_csr(path)
    variants = variants or schema.VARIANTS_OF[algorithm]
    args = [binary, "run", "--algorithm", algorithm, "--graph", path, "--variants", ",".join(variants)]
    args += ["--modes", modes, "--reps", "1", "--warmup", "0", "--out", out_dir / "runs.csv", "--trace-out", out_dir]
    if algorithm not in schema.ROOTED_ALGORITHMS:
        root = None
    elif root is None:
        root = int(np.argmax(np.diff(np.asarray(g.offsets))))
    if root is not None:
        args += ["--roots", root]
    done = run([*args, *extra])
    assert done.returncode == 0, done.stderr[-3000:]
    name, width = path.name, g.index_bytes
    traces = {}
    for v in variants:
        for m in modes.split(","):
            file = out_dir / f"{name}.{algorithm}.{v}.{m}.w{width}{'' if root is None else f'.r{root}'}.trace"
            traces[v, m] = load_recorded(file, g)
    return pd.read_csv(out_dir / "runs.csv"), traces


def bfs_depths(g, root):
    offsets, edges = np.asarray(g.offsets, dtype=np.int64), np.asarray(g.edges, dtype=np.int64)
    depth = np.full(g.num_vertices, UNREACHED)
    depth[root], frontier, level = 0, np.array([root]), 0
    while len(frontier):
        nxt = np.concatenate([edges[offsets[v] : offsets[v + 1]] for v in frontier])
        nxt = np.unique(nxt[depth[nxt] == UNREACHED])
        depth[nxt] = level = level + 1
        frontier = nxt
    return depth


def test_recorded_bfs_traces_are_the_levels(emogi_binary, graphs, tmp_path):
    """Every BFS variant reads the lists of level l in launch l; a bottom-up step reads those of every vertex not
    reached yet (recorded whole although it stops at the first parent)."""
    for path in graphs:
        g = csr.read_csr(path)
        degree = np.diff(np.asarray(g.offsets, dtype=np.int64))
        root = int(np.argmax(degree))
        depth = bfs_depths(g, root)
        rows, traces = record(emogi_binary, path, "bfs", tmp_path / path.stem, root=root)
        levels = int(depth[depth != UNREACHED].max()) + 1
        for (variant, _), trace in traces.items():
            assert trace.num_launches == levels and trace.root == root, (path, variant, trace.labels)
            for level in range(levels):
                label = trace.labels[level]
                assert label.startswith(f"level {level}"), label
                want = depth > level if label.endswith("bottom-up") else depth == level
                np.testing.assert_array_equal(trace.mask(level), want & (degree > 0), err_msg=f"{variant} {label}")
            bottom_up = any(label.endswith("bottom-up") for label in trace.labels)
            assert trace.fidelity == ("approximate" if bottom_up else "exact"), (variant, trace.note)
        assert rows["verified"].all() and len(rows) == len(schema.VARIANTS_OF["bfs"])  # the timed runs, as always


@pytest.mark.parametrize("algorithm", ["sssp", "cc", "pagerank"])
def test_every_variant_records_a_trace(emogi_binary, graphs, tmp_path, algorithm):
    path = graphs[0]
    g = csr.read_csr(path)
    degree = np.diff(np.asarray(g.offsets, dtype=np.int64))
    rows, traces = record(emogi_binary, path, algorithm, tmp_path, modes="device,zerocopy")
    assert rows["verified"].all() and len(traces) == 2 * len(schema.VARIANTS_OF[algorithm])
    for (variant, mode), trace in traces.items():
        assert trace.num_launches > 0 and trace.source == "recorded" and mode in trace.note
        first = trace.mask(0)
        if algorithm == "sssp":  # the root's list first
            assert first.sum() == 1 and trace.weight_bytes == 4 and first[int(np.argmax(degree))]
        elif variant == "afforest":  # entry 0, then entry 1 of each list, then the rest outside the giant component
            assert trace.labels[:2] == ["sample 0", "sample 1"] and trace.labels[2] == "finish"
            np.testing.assert_array_equal(first, degree > 0)
            np.testing.assert_array_equal(trace.mask(1), degree > 1)
            assert (trace.parts[1][0] == 1).all() and (trace.parts[1][1] == 1).all()
        else:  # every vertex reads its list first (CC labels, PageRank's 1 - alpha above the tolerance)
            np.testing.assert_array_equal(first, degree > 0)


def test_traces_match_the_cpu_derivation(emogi_binary, graphs, tmp_path):
    """Recorded BFS traces (every variant) equal emogi.trace_derive's, empty lists aside; so do Afforest's sample
    rounds (its finish depends on roots relabelled while it runs)."""
    trace_derive = pytest.importorskip("emogi.trace_derive")
    for path in graphs:
        g = csr.read_csr(path)
        degree = np.diff(np.asarray(g.offsets, dtype=np.int64))
        root = int(np.argmax(degree))
        cases = [("bfs", v, root) for v in schema.VARIANTS_OF["bfs"]] + [("cc", "afforest", None)]
        for algorithm in ("bfs", "cc"):
            variants = [v for a, v, _ in cases if a == algorithm]
            _, traces = record(emogi_binary, path, algorithm, tmp_path / path.stem / algorithm, variants, root=root)
            for variant in variants:
                got = traces[variant, "device"]
                want = trace_derive.derive(g, algorithm, variant, root if algorithm == "bfs" else None)
                assert got.num_launches == want.num_launches, (path, variant)
                for i in range(got.num_launches if algorithm == "bfs" else 2):
                    np.testing.assert_array_equal(got.mask(i), want.mask(i) & (degree > 0), err_msg=f"{variant} {i}")
