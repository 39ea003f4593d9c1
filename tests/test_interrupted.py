"""Interrupted conversions leave nothing behind: SIGTERM and SIGINT during the write remove the temporary, and a
temporary left by a killed writer (SIGKILL) is removed by the next writer of the same output."""

import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from emogi import atomic
from emogi.csr import read_csr, write_csr
from emogi.datasets import bel

REPO = Path(__file__).resolve().parent.parent
# Runs a converter's main() with the graph writer stopping after its first chunk, to be interrupted there.
SLOW_WRITER = """
import importlib, sys, time
from emogi import csr
real = csr._section_chunks
def slow(array, dtype):
    for chunk in real(array, dtype):
        yield chunk
        print("WRITING", flush=True)
        time.sleep(120)
csr._section_chunks = slow
sys.exit(importlib.import_module(sys.argv[1]).main(sys.argv[2:]))
"""
DEAD_PID = 2**22 + 1  # above Linux's largest pid_max: no process has it


def graph(path):
    offsets = np.arange(0, 2001, 2, dtype=np.uint64)
    edges = (np.arange(2000, dtype=np.uint64) * 7) % 1000
    write_csr(path, offsets, edges, directed=True)
    return path


def converters(tmp_path):
    g = graph(tmp_path / "in.csr")
    bel.export_bel(read_csr(g), tmp_path / "in")
    mtx = tmp_path / "in.mtx"
    mtx.write_text("%%MatrixMarket matrix coordinate pattern general\n5 5 3\n1 2\n2 3\n4 5\n")
    return {
        "csr narrow": ["emogi.csr", "narrow", g, "--out", tmp_path / "out.csr"],
        "bel import": ["emogi.datasets.bel", "import", tmp_path / "in", "--out", tmp_path / "out.csr", "--directed"],
        "suitesparse": ["emogi.datasets.suitesparse", "--archive", mtx, "--out", tmp_path / "out.csr"],
    }


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
@pytest.mark.parametrize("converter", ["csr narrow", "bel import", "suitesparse"])
def test_a_signal_during_the_write_removes_the_temporary(tmp_path, converter, sig, status):
    args = [str(a) for a in converters(tmp_path)[converter]]
    p = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, *args], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "WRITING"
        assert [t.name for t in tmp_path.glob(".out.csr.*.tmp")] == [f".out.csr.{p.pid}.tmp"]
        p.send_signal(sig)
        assert p.wait(timeout=60) == status
    finally:
        p.kill()
        p.wait()
    assert not list(tmp_path.glob(".out.csr*")) and not (tmp_path / "out.csr").exists()


def test_the_next_writer_sweeps_what_a_killed_one_left(tmp_path, capsys):
    stale = tmp_path / f".g.csr.{DEAD_PID}.tmp"
    stale.write_bytes(bytes(10_000))
    buckets = tmp_path / f".g.csr.{DEAD_PID}.buckets"
    buckets.mkdir()
    (buckets / "0.bin").write_bytes(b"x")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = tmp_path / f".g.csr.{sleeper.pid}.tmp"  # a concurrent writer's: left alone
        live.write_bytes(b"")
        other = tmp_path / f".h.csr.{DEAD_PID}.tmp"  # another output's: left for its own writer
        other.write_bytes(b"")
        graph(tmp_path / "g.csr")
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["g.csr", live.name, other.name])
        assert f"{stale}: a temporary left by process {DEAD_PID}, which is gone" in capsys.readouterr().err
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_sigkilled_converter_is_cleaned_up_by_the_next_run(tmp_path):
    args = [str(a) for a in converters(tmp_path)["csr narrow"]]
    p = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, *args], cwd=REPO, stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "WRITING"
    p.kill()  # nothing can clean up after SIGKILL
    p.wait()
    assert list(tmp_path.glob(".out.csr.*.tmp"))
    done = subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0 and f"process {p.pid}, which is gone" in done.stderr
    assert not list(tmp_path.glob(".out.csr*")) and read_csr(tmp_path / "out.csr").index_bytes == 4


def test_handlers_are_only_set_from_the_main_thread():
    import threading

    before = signal.getsignal(signal.SIGTERM)
    t = threading.Thread(target=atomic.exit_cleanly_on_signals)
    t.start()
    t.join()
    assert signal.getsignal(signal.SIGTERM) is before
