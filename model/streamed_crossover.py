"""Issue 22's crossover, per pass: streamed against zero-copy as the active fraction of the lists varies, from the
per-pass logs of `emogi run --pass-log` (docs/kernels.md). Three things, each from the passes alone:

- **The model of a pass** (the figure's lines; docs/streamed.md, "fig_streamed_crossover").
  Zero-copy is the CXL paper's model as model.predict and model.graph_predict use it: t = D / T(d) + floor, with
  T(d) = min(S d, N_max d / L, W) (model.littles_law, the parameters of model.fit at the smallest measured
  footprint: model.predict's "sweep" rule). A pass log has no list boundaries, so D and d come from the graph's
  request shape (`request_shape`: the 32-byte sectors and requests a full sweep of the graph's lists takes,
  model.link_requests' rules, over the bytes of its entries) applied to the pass's active entries: D = amplification
  x active entries x entry bytes, d the full sweep's (the active lists taken to have the graph's mix of lengths).
  The floor is the fitted GPU-work term (model.gpu_work, max form) without its walk term (the longest active list
  is not in the log): a + b V + c N, N the active entries. Streamed is CF'17's pipeline (model.streamed.predict_ms:
  fill + sum of max(copy, compute) over the blocks a sweep launches, copies at the pinned link curve, a block's
  compute b V / n + c x its entries of the same fitted costs): every block launched ("every block", what the
  passes launch while activity is spread) or only the fraction x of them ("clustered", activity packed into as
  few blocks as it can be). Neither counts the work between passes (the marking kernel, the host's readback, the
  log's own count: a measured span less launch of 0.3-0.9 ms). The predicted crossover is the largest fraction at
  which zero-copy's pass costs as much as the every-block sweep: above it streaming wins.
- **The measured crossover**: the passes' spans per GiB of lists, their medians per mode in bins of the log
  fraction (BINS_PER_DECADE), and where streamed's median falls below zero-copy's, interpolated in log fraction
  between the two bins (the highest such change).
- **The oracle bound** (`bound_table`): per run pair (same graph, algorithm, variant, source and rep), the sum
  over the passes both runs have (paired by index) of min(zero-copy span, streamed span), a runtime that picks the
  faster mode per pass; and of min(zero-copy span, bytes copied / W_copy), a streamed pass that copies at the
  pinned peak and pays nothing else. Gauss-Seidel's updates race, so its two runs do not take the same passes:
  pairing by index is an approximation there, and the passes beyond the shorter run are left out (the `_all`
  columns keep them at their own mode's span).

    python -m model.streamed_crossover tables --archive archive/streamed-crossover-h100-2026-11-27 \\
        --link-archive archive/streamed-columns-h100-2026-11-27 --out-dir results/streamed
    python -m model.streamed_crossover shape --graph kron24=kron23.w8.csr --graph urand24=urand23.w8.csr \\
        --entry-bytes 4 --out request_shape.csv

`tables` writes crossover_passes.csv (every pass log, with the run log's V and block count), crossover_link.csv,
crossover_bound.csv and crossover_source.json; `shape` writes the request shape of each graph file. No GPU.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_bytes, write_csv
from emogi.streamed_runs import host_record, link_table, link_w
from model.littles_law import throughput_gbps
from model.streamed import LinkCurve, predict_ms, uniform_blocks

GIB = 2**30
PASS_COLUMNS = ["graph", "algorithm", "variant", "mode", "source", "rep", "pass", "active_entries", "list_entries"]
PASS_COLUMNS += ["entry_bytes", "launch_ms", "span_ms", "blocks", "copied_bytes"]
SHAPE_COLUMNS = ["graph", "file", "entry_bytes", "lists", "needed_bytes", "sectors", "requests"]
SHAPE_COLUMNS += ["amplification", "d_bytes"]
BOUND_KEYS = ["graph", "algorithm", "variant", "source", "rep"]
BINS_PER_DECADE = 8  # bins of the log fraction, a third of a factor 2 wide: coarser ones pool 0.3-1
WALK = "merged-aligned"  # every logged variant walks aligned warp steps (model.link_requests.ALIGNED_WALKS)
LOG_NAME = re.compile(r"crossover_(?P<algorithm>[a-z]+)_(?P<graph>\w+?)_w(?P<width>\d+)\.passes\.csv$")
VERTICES = re.compile(r"^graph \S+: V = (\d+), E = (\d+)", re.M)
PLACED = re.compile(r"placed streamed: (\d+) blocks of at most (\d+) entries", re.M)


class CrossoverError(ValueError):
    """Input the crossover cannot use; one line."""


# --- the inputs -------------------------------------------------------------------------------------------
def check_passes(passes: pd.DataFrame, where: str) -> pd.DataFrame:
    missing = [c for c in PASS_COLUMNS if c not in passes.columns]
    if missing:
        raise CrossoverError(f"{where} lacks {missing}: not an `emogi run --pass-log` CSV")
    return passes


def read_archive(archive: Path) -> pd.DataFrame:
    """Every crossover_<alg>_<graph>_w<width>.passes.csv of `archive`, each with the id width of its name
    (`edge_bytes`), and V (`vertices`) and the streamed blocks (`plan_blocks`) of its run's log, the .log beside it
    (`graph ...: V = ...` and `placed streamed: N blocks of at most M entries`)."""
    frames = []
    for path in sorted(Path(archive).glob("crossover_*.passes.csv")):
        name = LOG_NAME.search(path.name)
        if not name:
            raise CrossoverError(f"{path.name}: not named crossover_<algorithm>_<graph>_w<width>.passes.csv")
        log = path.with_name(path.name.replace(".passes.csv", ".log"))
        text = log.read_text() if log.is_file() else ""
        v, placed = VERTICES.search(text), PLACED.search(text)
        if v is None or placed is None:
            raise CrossoverError(f"{log}: no `graph ...: V =` or `placed streamed:` line (the run's log)")
        p = check_passes(pd.read_csv(path), str(path))
        frames.append(p.assign(vertices=int(v[1]), plan_blocks=int(placed[1]), edge_bytes=int(name["width"])))
    if not frames:
        raise CrossoverError(f"{archive}: no crossover_*.passes.csv")
    return pd.concat(frames, ignore_index=True)


def request_shape(offsets, entry_bytes: int) -> dict:
    """Sectors and requests of reading every list once (aligned warp steps, model.link_requests), over the bytes."""
    from model.link_requests import SECTOR, list_requests

    off = np.asarray(offsets, dtype=np.int64)
    requests, sectors = list_requests(WALK, off[:-1], off[1:], entry_bytes)
    needed = int(off[-1] - off[0]) * entry_bytes
    return {
        "entry_bytes": entry_bytes,
        "lists": len(off) - 1,
        "needed_bytes": needed,
        "sectors": sectors,
        "requests": requests,
        "amplification": SECTOR * sectors / needed,
        "d_bytes": SECTOR * sectors / requests,
    }


def gpu_costs(costs: pd.DataFrame, algorithm: str, variant: str, id_bytes: int) -> tuple[float, ...]:
    """(a, b, c) of model.gpu_work's max form for the kernel (ms per launch, per vertex, per entry)."""
    row = costs[(costs["algorithm"] == algorithm) & (costs["variant"] == variant) & (costs["edge_bytes"] == id_bytes)]
    row = row[row["form"] == "max"] if "form" in row else row
    if row.empty:
        raise CrossoverError(f"the GPU-work costs have no row for {algorithm}/{variant} at {id_bytes} bytes")
    return tuple(float(row[k].iloc[0]) for k in ("a_ms", "b_ms", "c_ms"))


