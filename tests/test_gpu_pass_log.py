"""On a GPU: `emogi run --pass-log` (kernels/include/emogi/pass_log.cuh) on kron12, PageRank (gauss-seidel and a scan
variant), CC and SSSP (scan variants) in the zerocopy and streamed modes. Its CSV holds one row per pass of every
timed run and none of the warm-up; a pass's active entries lie within the graph's list entries, PageRank's and CC's
first pass own them all, SSSP's first owns the root's list; CC's and SSSP's passes add up to the run's
edges_traversed; a pass's launch lies within its span, and a run's spans add up to its time less a few ms outside
its passes; the streamed passes' copied bytes add up to what the run reports copying, the zerocopy passes have no
streamed columns."""

import numpy as np
import pandas as pd
import pytest
from test_gpu_streamed import runs_of

from conftest import run
from emogi import csr
from graphs import write_generated

pytestmark = pytest.mark.gpu

CASES = [("pagerank", "gauss-seidel"), ("pagerank", "merged-aligned"), ("cc", "merged-aligned"), ("sssp", "naive")]
REPS = 2


@pytest.fixture(scope="module")
def kron12(tmp_path_factory):
    return write_generated(tmp_path_factory.mktemp("pass_log") / "kron12.w8.csr", "kron", 12)


def logged(binary, path, algorithm, variant, tmp_path):
    g = csr.read_csr(path)
    degrees = np.diff(np.asarray(g.offsets))
    root = int(degrees.argmax())
    args = [binary, "run", "--algorithm", algorithm, "--graph", path, "--modes", "zerocopy,streamed"]
    args += ["--variants", variant, "--reps", REPS, "--warmup", "1", "--stream-block-bytes", "64K"]
    args += ["--out", tmp_path / "runs.csv", "--pass-log", tmp_path / "passes.csv"]
    if algorithm == "sssp":
        args += ["--roots", root]
    done = run(args)
    assert done.returncode == 0, done.stderr[-3000:]
    return done, pd.read_csv(tmp_path / "runs.csv"), pd.read_csv(tmp_path / "passes.csv"), g, degrees[root]


@pytest.mark.parametrize("algorithm,variant", CASES)
def test_pass_log_rows(emogi_binary, kron12, tmp_path, algorithm, variant):
    done, runs, passes, g, root_degree = logged(emogi_binary, kron12, algorithm, variant, tmp_path)
    E = int(g.offsets[-1])
    assert set(passes["algorithm"]) == {algorithm} and set(passes["variant"]) == {variant}
    assert (passes["list_entries"] == E).all()
    assert (passes["entry_bytes"] == 8 + (4 if algorithm == "sssp" else 0)).all()  # 8-byte ids, sssp's weights
    assert passes["active_entries"].notna().all()  # every case here says which vertices are active
    assert ((passes["active_entries"] >= 0) & (passes["active_entries"] <= E)).all()
    keys = ["mode", "rep"]
    assert len(passes.groupby(keys)) == len(runs) == 2 * REPS  # timed runs only, each with passes
    for (mode, rep), p in passes.groupby(keys):
        r = runs[(runs["mode"] == mode) & (runs["rep"] == rep)].iloc[0]
        assert list(p["pass"]) == list(range(len(p)))
        # One pass per launch: gauss-seidel's last round launches and finds nothing; the others stop before.
        assert len(p) == r["iterations"] + (1 if variant == "gauss-seidel" else 0), (mode, rep)
        first = int(p["active_entries"].iloc[0])
        assert first == (root_degree if algorithm == "sssp" else E)
        if algorithm in ("cc", "sssp"):
            assert p["active_entries"].sum() == r["edges_traversed"]
        assert (p["launch_ms"] <= p["span_ms"] + 1e-3).all()
        assert p["span_ms"].sum() <= r["time_ms"] * 1.01 + 1e-3
        # What lies outside the passes (set-up before the first, the result after the last) is small beside a
        # long run, but not beside a tiny one: CC's ~1.7 ms of it against 0.13 ms of passes on kron12 (H100).
        outside = r["time_ms"] - p["span_ms"].sum()
        assert outside <= max(0.5 * r["time_ms"], 5.0), (p["span_ms"].sum(), r["time_ms"])
        if mode == "zerocopy":
            assert p[["blocks", "in_place_blocks", "copied_bytes"]].isna().all().all()
        else:
            assert p[["blocks", "in_place_blocks", "copied_bytes"]].notna().all().all()
            assert (p["in_place_blocks"] == 0).all()
            if algorithm != "sssp":  # the first sweep copies every block, the lists whole
                assert p["copied_bytes"].iloc[0] >= E * p["entry_bytes"].iloc[0]
    streamed = passes[passes["mode"] == "streamed"]
    copied = sorted(int(b) for b in streamed.groupby("rep")["copied_bytes"].sum())
    assert copied == sorted(r["bytes"] for r in runs_of(done.stderr))
