"""The CPU-against-GPU study's numbers (issue 23), read from its archive folder (archive/cpu-gpu-<gpu>-<date>/), shared
by its figure (figures/fig_cpu_gpu.py), its report section and its claims rows. docs/cpu.md, "The study's figure
and tables", says what each column means.

The folder's files (each .csv or .csv.gz; any may be absent, and the rows it would give are then absent):
  machine.json, membench.csv                        emogi_cpu machine / membench
  pagerank_<g>.csv, pagerank_delta_<g>.csv, cc_<g>.csv   emogi_cpu pagerank (Jacobi, delta) and cc, unblocked
                                                    and blocked
  pagerank_gap_<g>.csv, pagerank_gap_gs_<g>.csv     emogi_cpu pagerank under GAP's stopping rule (--stop
                                                    total-change): Jacobi, Gauss-Seidel; not blocking's files
  peer_<g>.csv                                      python -m emogi.cpu_peer
  gpu_<g>.csv                                       emogi run rows (the apps table's columns, emogi/schema.py)
  provenance.json (or host.txt)                     gpu, driver, cuda, commit, date (host.txt: `date -u`,
                                                    nvidia-smi and `commit <hash>`, as the device script wrote)
Definitions:
  time         GPU and peer: mean over roots of the per-root median (BFS, SSSP; one row for CC and PageRank);
               emogi_cpu: its median_ms (a run to the tolerance; runs of fixed rounds are left out of the side by
               side)
  edges/s      the graph's directed edges (E, the file's count) / time: one definition for every source
  ours         the fastest variant measured in that mode (any variant, Merged+Aligned included)
  blocking     speedup = unblocked ms per round / blocked ms per round (rounds: iterations), per segment count;
               auto_segments: the count emogi_cpu's `--segments auto` picks (4-byte vertex data over half the LLC,
               kernels/src/cpu/segments.cpp)
  GAP's rule   emogi_cpu PageRank stopped as GAP's (total change of the normalised scores < 1e-4): its median ms
               over GAP's reference time on the same graph (over_gap), and the ms per round GAP's time allows at
               the run's rounds (gap_ms_per_round)
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from figures.inputs import FigureDataError

REPO = Path(__file__).resolve().parents[1]
ARCHIVE_ROOT = REPO / "archive"
PREFIX = "cpu-gpu-"
RECORDS = ("provenance.json", "source.json")  # the folder's provenance record, first found
GAP_REFERENCE = REPO / "paper" / "gap_reference_h100.yaml"
TABLE53 = REPO / "paper" / "graphit_table53.yaml"
SIDE_GRAPHS = ("kron24", "urand24")
SIDE_ALGORITHMS = ("bfs", "sssp", "cc", "pagerank")
EMOGI_VARIANT = "merged-aligned"
GPU_WIDTH = 4
# Each bar of the side by side: (key, regime, legend label). Regimes: where the graph is and who reads it.
BARS = (
    ("gap", "reference", "GAP reference, 16 cores (FACTS.md, 2026-11-25)"),
    ("peer", "host-cpu", "CPU peer: SuiteSparse:GraphBLAS, all cores"),
    ("cpu-unblocked", "host-cpu", "ours CPU: emogi_cpu unblocked pull"),
    ("cpu-blocked", "host-cpu", "ours CPU: emogi_cpu cache-blocked pull"),
    ("emogi-zerocopy", "gpu-zerocopy", "EMOGI (Merged+Aligned), GPU zero-copy"),
    ("ours-zerocopy", "gpu-zerocopy", "ours fastest, GPU zero-copy"),
    ("emogi-device", "gpu-device", "EMOGI (Merged+Aligned), GPU memory"),
    ("ours-device", "gpu-device", "ours fastest, GPU memory"),
)
BAR_REGIME = {k: r for k, r, _ in BARS}
BAR_LABEL = {k: label for k, _, label in BARS}
REGIME_TEXT = {
    "reference": "CPU, host memory (another day)",
    "host-cpu": "CPU, host memory",
    "gpu-zerocopy": "GPU over the host link",
    "gpu-device": "GPU, edge list in GPU memory",
}
CPU_BARS = ("gap", "peer", "cpu-unblocked", "cpu-blocked")
LINK_BARS = ("emogi-zerocopy", "ours-zerocopy")
BLOCKING_FILES = {"pagerank": "pagerank", "pagerank-delta": "pagerank_delta", "cc": "cc"}  # algorithm -> file stem
VERTEX_BYTES = 4  # per vertex read at random: float contributions (PageRank) or uint32 labels (CC)
AUTO_LLC_FRACTION = 0.5  # emogi_cpu --llc-fraction's default: a segment's source data fill half the LLC
GAP_RULE = {"pagerank_gap": "pagerank", "pagerank_gap_gs": "pagerank"}  # file stem prefix -> algorithm


# --- the folder ---------------------------------------------------------------------------------------------
def find_archive(which: str = "latest", root: Path = ARCHIVE_ROOT) -> Path:
    """One archive folder: a path, a folder name under `root`, or `latest` (the newest cpu-gpu-* by name, whose
    date it carries)."""
    if Path(which).is_dir():
        return Path(which)
    found = sorted(p for p in Path(root).glob(f"{PREFIX}*") if p.is_dir())
    if not found:
        raise FigureDataError(f"no {PREFIX}* folder under {root}: the CPU study has not been archived")
    if which == "latest":
        return found[-1]
    for p in found:
        if p.name == which:
            return p
    raise FigureDataError(f"archive '{which}' not under {root}; there are: {', '.join(p.name for p in found)}")


def find_archives(which: str = "latest", root: Path = ARCHIVE_ROOT) -> list[Path]:
    """The folders a comma-separated list names (each as find_archive takes it), in order: a file is read from the
    first that has it, so a later session's folder (kron27, say) can add to an earlier one's. `latest`: the newest
    folder with a side by side (gpu_* or peer_* files; its provenance labels the figure), then every other
    cpu-gpu-* folder, newest first."""
    if str(which).strip() != "latest":
        return [find_archive(w.strip(), root) for w in str(which).split(",") if w.strip()]
    found = sorted((p for p in Path(root).glob(f"{PREFIX}*") if p.is_dir()), reverse=True)
    if not found:
        find_archive("latest", root)  # raises, saying so
    sides = [p for p in found if any(p.glob("gpu_*.csv*")) or any(p.glob("peer_*.csv*"))]
    first = sides[0] if sides else found[0]
    return [first, *(p for p in found if p != first)]


def _folders(folder) -> list[Path]:
    return [Path(f) for f in folder] if isinstance(folder, (list, tuple)) else [Path(folder)]


def source(folder) -> dict:
    """The (first) folder's provenance as figures.inputs wants a source record (source, gpu, date) and the rest:
    its provenance.json (or source.json), else what its host.txt recorded (`date -u`, nvidia-smi, `commit <hash>`);
    `archive` names every folder."""
    folders = _folders(folder)
    folder, names = folders[0], " + ".join(f.name for f in folders)
    for name in RECORDS:
        if (folder / name).is_file():
            record = json.loads((folder / name).read_text())
            missing = [k for k in ("gpu", "date") if not record.get(k)]
            if missing:
                raise FigureDataError(f"{folder / name} lacks {missing}")
            return {**record, "source": "archive", "archive": names}
    if (folder / "host.txt").is_file():
        return {**host_record(folder / "host.txt"), "source": "archive", "archive": names}
    raise FigureDataError(f"{folder} has no provenance record ({', '.join(RECORDS)} or host.txt)")


def host_record(path: Path) -> dict:
    """gpu, driver, cuda, commit and date from a host.txt: `date -u`, then nvidia-smi, then `commit <hash>`."""
    text = Path(path).read_text()
    found = {
        "gpu": re.search(r"^\|\s+\d+\s+(NVIDIA .+?)\s{2,}\S+\s+\|", text, re.M),
        "driver": re.search(r"Driver Version:\s*(\S+)", text),
        "cuda": re.search(r"CUDA Version:\s*(\S+)", text),
        "commit": re.search(r"^commit (\S+)", text, re.M),
    }
    record = {k: m.group(1).strip() for k, m in found.items() if m}
    first = text.splitlines()[0].strip() if text.strip() else ""
    for fmt in ("%a %b %d %I:%M:%S %p %Z %Y", "%a %b %d %H:%M:%S %Z %Y"):  # `date -u` in two locales
        try:
            record["date"] = datetime.strptime(first, fmt).strftime("%Y-%m-%dT%H:%M:%SZ")
            break
        except ValueError:
            continue
    missing = [k for k in ("gpu", "date") if k not in record]
    if missing:
        raise FigureDataError(f"{path} does not say the {' or '.join(missing)} (date -u first, then nvidia-smi)")
    return {**record, "record": path.name}


def _find(folder, name_stems) -> Path | None:
    for f in _folders(folder):
        for name in name_stems:
            if (f / name).is_file():
                return f / name
    return None


def read(folder, stem: str) -> pd.DataFrame | None:
    """<stem>.csv or <stem>.csv.gz from the first folder that has it; None when none has or it has no rows."""
    path = _find(folder, (f"{stem}.csv", f"{stem}.csv.gz"))
    frame = pd.read_csv(path) if path is not None else None
    return frame if frame is not None and len(frame) else None


def machine(folder) -> dict:
    path = _find(folder, ("machine.json",))
    return json.loads(path.read_text()) if path is not None else {}


# --- the side by side ---------------------------------------------------------------------------------------
def _per_root(frame: pd.DataFrame, by: list[str], column: str) -> pd.DataFrame:
    """Mean over roots of the per-root median of `column` (an empty root: one group)."""
    f = frame.assign(root=pd.to_numeric(frame["root"], errors="coerce").fillna(-1))
    med = f.groupby([*by, "root"], as_index=False)[column].median()
    return med.groupby(by, as_index=False)[column].mean()


def _row(graph, algorithm, bar, time_ms, detail, edges) -> dict:
    rate = edges / (time_ms / 1e3) if edges and time_ms > 0 else np.nan
    return dict(part="side", graph=graph, algorithm=algorithm, bar=bar, regime=BAR_REGIME[bar], detail=detail,
                time_ms=float(time_ms), edges=edges, edges_per_s=rate)  # fmt: skip


def _edges(folder, graph: str) -> float:
    """The graph's E (the file's directed entries), from the CPU tools' rows."""
    for stem in (f"peer_{graph}", f"pagerank_{graph}", f"cc_{graph}"):
        t = read(folder, stem)
        if t is not None and "edges" in t.columns:
            return float(t["edges"].iloc[0])
    return np.nan


