"""emogi.latency_emulation's input checks (the runs themselves are GPU tests in test_gpu_micro.py)."""

import sys

import pytest

from conftest import run


@pytest.mark.parametrize("delays", ["500,1000", "0,-5", "0,x"])
def test_delays_need_a_zero_baseline_and_no_negative(tmp_path, delays):
    done = run(
        [
            sys.executable,
            "-m",
            "emogi.latency_emulation",
            "--binary",
            "emogi",
            "--graph",
            tmp_path / "g.csr",
            "--name",
            "g",
            "--roots",
            "1",
            "--delays-ns",
            delays,
            "--out",
            tmp_path / "out.csv",
        ]
    )
    assert done.returncode != 0 and "--delays-ns" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out.csv").exists()
