"""Shared fixtures: the built `emogi` binary, GPU detection, a copy of the repository."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from emogi import toolchain
from emogi.gpu import detect_gpu
from graphs import write_generated

REPO = Path(__file__).resolve().parent.parent
# Shared check modules: pytest's detailed assertion messages there too, as in the test modules that use them.
pytest.register_assert_rewrite("tests.holdout_checks", "tests.uvm_validation_checks", "tests.profiled")
HAS_GPU, GPU_DETAIL = detect_gpu()
# What a fresh clone does not have: environments, builds, outputs and caches.
IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    ".site",
    ".whl",
    "build",
    "results",
    "resources",
    "logs",
    ".snakemake",
    "__pycache__",
    ".pytest_cache",
)


def pytest_collection_modifyitems(config, items):
    if HAS_GPU:
        return
    skip = pytest.mark.skip(reason=f"needs a CUDA GPU ({GPU_DETAIL})")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def emogi_binary(tmp_path_factory):
    """The `emogi` binary: $EMOGI_BINARY if set, else built once per session (CUDA compiles in CI too).
    Without a GPU one architecture is enough to prove the sources compile; with one, build for it."""
    if os.environ.get("EMOGI_BINARY"):
        return Path(os.environ["EMOGI_BINARY"])
    build_dir = tmp_path_factory.mktemp("build")
    with open(build_dir / "build.log", "w") as log:
        try:
            return toolchain.build(REPO / "kernels", build_dir, architectures="native" if HAS_GPU else "90", log=log)
        except toolchain.ToolchainError as err:
            pytest.fail(f"{err}\n{(build_dir / 'build.log').read_text()[-4000:]}")


@pytest.fixture(scope="session")
def large_graph(tmp_path_factory):
    """kron scale 23, edge factor 16, with weights: ~250 M edge entries, a ~1.9 GiB edge list at 8-byte ids; made
    once per session for every GPU test over 1 GiB (test_gpu_algorithms, test_gpu_streamed)."""
    return write_generated(tmp_path_factory.mktemp("large") / "kron23.w8.csr", "kron", 23, seed=5, edge_factor=16)


def run(cmd, **kwargs):
    """Run a command, returning the CompletedProcess with text output."""
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)


@pytest.fixture
def workdir(tmp_path):
    """A copy of the repository, as a fresh clone would have it."""
    return Path(shutil.copytree(REPO, tmp_path / "repo", ignore=IGNORE))
