"""Streamed transfers' numbers (CF'17, issue 22), shared by fig_streamed_spmv, fig_streamed_pagerank and the
report's CF'17 section, from the `streamed` table (emogi/streamed_runs.py), its session's link table and, when
measured, the CPU SpMV of the same host (emogi.cpu_peer's rows).

Definitions:
  time        per (graph, algorithm, variant, mode, block) = median over reps; min and max beside it
  GB/s        list bytes of one sweep (edges x entry bytes) / time: SpMV's throughput over the lists
  of W        streamed: bytes copied / time / W, W = max over sizes of the pinned host-to-device median
  predicted   CF'17's pipeline (model/streamed.py): uniform blocks of the block size over the list bytes, copies at
              the link curve of the same session, kernels at the device-mode rate of the same graph and kernel,
              the run's sweeps and buffers (under --stream-skip, each sweep's blocks launched as the log counts
              them: model.streamed's active fractions); per rep, then the median. error = predicted / measured - 1
  skip        --stream-skip of a streamed run (on: blocks without an active vertex are neither copied nor launched;
              off, and runs from before the option); empty for zero-copy and device
  layout      --stream-layout of a streamed run: rows (vertex ranges; runs from before the option) or columns
              (CF'17's column blocks, SpMV); empty for zero-copy and device. The model of a columns run adds to
              each block's copy its share of the run's row index and x slices: bytes copied per sweep - list bytes
              (a count of the layout, not a timing: the column layout copies no alignment slack)
  best        the block size of least measured (predicted) time per graph, algorithm and variant
  over CPU    the CPU's time (fastest thread count of GraphBLAS mxv, median over reps) / the GPU's time
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from emogi.schema import WEIGHT_BYTES
from figures.inputs import FigureDataError
from model.streamed import LinkCurve, device_rate, predict_ms, uniform_blocks

KEYS = ["graph", "algorithm", "variant", "edge_bytes", "mode", "block_bytes", "skip", "layout"]
MODES = ("streamed", "zerocopy", "device")


def short_gpu(table: pd.DataFrame) -> str:
    """The GPU as a legend names it: 'H100' of 'NVIDIA H100 80GB HBM3'."""
    gpus = sorted(set(table["gpu"].dropna().astype(str)) - {""})
    short = [g.removeprefix("NVIDIA ").split()[0] for g in gpus]
    return ", ".join(dict.fromkeys(short)) if short else "GPU not recorded"


def predictions(table: pd.DataFrame, link: pd.DataFrame) -> pd.Series:
    """The model's time of every streamed row (NaN for other rows, or without a device run to take the rate of)."""
    curve = LinkCurve.from_table(link)
    out = pd.Series(np.nan, index=table.index)
    streamed = table[table["mode"] == "streamed"]
    for (graph, alg, variant, width), rows in streamed.groupby(["graph", "algorithm", "variant", "edge_bytes"]):
        same = table[(table["graph"] == graph) & (table["edge_bytes"] == width)]
        try:
            rate = device_rate(same, alg, variant)
        except ValueError:
            continue
        entry = width + WEIGHT_BYTES.get(alg, 0)
        for i, r in rows.iterrows():
            blocks = uniform_blocks(float(r["list_bytes"]), float(r["block_bytes"]))
            out[i] = predict_ms(blocks, entry, curve, rate, sweeps=int(r["sweeps"]), buffers=int(r["buffers"]),
                                active=active_fractions(r), extra=column_extra(r, len(blocks)))  # fmt: skip
    return out


def column_extra(row: pd.Series, n: int) -> list[float] | None:
    """A column-layout run's row index and x slices per block (None for the row layout): what a sweep copied
    beyond the lists, shared equally by the model's n blocks."""
    if row.get("layout") != "columns":
        return None
    extra = float(row["bytes_copied"]) / max(float(row["sweeps"]), 1.0) - float(row["list_bytes"])
    return [max(extra, 0.0) / n] * n


def active_fractions(row: pd.Series) -> list[float] | None:
    """The fraction of the plan's blocks each sweep launched, where the run skipped blocks and its log counts them
    (None otherwise: every block every sweep)."""
    per = row.get("blocks_per_sweep")
    if row.get("skip") != "on" or not isinstance(per, str) or not per or not row.get("blocks"):
        return None
    return [int(n) / float(row["blocks"]) for n in per.split(",")]


