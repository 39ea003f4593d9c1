"""The conda environments in envs/: each holds what the rules that use it run (`snakemake --sdm conda`).

Conda channels cannot be reached from the machines this project is tested on, so each environment is rebuilt as
a virtualenv with pip from its file's package list (conda names mapped to PyPI names, the same version specs), and
every module or script its rules run is imported there, with the repository on PYTHONPATH as the workflow sets
it. Imports inside functions (the report's typst, law's webgraph) are checked too: the package must be there.
"""

import ast
import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from conftest import REPO

ENVS = sorted((REPO / "envs").glob("*.yaml"))
PROJECT = ("emogi", "model", "figures")
# Conda packages that are not pip-installed into the venv, and why. Everything else keeps its name on PyPI
# unless PYPI_NAMES says otherwise.
NOT_PIP = {
    "python": "the venv's own interpreter (its version is checked against the spec)",
    "pip": "the venv's own pip",
    "cmake": "a command the build runs, not an import",
    "ninja": "a command the build runs, not an import",
    "gxx": "the C++ compiler, not on PyPI",
    "cuda-nvcc": "CUDA toolkit wheels are large and not imported: only the build's cmake uses them",
    "cuda-cudart-dev": "CUDA toolkit, as cuda-nvcc",
    "cuda-nvtx-dev": "CUDA toolkit, as cuda-nvcc",
    "cuda-cccl": "CUDA toolkit headers (CUB), as cuda-nvcc",
}
PYPI_NAMES = {"python-xxhash": "xxhash"}


def conda_specs(env_file: Path) -> tuple[list[str], list[str]]:
    """(conda dependencies, pip dependencies) of an environment file."""
    deps = yaml.safe_load(env_file.read_text())["dependencies"]
    pip = [d for entry in deps if isinstance(entry, dict) for d in entry.get("pip", [])]
    return [d for d in deps if isinstance(d, str)], pip


def split_spec(spec: str) -> tuple[str, str]:
    name, version = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(.*)", spec.strip()).groups()
    return name, re.sub(r"^=(?!=)([^,]+)", r"==\1.*", version.replace(" ", ""))  # conda's =X is X.*


def pip_requirements(env_file: Path) -> list[str]:
    conda, pip = conda_specs(env_file)
    out = [PYPI_NAMES.get(name, name) + version for name, version in map(split_spec, conda) if name not in NOT_PIP]
    return out + pip


def rules_using(env_file: Path) -> dict[str, list[str]]:
    """{rule: [module or script path it runs]} for the rules whose `conda:` is env_file."""
    found = {}
    for smk in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        text = smk.read_text()
        for block in re.split(r"(?m)^\s*(?=rule \w+:)", text)[1:]:
            conda = re.search(r'conda:\s*\n\s*"([^"]+)"', block)
            if conda is None or (smk.parent / conda.group(1)).resolve() != env_file.resolve():
                continue
            runs = re.findall(r"python3? -m ([\w.{}]+)", block)
            scripts = dict(re.findall(r'(\w+)=REPO / "([^"]+\.py)"', block))
            runs += [scripts[key] for key in re.findall(r"python3? \{input\.(\w+)\}", block)]
            found[re.match(r"rule (\w+):", block).group(1)] = [r for name in runs for r in expand(name)]
    return found


def expand(run: str) -> list[str]:
    """A module (figures.{wildcards.figure}: every module it can be) or a script path."""
    if run.endswith(".py"):
        return [run]
    pattern = re.sub(r"\{[^}]*\}", "*", run).replace(".", "/") + ".py"
    return sorted(
        str(p.relative_to(REPO).with_suffix("")).replace("/", ".")
        for p in REPO.glob(pattern)
        if p.name != "__init__.py"
    )


