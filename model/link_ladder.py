"""This project's link ladder (issue 24): the zero-copy time of each algorithm predicted from the graph file alone on
every rung of a ladder of host links, PCIe Gen3 and Gen4 (presets), Gen5 (preset, and as measured on this
project's H100), so that one sees how each algorithm scales with the link. Nothing is run: every number is the
prediction of `python -m model.whatif --graph-file` (model/graph_predict.py, docs/predictor.md "Prediction from the
graph"), whose functions this module calls:

    t = D / T(d) + floor + chain_steps · L       T(d) = min{S d, N_max d / L, W} of the rung's preset

D, d, the floor (the GPU-work term fitted on the H100) and the chain steps come from the CPU-derived trace, which is
the slow part: it is derived once per graph × algorithm × variant (the trace depends on the variant) and reused on
every rung. Only the link changes along the ladder; the floor is the H100's on every rung.

    python -m model.link_ladder --graph-file G.csr [--graph-file ...] \\
        [--presets pcie3-x16,pcie4-x16,pcie5-x16,h100-measured] [--parameters parameters.json] \\
        [--variant bfs=merged-aligned,direction-optimizing ...] [--root R] --out ladder.csv

The rung `h100-measured` is the preset model.presets makes from a parameters.json of model.fit (default: the one
fitted on the H100's PCIe 5.0 link, archive/graph-predict-zerocopy-2026-11-25/parameters.json); it is labelled
"PCIe 5.0, measured here", the others "preset (spec)".

`--term v12` and `--term v16` price each rung with a GPU-work term the registered held-out validations judged
(model/graph_predict_v12.py): v12 fitted as held-out validation v14 fitted it on an H200, v16 (v12 with Jacobi
PageRank's critical path, each graph's made from its file) as validation v16 fitted it on another H200. The floor
is that H200's, the measured rung is the validation's own link (the judged prediction; default --parameters its
pass 1 call's parameters.json), and every other rung reprices zero-copy with the fitted η, h and g on the preset's
link (an extrapolation: only the fit's own link has a held-out record). They cover the registered variants (the
paper's and this project's fastest); the traces are derived once per graph, the fit made once.

A variant the model does not cover, or a graph an
algorithm cannot run on (CC on a directed graph, SSSP without weights), is a row with its reason in `refused` and
no numbers. Bad input (an unknown preset or algorithm, a graph whose checksum differs from its metadata, a
missing file) is one line on stderr and exit status 2, with nothing written. Columns: docs/model.md, "The link
ladder".
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import pandas as pd

from emogi.atomic import write_csv
from emogi.traces import TraceError
from model import graph_predict as gp
from model import graph_predict_v12 as gp12
from model.littles_law import binding_term, throughput_gbps
from model.presets import MEASURED
from model.whatif import WhatIfError, resolve_params

ROOT = Path(__file__).resolve().parents[1]
# The H100's PCIe 5.0 link as measured (model.fit on h100-80gb-hbm3-2026-11-21-0732's microbenchmarks); the same
# file model.select defaults to
PARAMETERS = ROOT / "archive" / "graph-predict-zerocopy-2026-11-25" / "parameters.json"
PRESETS = ("pcie3-x16", "pcie4-x16", "pcie5-x16", MEASURED)
# v2 prices with graph_predict's H100 floor; a judged term (graph_predict_v12.FITS) with its validation's fit, whose
# own link (graph_predict_v12.fit_link) is the measured rung unless --parameters names another
TERMS = ("v2", *gp12.FITS)
# The paper's EMOGI (merged-aligned) and this project's fastest per algorithm: config/config.yaml apps.variants
VARIANTS = {
    "bfs": ("merged-aligned", "direction-optimizing"),
    "sssp": ("merged-aligned", "frontier"),
    "cc": ("merged-aligned", "afforest"),
    "pagerank": ("merged-aligned", "gauss-seidel"),
}
# what a rung is called on the figure; a preset not named here is called by its name
LINKS = {
    "pcie3-x16": "PCIe 3.0",
    "pcie4-x16": "PCIe 4.0",
    "pcie5-x16": "PCIe 5.0",
    "pcie6-x16": "PCIe 6.0",
    "cxl": "CXL on PCIe 3.0",
    MEASURED: "PCIe 5.0",
}
SPEC, MEASURED_HERE = "preset (spec)", "PCIe 5.0, measured here"
COLUMNS = [
    "graph",
    "graph_file",
    "checksum",
    "algorithm",
    "variant",
    "role",
    "edge_bytes",
    "root",
    "launches",
    "fidelity",
    "term",
    "preset",
    "rung",
    "link",
    "basis",
    "W_gbps",
    "N_max",
    "L_us",
    "S_miops",
    "D_bytes",
    "d_bytes",
    "T_gbps",
    "bound",
    "transfer_ms",
    "floor_ms",
    "chain_ms",
    "predicted_ms",
    "speedup_vs_slowest",
    "refused",
]


class LadderError(ValueError):
    """Bad ladder input; the CLI turns it into one line and exit status 2."""


def graph_name(path) -> str:
    """kron19.w8.csr -> kron19 (the study's file naming, resources/graphs/<name>.w<width>.csr)."""
    return Path(path).name.split(".")[0]


def rungs(names, parameters=PARAMETERS, presets_file=None, measured=None) -> list:
    """The presets of the ladder, in the order given; an unknown name raises LadderError (model.whatif's message).
    `measured`: the MEASURED rung's preset, in place of the one made from `parameters` (a judged fit's own link)."""
    if not names:
        raise LadderError("no presets: give --presets, e.g. pcie3-x16,pcie4-x16,pcie5-x16")
    if len(set(names)) != len(names):
        raise LadderError(f"a preset is named twice in {','.join(names)}")
    try:
        return [
            measured if n == MEASURED and measured is not None
            else resolve_params(n, parameters if n == MEASURED else None, presets_file=presets_file)
            for n in names
        ]  # fmt: skip
    except WhatIfError as e:
        raise LadderError(str(e)) from None


def _rung(preset) -> dict:
    measured = preset.name == MEASURED
    link = LINKS.get(preset.name, preset.name)
    finite = lambda x: x if math.isfinite(x) else math.nan  # noqa: E731  not limiting: empty in the CSV
    return {
        "preset": preset.name,
        "rung": MEASURED_HERE if measured else f"{link}, {SPEC}",
        "link": link,
        "basis": "measured here" if measured else SPEC,
        "W_gbps": preset.W_gbps,
        "N_max": finite(preset.N_max),
        "L_us": preset.L_us,
        "S_miops": finite(preset.S_miops),
    }


def _on_rung(w: dict, preset) -> dict:
    """One workload on one rung: the terms of model.graph_predict.predict's zero-copy time."""
    if w["requests"]:
        T = throughput_gbps(w["d_bytes"], preset)
        bound, transfer = binding_term(w["d_bytes"], preset), w["D_bytes"] / (T * 1e9) * 1e3
        chain = w["chain_steps"] * preset.L_us / 1e3
    else:  # nothing read over the link: the floor alone
        T, bound, transfer, chain = math.nan, "none", 0.0, 0.0
    return {
        "T_gbps": T,
        "bound": bound,
        "transfer_ms": transfer,
        "chain_ms": chain,
        "predicted_ms": gp.predict(w, "zerocopy", preset),
    }


def ladder(graphs, presets, variants=None, root=None, costs=None, log=None) -> pd.DataFrame:
    """The ladder table (COLUMNS): `graphs` maps a name to (path, loaded graph), `presets` the rungs in order,
    `variants` algorithm -> variants (default VARIANTS). Each trace is derived once, then read on every rung."""
    variants = VARIANTS if variants is None else variants
    costs = gp.gpu_work_costs() if costs is None else costs
    rows = []
    for name, (path, graph) in graphs.items():
        where = {"graph": name, "graph_file": str(path), "checksum": f"{graph.header.checksum:016x}", "term": "v2"}
        for algorithm, names in variants.items():
            for variant in names:
                cell = {**where, "algorithm": algorithm, "variant": variant, "role": _role(variant)}
                started = time.monotonic()
                try:
                    trace = gp.derive_trace(graph, algorithm, variant, root)
                    w = gp.workload_from_trace(trace, graph.offsets, variant, costs)
                except (gp.GraphPredictError, TraceError) as e:
                    rows.append({**cell, "refused": str(e)})
                    if log:
                        log(f"{name} {algorithm}/{variant}: refused: {e}")
                    continue
                if log:
                    log(f"{name} {algorithm}/{variant}: trace and counts in {time.monotonic() - started:.1f} s")
                common = {k: w[k] for k in ("edge_bytes", "root", "launches", "fidelity", "D_bytes", "d_bytes")}
                on_rungs = [
                    {**cell, **common, **_rung(p), "floor_ms": w["floor_ms"], **_on_rung(w, p), "refused": ""}
                    for p in presets
                ]
                rows.extend(_with_speedups(on_rungs))
    return pd.DataFrame(rows, columns=COLUMNS)


def ladder_judged(graphs, presets, variants=None, root=None, log=None, term="v12") -> pd.DataFrame:
    """The ladder table (COLUMNS) with a judged term, v12 or v16 (module doc): per graph one derivation and one fit
    (graph_predict_v12.on_links), the measured rung on the fit's own link, the others repriced."""
    variants = VARIANTS if variants is None else variants
    links = {p.name: (None if p.name == MEASURED else p) for p in presets}
    rows = []
    for name, (path, graph) in graphs.items():
        where = {"graph": name, "graph_file": str(path), "checksum": f"{graph.header.checksum:016x}", "term": term}
        cells = {(a, v): {**where, "algorithm": a, "variant": v, "role": _role(v)} for a, vs in variants.items()
                 for v in vs}  # fmt: skip
        asked = {a: tuple(v for v in vs if v in gp12.VARIANTS.get(a, ())) for a, vs in variants.items()}
        asked = {a: vs for a, vs in asked.items() if vs}
        why = {(a, v): f"term {term} covers {a} {'/'.join(gp12.VARIANTS.get(a, ())) or 'no variant'}"
               for a, v in cells if v not in asked.get(a, ())}  # fmt: skip
        tables = {}
        if asked:
            started = time.monotonic()
            try:
                tables = gp12.on_links(path, tuple(asked), links, root, variants=asked, term=term)
            except gp.GraphPredictError as e:
                why |= {(a, v): str(e) for a, vs in asked.items() for v in vs}
            if log:
                log(f"{name}: term {term} traces, fit and {len(links)} rungs in {time.monotonic() - started:.1f} s")
        if tables:
            attrs = next(iter(tables.values())).attrs
            refused = attrs["refused"]
            if log and attrs["extrapolation"]:
                log(f"{name}: {attrs['extrapolation']}")
            why |= {(a, v): refused[f"{a} {v}"] for a, v in cells if f"{a} {v}" in refused}
        for key, cell in cells.items():
            if key in why:
                rows.append({**cell, "refused": why[key]})
                if log:
                    log(f"{name} {key[0]}/{key[1]}: refused: {why[key]}")
                continue
            on_rungs = [{**cell, **_rung(p), **_judged_on_rung(tables[p.name], key, p), "refused": ""} for p in presets]
            rows.extend(_with_speedups(on_rungs))
    return pd.DataFrame(rows, columns=COLUMNS)


def _judged_on_rung(table: pd.DataFrame, key, preset) -> dict:
    """One cell's zero-copy row of a rung's judged-term table, with the rung's T(d) and binding term for reference."""
    r = table[(table["algorithm"] == key[0]) & (table["variant"] == key[1]) & (table["mode"] == "zerocopy")].iloc[0]
    read = r["D_bytes"] > 0
    out = {k: r[k] for k in ("edge_bytes", "root", "launches", "D_bytes", "d_bytes", "floor_ms", "transfer_ms",
                              "chain_ms", "predicted_ms")}  # fmt: skip
    return out | {
        "fidelity": r.get("fidelity", ""),
        "T_gbps": throughput_gbps(r["d_bytes"], preset) if read else math.nan,
        "bound": binding_term(r["d_bytes"], preset) if read else "none",
    }


def _with_speedups(cell_rows: list[dict]) -> list[dict]:
    """One cell's rows on every rung, each with the slowest rung's predicted_ms over its own."""
    slowest = max(r["predicted_ms"] for r in cell_rows)
    return [{**r, "speedup_vs_slowest": slowest / r["predicted_ms"]} for r in cell_rows]


def _role(variant: str) -> str:
    return "paper (EMOGI)" if variant == gp.DEFAULT_VARIANT else "project's fastest"


def parse_variants(specs, algorithms) -> dict:
    """--variant ALG=V1,V2 (repeatable) over VARIANTS' defaults, for the algorithms asked for."""
    out = {a: VARIANTS.get(a, (gp.DEFAULT_VARIANT,)) for a in algorithms}
    for spec in specs or ():
        algorithm, sep, names = spec.partition("=")
        if not sep or not names:
            raise LadderError(f"--variant {spec!r}: write ALGORITHM=VARIANT[,VARIANT...]")
        if algorithm not in gp.ALGORITHMS:
            raise LadderError(
                f"--variant {spec!r}: unknown algorithm {algorithm!r} (known: {', '.join(gp.ALGORITHMS)})"
            )
        if algorithm in out:
            out[algorithm] = tuple(v for v in names.split(",") if v)
    return out


def _algorithms(text: str) -> tuple:
    names = gp.ALGORITHMS if text == "all" else tuple(a for a in text.split(",") if a)
    unknown = [a for a in names if a not in gp.ALGORITHMS]
    if unknown or not names:
        raise LadderError(f"unknown algorithm {','.join(unknown) or text!r} (known: {', '.join(gp.ALGORITHMS)}, all)")
    return names


def _fit_link(term: str):
    try:
        return gp12.fit_link(term)
    except (gp.GraphPredictError, OSError, ValueError) as e:
        raise LadderError(f"term {term}'s own link: {e}") from None


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m model.link_ladder", description=__doc__.split("\n\n")[0])
    ap.add_argument("--graph-file", type=Path, action="append", required=True, help="a CSR file (repeatable)")
    ap.add_argument("--presets", default=",".join(PRESETS), help="the rungs, comma-separated, in order")
    ap.add_argument(
        "--term",
        choices=TERMS,
        default="v2",
        help="the GPU-work term: v2 (H100 costs, the graph_predict floor), v12 (v14's fit on an H200) or v16 "
        "(v16's fit on an H200: v12 with Jacobi PageRank's critical path)",
    )
    ap.add_argument(
        "--parameters",
        type=Path,
        help=f"parameters.json for {MEASURED} (default: the term's own: v2 the H100 fit's, v12 and v16 their "
        "validation's pass 1 call's)",
    )
    ap.add_argument("--presets-file", type=Path, help="presets YAML (default: model/presets.yaml)")
    ap.add_argument("--algorithm", default="all", help="bfs, sssp, cc, pagerank, comma-separated, or all")
    ap.add_argument("--variant", action="append", help="ALG=V1,V2: the variants of one algorithm (repeatable)")
    ap.add_argument("--root", type=int, help="BFS/SSSP source (default: the vertex of largest degree)")
    ap.add_argument("--out", type=Path, required=True, help="the ladder table (CSV)")
    return ap


def main(argv=None) -> int:
    a = _parser().parse_args(argv)
    log = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    try:
        variants = parse_variants(a.variant, _algorithms(a.algorithm))
        rung_names = [p for p in a.presets.split(",") if p]
        judged = a.term in gp12.FITS and a.parameters is None and MEASURED in rung_names
        presets = rungs(rung_names, a.parameters or PARAMETERS, a.presets_file, _fit_link(a.term) if judged else None)
        names = [graph_name(p) for p in a.graph_file]
        if len(set(names)) != len(names):
            raise LadderError(f"two graph files share a name: {', '.join(map(str, a.graph_file))}")
        graphs = {}
        for name, path in zip(names, a.graph_file, strict=True):
            try:
                graphs[name] = (path, gp.load_graph(path))
            except gp.GraphPredictError as e:
                raise LadderError(str(e)) from None
        started = time.monotonic()
        if a.term in gp12.FITS:
            table = ladder_judged(graphs, presets, variants, a.root, log=log, term=a.term)
        else:
            table = ladder(graphs, presets, variants, a.root, log=log)
    except LadderError as e:
        print(f"model.link_ladder: error: {e}", file=sys.stderr)
        return 2
    write_csv(table, a.out)
    done = table[table["refused"] == ""]
    log(
        f"{a.out}: {len(done)} predictions ({done[['graph', 'algorithm', 'variant']].drop_duplicates().shape[0]} "
        f"cells x {len(presets)} rungs), {int((table['refused'] != '').sum())} refused, "
        f"{time.monotonic() - started:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
