"""LAW web graphs (WebGraph BV format: BASENAME.graph, .properties, .offsets) to the project's binary CSR file.

The BV stream is decoded by the WebGraph tools, never by code of ours:
- the `webgraph` command (crate webgraph-cli) builds the Elias–Fano index BASENAME.ef when it is missing,
  older than the .graph, or unloadable (LAW ships .ef files of an older format version, which the current
  tools refuse), and dumps the arcs with `webgraph to arcs` (one "src<TAB>dst" line per arc, in list order),
  which numpy parses in bounded chunks straight into one preallocated array (`to ascii`, one line per node,
  is half the text but makes one write call per node: 2x slower through a pipe on cnr-2000, 4x slower into
  a file on a 20 M-node graph);
- the `webgraph` Python bindings (PyPI package `webgraph`) give every out-degree at once (computed in
  parallel from the .ef), so the offsets, and the array's size, are known before any arc is read.
The two decoders check each other: the source of every arc of the dump must be the node whose list, by the
degrees, holds that position, and the dump must hold .properties' `arcs` arcs in all.

What the graph file holds (docs/graph-format.md):
- LAW web graphs are directed (the paper: "All the graphs, except for SK and UK5, are undirected"): the
  DIRECTED flag is set, and algorithms for undirected graphs (CC) skip them.
- Self-loops (a page linking to itself) are dropped; the metadata counts them. BV successor lists are sorted
  and free of duplicates by construction; this is checked for every list, and the conversion stops if not.
- Weights: LAW graphs carry none, so SSSP weights are uniform 8..72 from emogi.datasets.weights with a recorded seed
  (a weight depends on the unordered pair, so u->v and v->u, where both exist, weigh the same).
- Either edge width: --index-bytes 8 (default) or 4 (refused, from .properties alone, when V >= 2^32).

Memory: E (index_bytes + 4) for edges and weights, 48 V for the per-node arrays (degrees, list starts,
offsets) and about 1 GiB of parsing buffers; by that estimate and the paper's Table 2 counts, uk-2007-05
(V 105.9 M, E 3.74 G) needs about 51 GB at 8 bytes and sk-2005 (50.6 M, 1.95 G) about 27 GB (a synthetic
graph of 20 M nodes and 60 M arcs peaked at 1.8 GB RSS against an estimate of 2.6 GiB). The converter stops
before decoding when the estimate exceeds the available memory.

Speed: the text dump is the price of using the tools. On the 2-core development machine, shared with other
work, that 60 M-arc graph decoded at 3-4.5 M arcs/s, bound by numpy's text parser (~80 MB/s; the command
itself wrote its 1 GB dump to a file at ~130 MB/s); at that rate decoding uk-2007-05 would take 14-21
minutes.

CLI:
    python -m emogi.datasets.law --basename PATH/sk-2005 --out G.w8.csr --meta G.w8.json [--weights-seed S]
        [--index-bytes 8] [--webgraph PATH/TO/webgraph] [--ignore-memory-check]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from emogi.atomic import exit_cleanly_on_signals, write_text
from emogi.cli import exit_status
from emogi.csr import CSRGraph, GraphFormatError, check_index_width, describe, write_csr
from emogi.datasets.build_plan import mem_available as available_memory_bytes
from emogi.datasets.download import sha256_of
from emogi.datasets.weights import HIGH, LOW, csr_weights

INSTALL_HINT = (
    "install the WebGraph tools: `cargo install webgraph-cli --version 0.5.0 --locked` "
    "and `pip install webgraph==0.2.0`"
)
DUMP_CHUNK_BYTES = 64 << 20  # text parsed per step; a node list longer than this just makes one step larger
_BASELINE_BYTES = 1 << 30


class LawError(RuntimeError):
    """A LAW graph that cannot be converted, or WebGraph tools that are missing or failed."""


# ---------------------------------------------------------------------------------------------- inputs


@dataclass
class LawGraph:
    basename: Path
    num_nodes: int
    num_arcs: int
    properties: dict

    def file(self, suffix: str) -> Path:
        return Path(f"{self.basename}{suffix}")


def read_properties(basename) -> LawGraph:
    """Parse BASENAME.properties (Java properties: key=value lines, '#' comments) and check it is a BV graph."""
    path = Path(f"{basename}.properties")
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        raise LawError(
            f"{path}: cannot read ({e.strerror}); --basename must name the graph without suffix, "
            f"e.g. resources/law/sk-2005 for sk-2005.graph"
        ) from e
    props = dict(line.split("=", 1) for line in map(str.strip, lines) if line and not line.startswith("#"))
    if not props.get("graphclass", "").endswith("BVGraph"):
        raise LawError(f"{path}: graphclass {props.get('graphclass')!r} is not a WebGraph BVGraph")
    try:
        return LawGraph(Path(basename), int(props["nodes"]), int(props["arcs"]), props)
    except (KeyError, ValueError) as e:
        raise LawError(f"{path}: needs integer 'nodes' and 'arcs' entries ({e})") from e


def webgraph_cli(explicit: str | None = None) -> str:
    """Path of the `webgraph` command: --webgraph, $WEBGRAPH_CLI, PATH, then cargo's default bin folder."""
    candidates = [
        explicit,
        os.environ.get("WEBGRAPH_CLI"),
        shutil.which("webgraph"),
        str(Path.home() / ".cargo" / "bin" / "webgraph"),
    ]
    for found in candidates:
        if found and Path(found).is_file() and os.access(found, os.X_OK):
            return found
    raise LawError(
        f"the `webgraph` command was not found (looked at --webgraph, $WEBGRAPH_CLI, PATH and "
        f"~/.cargo/bin); {INSTALL_HINT}"
    )


