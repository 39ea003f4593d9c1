"""Style checks the README's test command (and so CI) runs: ruff lints and formats the Python (pyproject.toml
[tool.ruff]); the C++/CUDA sources under kernels/ follow .clang-format (vendored third_party/ and the generated
names.hpp aside). Only the clang-format version envs/requirements-test.txt pins is trusted: others format
differently."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SUFFIXES = {".cu", ".cuh", ".cpp", ".hpp", ".h"}
SKIPPED = {REPO / "kernels" / "include" / "emogi" / "names.hpp"}  # generated from the Python registry


def pinned_version():
    found = re.search(r"^clang-format==([\d.]+)", (REPO / "envs" / "requirements-test.txt").read_text(), re.M)
    return found.group(1) if found else None


def kernel_sources():
    return sorted(
        p
        for p in (REPO / "kernels").rglob("*")
        if p.suffix in SUFFIXES and "third_party" not in p.parts and p not in SKIPPED
    )


def test_kernels_are_clang_formatted():
    tool = shutil.which("clang-format")
    if tool is None:
        pytest.skip("clang-format is not installed (pip install -r envs/requirements-test.txt)")
    pinned = pinned_version()
    found = re.search(r"version ([\d.]+)", subprocess.run([tool, "--version"], capture_output=True, text=True).stdout)
    if pinned is None or found is None or found.group(1) != pinned:
        pytest.skip(
            f"{tool} is not clang-format {pinned} (envs/requirements-test.txt), the version the style is checked with"
        )
    sources = kernel_sources()
    assert sources
    done = subprocess.run(
        [tool, "--dry-run", "--Werror", "--style=file", *map(str, sources)], capture_output=True, text=True, cwd=REPO
    )
    assert done.returncode == 0, "run clang-format -i on these:\n" + done.stderr[-4000:]


def ruff():
    tool = shutil.which("ruff")
    if tool is None:
        pytest.skip("ruff is not installed (pip install -r envs/requirements-test.txt)")
    return tool


def test_python_lint_is_clean():
    done = subprocess.run([ruff(), "check", "--no-cache", "."], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, "ruff check (pyproject.toml [tool.ruff]):\n" + done.stdout[-4000:]


def test_python_is_ruff_formatted():
    done = subprocess.run([ruff(), "format", "--check", "--no-cache", "."], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, "run ruff format on these:\n" + done.stdout[-4000:]
