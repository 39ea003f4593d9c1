"""Host-side pieces of the kernels that need no GPU (kernels/tests/host_tests.cpp: which lists `auto` moves to GPU
memory and where kernels then find every list), built beside the `emogi` binary."""

from conftest import run


def test_host_units(emogi_binary):
    tests = emogi_binary.parent / "emogi_host_tests"
    assert tests.exists(), f"{tests} was not built beside {emogi_binary}"
    done = run([tests])
    assert done.returncode == 0 and "FAILED" not in done.stdout, done.stdout + done.stderr
    assert done.stdout.strip().endswith("checks passed"), done.stdout
