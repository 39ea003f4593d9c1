"""A traversal's time from a graph file with the GPU-work term the registered held-out validations judged (issue 24;
docs/predictor.md, "Prediction from the graph"): term v12 (model/gpu_work_v12.py: v8's floor and v4's zero-copy link
terms with a cost per list), fitted exactly as held-out validation v14 fitted it, on its train cells
(TERM_ARCHIVE: the train graphs' cells measured on an H200, their archived workloads, that call's link and L2); or
(`term="v16"`) term v16 (model/gpu_work_v16.py: v12 with Jacobi PageRank's critical path), fitted exactly as held-out
validation v16 fitted it (archive/holdout-v16-h200-2026-11-29, its passes packed; the asked graph's critical-path
table made from its file).

The asked graph joins the judgement as one more held-out graph: the fit uses the train cells only, so its costs, and
the predictions of v14's own cells, are those of the archived judgement. Its workloads are derived on the CPU as
model.holdout derives them (one root for BFS and SSSP: --root, else the vertex of largest degree).

On another link (`link`: a preset's W, L, N_max), zero-copy rows are priced again: the fitted multipliers η, h, g on
that link's D / T(d), lists · L / N_max and serial steps · L. The floor stays the H200's GPU work. Only the fit's
own link has a held-out record.

    modes: zerocopy, device; variants: the registered ones (model/holdout_split.py VARIANTS); width: the file's
"""

from __future__ import annotations

import os
import tarfile
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.csr import describe
from emogi.passes_archive import packed_passes
from model import gpu_work_v4, gpu_work_v8, gpu_work_v12
from model import gpu_work_v16 as term_v16
from model import holdout_split_v13 as hs13
from model import holdout_split_v16 as hs16
from model.graph_predict import GraphPredictError, default_root, load_graph
from model.holdout import (
    CELL,
    V16_TERM,
    HoldoutError,
    cells_of,
    derive_job,
    judge,
    read_metadata,
    read_runs,
    read_workloads,
)
from model.l2_capacity import read_capacity
from model.presets import MEASURED, get_preset

ROOT = Path(__file__).resolve().parents[1]
TERM_ARCHIVE = ROOT / "archive" / "holdout-v14-h200-2026-11-28"
SESSION = TERM_ARCHIVE / "passes" / "p1" / "session"  # every pass holds the same train cells (model.holdout_passes)
MODES = hs13.MODES
VARIANTS = hs13.VARIANTS
V16_ARCHIVE = ROOT / "archive" / "holdout-v16-h200-2026-11-29"


@dataclass(frozen=True)
class Fit:
    """A judged term and the archive of the validation whose train cells fit it."""

    term: str
    archive: Path
    split: object  # its split module (v13's tables; v16 adds the critical path)

    @property
    def critical_path(self) -> bool:
        """Whether the split's term prices Jacobi PageRank's critical path (its graphs' critical.csv)."""
        return self.split in V16_TERM


FITS = {"v12": Fit("v12", TERM_ARCHIVE, hs13), "v16": Fit("v16", V16_ARCHIVE, hs16)}
SHOWN = ["algorithm", "variant", "mode", "edge_bytes", "root", "launches", "D_bytes", "d_bytes", "floor_ms",
         "transfer_ms", "chain_ms", "predicted_ms"]  # fmt: skip


def _quiet(*_args) -> None:
    pass


def _train(session=None, archive=None):
    """The train cells (v14's by default), their metadata and workloads, and the call's link parameters and L2
    capacity: pass 1's session (`session`, default SESSION) and the archive's workloads (default TERM_ARCHIVE)."""
    session, archive = session or SESSION, archive or TERM_ARCHIVE
    cells = cells_of(read_runs(session), _quiet, hs13)
    cells = cells[[hs13.split_of(g) == hs13.TRAIN for g in cells["graph"]]]
    widths = {g: set(w.astype(int)) for g, w in cells.groupby("graph")["edge_bytes"]}
    metas = read_metadata(session / "graphs", set(cells["graph"]), widths, hs13)
    workloads, launches = read_workloads(*(archive / "workloads" / g for g in sorted(widths)))
    params = get_preset(MEASURED, session / "parameters.json")
    return cells, metas, workloads, launches, params, read_capacity(session / "micro" / "l2.csv")


@contextmanager
def _pass1_session(fit: Fit):
    """The fit's pass 1 session folder: the archive's own, or unpacked from its passes.tgz to a temporary folder."""
    packed = packed_passes(fit.archive)
    if packed is None:
        yield fit.archive / "passes" / "p1" / "session"
        return
    with tempfile.TemporaryDirectory() as tmp, tarfile.open(packed) as t:
        t.extractall(tmp, members=[m for m in t.getmembers() if m.name.startswith("passes/p1/")], filter="data")
        yield Path(tmp) / "passes" / "p1" / "session"


