"""Builds of the graph reader for fuzzing and sanitizing, straight from kernels/ (no CUDA, no CMake):

    driver      kernels/fuzz/csr_fuzz_driver.cpp, g++ -fsanitize=address,undefined (CI runs it)
    host_tests  kernels/tests/host_tests.cpp, csr_tests.cpp, stream_blocks_tests.cpp,
                column_blocks_tests.cpp, the same sanitizers (CI runs them)
    libfuzzer   kernels/fuzz/csr_libfuzzer.cpp, clang -fsanitize=fuzzer,address,undefined (the campaign)
    capi        kernels/fuzz/csr_capi.cpp as a shared library, for tools/fuzz/differential.py (ctypes)

clang is $CLANGXX, else clang++ on PATH, else one unpacked from Debian's packages (`apt-get download clang-14
libclang-common-14-dev libclang-rt-14-dev` and `dpkg -x` each into one folder, given as --clang-root or
$EMOGI_CLANG_ROOT; the campaign's README says which was used).

    python -m tools.fuzz.build [--out build/fuzz] [driver host_tests libfuzzer capi]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
KERNELS = REPO / "kernels"
READER = ["csr.cpp", "csr_check.cpp", "csr_header.cpp", "dataset_lock.cpp", "hash.cpp", "sha256.cpp"]
FLAGS = ["-std=c++17", "-g", "-O1", "-Wall", "-Wextra", "-I", str(KERNELS / "include")]
FLAGS += ["-I", str(KERNELS / "third_party" / "xxhash")]
SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]
TARGETS = {  # name -> (sources beyond the reader's, flags, output name)
    "driver": (["fuzz/csr_fuzz_driver.cpp", "src/reference_bfs.cpp"], SANITIZE, "csr_fuzz_driver"),
    "host_tests": (
        [
            "tests/host_tests.cpp",
            "tests/csr_tests.cpp",
            "tests/stream_blocks_tests.cpp",
            "tests/column_blocks_tests.cpp",
            "src/stream_blocks.cpp",
            "src/column_blocks.cpp",
            "src/streamed_refusal.cpp",
            "src/moved_lists.cpp",
            "src/chunk_lru.cpp",
            "src/gpu_budget.cpp",
            "src/trace_file.cpp",
            "src/atomic_file.cpp",
        ],
        SANITIZE,
        "host_tests",
    ),
    "libfuzzer": (
        ["fuzz/csr_libfuzzer.cpp", "src/reference_bfs.cpp"],
        ["-fsanitize=fuzzer,address,undefined", "-fno-sanitize-recover=undefined"],
        "csr_libfuzzer",
    ),
    "capi": (["fuzz/csr_capi.cpp"], ["-shared", "-fPIC", "-O2"], "libemogi_csr.so"),
}


class BuildError(RuntimeError):
    pass


def find_clang(root=None) -> str:
    root = root or os.environ.get("EMOGI_CLANG_ROOT")
    for candidate in (
        os.environ.get("CLANGXX"),
        str(Path(root) / "usr/lib/llvm-14/bin/clang++") if root else None,
        shutil.which("clang++"),
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    raise BuildError("no clang++ for libFuzzer: set CLANGXX or --clang-root (see this module's doc)")


def _fresh(obj: Path) -> bool:
    """Whether `obj` is newer than every file its -MMD dependency list names."""
    deps = obj.with_suffix(".d")
    if not obj.is_file() or not deps.is_file():
        return False
    names = deps.read_text().replace("\\\n", " ").split(":", 1)[1].split()
    return all(Path(n).is_file() and Path(n).stat().st_mtime <= obj.stat().st_mtime for n in names)


def _compile(compiler: str, source: str, flags: list[str], objects: Path) -> Path:
    obj = objects / (source.replace("/", "_") + ".o")
    if not _fresh(obj):
        cmd = [compiler, *FLAGS, *flags, "-MMD", "-c", str(KERNELS / source), "-o", str(obj)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise BuildError(f"{' '.join(cmd)}\n{done.stderr[-4000:]}")
    return obj


def build(target: str, out: Path, clang_root=None) -> Path:
    """Compile (objects shared between targets of the same compiler and flags, rebuilt when a source or a header
    they include changed) and link one target; returns its path."""
    sources, flags, name = TARGETS[target]
    compiler = find_clang(clang_root) if target == "libfuzzer" else (os.environ.get("CXX") or "g++")
    flavour = hashlib.sha256(" ".join([compiler, *flags]).encode()).hexdigest()[:12]
    objects = out / "obj" / f"{Path(compiler).name}-{flavour}"
    objects.mkdir(parents=True, exist_ok=True)
    files = [*sources, *(f"src/{s}" for s in READER)]
    compile_flags = [f for f in flags if f != "-shared"]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        objs = list(pool.map(lambda f: _compile(compiler, f, compile_flags, objects), files))
    binary = out / name
    cmd = [compiler, *flags, *map(str, objs), "-lpthread", "-o", str(binary)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise BuildError(f"{' '.join(cmd)}\n{done.stderr[-4000:]}")
    return binary


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.fuzz.build", description=__doc__.split("\n")[0])
    p.add_argument("targets", nargs="*", choices=[[], *TARGETS], help="default: all")
    p.add_argument("--out", type=Path, default=REPO / "build" / "fuzz")
    p.add_argument("--clang-root", help="a folder Debian's clang packages were unpacked into (dpkg -x)")
    a = p.parse_args(argv)
    try:
        for t in a.targets or TARGETS:
            print(build(t, a.out, a.clang_root))
    except BuildError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