def gpu_rows(gpu: pd.DataFrame, graph: str, edges: float) -> list[dict]:
    """EMOGI's kernel and our fastest variant, zero-copy and GPU memory, at 4-byte ids (else the narrowest)."""
    width = GPU_WIDTH if (gpu["edge_bytes"] == GPU_WIDTH).any() else gpu["edge_bytes"].min()
    g = gpu[(gpu["edge_bytes"] == width) & gpu["mode"].isin(["zerocopy", "device"])]
    if "max_warps" in g.columns:
        g = g[g["max_warps"].fillna(0) == 0]  # the default launch only
    t = _per_root(g, ["algorithm", "variant", "mode"], "time_ms")
    rows = []
    for (a, mode), r in t.groupby(["algorithm", "mode"]):
        emogi = r[r["variant"] == EMOGI_VARIANT]
        if len(emogi):
            rows.append(_row(graph, a, f"emogi-{mode}", emogi["time_ms"].iloc[0], EMOGI_VARIANT, edges))
        best = r.loc[r["time_ms"].idxmin()]
        rows.append(_row(graph, a, f"ours-{mode}", best["time_ms"], best["variant"], edges))
    return rows


def peer_rows(peer: pd.DataFrame, graph: str) -> list[dict]:
    """The peer with the most threads (all cores), per algorithm."""
    p = peer[peer["threads"] == peer["threads"].max()]
    t = _per_root(p, ["algorithm"], "median_ms")
    edges = float(p["edges"].iloc[0])
    first = p.iloc[0]
    checks = p.groupby("algorithm")["check"].agg(lambda c: ",".join(sorted(set(map(str, c)))))
    return [
        _row(graph, r.algorithm, "peer", r.median_ms,
             f"{first['library']} {first['version']}, {first['threads']} threads, check {checks[r.algorithm]}", edges)
        for r in t.itertuples()
    ]  # fmt: skip


