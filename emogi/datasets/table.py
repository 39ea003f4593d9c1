"""The paper's Table 2 (graph datasets) with ours beside it: a CSV and a Markdown rendering for the report.

Ours come from the metadata JSON written beside each 8-byte graph (resources/graphs/<name>.w8.json:
emogi.csr.describe plus how the graph was made); the paper's from paper/table2_datasets.yaml, quoted from its
text. A configured graph is set beside the paper dataset it stands for (config `graphs.<name>.paper`); paper
datasets that no configured graph stands for keep a row of their own, with ours empty.

Sizes are GiB (2^30 bytes) as the paper's "GB" are: the 8-byte edge list and the 4-byte weights. Average degree
excludes isolated vertices (as the CXL paper's Table 1, the only source of the paper column).

CLI (the workflow's):
    python -m emogi.datasets.table --specs '{"kron23": {...}}' --meta resources/graphs/kron23.w8.json ... \\
        --paper paper/table2_datasets.yaml --out results/figures/table2_datasets.csv \\
        --out-md results/figures/table2_datasets.md
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd
import yaml

from emogi.atomic import write_csv, write_text
from emogi.cli import exit_status

GIB = 2**30
META_SUFFIX = ".w8.json"
INTEGER_COLUMNS = [
    "paper_vertices",
    "vertices",
    "paper_edges",
    "edges",
    "max_degree",
    "isolated_vertices",
    "index_bytes",
    "file_bytes",
]
COLUMNS = [
    "symbol",
    "paper_graph",
    "graph",
    "source",
    "paper_vertices",
    "vertices",
    "paper_edges",
    "edges",
    "paper_edge_list_gib",
    "edge_list_gib",
    "paper_weights_gib",
    "weights_gib",
    "paper_avg_degree",
    "avg_degree",
    "max_degree",
    "isolated_vertices",
    "paper_directed",
    "directed",
    "index_bytes",
    "file_bytes",
    "checksum",
]


def source_label(spec: dict) -> str:
    """How a configured graph is made, in a few words."""
    source = spec.get("source", "generator")
    if source == "generator":
        return (
            f"{spec['generator']} generator, scale {spec['scale']}, edge factor {spec.get('edge_factor', 16)}, "
            f"seed {spec['seed']}"
        )
    if source == "suitesparse":
        return f"SuiteSparse {spec['catalog']}"
    if source == "law":
        return f"LAW {spec['catalog']}"
    return f"EMOGI .bel files {spec['prefix']}"


def load_metas(paths) -> dict[str, dict]:
    """graph name (file name without .w8.json) -> metadata."""
    out = {}
    for p in map(Path, paths):
        if not p.name.endswith(META_SUFFIX):
            raise ValueError(f"{p}: expected a <graph>{META_SUFFIX} metadata file")
        out[p.name[: -len(META_SUFFIX)]] = json.loads(p.read_text())
    return out


def _ours(name: str, spec: dict, meta: dict) -> dict:
    index_bytes = meta["index_bytes"]
    weights_bytes = meta.get("weights_bytes", 4 * meta["num_edges"] if meta.get("has_weights") else 0)
    return {
        "graph": name,
        "source": source_label(spec),
        "vertices": meta["num_vertices"],
        "edges": meta["num_edges"],
        "edge_list_gib": meta["edge_list_bytes"] / GIB,
        "weights_gib": weights_bytes / GIB,
        "avg_degree": meta["avg_degree_nonisolated"],
        "max_degree": meta["max_degree"],
        "isolated_vertices": meta["isolated_vertices"],
        "directed": meta["directed"],
        "index_bytes": index_bytes,
        "file_bytes": meta["file_bytes"],
        "checksum": meta["checksum"],
    }


def _paper(symbol: str, paper: dict) -> dict:
    d = paper["datasets"][symbol]
    return {
        "symbol": symbol,
        "paper_graph": d["graph"],
        "paper_vertices": d["vertices"],
        "paper_edges": d["edges"],
        "paper_edge_list_gib": d["edge_list_gb"],
        "paper_weights_gib": d["weights_gb"],
        "paper_avg_degree": d.get("avg_degree_nonisolated"),
        "paper_directed": d["directed"],
    }


def table2(specs: dict, metas: dict, paper: dict) -> pd.DataFrame:
    """One row per configured graph (beside its paper dataset), then one per paper dataset nobody stands for."""
    rows = []
    for name, spec in specs.items():
        if name not in metas:
            raise ValueError(f"graph {name} is configured but has no metadata ({name}{META_SUFFIX})")
        symbol = spec.get("paper")
        if symbol is not None and symbol not in paper["datasets"]:
            raise ValueError(
                f"graph {name}: paper dataset {symbol!r} is not in the paper's Table 2 ({', '.join(paper['datasets'])})"
            )
        rows.append({**(_paper(symbol, paper) if symbol else {}), **_ours(name, spec, metas[name])})
    represented = {spec.get("paper") for spec in specs.values()}
    rows += [_paper(symbol, paper) for symbol in paper["datasets"] if symbol not in represented]
    table = pd.DataFrame(rows, columns=COLUMNS)
    return table.astype({c: "Int64" for c in INTEGER_COLUMNS})  # counts stay exact beside empty cells


# ---------------------------------------------------------------------------------------------- rendering


def fmt_count(x) -> str:
    """134.2M, 4.22B, 8.4M, 512K: as the paper writes counts."""
    if pd.isna(x):
        return "–"
    x = float(x)
    for unit, scale, digits in (("B", 1e9, 2), ("M", 1e6, 1), ("K", 1e3, 1)):
        if x >= scale:
            return f"{x / scale:.{digits}f}{unit}"
    return f"{x:.0f}"


def _num(x, digits: int = 1) -> str:
    return "–" if pd.isna(x) else f"{float(x):.{digits}f}"


def _directed(x) -> str:
    return "–" if pd.isna(x) else ("directed" if bool(x) else "undirected")


def _pair(paper: str, ours: str) -> str:
    return f"{paper} / {ours}"


def render_markdown(table: pd.DataFrame) -> str:
    """The table as Markdown: each cell 'paper / ours'."""
    head = (
        "| Sym. | graph (paper) | ours | V | E | E size (GiB) | w size (GiB) | avg. degree | directed | how ours "
        "is made |\n|---|---|---|---:|---:|---:|---:|---:|---|---|\n"
    )
    lines = []
    for r in table.itertuples(index=False):
        lines.append(
            "| "
            + " | ".join(
                [
                    r.symbol if isinstance(r.symbol, str) else "–",
                    r.paper_graph if isinstance(r.paper_graph, str) else "–",
                    r.graph if isinstance(r.graph, str) else "(not in this study)",
                    _pair(fmt_count(r.paper_vertices), fmt_count(r.vertices)),
                    _pair(fmt_count(r.paper_edges), fmt_count(r.edges)),
                    _pair(_num(r.paper_edge_list_gib), _num(r.edge_list_gib)),
                    _pair(_num(r.paper_weights_gib), _num(r.weights_gib)),
                    _pair(_num(r.paper_avg_degree), _num(r.avg_degree)),
                    _pair(_directed(r.paper_directed), _directed(r.directed)),
                    r.source if isinstance(r.source, str) else "",
                ]
            )
            + " |"
        )
    note = (
        "\nEach cell: the paper / ours. Paper: EMOGI Table 2 and §5.2; average degree (0-degree vertices "
        "excluded) from the CXL paper's Table 1. Ours: the 8-byte graph files this workflow made; sizes in GiB "
        "(the paper's GB), E counts both directions of an undirected edge.\n"
    )
    return head + "\n".join(lines) + "\n" + note


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m emogi.datasets.table", description=__doc__.split("\n")[0])
    ap.add_argument("--specs", required=True, help="JSON of config `graphs` (name -> spec)")
    ap.add_argument("--meta", required=True, nargs="+", help="<graph>.w8.json metadata files")
    ap.add_argument("--paper", required=True, help="paper/table2_datasets.yaml")
    ap.add_argument("--out", required=True, help="CSV to write")
    ap.add_argument("--out-md", help="Markdown to write")
    args = ap.parse_args(argv)

    def write():
        paper = yaml.safe_load(Path(args.paper).read_text())
        table = table2(json.loads(args.specs), load_metas(args.meta), paper)
        write_csv(table, args.out, float_format="%.4f")
        if args.out_md:
            write_text(render_markdown(table), args.out_md)

    return exit_status(write, (ValueError, KeyError, OSError))


if __name__ == "__main__":
    sys.exit(main())
