"""Graph files from outside, in the `emogi` binary: every class of crafted file is refused with one line naming
the file by `info`, `reference`, `run` and `lists`, and `run` refuses before it touches the GPU. No GPU needed."""

import json
import os

import pytest
from crafted import craft, id_beyond_v, small_graph

from conftest import run
from emogi import csr, dataset_lock

CRAFTED = {  # name -> (changes to the small graph, with the checksum repaired unless said, and the message)
    "id beyond V": (None, "neighbour id 3 at edge 1 (a neighbour of vertex 0) is >= V = 3"),
    "E = 2^61": ({"num_edges": 2**61}, "overflow 64 bits"),
    "E wraps to a small size": ({"num_edges": (2**64 - 8192) // 8 + 2}, "overflow 64 bits"),
    "V = 2^64 - 1": ({"num_vertices": 2**64 - 1}, "overflow 64 bits"),
    "E = 2^40": ({"num_edges": 2**40}, "truncated"),
    "flipped flag": ({"flags": 3, "fix_checksum": False}, "corrupt: checksum"),
    "reserved field": ({"reserved1": 1}, "reserved header field at byte 48"),
    "header tail": ({"at_200": (7, 1)}, "header block byte 200 is not zero"),
    "padding": ({"at_4130": (1, 1)}, "padding after the offsets is not zero"),
    "unknown flag": ({"flags": 9}, "unknown flag bits 0x8"),
    "version 1": ({"version": 1}, "format version 1"),
    "decreasing offsets": ({"at_4104": (4, 8)}, "offsets decrease at vertex 1"),
}


def crafted(tmp_path, name):
    changes, message = CRAFTED[name]
    path = tmp_path / "crafted.csr"
    if changes is None:
        return id_beyond_v(path), message
    return craft(small_graph(path), **changes), message


def one_line_error(done, message, path):
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and str(path) in lines[0], done.stderr


@pytest.mark.parametrize("name", CRAFTED)
def test_info_and_reference_refuse_crafted_files(emogi_binary, tmp_path, name):
    path, message = crafted(tmp_path, name)
    one_line_error(run([emogi_binary, "info", "--graph", path]), message, path)
    out = tmp_path / "depth.u32"
    one_line_error(run([emogi_binary, "reference", "--graph", path, "--root", "0", "--out", out]), message, path)
    assert not out.exists()
    with pytest.raises(csr.GraphFormatError, match=message.split(" (")[0]):  # the Python reader agrees
        csr.read_csr(path)


def loaded_libraries(args, tmp_path):
    """Run `args` with the dynamic loader logging every library it looks for or loads (glibc's LD_DEBUG, to a file:
    no strace needed on the GPU machine); returns (the run, the log)."""
    log = tmp_path / "ld"
    done = run(args, env={**os.environ, "LD_DEBUG": "libs", "LD_DEBUG_OUTPUT": str(log)})
    return done, "".join(p.read_text() for p in tmp_path.glob("ld.*"))


@pytest.mark.parametrize("name", CRAFTED)
@pytest.mark.parametrize("command", ["run", "lists"])
def test_gpu_commands_refuse_before_touching_the_gpu(emogi_binary, tmp_path, name, command):
    """The graph is checked before the first CUDA call: the refusal is the same with or without a GPU, and the CUDA
    driver library is never even looked for (the CUDA runtime loads it on its first call)."""
    path, message = crafted(tmp_path, name)
    out = tmp_path / "x.csv"
    args = [emogi_binary, command, "--graph", path, "--out", out, "--no-verify-checksum"]
    args += ["--algorithm", "bfs", "--roots", "0"] if command == "run" else []
    done, loader = loaded_libraries(args, tmp_path)
    if name == "flipped flag":  # --no-verify-checksum: only the checksum would have caught it
        assert "corrupt" not in done.stderr
        return
    one_line_error(done, message, path)
    assert not out.exists()
    assert loader and "libcuda.so" not in loader, loader[-2000:]


def test_the_loader_log_sees_a_valid_graph_reach_the_gpu(emogi_binary, tmp_path):
    """The control for the check above: with a valid graph, `run` does reach for the CUDA driver (and fails
    without a GPU, or runs with one)."""
    args = [emogi_binary, "run", "--graph", small_graph(tmp_path / "g.csr"), "--out", tmp_path / "x.csv"]
    _, loader = loaded_libraries([*args, "--algorithm", "bfs", "--roots", "0"], tmp_path)
    assert "libcuda.so" in loader


def test_a_locked_file_is_trusted_by_its_digest(emogi_binary, tmp_path):
    """Python records the lock, C++ computes the same digest; a match stands in for the checks (so a locked file
    is trusted as recorded), a mismatch is refused whatever the file holds."""
    good = small_graph(tmp_path / "good.csr")
    assert dataset_lock.main(["add", str(good)]) == 0
    assert json.loads(run([emogi_binary, "info", "--graph", good]).stdout)["num_edges"] == 3
    bad = id_beyond_v(tmp_path / "bad.csr")
    lock = tmp_path / "datasets.lock"
    with open(lock, "a") as f:  # a hand-made entry: the lock is trusted input, the file is not
        f.write(f"{dataset_lock.file_digest(bad)}  {bad.stat().st_size}  bad.csr\n")
    assert run([emogi_binary, "info", "--graph", bad]).returncode == 0
    small_graph(good, weights=False)  # a valid file, but not the one locked
    done = run([emogi_binary, "info", "--graph", good])
    one_line_error(done, "differs from its entry in the dataset lock", good)
    lock.write_text("not a lock line\n")
    done = run([emogi_binary, "info", "--graph", good])
    assert done.returncode == 1 and "datasets.lock:1: not a lock line" in done.stderr