def cpu_kernel_rows(frame: pd.DataFrame, graph: str, algorithm: str) -> list[dict]:
    """emogi_cpu's unblocked run and its fastest blocked run, when run to the tolerance (verified)."""
    f = frame[frame["verified"].astype(str) == "yes"]
    if "form" in f.columns:
        f = f[f["form"] == "jacobi"]
    rows = []
    for kernel in ("unblocked", "blocked"):
        k = f[f["kernel"] == kernel]
        if len(k):
            best = k.loc[k["median_ms"].idxmin()]
            detail = f"{int(best['iterations'])} rounds" + (
                f", {int(best['segments'])} segments" if kernel == "blocked" else ""
            )
            rows.append(_row(graph, algorithm, f"cpu-{kernel}", best["median_ms"], detail, float(best["edges"])))
    return rows


def gap_rows(gap: dict, graph: str, edges: float) -> list[dict]:
    return [
        _row(graph, a, "gap", entry[graph], entry["kernel"], edges)
        for a, entry in gap["time_ms"].items()
        if graph in entry
    ]


def load_gap(path: Path = GAP_REFERENCE) -> dict:
    return yaml.safe_load(Path(path).read_text())


def side_by_side(folder, gap: dict | None) -> pd.DataFrame:
    """One row per (graph, algorithm, bar) for the graphs of SIDE_GRAPHS that the folder has GPU or peer rows of."""
    rows = []
    for graph in SIDE_GRAPHS:
        gpu, peer = read(folder, f"gpu_{graph}"), read(folder, f"peer_{graph}")
        if gpu is None and peer is None:
            continue
        edges = _edges(folder, graph)
        if gap is not None:
            rows += gap_rows(gap, graph, edges)
        if peer is not None:
            rows += peer_rows(peer, graph)
        for algorithm in ("pagerank", "cc"):
            t = read(folder, f"{algorithm}_{graph}")
            if t is not None:
                rows += cpu_kernel_rows(t, graph, algorithm)
        if gpu is not None:
            rows += gpu_rows(gpu, graph, edges)
    out = pd.DataFrame(rows)
    if out.empty:
        where = ", ".join(str(f) for f in _folders(folder))
        raise FigureDataError(f"{where}: neither gpu_<graph>.csv nor peer_<graph>.csv for {SIDE_GRAPHS}")
    order = {b: i for i, (b, _, _) in enumerate(BARS)}
    algo = {a: i for i, a in enumerate(SIDE_ALGORITHMS)}
    return out.sort_values(["graph", "algorithm", "bar"], key=lambda s: s.map(algo) if s.name == "algorithm"
                           else s.map(order) if s.name == "bar" else s).reset_index(drop=True)  # fmt: skip


