"""Where each configured graph comes from, for the workflow (workflow/rules/datasets.smk).

A graph spec in config `graphs:` has a `source`:
  generator    made here (emogi.datasets.generators): generator kron|urand, scale, edge_factor, seed, and for kron
               optionally initiator [a, b, c] (R-MAT; Graph500's 0.57, 0.19, 0.19 if omitted)
  suitesparse  a SuiteSparse archive, downloaded: catalog = entry name in config/datasets_catalog.yaml
  law          a LAW WebGraph graph, downloaded: catalog = entry name (its files are BASENAME.graph, ...)
  bel          the EMOGI artifact's PREFIX.bel.col/.dst[/.val] files on this machine: prefix
and for all of them `weights_seed` (weights 8..72 where the dataset has none) and optionally `paper`, the
dataset of the paper's Table 2 that the graph stands for. Every source ends in the same files,
resources/graphs/<name>.w8.csr and .w8.json, so nothing downstream knows where a graph came from.

Downloads land in resources/downloads/<name>/<file>. `preflight` runs at workflow start-up: a download that
is needed (no graph and no downloaded file yet) and cannot succeed here (unreachable URL, no checksum recorded)
stops the workflow before any job, with the dataset and the URL in the message.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path, PurePosixPath

SOURCES = ("generator", "suitesparse", "law", "bel")
DOWNLOADED = ("suitesparse", "law")
DOWNLOAD_DIR = Path("resources/downloads")
GRAPH_DIR = Path("resources/graphs")
NEVER = "(?!x)x"  # a wildcard pattern that matches no name
GAP_NAME = re.compile(r"^(kron|urand)[0-9]+$")  # kron<scale>, urand<scale>: GAP's graphs (bench.graph_name)


class DatasetError(RuntimeError):
    """A configured dataset that cannot be had (the message names the dataset and what to do)."""


def source_of(spec: dict) -> str:
    return spec.get("source", "generator")


def names_from(graphs: dict, *sources: str) -> list[str]:
    return [name for name, spec in graphs.items() if source_of(spec) in sources]


def name_pattern(graphs: dict, *sources: str) -> str:
    """A wildcard constraint matching exactly the graph names of `sources` (no name: matches nothing)."""
    names = names_from(graphs, *sources)
    return "|".join(re.escape(n) for n in names) if names else NEVER


# ---------------------------------------------------------------------------------------------- command lines


def initiator(spec: dict) -> tuple[float, float, float] | None:
    """A kron spec's R-MAT initiator (a, b, c) where it is not Graph500's, else None (ValueError where bad)."""
    if spec.get("initiator") is None:
        return None
    from emogi.datasets.generators import GRAPH500_ABC, parse_initiator  # only where needed: numpy, at start-up

    if spec.get("generator") != "kron":
        raise ValueError(f"initiator applies to generator kron only, not {spec.get('generator')}")
    abc = parse_initiator(spec["initiator"])
    return None if abc == GRAPH500_ABC else abc


def check_generator_specs(graphs: dict) -> None:
    """ValueError (one line, naming the graph) where a generator spec's initiator is bad, or where a graph with
    another initiator is named like GAP's kron<scale>/urand<scale>: its file would pass for that graph."""
    for name, spec in graphs.items():
        if source_of(spec) != "generator":
            continue
        try:
            abc = initiator(spec)
        except ValueError as err:
            raise ValueError(f"graphs.{name}: {err}") from None
        if abc is not None and GAP_NAME.match(name):
            raise ValueError(
                f"graphs.{name}: a graph with initiator {list(abc)} must not be named like GAP's kron<scale> "
                f"(resources/graphs/{name}.w8.csr); call it e.g. rmat{spec['scale']}-" + initiator_tag(abc)
            )


def initiator_tag(abc) -> str:
    """A name part for an initiator: (0.45, 0.15, 0.15) -> a45b15c15 (hundredths)."""
    return "".join(f"{k}{round(100 * x):02d}" for k, x in zip("abc", abc))