# --- the model of a pass ----------------------------------------------------------------------------------
def zerocopy_pass_ms(active_entries, entry_bytes, vertices, shape: dict, link_params, cost) -> np.ndarray:
    """D / T(d) + floor for passes with `active_entries` (D = amplification x bytes, d the graph's)."""
    a, b, c = cost
    n = np.asarray(active_entries, dtype=float)
    D = shape["amplification"] * n * entry_bytes
    transfer = D / (float(throughput_gbps(shape["d_bytes"], link_params)) * 1e6)
    return transfer + a + b * vertices + c * n


def streamed_pass_ms(fraction: float, lists_bytes, block_bytes, entry_bytes, vertices, link: LinkCurve, cost):
    """CF'17's sweep over the ceil(fraction n) blocks it launches (model.streamed.predict_ms, 2 buffers)."""
    a, b, c = cost
    blocks = uniform_blocks(lists_bytes, block_bytes)
    per_block = a + b * vertices / len(blocks)
    return predict_ms(blocks, entry_bytes, link, 1.0 / c, buffers=2, per_block_ms=per_block, active=[fraction])


def predicted_crossover(fractions, zerocopy_ms, streamed_ms) -> float:
    """The largest fraction where zero-copy's line meets the streamed one (log-interpolated); nan where zero-copy
    is faster at every fraction, 0 where streaming is faster at every one."""
    f, diff = np.asarray(fractions, float), np.asarray(zerocopy_ms, float) - np.asarray(streamed_ms, float)
    if diff[-1] <= 0:
        return math.nan
    if diff[0] > 0:
        return 0.0
    i = int(np.nonzero(diff <= 0)[0][-1])  # last fraction where zero-copy is no slower
    x0, x1 = math.log(f[i]), math.log(f[i + 1])
    return math.exp(x0 + (x1 - x0) * diff[i] / (diff[i] - diff[i + 1]))


