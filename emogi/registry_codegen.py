"""Write the files that follow from emogi/registry.yaml: the C++ header of names and requirements, and the enums
the config schema refers to.

    python -m emogi.registry_codegen --write    # after editing emogi/registry.yaml
    python -m emogi.registry_codegen --check    # exit 1 naming the stale files (tests and the build run it)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

from emogi.atomic import write_text
from emogi.registry import Vocabulary, load

REPO = Path(__file__).resolve().parents[1]
HEADER = Path("kernels/include/emogi/names.hpp")
CONFIG_DEFS = Path("config/vocabulary.schema.yaml")


def _cpp_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid C++ narrow string literal here


def _names_array(name: str, entries) -> str:
    names = ", ".join(_cpp_string(e.name) for e in entries)
    return f"constexpr std::array<const char*, {len(entries)}> {name} = {{{names}}};"


def _flag_test(function: str, enum: str, entries, flag: str) -> str:
    """`function`(x): whether x is one of the entries whose registry `flag` is set (none: always false)."""
    test = " || ".join(f"x == {enum}::{e.enum}" for e in entries if getattr(e, flag)) or "(void)x, false"
    return f"constexpr bool {function}({enum} x) {{ return {test}; }}"


def _requirement_checks(v: Vocabulary) -> str:
    test = {"undirected": "directed", "weights": "!has_weights"}
    missing = set(v.requirements) - set(test)
    if missing:
        raise ValueError(f"registry requirements {sorted(missing)} have no C++ test in emogi.registry_codegen")
    lines = []
    for kind, enum, entries in (("algorithm", "Algorithm", v.algorithms), ("variant", "Variant", v.variants)):
        for e in entries:
            for req, why in e.requires.items():
                prop = v.requirements[req]
                lines.append(
                    f"  if ({kind} == {enum}::{e.enum} && {test[req]})\n"
                    f"    return graph + {_cpp_string(' ' + prop + ': ' + why)};"
                )
    return "\n".join(lines)


def header_text(v: Vocabulary, matrix_columns) -> str:
    algorithms, variants, modes, orders = v.algorithms, v.variants, v.modes, v.auto_orders

    def variant_list(a):
        return ", ".join(f"Variant::{v.variant(n).enum}" for n in a.variants)

    variants_of = "\n".join(f"    case Algorithm::{a.enum}:\n      return {{{variant_list(a)}}};" for a in algorithms)

    def streamed_test(a):
        return " || ".join(f"v == Variant::{v.variant(n).enum}" for n in a.streamed)

    streamed_cases = "\n".join(
        f"  if (a == Algorithm::{a.enum}) return {streamed_test(a)};" for a in algorithms if a.streamed
    )
    weight_cases = "\n".join(
        f"    case Algorithm::{a.enum}:\n      return {a.weight_bytes};" for a in algorithms if a.weight_bytes
    )
    return f"""\