def generator_args(spec: dict) -> str:
    """emogi.datasets.generators arguments of a generator spec (--rmat-abc only for a non-Graph500 initiator, so
    GAP graphs keep their command line)."""
    abc = initiator(spec)
    return (
        f"--kind {spec['generator']} --scale {spec['scale']} --edge-factor {spec.get('edge_factor', 16)} "
        f"--seed {spec['seed']} --weights-seed {spec.get('weights_seed', 1)}"
        + (" --directed" if spec.get("directed") else "")
        + (f" --rmat-abc {','.join(repr(float(x)) for x in abc)}" if abc else "")
    )


def converter_args(name: str, spec: dict) -> str:
    """Options shared by emogi.datasets.suitesparse, emogi.datasets.law and emogi.datasets.bel import: the
    weights' seed (and for .bel, whether the graph is directed, when the config says)."""
    args = [f"--weights-seed {spec.get('weights_seed', 1)}"]
    if source_of(spec) == "suitesparse":
        args.append(f"--name {shlex.quote(spec['catalog'])}")
    if source_of(spec) == "bel" and "directed" in spec:
        args.append("--directed" if spec["directed"] else "--undirected")
    return " ".join(args)


# ---------------------------------------------------------------------------------------------- the catalog


def load_catalog(path) -> dict:
    """The `datasets:` mapping of config/datasets_catalog.yaml."""
    import yaml

    path = Path(path)
    if not path.is_file():
        raise DatasetError(f"{path} is missing: the catalog of downloadable datasets (url, sha256, size)")
    with open(path) as f:
        return (yaml.safe_load(f) or {}).get("datasets", {})


def catalog_entry(name: str, spec: dict, catalog: dict) -> dict:
    entry = catalog.get(spec["catalog"])
    if entry is None:
        raise DatasetError(
            f"dataset {name}: catalog entry {spec['catalog']!r} is not in config/datasets_catalog.yaml "
            f"(known: {', '.join(sorted(catalog)) or 'none'})"
        )
    return entry


def downloads(name: str, spec: dict, catalog: dict) -> dict[str, dict]:
    """file name -> {url, sha256, size} of every file the dataset needs: the entry's `url`, or each of its
    `files` (a list of {url, sha256, size}, or a mapping name -> that)."""
    entry = catalog_entry(name, spec, catalog)
    files = entry.get("files")
    if files is None:
        files = [entry]
    if isinstance(files, dict):
        files = [{"name": key, **value} for key, value in files.items()]
    out = {}
    for f in files:
        if not f.get("url"):
            raise DatasetError(f"dataset {name}: catalog entry {spec['catalog']!r} has a file without a url")
        file_name = f.get("name") or PurePosixPath(f["url"].split("?")[0]).name
        out[file_name] = {"url": f["url"], "sha256": f.get("sha256"), "size": f.get("size")}
    return out


def download_paths(name: str, spec: dict, catalog: dict) -> list[str]:
    return [str(DOWNLOAD_DIR / name / file_name) for file_name in downloads(name, spec, catalog)]


def download_args(name: str, file_name: str, spec: dict, catalog: dict) -> str:
    """emogi.datasets.download arguments for one file of a dataset."""
    f = downloads(name, spec, catalog)[file_name]
    args = [f"--url {shlex.quote(f['url'])}", f"--dataset {shlex.quote(name)}"]
    if f["sha256"]:
        args.append(f"--sha256 {f['sha256']}")
    if f["size"] is not None:
        args.append(f"--size {int(f['size'])}")
    return " ".join(args)


def law_basename(name: str, spec: dict, catalog: dict) -> str:
    """BASENAME for emogi.datasets.law: the downloaded BASENAME.graph without its suffix."""
    graph_files = [p for p in download_paths(name, spec, catalog) if p.endswith(".graph")]
    if not graph_files:
        raise DatasetError(f"dataset {name}: catalog entry {spec['catalog']!r} lists no .graph file")
    return graph_files[0][: -len(".graph")]