def winners(side: pd.DataFrame) -> pd.DataFrame:
    """Per (graph, algorithm): the fastest CPU bar (`cpu_*`; of this device call only: `call_*`, the GAP figures
    left out) and the fastest GPU-over-the-link bar (`link_*`), and CPU time / GPU zero-copy time: `link_over_cpu`,
    `link_over_call`, `link_over_peer`, `emogi_over_cpu` (EMOGI's kernel); > 1: the GPU over the link wins by it."""
    rows = []
    for (g, a), r in side.groupby(["graph", "algorithm"], sort=False):
        row = dict(graph=g, algorithm=a)
        for key, bars in (("cpu", CPU_BARS), ("call", CPU_BARS[1:]), ("link", LINK_BARS)):
            sel = r[r["bar"].isin(bars)]
            if len(sel):
                best = sel.loc[sel["time_ms"].idxmin()]
                row.update({f"{key}_bar": best["bar"], f"{key}_ms": best["time_ms"], f"{key}_detail": best["detail"]})
        for key, bar in (("peer", "peer"), ("emogi", "emogi-zerocopy")):
            sel = r[r["bar"] == bar]["time_ms"]
            if len(sel):
                row[f"{key}_ms"] = sel.iloc[0]
        link = row.get("link_ms", np.nan)
        for name, cpu in (("link_over_cpu", "cpu_ms"), ("link_over_call", "call_ms"), ("link_over_peer", "peer_ms")):
            row[name] = row.get(cpu, np.nan) / link
        row["emogi_over_cpu"] = row.get("cpu_ms", np.nan) / row.get("emogi_ms", np.nan)
        rows.append(row)
    return pd.DataFrame(rows)


# --- cache blocking and the memory micro-benchmark ------------------------------------------------------------
def blocking(folder) -> pd.DataFrame:
    """One row per blocked run of emogi_cpu: its speedup per round over the unblocked run of the same file
    (`archive`: the folder it came from)."""
    rows = []
    paths = {}
    for f in reversed(_folders(folder)):  # the first folder's file wins
        paths.update({p.name.split(".csv")[0]: p for p in f.glob("*.csv*")})
    for path in sorted(paths.values(), key=lambda p: p.name):
        m = re.fullmatch(r"(pagerank_delta|pagerank|cc)_(?!gap_)(\w+?)\.csv(\.gz)?", path.name)
        if not m:
            continue
        algorithm = {v: k for k, v in BLOCKING_FILES.items()}[m.group(1)]
        t = read(path.parent, path.name.split(".csv")[0])
        if t is None or not (t["kernel"] == "unblocked").any():
            continue
        per_round = t["median_ms"] / t["iterations"]
        base = per_round[t["kernel"] == "unblocked"].iloc[0]
        for i, r in t[t["kernel"] == "blocked"].iterrows():
            vertex_bytes = VERTEX_BYTES * float(r["vertices"])
            llc = float(r.get("llc_bytes", np.nan))
            auto = max(1, math.ceil(vertex_bytes / (llc * AUTO_LLC_FRACTION))) if llc > 0 else np.nan
            rows.append(dict(part="blocking", archive=path.parent.name, graph=m.group(2), algorithm=algorithm,
                             bar="cpu-blocked", regime="host-cpu", segments=int(r["segments"]),
                             duplication=r["duplication"], iterations=int(r["iterations"]), verified=r["verified"],
                             time_ms=r["median_ms"],
                             ms_per_round=per_round[i], unblocked_ms_per_round=base, speedup=base / per_round[i],
                             vertex_bytes=vertex_bytes, llc_bytes=r.get("llc_bytes", np.nan),
                             vertex_over_llc=vertex_bytes / r.get("llc_bytes", np.nan),
                             auto_segments=auto))  # fmt: skip
    return pd.DataFrame(rows)