def _train_of(fit: Fit):
    """_train for a fit, and the train graphs' critical-path tables (None for term v12)."""
    with _pass1_session(fit) as session:
        found = _train(session, fit.archive)
    if not fit.critical_path:
        return (*found, None)
    return (*found, term_v16.read_critical(*(fit.archive / "workloads" / g for g in sorted(set(found[0]["graph"])))))


def fit_link(term: str):
    """The fit's own link as the preset MEASURED: its pass 1 call's microbenchmark fit (parameters.json)."""
    if term not in FITS:
        raise GraphPredictError(f"no judged fit of term {term}: {', '.join(FITS)}")
    fit = FITS[term]
    with _pass1_session(fit) as session:
        link = get_preset(MEASURED, session / "parameters.json")
        where = f"{fit.archive.relative_to(ROOT)}/passes/p1/session"  # not the temporary folder it was read from
        return replace(link, source=link.source.replace(str(session), where))


def _asked_cells(name: str, algorithms, variants, width: int, root: int) -> pd.DataFrame:
    rows = [{"graph": name, "algorithm": a, "variant": v, "mode": m, "edge_bytes": width,
             "root": root if a in ("bfs", "sssp") else -1}
            for a in algorithms for v in variants.get(a, ()) for m in MODES]  # fmt: skip
    return pd.DataFrame(rows, columns=CELL).assign(measured_ms=np.nan, reps=0, gpu="", date="", commit="")


def _derive_asked(path: Path, name: str, cells: pd.DataFrame, width: int):
    """The asked graph's workloads and launches, as model.holdout derives a held-out graph's (with each asked
    Gauss-Seidel workload's Jacobi one, which its expected launches mix in: gpu_work_v4.JACOBI_OF), and the
    workloads the derivation refused: {(algorithm, variant): why}."""
    keys = set(cells[["algorithm", "variant", "root"]].itertuples(index=False, name=None))
    keys |= {(a, gpu_work_v4.JACOBI_OF[a, v], r) for a, v, r in keys if (a, v) in gpu_work_v4.JACOBI_OF}
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(path.resolve(), Path(tmp) / f"{name}.w{width}.csr")
        done = [derive_job(tmp, (name, a, v, r, width, (width,))) for a, v, r in sorted(keys)]
    workloads = pd.DataFrame([r for d in done for r in d[1]])
    why = workloads["refused"].fillna("") if "refused" in workloads else pd.Series("", index=workloads.index)
    refused = {(r.algorithm, r.variant): w for r, w in zip(workloads.itertuples(), why, strict=True) if w}
    return workloads[why == ""], pd.concat([d[0] for d in done], ignore_index=True), refused


def predictions(path, algorithms, root=None, meta=None, variant=None, link=None, term="v12") -> pd.DataFrame:
    """One row per algorithm, registered variant (or `variant` alone) and mode for the graph at `path`, at its
    own width, on the machine of the fit (the v14 train call's link, L2 and GPU-work costs), zero-copy on `link`'s
    link where given. What the derivation refused (e.g. CC on a directed graph) is left out and named in
    `attrs["refused"]`; GraphPredictError where nothing is left. `attrs["extrapolation"]`: a line where the graph's
    entries lie outside the train graphs' (extrapolation()), else empty."""
    table = on_links(path, algorithms, {"": link}, root, meta, variant, term=term)[""]
    out = table[SHOWN]
    out.attrs["refused"] = table.attrs["refused"]
    out.attrs["extrapolation"] = table.attrs["extrapolation"]
    return out


def on_links(path, algorithms, links: dict, root=None, meta=None, variant=None, variants=None, term="v12") -> dict:
    """predictions() on several links from one derivation and one judgement: name -> its table, for each
    `links` name -> Preset (None: the fit's own link). `variants` (algorithm -> variants, each registered) in
    place of `variant`; `term`: v12 (v14's fit) or v16 (v16's)."""
    if term not in FITS:
        raise GraphPredictError(f"no judged fit of term {term}: {', '.join(FITS)}")
    variants = {
        a: tuple((variants or {}).get(a) or ((variant,) if variant else VARIANTS.get(a, ()))) for a in algorithms
    }
    for a, mine in variants.items():
        if a not in VARIANTS or any(v not in VARIANTS[a] for v in mine):
            covered = ", ".join(f"{k} {'/'.join(v)}" for k, v in VARIANTS.items())
            raise GraphPredictError(f"term {term} covers {covered}; not {a} {'/'.join(mine)}".rstrip())
    path = Path(path)
    graph = load_graph(path, meta)
    name = f"asked-{path.stem}"
    width = int(graph.index_bytes)
    root = default_root(graph) if root is None else int(root)
    asked = _asked_cells(name, algorithms, variants, width, root)
    w_asked, l_asked, refused = _derive_asked(path, name, asked, width)
    asked = asked[[(a, v) not in refused for a, v in zip(asked["algorithm"], asked["variant"], strict=True)]]
    if asked.empty:
        raise GraphPredictError("; ".join(f"{a} {v}: {why}" for (a, v), why in refused.items()))
    critical = term_v16.critical_of({name: path}) if FITS[term].critical_path else None
    mine, costs, vertices, outside = _judged(name, asked, w_asked, l_asked, describe(graph), FITS[term], critical)
    expected = gpu_work_v4.expected(w_asked, l_asked, vertices)[:2]
    out = {}
    for key, link in links.items():
        t = mine if link is None else reprice(mine, *expected, costs, link, vertices)
        t = t.assign(root=t["root"].where(t["root"] >= 0).astype("Int64"))  # CC, PageRank: no root
        out[key] = t[[*SHOWN, "fidelity"]] if "fidelity" in t else t[SHOWN]
        out[key].attrs["refused"] = {f"{a} {v}": why for (a, v), why in refused.items()}  # e.g. CC, directed
        out[key].attrs["extrapolation"] = outside
    return out