def _bindings():
    try:
        import webgraph
    except ImportError as e:
        raise LawError(f"the `webgraph` Python bindings are not installed; {INSTALL_HINT}") from e
    return webgraph


def tool_versions(cli: str) -> dict:
    first_line = subprocess.run([cli, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    return {"webgraph-cli": first_line.strip(), "webgraph (python)": importlib.metadata.version("webgraph")}


# ---------------------------------------------------------------------------------------------- memory


def estimated_peak_bytes(num_nodes: int, num_arcs: int, index_bytes: int) -> int:
    """The converter's peak (module docstring): edges, weights, per-node arrays and parsing buffers."""
    return num_arcs * (index_bytes + 4) + 48 * (num_nodes + 1) + _BASELINE_BYTES


def check_memory(law: LawGraph, index_bytes: int, log) -> None:
    need, available = estimated_peak_bytes(law.num_nodes, law.num_arcs, index_bytes), available_memory_bytes()
    log(f"{law.num_nodes} nodes, {law.num_arcs} arcs; conversion needs about {need / 2**30:.1f} GiB")
    if available is not None and need > available:
        raise LawError(
            f"{law.basename}: converting needs about {need / 2**30:.1f} GiB of memory, "
            f"{available / 2**30:.1f} GiB are available; run it on a larger machine, or pass "
            f"--ignore-memory-check to try anyway"
        )


# ---------------------------------------------------------------------------------------------- .ef and degrees


def _load(basename: Path):
    """The bindings' BvGraph, or None when its .ef is missing or of another format version."""
    try:
        return _bindings().BvGraph(str(basename))
    except ValueError:
        return None


def ensure_ef(law: LawGraph, cli: str, log):
    """Load the graph with the bindings, first rebuilding BASENAME.ef if needed. Returns (BvGraph, rebuilt)."""
    ef, graph_file = law.file(".ef"), law.file(".graph")
    if not graph_file.exists():
        raise LawError(f"{graph_file}: missing; a LAW graph needs BASENAME.graph and BASENAME.properties")
    if ef.exists() and ef.stat().st_mtime >= graph_file.stat().st_mtime:
        graph = _load(law.basename)
        if graph is not None:
            return graph, False
    log(f"building {ef} with `webgraph build ef` (missing, older than the .graph, or of another version)")
    done = subprocess.run([cli, "build", "ef", str(law.basename)], capture_output=True, text=True)
    if done.returncode != 0:
        raise LawError(
            f"`webgraph build ef {law.basename}` failed (exit {done.returncode}); it writes the .ef "
            f"beside the .graph, so that folder must be writable: {done.stderr.strip()[-800:]}"
        )
    graph = _load(law.basename)
    if graph is None:
        raise LawError(
            f"{ef}: the bindings cannot load the .ef that `webgraph build ef` just wrote; the "
            f"command and the Python bindings are of incompatible versions ({INSTALL_HINT})"
        )
    return graph, True


def out_degrees(graph, law: LawGraph) -> np.ndarray:
    """Every node's out-degree (int64), checked against .properties."""
    degrees = np.asarray(graph.outdegrees(), dtype=np.int64)
    if len(degrees) != law.num_nodes or int(degrees.sum()) != law.num_arcs:
        raise LawError(
            f"{law.basename}: the bindings see {len(degrees)} nodes and {int(degrees.sum())} arcs, "
            f".properties says {law.num_nodes} and {law.num_arcs}"
        )
    return degrees


# ---------------------------------------------------------------------------------------------- the dump


class ArcWriter:
    """Takes the dump's complete lines (one arc each) in order; keeps the successors, self-loops dropped."""

    def __init__(self, degrees: np.ndarray, edges: np.ndarray, where: str):
        self.degrees, self.edges, self.where = degrees, edges, where
        self.list_starts = np.zeros(len(degrees) + 1, dtype=np.int64)  # where each list starts in the dump
        np.cumsum(degrees, out=self.list_starts[1:])
        self.arcs_read = 0  # arcs of the dump seen so far
        self.written = 0  # successors kept so far
        self.last_arc = None  # (src, dst) ending the previous chunk: lists may span chunks
        self.loop_nodes = []  # nodes whose self-loop was dropped, one array per chunk

    def add(self, text: bytes) -> None:
        tokens = np.fromstring(text, dtype=np.int64, sep=" ")  # C parser over any whitespace (TAB, newline)
        if len(tokens) % 2 or len(tokens) // 2 != text.count(b"\n"):
            raise LawError(f"{self.where}: a line of the dump after arc {self.arcs_read} is not 'src<TAB>dst'")
        src, dst = tokens[0::2], tokens[1::2]
        self._check_sources(src)
        self._check_lists(src, dst)
        loops = src == dst
        self.loop_nodes.append(src[loops])
        kept = dst[~loops]
        self.edges[self.written : self.written + len(kept)] = kept
        self.written += len(kept)
        self.arcs_read += len(dst)
        self.last_arc = (src[-1], dst[-1]) if len(dst) else self.last_arc

    def _check_sources(self, src: np.ndarray) -> None:
        """Every arc's source is the node whose list, by the bindings' degrees, holds that arc position."""
        first, stop = self.arcs_read, self.arcs_read + len(src)
        if stop > self.list_starts[-1]:
            raise LawError(f"{self.where}: the dump has more than the {self.list_starts[-1]} arcs of .properties")
        if not len(src):
            return
        u0, u1 = np.searchsorted(self.list_starts, [first, stop - 1], side="right") - 1
        counts = np.diff(np.clip(self.list_starts[u0 : u1 + 2], first, stop))
        if not np.array_equal(src, np.repeat(np.arange(u0, u1 + 1), counts)):
            raise LawError(
                f"{self.where}: `webgraph to arcs` and the bindings' out-degrees disagree about the "
                f"lists of nodes {u0}..{u1}"
            )

    def _check_lists(self, src: np.ndarray, dst: np.ndarray) -> None:
        """Ids < V (so that narrowing cannot wrap), and every list strictly increasing (sorted, no duplicates)."""
        if len(dst) and (dst.min() < 0 or dst.max() >= len(self.degrees)):
            raise LawError(
                f"{self.where}: a successor id outside 0..{len(self.degrees) - 1} after arc {self.arcs_read}"
            )
        rising = (dst[1:] > dst[:-1]) | (src[1:] != src[:-1])
        bad = np.flatnonzero(~rising)
        node = int(src[bad[0] + 1]) if len(bad) else None
        if len(dst) and self.last_arc and src[0] == self.last_arc[0] and dst[0] <= self.last_arc[1]:
            node = int(src[0])
        if node is not None:
            raise LawError(
                f"{self.where}: the successor list of node {node} is not strictly increasing "
                f"(unsorted or duplicate arcs); BV lists never are, so the dump is damaged"
            )


def decode_arcs(law: LawGraph, cli: str, degrees: np.ndarray, edges: np.ndarray, log) -> ArcWriter:
    """Run `webgraph to arcs` and feed its output, in chunks of whole lines, to an ArcWriter."""
    writer = ArcWriter(degrees, edges, str(law.basename))
    with tempfile.TemporaryFile() as tool_log:
        proc = subprocess.Popen(
            [cli, "to", "arcs", str(law.basename)], stdout=subprocess.PIPE, stderr=tool_log, bufsize=0
        )  # raw reads return what the pipe holds; _line_chunks gathers them
        try:
            _feed(proc.stdout, writer, law, log)
        finally:
            proc.stdout.close()
            if proc.poll() is None and writer.arcs_read < law.num_arcs:
                proc.kill()  # we stopped early: the dump is of no further use
            proc.wait()
        if proc.returncode != 0:
            tool_log.seek(0)
            raise LawError(
                f"`webgraph to arcs {law.basename}` failed (exit {proc.returncode}): "
                f"{tool_log.read().decode(errors='replace').strip()[-800:]}"
            )
    if writer.arcs_read != law.num_arcs:
        raise LawError(f"{law.basename}: the dump ended after {writer.arcs_read} of {law.num_arcs} arcs")
    return writer


def _line_chunks(stream, size: int, where: str):
    """Whole lines, about `size` bytes at a time, from an unbuffered pipe (short reads gathered, then joined)."""
    pieces, gathered, tail = [], 0, b""
    while piece := stream.read(1 << 20):
        pieces.append(piece)
        gathered += len(piece)
        if gathered >= size:
            text = b"".join([tail, *pieces])
            cut = text.rfind(b"\n") + 1
            if cut:
                yield text[:cut]
            tail, pieces, gathered = text[cut:], [], 0
    text = b"".join([tail, *pieces])
    if text and not text.endswith(b"\n"):
        raise LawError(f"{where}: the dump ends in an incomplete line")
    if text:
        yield text


def _feed(stream, writer: ArcWriter, law: LawGraph, log) -> None:
    t0 = last_log = time.perf_counter()
    for text in _line_chunks(stream, DUMP_CHUNK_BYTES, str(law.basename)):
        writer.add(text)
        if time.perf_counter() - last_log > 10:
            last_log = time.perf_counter()
            done = writer.arcs_read
            log(
                f"decoded {done} of {law.num_arcs} arcs ({100 * done / max(law.num_arcs, 1):.0f}%, "
                f"{done / max(last_log - t0, 1e-9) / 1e6:.1f} M arcs/s)"
            )


# ---------------------------------------------------------------------------------------------- conversion


def _progress(label: str):
    t0 = time.perf_counter()

    def log(msg: str) -> None:
        print(f"[law {label}] {time.perf_counter() - t0:8.1f} s  {msg}", file=sys.stderr, flush=True)

    return log


def to_csr(law: LawGraph, cli: str, index_bytes: int, log) -> tuple[CSRGraph, dict]:
    """Decode the whole graph into a directed CSRGraph without self-loops; returns it and conversion facts."""
    bv, rebuilt = ensure_ef(law, cli, log)
    degrees = out_degrees(bv, law)
    edges = np.empty(law.num_arcs, dtype=np.uint32 if index_bytes == 4 else np.uint64)
    log(f"decoding {law.num_arcs} arcs with `webgraph to arcs`")
    writer = decode_arcs(law, cli, degrees, edges, log)
    loop_nodes = np.concatenate([np.empty(0, np.int64), *writer.loop_nodes])
    kept = degrees - np.bincount(loop_nodes, minlength=law.num_nodes)
    offsets = np.zeros(law.num_nodes + 1, dtype=np.uint64)
    np.cumsum(kept, out=offsets[1:])
    facts = {
        "directed": True,
        "ef_rebuilt": rebuilt,
        "self_loops_removed": len(loop_nodes),
        "duplicate_edges_merged": 0,
        "neighbour_lists_sorted": True,
        "checks": "every list strictly increasing; every arc's source agrees with the bindings' out-degrees",
    }
    return CSRGraph(offsets, edges[: writer.written], directed=True), facts


def convert(
    basename,
    out,
    meta=None,
    weights_seed: int = 1,
    index_bytes: int = 8,
    webgraph: str | None = None,
    check_memory_first: bool = True,
) -> CSRGraph:
    """Convert the LAW graph BASENAME into the graph file `out` (and metadata JSON `meta`)."""
    law = read_properties(basename)
    log = _progress(law.basename.name)
    check_index_width(law.num_nodes, index_bytes, str(law.file(".properties")))  # from the header alone
    if check_memory_first:
        check_memory(law, index_bytes, log)
    cli = webgraph_cli(webgraph)
    _bindings()  # missing bindings are reported now, not after the .ef is built
    t0 = time.perf_counter()
    graph, facts = to_csr(law, cli, index_bytes, log)
    t_decoded = time.perf_counter() - t0
    log(f"{facts['self_loops_removed']} self-loops dropped; generating weights {LOW}..{HIGH} (seed {weights_seed})")
    graph.weights = csr_weights(graph.offsets, graph.edges, weights_seed)
    log(f"writing {out}: V={graph.num_vertices} E={graph.num_edges}, {index_bytes}-byte ids")
    graph.header = write_csr(out, graph.offsets, graph.edges, graph.weights, directed=True)
    graph.path = Path(out)
    if meta:
        info = describe(graph)
        info["source"] = {
            "format": "webgraph-bv",
            "basename": law.basename.name,
            "nodes": law.num_nodes,
            "arcs": law.num_arcs,
            "graph_bytes": law.file(".graph").stat().st_size,
            "sha256": {
                f.name: sha256_of(f) for f in map(law.file, (".graph", ".properties", ".offsets")) if f.exists()
            },
            "tools": tool_versions(cli),
        }
        info["conversion"] = facts
        info["weights"] = {
            "source": "generated",
            "reason": "LAW graphs carry no weights",
            "seed": weights_seed,
            "low": LOW,
            "high": HIGH,
            "generator": "emogi.datasets.weights.csr_weights (hash of the unordered edge and the seed)",
        }
        info["phase_seconds"] = {
            "decode": round(t_decoded, 3),
            "weights_and_write": round(time.perf_counter() - t0 - t_decoded, 3),
        }
        write_text(json.dumps(info, indent=2) + "\n", meta)
    log("done")
    return graph


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m emogi.datasets.law", description=__doc__.split("\n")[0])
    p.add_argument("--basename", required=True, help="the graph's path without suffix (PATH/sk-2005)")
    p.add_argument("--out", required=True, help="graph file to write (.csr)")
    p.add_argument("--meta", help="metadata JSON to write beside the graph")
    p.add_argument("--weights-seed", type=int, default=1, help="seed of the generated weights (default 1)")
    p.add_argument("--index-bytes", type=int, choices=(4, 8), default=8, help="edge id width (default 8)")
    p.add_argument("--webgraph", help="the `webgraph` command (default: $WEBGRAPH_CLI, PATH, ~/.cargo/bin)")
    p.add_argument("--ignore-memory-check", action="store_true", help="convert even if memory looks too small")
    args = p.parse_args(argv)
    exit_cleanly_on_signals()  # SIGTERM/SIGINT remove the half-written output
    return exit_status(
        lambda: convert(
            args.basename,
            args.out,
            args.meta,
            args.weights_seed,
            args.index_bytes,
            args.webgraph,
            not args.ignore_memory_check,
        ),
        (LawError, GraphFormatError, OSError),
    )


if __name__ == "__main__":
    sys.exit(main())