def module_file(name: str) -> Path | None:
    for candidate in (REPO / (name.replace(".", "/") + ".py"), REPO / name.replace(".", "/") / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def third_party_imports(files: list[Path]) -> set[str]:
    """Top-level names of every non-standard package imported anywhere in `files` and the project modules they
    import (followed through, function bodies included)."""
    names, seen, todo = set(), set(), list(files)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            for target in targets:
                top = target.split(".")[0]
                if top in PROJECT:
                    todo += [f for f in [module_file(target)] if f]
                elif top not in sys.stdlib_module_names and top != "__future__":
                    names.add(top)
    return names


CHECK = """
import importlib, importlib.util, json, sys
spec, failures = json.loads(sys.argv[1]), []
for name in spec["modules"]:
    try:
        importlib.import_module(name)
    except Exception as err:
        failures.append(f"import {name}: {type(err).__name__}: {err}")
for i, path in enumerate(spec["scripts"]):
    try:
        s = importlib.util.spec_from_file_location(f"_rule_script_{i}", path)
        s.loader.exec_module(importlib.util.module_from_spec(s))
    except Exception as err:
        failures.append(f"import {path}: {type(err).__name__}: {err}")
failures += [f"{n}: not installed (imported by the code these rules run)" for n in spec["names"]
             if importlib.util.find_spec(n) is None]
print(json.dumps(failures))
"""


@pytest.fixture(scope="session")
def env_venv(tmp_path_factory):
    """A function: the Python of a virtualenv built with pip from an env file, built once per session."""
    built = {}

    def get(env_file: Path) -> Path:
        if env_file not in built:
            venv = tmp_path_factory.mktemp(f"env-{env_file.stem}")
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            python, requirements = venv / "bin" / "python", pip_requirements(env_file)
            if requirements:
                done = subprocess.run(
                    [
                        str(python),
                        "-m",
                        "pip",
                        "install",
                        "--quiet",
                        "--disable-pip-version-check",
                        "--only-binary=:all:",
                        *requirements,
                    ],
                    capture_output=True,
                    text=True,
                )
                assert done.returncode == 0, f"pip install {' '.join(requirements)}:\n{done.stderr[-3000:]}"
            built[env_file] = python
        return built[env_file]

    return get


def test_every_rule_with_an_env_names_a_file_and_runs_python():
    used = {env.name: rules_using(env) for env in ENVS}
    assert {name for name, rules in used.items() if rules} == {env.name for env in ENVS}
    no_python = {rule for rules in used.values() for rule, runs in rules.items() if not runs}
    assert no_python == {"first_roots"}  # the one rule that runs no Python (head)
    assert "emogi.datasets.generators" in used["analysis.yaml"]["generate_graph"]
    assert "figures.fig09_speedup_over_uvm" in used["analysis.yaml"]["figure"]


def test_conda_specs_map_to_pip():
    assert split_spec("cuda-nvcc=13.0") == ("cuda-nvcc", "==13.0.*")
    assert split_spec("gxx>=11,<15") == ("gxx", ">=11,<15")
    assert "xxhash>=3.4" in pip_requirements(REPO / "envs" / "analysis.yaml")  # conda calls it python-xxhash


def test_pyproject_dependencies_are_pinned_as_in_requirements():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    lines = (REPO / "envs" / "requirements.txt").read_text().splitlines()
    pinned = {r.name.lower(): r for r in (Requirement(ln.split("#")[0]) for ln in lines if ln.split("#")[0].strip())}
    for dep in map(Requirement, project["dependencies"]):
        assert dep.name.lower() in pinned, f"{dep} is not in envs/requirements.txt"
        assert dep.specifier == pinned[dep.name.lower()].specifier, f"{dep} vs {pinned[dep.name.lower()]}"


@pytest.mark.slow
@pytest.mark.parametrize("env_file", ENVS, ids=lambda p: p.stem)
def test_env_imports_what_its_rules_run(env_file, env_venv, tmp_path):
    python_spec = dict(map(split_spec, conda_specs(env_file)[0])).get("python", "")
    if platform.python_version() not in SpecifierSet(python_spec):
        pytest.skip(f"{env_file.name} asks for python{python_spec}, this is {platform.python_version()}")
    runs = sorted({r for rs in rules_using(env_file).values() for r in rs})
    modules = [r for r in runs if not r.endswith(".py")]
    scripts = [str(REPO / r) for r in runs if r.endswith(".py")]
    names = third_party_imports([f for f in map(module_file, modules) if f] + [Path(s) for s in scripts])
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env.update(PYTHONPATH=str(REPO), MPLBACKEND="Agg")
    done = subprocess.run(
        [
            str(env_venv(env_file)),
            "-c",
            CHECK,
            json.dumps({"modules": modules, "scripts": scripts, "names": sorted(names)}),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    failures = json.loads(done.stdout.splitlines()[-1])
    assert not failures, f"{env_file.name} lacks what its rules run:\n" + "\n".join(failures)