def judge_asked(name: str, asked: pd.DataFrame, workloads: pd.DataFrame, launches: pd.DataFrame, info: dict):
    """The asked graph's cells (`asked`: measured_ms NaN) judged beside v14's train cells as one more held-out
    graph (`info`: its metadata, emogi.csr.describe), with its workloads and launches: its rows of the table, on
    the fit's own link (on_links reprices them on others)."""
    return _judged(name, asked, workloads, launches, info)[0]


def _judged(name: str, asked: pd.DataFrame, workloads: pd.DataFrame, launches: pd.DataFrame, info: dict,
            fit: Fit = FITS["v12"], critical=None):  # fmt: skip
    """judge_asked's rows, the fitted costs, every graph's V and extrapolation()'s line (`fit`: whose train cells;
    `critical`: term v16's critical-path table of the asked graph)."""
    try:
        cells, metas, w_train, l_train, params, capacity, c_train = _train_of(fit)
    except (HoldoutError, OSError, term_v16.CriticalError) as e:
        raise GraphPredictError(f"term {fit.term}'s train cells ({fit.archive.relative_to(ROOT)}): {e}") from None
    if c_train is not None:
        critical = pd.concat([c_train, critical], ignore_index=True)
    train = set(cells["graph"])
    vertices = {g: metas[g, 8]["num_vertices"] for g in train} | {name: info["num_vertices"]}
    nonisolated = {g: v - metas.get((g, 8), info)["isolated_vertices"] for g, v in vertices.items()}
    classes = {g: gpu_work_v8.degree_class(metas[g, 8]) for g in train} | {name: gpu_work_v8.degree_class(info)}
    table, costs = judge(
        pd.concat([cells, asked], ignore_index=True),
        pd.concat([w_train, workloads.reindex(columns=w_train.columns)], ignore_index=True),
        pd.concat([l_train, launches.reindex(columns=l_train.columns)], ignore_index=True),
        params, log=_quiet, sp=fit.split, vertices=vertices, capacity=capacity, nonisolated=nonisolated,
        classes=classes, split_of=lambda g: hs13.HELD_OUT if g == name else hs13.split_of(g), critical=critical,
    )  # fmt: skip
    entries = sorted(metas[g, 8]["num_edges"] for g in train)
    outside = extrapolation(info["num_edges"], entries[0], entries[-1], fit.term)
    return table[table["graph"] == name].reset_index(drop=True), costs, vertices, outside


def extrapolation(entries: int, lo: int, hi: int, term: str) -> str:
    """A line saying that a graph of `entries` lies outside the train graphs' [lo, hi] entries, or "" inside it."""
    if lo <= entries <= hi:
        return ""
    times = entries / hi if entries > hi else lo / entries
    side = "more" if entries > hi else "fewer"
    seen = (
        "; at 15x more, on kron23, term v16 predicted every cell too fast (device -16%, zero-copy -6% at the "
        "signed median: archive/probe-kron23-h200-2026-11-29)"
        if entries > hi
        else ""
    )
    return (
        f"{entries:,} entries, {times:.1f}x {side} than term {term}'s train graphs ({lo:,} to {hi:,}): "
        f"an extrapolation{seen}"
    )


def reprice(mine: pd.DataFrame, workloads, launches, costs: pd.DataFrame, link, vertices: dict) -> pd.DataFrame:
    """`mine`'s zero-copy rows on `link`, by gpu_work_v12's own rule (priced) with the fitted η, h, g
    (`workloads`, `launches`: as the GPU is expected to run them)."""
    t = mine.merge(workloads[[*gpu_work_v12.WORK, "requests"]], on=gpu_work_v12.WORK, how="left")
    fitted = costs[[*gpu_work_v12.GROUP, *gpu_work_v12.LINK_PARAMS]].drop_duplicates(gpu_work_v12.GROUP)
    return gpu_work_v12.priced(t, gpu_work_v12.link_features(t, launches, link, vertices), fitted)[mine.columns]