def summary(table: pd.DataFrame, link: pd.DataFrame) -> pd.DataFrame:
    """One row per KEYS: medians over reps, the model's prediction and error, which block is best."""
    t = table.assign(predicted_ms=predictions(table, link), block_bytes=table["block_bytes"].fillna(0))
    t["skip"] = t["skip"].fillna("").astype(str)
    t["layout"] = t["layout"].fillna("").astype(str) if "layout" in t else ""
    t["sweeps"] = t["sweeps"].fillna(t["iterations"])
    g = t.groupby(KEYS, sort=True)
    medians = ["time_ms", "sweeps", "iterations", "edges_traversed", "bytes_copied", "copy_ms", "predicted_ms"]
    out = g[[*medians, "blocks_launched", "blocks_inactive"]].median()
    out["time_min_ms"], out["time_max_ms"], out["n_reps"] = g["time_ms"].min(), g["time_ms"].max(), g.size()
    first = g[["list_bytes", "blocks", "buffers", "blocks_per_sweep", "w_gbps", "gpu"]].first()
    out = out.join(first).reset_index()
    out["gbps"] = out["list_bytes"] / out["time_ms"] / 1e6
    out["of_w"] = out["bytes_copied"] / out["time_ms"] / 1e6 / out["w_gbps"]
    out["run_over_copy"] = out["time_ms"] / out["copy_ms"]
    out["model_error"] = out["predicted_ms"] / out["time_ms"] - 1
    out["best_block"] = out["predicted_best"] = 0
    s = out[out["mode"] == "streamed"]
    by = ["graph", "algorithm", "variant", "edge_bytes"]
    if not s.empty:  # per layout: the best block and the model's error of each
        out.loc[s.groupby([*by, "layout"])["time_ms"].idxmin(), "best_block"] = 1
        p = s.dropna(subset=["predicted_ms"])
        if not p.empty:
            out.loc[p.groupby([*by, "layout"])["predicted_ms"].idxmin(), "predicted_best"] = 1
        e = s.assign(e=s["model_error"].abs()).groupby([*by, "layout"])["e"].median()
        out = out.merge(e.rename("model_median_abs_error").reset_index(), on=[*by, "layout"], how="left")
    out["block_bytes"] = out["block_bytes"].replace(0, np.nan).round().astype("Int64")  # exact in the CSV
    zc = out[out["mode"] == "zerocopy"][[*by, "time_ms"]].rename(columns={"time_ms": "zerocopy_ms"})
    out = out.merge(zc, on=by, how="left")
    out["over_zerocopy"] = out["zerocopy_ms"] / out["time_ms"]
    return out


def cpu_times(cpu: pd.DataFrame | None) -> pd.DataFrame:
    """Per graph: the fastest thread count's median SpMV time and its threads (empty when not measured)."""
    if cpu is None or cpu.empty:
        return pd.DataFrame(columns=["graph", "cpu_ms", "cpu_threads", "cpu_library"])
    c = cpu[cpu["algorithm"] == "spmv"].dropna(subset=["median_ms"])
    c = c.loc[c.groupby("graph")["median_ms"].idxmin()]
    return pd.DataFrame(
        {"graph": c["graph"], "cpu_ms": c["median_ms"], "cpu_threads": c["threads"], "cpu_library": c["library"]}
    )


def spmv(table: pd.DataFrame, link: pd.DataFrame, cpu: pd.DataFrame | None = None) -> pd.DataFrame:
    """fig_streamed_spmv's rows: SpMV per graph and mode (streamed per block size), plus a `cpu` row per graph
    where the CPU was measured; over_cpu on every GPU row (NaN without a CPU time)."""
    s = summary(table[table["algorithm"] == "spmv"], link)
    if s.empty or not (s["mode"] == "streamed").any():
        raise FigureDataError("figure fig_streamed_spmv has no data: no streamed SpMV rows in the streamed table")
    edges = s["list_bytes"] / (s["edge_bytes"] + WEIGHT_BYTES.get("spmv", 0))
    s["gflops"] = 2 * edges / s["time_ms"] / 1e6
    c = cpu_times(cpu)
    s = s.merge(c, on="graph", how="left")
    s["over_cpu"] = s["cpu_ms"] / s["time_ms"]
    if not c.empty:
        base = s.drop_duplicates("graph")[["graph", "algorithm", "variant", "edge_bytes", "list_bytes", "gpu"]]
        rows = base.merge(c, on="graph").assign(mode="cpu", time_ms=lambda f: f["cpu_ms"])
        rows["gbps"] = rows["list_bytes"] / rows["time_ms"] / 1e6
        rows["gflops"] = 2 * rows["list_bytes"] / 12 / rows["time_ms"] / 1e6
        s = pd.concat([s, rows], ignore_index=True)
    s["best_block"] = s["best_block"].fillna(0).astype(int)
    s["predicted_best"] = s["predicted_best"].fillna(0).astype(int)
    return s


def pagerank(table: pd.DataFrame, link: pd.DataFrame) -> pd.DataFrame:
    """fig_streamed_pagerank's rows: per graph, iterative algorithm (PageRank, and CC or SSSP where streamed runs
    of them exist), variant with streamed runs and mode, the time and the bytes over the link per sweep:
    streamed = bytes copied / sweeps; zero-copy = entries read x entry bytes / iterations (a floor: the 32-byte
    sectors round each list out)."""
    s = summary(table[table["algorithm"] != "spmv"], link)
    streamed = s[s["mode"] == "streamed"]
    if streamed.empty or not (streamed["algorithm"] == "pagerank").any():
        raise FigureDataError("figure fig_streamed_pagerank has no data: no streamed PageRank rows")
    ran = set(zip(streamed["graph"], streamed["algorithm"], streamed["variant"]))
    s = s[[k in ran for k in zip(s["graph"], s["algorithm"], s["variant"])]].copy()
    read = s["edges_traversed"] * (s["edge_bytes"] + s["algorithm"].map(WEIGHT_BYTES).fillna(0))
    s["link_bytes"] = np.where(s["mode"] == "streamed", s["bytes_copied"], np.where(s["mode"] == "zerocopy", read, 0))
    s["link_bytes_per_sweep"] = s["link_bytes"] / s["sweeps"]
    order = {a: i for i, a in enumerate(("pagerank", "cc", "sssp"))}
    return s.sort_values(["graph", "algorithm"], key=lambda c: c.map(order) if c.name == "algorithm" else c)
