"""Finding nvcc and building kernels/ with CMake: one code path for the workflow's build rule and the tests.

nvcc is looked for in this order: an explicit path, $CUDACXX, `nvcc` on PATH, $CUDA_HOME/bin, /usr/local/cuda/bin,
and last the `cuda-toolkit` pip wheels in this Python's site-packages (nvidia/cu13/bin/nvcc for CUDA 13,
nvidia/cuda_nvcc/bin/nvcc for CUDA 12). A system toolkit wins because it matches the installed driver.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from emogi import registry_codegen


class ToolchainError(RuntimeError):
    pass


def _wheel_nvcc_candidates():
    site = Path(sysconfig.get_paths()["purelib"])
    return [Path(p) for p in sorted(glob.glob(str(site / "nvidia" / "*" / "bin" / "nvcc")), reverse=True)]


def find_nvcc(preference="auto"):
    if preference not in (None, "", "auto"):
        path = Path(shutil.which(preference) or preference)
        if not path.is_file():
            raise ToolchainError(f"nvcc not found at '{preference}' (config build.nvcc)")
        return path
    candidates = [os.environ.get("CUDACXX"), shutil.which("nvcc")]
    if os.environ.get("CUDA_HOME"):
        candidates.append(os.path.join(os.environ["CUDA_HOME"], "bin", "nvcc"))
    candidates.append("/usr/local/cuda/bin/nvcc")
    candidates += _wheel_nvcc_candidates()
    for c in candidates:
        if c and Path(c).is_file():
            return Path(c)
    raise ToolchainError(
        "no CUDA compiler found: install a CUDA toolkit, or "
        '`pip install "cuda-toolkit[nvcc,cudart,nvtx,cccl]==13.0.*"` (envs/requirements.txt does), or set build.nvcc '
        "in the config"
    )


def build_environment(nvcc):
    """The pip wheels keep libraries in lib/ where nvcc's linker looks in lib64/: point LIBRARY_PATH at them."""
    env = dict(os.environ)
    libs = [
        str(p) for p in (nvcc.parent.parent / "lib", nvcc.parent.parent.parent / "cuda_runtime" / "lib") if p.is_dir()
    ]
    if libs and not (nvcc.parent.parent / "lib64").is_dir():
        env["LIBRARY_PATH"] = os.pathsep.join(libs + [env["LIBRARY_PATH"]] if env.get("LIBRARY_PATH") else libs)
    return env


def build(
    source_dir="kernels", build_dir="build", nvcc="auto", architectures="auto", log=sys.stderr, loads_in_flight=None
):
    """Configure and build; return the path of the `emogi` binary. `loads_in_flight`: reads a lane keeps in flight
    on a neighbour list (kernels/include/emogi/access.cuh; None: its default, 1: the artifact's loop)."""
    stale = registry_codegen.stale()
    if stale:  # a name added to the registry but not to the header would build a binary that disagrees
        raise ToolchainError(
            f"{', '.join(map(str, stale))} out of date with emogi/registry.yaml "
            "(run python -m emogi.registry_codegen --write)"
        )
    nvcc = find_nvcc(nvcc)
    env = build_environment(nvcc)
    configure = [
        "cmake",
        "-S",
        str(source_dir),
        "-B",
        str(build_dir),
        f"-DCMAKE_CUDA_COMPILER={nvcc}",
        "-DCMAKE_BUILD_TYPE=Release",
    ]
    if shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    if architectures not in (None, "", "auto"):
        configure.append(f"-DCMAKE_CUDA_ARCHITECTURES={architectures}")
    if loads_in_flight is not None:
        configure.append(f"-DEMOGI_LOADS_IN_FLIGHT={int(loads_in_flight)}")
    print(f"building kernels with {nvcc}", file=log, flush=True)
    for cmd in (configure, ["cmake", "--build", str(build_dir), "--parallel"]):
        done = subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        if done.returncode != 0:
            raise ToolchainError(f"{' '.join(cmd[:3])} ... failed (exit {done.returncode}); see the log above")
    binary = Path(build_dir) / "emogi"
    if not binary.is_file():
        raise ToolchainError(f"the build finished but {binary} is missing")
    return binary


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--source", default="kernels")
    p.add_argument("--build", default="build")
    p.add_argument("--nvcc", default="auto")
    p.add_argument("--arch", default="auto", help="CMAKE_CUDA_ARCHITECTURES, e.g. 90 or '80;90' (auto: by toolkit)")
    p.add_argument(
        "--loads-in-flight",
        type=int,
        choices=range(1, 17),
        metavar="1..16",
        help="reads a lane keeps in flight on a list (default: access.cuh's; 1: the artifact's loop)",
    )
    a = p.parse_args(argv)
    try:
        print(build(a.source, a.build, a.nvcc, a.arch, loads_in_flight=a.loads_in_flight))
    except ToolchainError as err:
        sys.exit(f"emogi build: {err}")


if __name__ == "__main__":
    main()