def gap_rule(folder, gap: dict | None) -> pd.DataFrame:
    """One row per emogi_cpu PageRank run under GAP's stopping rule (pagerank_gap[_gs]_<graph>.csv), beside GAP's
    reference time of the same graph where `gap` has it."""
    rows = []
    paths = {}
    for f in reversed(_folders(folder)):  # the first folder's file wins
        paths.update({p.name.split(".csv")[0]: p for p in f.glob("pagerank_gap_*.csv*")})
    for stem, path in sorted(paths.items()):
        graph = re.sub(r"^pagerank_gap_(gs_)?", "", stem)
        ref = (gap or {}).get("time_ms", {}).get("pagerank", {}).get(graph, np.nan)
        for r in pd.read_csv(path).itertuples():
            seg = int(r.segments) if r.kernel == "blocked" and pd.notna(r.segments) else np.nan
            start = getattr(r, "start", "zero")  # runs before --start began from zero
            rows.append(dict(part="gap-rule", archive=path.parent.name, graph=graph, algorithm="pagerank",
                             bar=f"cpu-{r.kernel}", regime="host-cpu", form=r.form, kernel=r.kernel, segments=seg,
                             start=start if isinstance(start, str) else "zero",
                             iterations=int(r.iterations), verified=r.verified, stop=r.stop, epsilon=r.epsilon,
                             criterion=r.criterion, l1_to_reference=r.l1_to_reference, time_ms=r.median_ms,
                             ms_per_round=r.median_ms / r.iterations, gap_ms=ref, over_gap=r.median_ms / ref,
                             gap_ms_per_round=ref / r.iterations))  # fmt: skip
    return pd.DataFrame(rows)


def membench(folder) -> pd.DataFrame:
    """Per thread count: sequential and random seconds and their ratio; `threads` says 'all' for the most."""
    t = read(folder, "membench")
    if t is None:
        return pd.DataFrame()
    numa = machine(folder).get("numa_nodes", np.nan)
    most = t["pass_threads"].max()
    rows = []
    for n, r in t.groupby("pass_threads"):
        s = r.set_index("pattern")
        if not {"sequential", "random"} <= set(s.index):
            continue
        rows.append(dict(part="membench", regime="host-cpu", pass_threads=int(n), threads="all" if n == most else
                         str(int(n)), array_bytes=s.loc["sequential", "array_bytes"],
                         sequential_s=s.loc["sequential", "seconds"], random_s=s.loc["random", "seconds"],
                         random_over_sequential=s.loc["random", "seconds"] / s.loc["sequential", "seconds"],
                         numa_nodes=numa))  # fmt: skip
    return pd.DataFrame(rows)


# --- the thesis' Table 5.3 ----------------------------------------------------------------------------------
def table53(path: Path = TABLE53) -> pd.DataFrame:
    """The thesis' Table 5.3 as rows (framework, application, graph, seconds), from its quoted lines."""
    rows = []
    for block in yaml.safe_load(Path(path).read_text())["blocks"]:
        header, graphs, *frameworks = (line.split("\t")[1:] for line in block)
        apps = [(i, a) for i, a in enumerate(header) if a]
        names = [line.split("\t")[0] for line in block[2:]]
        for name, cells in zip(names, frameworks):
            for i, g in enumerate(graphs):
                app = [a for j, a in apps if j <= i][-1]
                value = re.sub(r"</?b>", "", cells[i]) if i < len(cells) else ""
                if g and value:
                    rows.append(dict(framework=name, application=app, graph=g, seconds=float(value)))
    return pd.DataFrame(rows)