def measured_crossover(points: pd.DataFrame) -> float:
    """points: active_fraction, mode, ms_per_gib. The highest change, going up in fraction, from zero-copy's
    binned median at most streamed's to above it, interpolated in log fraction; nan where there is none."""
    p = points[points["active_fraction"] > 0]
    if p.empty:
        return math.nan
    lo = math.floor(math.log10(p["active_fraction"].min()) * BINS_PER_DECADE)
    edges = 10.0 ** (np.arange(lo, 1) / BINS_PER_DECADE)
    edges[-1] = 1.0 + 1e-9
    where = np.searchsorted(edges, p["active_fraction"], side="right")
    med = p.assign(bin=where).groupby(["bin", "mode"])["ms_per_gib"].median().unstack()
    if not {"zerocopy", "streamed"} <= set(med.columns):
        return math.nan
    med = med.dropna(subset=["zerocopy", "streamed"])
    centre = np.sqrt(edges[np.maximum(med.index - 1, 0)] * edges[np.minimum(med.index, len(edges) - 1)])
    diff = (med["zerocopy"] - med["streamed"]).to_numpy()
    ups = [i for i in range(len(diff) - 1) if diff[i] <= 0 < diff[i + 1]]
    if not ups:
        return math.nan
    i = ups[-1]
    x0, x1 = math.log(centre[i]), math.log(centre[i + 1])
    return math.exp(x0 + (x1 - x0) * diff[i] / (diff[i] - diff[i + 1]))


# --- the oracle bound -------------------------------------------------------------------------------------
def bound_table(passes: pd.DataFrame, w_copy_gbps: float) -> pd.DataFrame:
    """One row per run pair: its passes, the sums of spans per mode, and the per-pass oracle and ideal sums."""
    check_passes(passes, "the pass table")
    rows = []
    keyed = passes.assign(source=passes["source"].fillna(-1).astype("int64"))
    for key, p in keyed.groupby(BOUND_KEYS, sort=True):
        z = p[p["mode"] == "zerocopy"].set_index("pass")["span_ms"]
        s = p[p["mode"] == "streamed"].set_index("pass")
        if z.empty or s.empty:
            continue
        ideal = s["copied_bytes"].astype(float) / (w_copy_gbps * 1e6)
        both = z.index.intersection(s.index)

        def pick(zz, ss):
            return float(pd.concat([zz, ss], axis=1).min(axis=1).sum())

        row = dict(zip(BOUND_KEYS, key))
        row["source"] = None if row["source"] == -1 else row["source"]
        row |= {
            "passes_zerocopy": len(z),
            "passes_streamed": len(s),
            "passes_paired": len(both),
            "zerocopy_ms": float(z.sum()),
            "streamed_ms": float(s["span_ms"].sum()),
            "oracle_ms": pick(z.loc[both], s["span_ms"].loc[both]),
            "ideal_ms": pick(z.loc[both], ideal.loc[both]),
            "oracle_all_ms": pick(z, s["span_ms"]),
            "ideal_all_ms": pick(z, ideal),
            "streamed_faster_passes": int((s["span_ms"].loc[both] < z.loc[both]).sum()),
            "w_copy_gbps": w_copy_gbps,
        }
        rows.append(row)
    return pd.DataFrame(rows)


# --- the command line -------------------------------------------------------------------------------------
def source_record(archive: Path, link_archive: Path) -> dict:
    """The crossover archive's host record; a field its host.txt lacks (the commit) from the link archive's,
    the same device call."""
    host, other = host_record(archive / "host.txt"), host_record(link_archive / "host.txt")
    rec = {k: host[k] or other[k] for k in host}
    return {"source": "archive", "archive_id": archive.name, "link_archive_id": link_archive.name, **rec}


def tables(archive: Path, link_archive: Path, out_dir: Path) -> pd.DataFrame:
    passes = read_archive(archive)
    link = link_table(link_archive)
    bound = bound_table(passes, link_w(link))
    write_csv(passes, out_dir / "crossover_passes.csv")
    write_csv(link, out_dir / "crossover_link.csv")
    write_csv(bound, out_dir / "crossover_bound.csv")
    write_bytes(json.dumps(source_record(archive, link_archive), indent=1).encode(), out_dir / "crossover_source.json")
    return bound


def named_graph(spec: str) -> tuple[str, str]:
    """A --graph NAME=FILE argument as (NAME, FILE)."""
    name, _, path = spec.partition("=")
    if not path:
        raise CrossoverError(f"--graph {spec!r}: expected NAME=FILE")
    return name, path


def shapes(graphs: list[str], entry_bytes: int) -> pd.DataFrame:
    from model.gpu_features import read_offsets

    rows = []
    for name, path in map(named_graph, graphs):
        rows.append({"graph": name, "file": Path(path).name, **request_shape(read_offsets(path), entry_bytes)})
    return pd.DataFrame(rows, columns=SHAPE_COLUMNS)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m model.streamed_crossover", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tables", help="pass table, link, oracle bound and source record of an archive")
    t.add_argument("--archive", type=Path, required=True)
    t.add_argument("--link-archive", type=Path, required=True, help="the same call's linkbw.csv and host.txt")
    t.add_argument("--out-dir", type=Path, required=True)
    s = sub.add_parser("shape", help="request shape (sector amplification, d) of full sweeps of graph files")
    s.add_argument("--graph", action="append", required=True, help="NAME=FILE (a .csr)")
    s.add_argument("--entry-bytes", type=int, default=4)
    s.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    try:
        if a.command == "tables":
            bound = tables(a.archive, a.link_archive, a.out_dir)
            print(bound.to_string(index=False))
        else:
            write_csv(shapes(a.graph, a.entry_bytes), a.out)
    except (OSError, CrossoverError, KeyError, ValueError) as e:
        print(f"model.streamed_crossover: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
