"""`python -m emogi.profile` as the GPU tests run it: Nsight Compute over one command of the `emogi` binary."""

import subprocess
import sys

import pandas as pd


def profile(binary, command, report, out, *args, options=()):
    """emogi.profile's `command` of `binary` with the binary's `args` (after `--`) and its own `options`, the Nsight
    report at `report`; asserts it exits 0 and returns the table it wrote to `out`."""
    cmd = [sys.executable, "-m", "emogi.profile", command, "--binary", binary, "--report", report, "--out", out]
    done = subprocess.run([str(c) for c in [*cmd, *options, "--", *args]], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return pd.read_csv(out)
