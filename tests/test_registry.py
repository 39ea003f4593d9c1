"""emogi/registry.yaml is the one place a name is added: the generated files are up to date, a dummy variant
added to a copy of the registry reaches the config schema, emogi.schema and the binary's `list`, and a malformed
registry is refused with a message naming the entry. No GPU needed."""

import json
import os
import shutil
import subprocess
import sys

import pytest
import yaml

from conftest import REPO, run
from emogi import registry, registry_codegen


def test_generated_files_are_up_to_date():
    assert registry_codegen.stale() == [], "run python -m emogi.registry_codegen --write"


def test_check_names_stale_files(tmp_path):
    root = tmp_path / "repo"
    registry_codegen.write(root)
    assert run([sys.executable, "-m", "emogi.registry_codegen", "--check", "--root", root]).returncode == 0
    (root / registry_codegen.HEADER).write_text("// edited by hand\n")
    done = run([sys.executable, "-m", "emogi.registry_codegen", "--check", "--root", root])
    assert done.returncode == 1 and "names.hpp" in done.stderr and "--write" in done.stderr


@pytest.fixture
def dummy_registry(tmp_path):
    """A copy of the registry with a variant `dummy` (an access policy) that BFS has."""
    raw = yaml.safe_load(registry.DEFAULT_PATH.read_text())
    raw["variants"].append(
        {"name": "dummy", "enum": "Dummy", "origin": "project", "access": True, "description": "a test's variant"}
    )
    raw["algorithms"][0]["variants"].append("dummy")
    path = tmp_path / "registry.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    return path


def test_dummy_variant_reaches_config_schema_and_emogi_schema(dummy_registry, tmp_path):
    defs = registry_codegen.config_defs(registry.load(dummy_registry))["$defs"]
    assert "dummy" in defs["variant"]["enum"] and "dummy" in defs["variants_of"]["bfs"]["enum"]
    assert "dummy" not in defs["variants_of"]["sssp"]["enum"]
    code = "from emogi import schema; print(list(schema.ALL_VARIANTS), list(schema.VARIANTS_OF['bfs']))"
    done = run([sys.executable, "-c", code], cwd=REPO, env={**os.environ, "EMOGI_REGISTRY": str(dummy_registry)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("'dummy'") == 2


def test_dummy_variant_reaches_the_binarys_list(dummy_registry, tmp_path):
    """`emogi list` prints vocabulary_json() of names.hpp: compiled here against the header generated from the
    dummy registry (host code only, so no CUDA build is needed)."""
    cxx = shutil.which("g++") or shutil.which("c++")
    if not cxx:
        pytest.skip("no C++ compiler")
    root = tmp_path / "gen"
    include = root / "kernels" / "include" / "emogi"
    include.mkdir(parents=True)
    shutil.copy(REPO / "kernels" / "include" / "emogi" / "vocabulary_json.hpp", include)
    registry_codegen.write(root, registry.load(dummy_registry))
    main = tmp_path / "list.cpp"
    main.write_text(
        '#include <cstdio>\n#include "emogi/vocabulary_json.hpp"\n'
        'int main() { std::printf("{%s}\\n", emogi::vocabulary_json().c_str()); }\n'
    )
    exe = tmp_path / "list"
    subprocess.run([cxx, "-std=c++17", "-I", str(root / "kernels" / "include"), str(main), "-o", str(exe)], check=True)
    listed = json.loads(subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout)
    assert listed["variants"][-1] == "dummy" and listed["variants_of"]["bfs"][-1] == "dummy"
    assert "dummy" not in listed["variants_of"]["cc"]


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda r: r["algorithms"][0]["variants"].append("nonesuch"), "unknown variants ['nonesuch']"),
        (lambda r: r["variants"].append(dict(r["variants"][0])), "repeats name ['naive']"),
        (lambda r: r["modes"][0].update(origin="elsewhere"), "origin 'elsewhere'"),
        (lambda r: r["variants"][0].update(colour="#000"), "variant 'naive'"),
        (lambda r: r["algorithms"][1].update(requires={"sorted": "x"}), "requires ['sorted']"),
        (lambda r: r["algorithms"][4]["streamed"].append("frontier"), "streams variants it lacks ['frontier']"),
    ],
)
def test_malformed_registry_is_refused(tmp_path, edit, message):
    raw = yaml.safe_load(registry.DEFAULT_PATH.read_text())
    edit(raw)
    path = tmp_path / "registry.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    with pytest.raises(registry.RegistryError, match=message.replace("[", r"\[").replace("]", r"\]")):
        registry.load(path)


def test_requirements_read_as_one_message():
    """The C++ error for a graph that lacks what an algorithm needs names the graph, the property and why."""
    header = (REPO / registry_codegen.HEADER).read_text()
    assert 'graph + " is directed: connected components are defined here for undirected graphs only' in header
    assert 'graph + " has no weights: SSSP reads an edge weight' in header
