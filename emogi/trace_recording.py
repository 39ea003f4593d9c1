"""Traces recorded on the GPU (`emogi run --trace-out DIR`), loaded into emogi.traces' Trace.

After each variant's timed runs the binary makes one more run per root (verified, not timed) whose kernels mark
every neighbour list they read in a bitmap, and writes, per run, DIR/<name>.<algorithm>.<variant>.<mode>.w<width>
[.r<root>].trace (kernels/include/emogi/trace_file.hpp): per kernel launch ceil(V / 32) little-endian uint32 words
(bit v % 32 of word v / 32: v's list was read), then a JSON description of the run and its launches, its length
(uint64) and b"EMOGITR1".

What a recorded launch holds:
- the vertices with a non-empty list the launch read, at least in part (the kernels may mark empty lists; they are
  dropped here, as emogi.traces ignores them anyway);
- Afforest's sample rounds (entry k of each list) and finish (the entries after the two sampled ones) as parts
  (first, count) of the lists;
- where a kernel may read less of a list than the trace says, the whole list (and its weights) counts as read, and
  the trace is "approximate" with a note saying where: a bottom-up BFS step stops at the first parent; SSSP
  `frontier` reads a weight only where it can lower the target's distance;
- a Gauss-Seidel PageRank run ends with a round that finds nothing to push: its launch is recorded, empty;
- in uvm-capped with K sub-launches, a launch is the union of its K sub-launches.

    python -m emogi.trace_recording convert RUN.trace --graph G.csr --out RUN.npz
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
from pathlib import Path

import numpy as np

from emogi.cli import exit_status
from emogi.csr import GraphFormatError, read_csr
from emogi.traces import Trace, TraceError, check_graph, save_trace

MAGIC = b"EMOGITR1"
FORMAT = "emogi-list-reads"
_FOOTER = struct.Struct("<Q8s")  # the JSON's length, the magic


def read_raw(path) -> tuple[dict, np.ndarray]:
    """The JSON description and the launches' bitmaps (uint32 words, one row per launch) of a recorded trace."""
    path = Path(path)
    try:
        data = np.memmap(path, dtype=np.uint8, mode="r")
    except (OSError, ValueError) as e:
        raise TraceError(f"{path}: cannot read ({e})") from None
    if len(data) < _FOOTER.size:
        raise TraceError(f"{path}: not a recorded trace (too short)")
    length, magic = _FOOTER.unpack(bytes(data[-_FOOTER.size :]))
    if magic != MAGIC or length > len(data) - _FOOTER.size:
        raise TraceError(f"{path}: not a recorded trace (no {MAGIC.decode()} footer)")
    end = len(data) - _FOOTER.size
    try:
        meta = json.loads(bytes(data[end - length : end]))
    except ValueError as e:
        raise TraceError(f"{path}: not a recorded trace (bad description: {e})") from None
    if meta.get("format") != FORMAT or meta.get("version") != 1:
        raise TraceError(f"{path}: not a version-1 {FORMAT} trace")
    words = -(-int(meta["num_vertices"]) // 32)
    launches = len(meta["launches"])
    if end - length != launches * words * 4:
        raise TraceError(f"{path}: truncated: {launches} launches of {words} words need {launches * words * 4} bytes")
    bits = np.frombuffer(data[: end - length], dtype="<u4").reshape(launches, words)
    return meta, bits


def _parts(mask: np.ndarray, degree: np.ndarray, launch: dict):
    """(first, count) per selected vertex where the launch reads part of each list, else (None, None)."""
    first, count = int(launch["first"]), launch["count"]
    if first == 0 and count is None:
        return None, None
    d = degree[mask]
    begin = np.full(len(d), first, dtype=np.int64)
    n = np.maximum(d - first, 0) if count is None else np.minimum(np.full(len(d), int(count)), np.maximum(d - first, 0))
    return begin, n.astype(np.int64)


def load_recorded(path, graph) -> Trace:
    """A trace recorded on the GPU as an emogi.traces Trace (source "recorded"), refused (TraceError, one line)
    unless it was recorded on `graph` (a CSRGraph read from its file: vertex and edge counts and checksum)."""
    meta, bits = read_raw(path)
    if (meta["num_vertices"], meta["num_edges"]) != (graph.num_vertices, graph.num_edges):
        raise TraceError(
            f"{path}: recorded on a graph of V = {meta['num_vertices']}, E = {meta['num_edges']}, not "
            f"{graph.path or 'this graph'} (V = {graph.num_vertices}, E = {graph.num_edges})"
        )
    partial = sorted({launch["partial"] for launch in meta["launches"] if launch["partial"]})
    note = f"recorded on the GPU, {meta['mode']} mode"
    if meta["sub_launches"] > 1:
        note += f", {meta['sub_launches']} sub-launches per launch (each launch their union)"
    if partial:
        note += "; counted as read whole: " + "; ".join(partial)
    trace = Trace(
        graph=meta["graph"],
        checksum=meta["checksum"],
        num_vertices=graph.num_vertices,
        num_edges=graph.num_edges,
        algorithm=meta["algorithm"],
        variant=meta["variant"],
        edge_bytes=meta["edge_bytes"],
        weight_bytes=meta["weight_bytes"],
        root=meta["root"],
        source="recorded",
        fidelity="approximate" if partial else "exact",
        note=note,
    )
    check_graph(trace, graph)
    degree = np.diff(np.asarray(graph.offsets, dtype=np.int64))
    for row, launch in zip(bits, meta["launches"]):
        mask = np.unpackbits(row.view(np.uint8), count=graph.num_vertices, bitorder="little").astype(bool)
        mask &= degree > 0
        first, count = _parts(mask, degree, launch)
        trace.add_launch(mask, launch["label"], first, count)
    return trace


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m emogi.trace_recording", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("convert", help="a recorded trace as an emogi.traces .npz")
    p.add_argument("trace")
    p.add_argument("--graph", required=True, help="the CSR file it was recorded on (checksum checked)")
    p.add_argument("--out", required=True)
    a = ap.parse_args(argv)

    def run():
        trace = load_recorded(a.trace, read_csr(a.graph, verify_checksum=False))
        save_trace(trace, a.out)
        print(f"{a.out}: {trace.num_launches} launches, {trace.fidelity}")

    return exit_status(run, (TraceError, GraphFormatError, OSError))


if __name__ == "__main__":
    sys.exit(main())