// GENERATED from emogi/registry.yaml by `python -m emogi.registry_codegen --write`: edit the registry, not this.
// The names users type and tables store for algorithms, kernel variants, memory modes and auto orders, which
// combinations apply, and the columns of the matrix CSV (emogi/schema.py reads the same registry).
// clang-format off
#pragma once
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace emogi {{

enum class Algorithm {{ {", ".join(a.enum for a in algorithms)} }};
enum class Variant {{ {", ".join(x.enum for x in variants)} }};
enum class MemoryMode {{ {", ".join(m.enum for m in modes)} }};
enum class AutoOrder {{ {", ".join(o.enum for o in orders)} }};

{_names_array("kAlgorithmNames", algorithms)}
{_names_array("kVariantNames", variants)}
{_names_array("kModeNames", modes)}
{_names_array("kAutoOrderNames", orders)}
constexpr std::array<unsigned, {len(v.edge_bytes)}> kEdgeBytes = {{{", ".join(map(str, v.edge_bytes))}}};

inline const char* name_of(Algorithm a) {{ return kAlgorithmNames[static_cast<int>(a)]; }}
inline const char* name_of(Variant v) {{ return kVariantNames[static_cast<int>(v)]; }}
inline const char* name_of(MemoryMode m) {{ return kModeNames[static_cast<int>(m)]; }}
inline const char* name_of(AutoOrder o) {{ return kAutoOrderNames[static_cast<int>(o)]; }}

// The modes whose edge list is managed memory that migrates to the GPU on fault.
{_flag_test("is_uvm", "MemoryMode", modes, "migrates")}
// The modes that allocate managed memory, which the oversubscription guard covers.
{_flag_test("is_managed", "MemoryMode", modes, "managed")}
// The variants that are access policies (access.cuh), combined with every algorithm that has them; the others
// are an algorithm's own kernel.
{_flag_test("is_access_variant", "Variant", variants, "access")}
// The variants that read in-neighbours: on a directed graph, from its transpose file (csr_transpose.hpp).
{_flag_test("reads_in_lists", "Variant", variants, "in_lists")}
// The algorithms that run from a source vertex.
{_flag_test("is_rooted", "Algorithm", algorithms, "rooted")}

// Bytes an algorithm reads beside each neighbour id (SSSP's weight).
constexpr unsigned weight_bytes(Algorithm a) {{
  switch (a) {{
{weight_cases}
    default:
      return 0;
  }}
}}

// The variants each algorithm has, in registry order.
inline std::vector<Variant> variants_of(Algorithm a) {{
  switch (a) {{
{variants_of}
  }}
  return {{}};
}}

// Whether the streamed mode runs `variant` of `algorithm` (the registry's `streamed`; streamed_refusal says why not).
inline bool streams(Algorithm a, Variant v) {{
{streamed_cases}
  (void)v;
  return false;
}}

// Why `variant` of `algorithm` cannot run on `graph` (its name, for the message), or "" when it can.
inline std::string unmet_requirement(Algorithm algorithm, Variant variant, const std::string& graph, bool directed,
                                     bool has_weights) {{
{_requirement_checks(v)}
  (void)algorithm, (void)variant, (void)directed, (void)has_weights;
  return "";
}}

// The header of the CSV `emogi run` writes (schema.APP_COLUMNS without the provenance the caller adds).
constexpr const char* kMatrixCsvHeader = {_cpp_string(",".join(matrix_columns))};

template <class Enum, size_t N>
Enum parse_name(const std::string& text, const std::array<const char*, N>& names, const char* what) {{
  std::string allowed;
  for (size_t i = 0; i < N; ++i) {{
    if (text == names[i]) return static_cast<Enum>(i);
    allowed += (i ? ", " : "") + std::string(names[i]);
  }}
  throw std::invalid_argument("unknown " + std::string(what) + " '" + text + "' (choose from " + allowed + ")");
}}

inline Algorithm parse_algorithm(const std::string& s) {{
  return parse_name<Algorithm>(s, kAlgorithmNames, "algorithm");
}}
inline Variant parse_variant(const std::string& s) {{ return parse_name<Variant>(s, kVariantNames, "variant"); }}
inline MemoryMode parse_mode(const std::string& s) {{ return parse_name<MemoryMode>(s, kModeNames, "memory mode"); }}
inline AutoOrder parse_auto_order(const std::string& s) {{
  return parse_name<AutoOrder>(s, kAutoOrderNames, "auto order");
}}

}}  // namespace emogi
"""


def _enum(names) -> dict:
    return {"type": "string", "enum": list(names)}


def config_defs(v: Vocabulary) -> dict:
    """The $defs config/schema.yaml refers to (`vocabulary.schema.yaml#/$defs/...`)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "algorithm": _enum(v.names("algorithms")),
            "edge_bytes": {"type": "integer", "enum": list(v.edge_bytes)},
            "paper_variant": _enum(v.names("variants", origin="paper")),
            "variant": _enum(v.names("variants")),
            "variants_of": {a: _enum(x) for a, x in v.variants_of().items()},
            "paper_mode": _enum(v.names("modes", origin="paper")),
            "mode": _enum(v.names("modes")),
            "micro_mode": _enum(v.names("modes", micro=True)),
            "auto_order": _enum(v.names("auto_orders")),
        },
    }


def config_text(v: Vocabulary) -> str:
    head = (
        "# GENERATED from emogi/registry.yaml by `python -m emogi.registry_codegen --write`: edit the registry.\n"
        "# The names config/schema.yaml accepts for algorithms, variants, modes and edge widths.\n"
    )
    return head + yaml.safe_dump(config_defs(v), sort_keys=False, width=120)


def generated(v: Vocabulary | None = None) -> dict[Path, str]:
    """Relative path -> the text it should hold for registry `v` (default: the registry in use)."""
    from emogi.schema import APP_COLUMNS, PROVENANCE_COLUMNS  # reads the same registry

    v = v or load()
    matrix = [c for c in APP_COLUMNS if c not in PROVENANCE_COLUMNS]
    return {HEADER: header_text(v, matrix), CONFIG_DEFS: config_text(v)}


def stale(root: Path = REPO, v: Vocabulary | None = None) -> list[Path]:
    """The generated files under `root` that differ from what the registry gives."""
    return [p for p, text in generated(v).items() if not (root / p).exists() or (root / p).read_text() != text]


def write(root: Path = REPO, v: Vocabulary | None = None) -> list[Path]:
    changed = stale(root, v)
    for p, text in generated(v).items():
        if p in changed:
            (root / p).parent.mkdir(parents=True, exist_ok=True)
            write_text(text, root / p)
    return changed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m emogi.registry_codegen", description=__doc__.split("\n\n")[0])
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", action="store_true", help="rewrite the generated files that are out of date")
    what.add_argument("--check", action="store_true", help="exit 1 if a generated file is out of date")
    ap.add_argument("--root", type=Path, default=REPO, help="repository root to write under (default: this one)")
    a = ap.parse_args(argv)
    if a.write:
        for p in write(a.root):
            print(f"wrote {p}")
        return 0
    old = stale(a.root)
    if old:
        print(
            f"out of date with emogi/registry.yaml: {', '.join(map(str, old))} "
            "(run python -m emogi.registry_codegen --write)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