def bel_inputs(spec: dict) -> list[str]:
    """The .bel files an import reads: .col and .dst, and .val where it exists."""
    base = spec["prefix"][: -len(".bel")] if spec["prefix"].endswith(".bel") else spec["prefix"]
    files = [f"{base}.bel.col", f"{base}.bel.dst"]
    return files + ([f"{base}.bel.val"] if Path(f"{base}.bel.val").exists() else [])


# ---------------------------------------------------------------------------------------------- directed graphs


def directed(name: str, spec: dict, catalog: dict) -> bool | None:
    """Whether the graph will be directed, as far as the config and the catalog say (None: decided when the graph
    is made, as a .bel import without `directed` is; the graph file's header then tells)."""
    source = source_of(spec)
    if source == "generator":
        return bool(spec.get("directed", False))
    if source == "law":
        return True
    if source == "suitesparse":
        return catalog_entry(name, spec, catalog).get("directed")
    return spec.get("directed")


def needs_transpose(name: str, spec: dict, catalog: dict, graph_file, variants, in_list_variants) -> bool:
    """Whether a run of `variants` on `graph_file` (a width of graph `name`) reads its transpose: a variant that
    reads in-lists (the registry's in_lists) on a directed graph. An existing graph file's header decides when the
    config does not."""
    if not set(variants) & set(in_list_variants):
        return False
    known = directed(name, spec, catalog)
    if known is None and Path(graph_file).exists():
        from emogi.csr_header import read_header

        known = read_header(graph_file).directed
    return bool(known)


def transpose_input(graphs: dict, catalog_path, in_list_variants, variants):
    """A Snakemake input function: the transpose of the rule's graph and width (wildcards graph, width) where
    `variants` (a list, or a function of the wildcards) read in-lists on a directed graph, else nothing."""

    def inputs(w):
        names = variants(w) if callable(variants) else variants
        spec = graphs[w.graph]
        catalog = load_catalog(catalog_path) if source_of(spec) in DOWNLOADED else {}
        graph = GRAPH_DIR / f"{w.graph}.w{w.width}.csr"
        needed = needs_transpose(w.graph, spec, catalog, graph, names, in_list_variants)
        return [str(GRAPH_DIR / f"{w.graph}.w{w.width}.t.csr")] if needed else []

    return inputs


# ---------------------------------------------------------------------------------------------- preflight


def missing_downloads(graphs: dict, catalog_path, root=".") -> list[tuple[str, dict]]:
    """(dataset, file record) of every download a run would need: the graph is not made and the file not there."""
    needed = [n for n in names_from(graphs, *DOWNLOADED) if not (Path(root) / GRAPH_DIR / f"{n}.w8.csr").exists()]
    if not needed:
        return []
    catalog = load_catalog(catalog_path)
    return [
        (name, record)
        for name in needed
        for file_name, record in downloads(name, graphs[name], catalog).items()
        if not (Path(root) / DOWNLOAD_DIR / name / file_name).exists()
    ]


def preflight(graphs: dict, catalog_path, dry_run: bool, root=".", check_reachable=None) -> list[str]:
    """Stop (DatasetError) if a needed download cannot succeed; returns the URLs found reachable.

    Skipped in a dry run, which may plan downloads anywhere."""
    if dry_run:
        return []
    if check_reachable is None:
        from emogi.datasets.download import check_reachable
    from emogi.datasets.download import DownloadError

    reachable = []
    for name, record in missing_downloads(graphs, catalog_path, root):
        if not record["sha256"]:
            raise DatasetError(
                f"dataset {name}: no sha256 is recorded for {record['url']} in config/datasets_catalog.yaml, so "
                f"the download would refuse to run; record it (python -m emogi.datasets.download --trust-on-first-use "
                f"prints it), or place the file at {DOWNLOAD_DIR / name}/"
            )
        try:
            check_reachable(record["url"], name)
        except DownloadError as err:
            raise DatasetError(f"dataset {name} needs a download that cannot start here: {err}") from None
        reachable.append(record["url"])
    return reachable
