"""SuiteSparse Matrix Collection archives (Matrix Market) to the project's binary CSR graph file.

An archive `<Name>.tar.gz` holds `<Name>/<Name>.mtx` (the matrix) and sometimes auxiliary files
`<Name>/<Name>_<aux>.mtx` (GAP's BFS sources, SNAP's node ids and communities, MOLIERE's labels), which are
ignored. emogi.datasets.matrix_market reads the main matrix straight out of the gzip stream (never extracted) with
fast_matrix_market's parallel C++ parser, and turns every way a file from outside can be wrong into one line.

What the graph file holds (docs/graph-format.md):
- Vertices are the matrix's rows (it must be square); entry (i, j) is the edge i -> j.
- `symmetric` (and `skew-symmetric`) files store one triangle: both directions are added and the graph is
  recorded as undirected (DIRECTED clear). `general` files are recorded as directed, edges as stored.
- Self-loops (diagonal entries) are dropped. Duplicate edges are merged into one, keeping the smallest weight
  (the rule the SuiteSparse editors applied to MOLIERE_2016's duplicates; for shortest paths it is the only
  one that changes no distance). Neighbour lists are sorted ascending.
- Weights (u32): the matrix's own values when it has integer values that all lie in 1..2^32-1 (GAP-kron and
  GAP-urand: 1..255, as the paper uses them); otherwise (pattern or real matrices, e.g. com-Friendster and
  MOLIERE_2016, integers out of range, or an `integer` matrix holding a value that is not an integer, which is
  never truncated) uniform 8..72 from emogi.datasets.weights with a recorded seed. The metadata JSON says which,
  and why.
- Either edge width: --index-bytes 8 (default) or 4.

Memory: the whole edge list is sorted in memory as one u64 key per directed edge, src | dst | weight packed
into 64 bits (nothing else fits the largest graphs). The peak is about max(read, key, output) phases with nnz
stored entries and E directed edges (E ~ 2 nnz for symmetric files):
    read   nnz * (8 + 8 value bytes, +4 while integers are narrowed to u32)
    keys   nnz * (8 + 4 if the values are kept) + 8 E
    output 8 E + 4 E (weights) + 16 V
plus per-thread temporaries. From the collection's nonzero counts, estimated_peak_bytes gives GAP-kron
(nnz 2.11 G, E 4.22 G) 62 GB, GAP-urand 63 GB, com-Friendster (pattern) 45 GB, MOLIERE_2016 (real, nnz 3.33 G)
81 GB (on a 60 M-edge test graph, 2 threads, the estimate was 1.30x the measured peak RSS). The converter
computes it from the Matrix Market header before reading the entries and stops with an error when it exceeds
the memory available (--ignore-memory-check overrides). fast_matrix_market has no chunked reader for one
file, so the entries are read in one piece.

CLI:
    python -m emogi.datasets.suitesparse --archive GAP-kron.tar.gz --out GK.w8.csr --meta GK.w8.json \\
        [--weights-seed S] [--name GAP-kron] [--index-bytes 8]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from emogi.atomic import exit_cleanly_on_signals, write_text
from emogi.csr import CSRGraph, describe, write_csr
from emogi.datasets.build_plan import default_workers as _workers  # the cores this process may use
from emogi.datasets.build_plan import mem_available as available_memory_bytes
from emogi.datasets.download import sha256_of
from emogi.datasets.matrix_market import INTEGER_FIELDS, DatasetError, MatrixEntries, open_matrix, read_matrix
from emogi.datasets.weights import HIGH, LOW, csr_weights

MAX_WEIGHT = 2**32 - 1
_CHUNK = 1 << 20  # entries per threaded step; each worker holds ~64 bytes per entry of temporaries
_BASELINE_BYTES = 200 << 20  # the interpreter, numpy, the parser's text buffers


# ---------------------------------------------------------------------------------------------- weights


def dataset_weights_usable(field: str, symmetry: str, values: np.ndarray, not_integer=None) -> tuple[bool, str]:
    """Whether the matrix values can be the graph's u32 weights, and why (recorded in the metadata).
    `not_integer`: (entry number, value) of a value of an integer matrix that is not an integer."""
    if field not in INTEGER_FIELDS:
        return False, f"the matrix values are {field}, not integers"
    if not_integer is not None:
        entry, value = not_integer
        return False, (
            f"the matrix declares integer values, but entry {entry} holds {value!r}: values that are not all "
            "integers are not used as weights (never truncated)"
        )
    if symmetry not in ("general", "symmetric"):
        return False, f"a {symmetry} matrix's mirrored values differ in sign"
    if len(values) == 0:
        return False, "the matrix has no entries"
    lo, hi = int(values.min()), int(values.max())
    if lo < 1 or hi > MAX_WEIGHT:
        return False, f"the integer values span [{lo}, {hi}], outside 1..{MAX_WEIGHT}"
    return True, f"the matrix's own integer values, range [{lo}, {hi}]"


# ---------------------------------------------------------------------------------------------- CSR build


@dataclass
class KeyLayout:
    """One u64 sort key per directed edge: src << (dst_bits + weight_bits) | dst << weight_bits | weight.

    Sorting the keys orders edges by source, then neighbour, then weight, so the first key of each
    (src, dst) run carries the smallest weight."""

    vertex_bits: int
    weight_bits: int

    @classmethod
    def fitting(cls, num_vertices: int, max_weight: int) -> KeyLayout | None:
        layout = cls(max(int(num_vertices - 1).bit_length(), 1), int(max_weight).bit_length())
        return layout if 2 * layout.vertex_bits + layout.weight_bits <= 64 else None

    @property
    def src_shift(self) -> np.uint64:
        return np.uint64(self.vertex_bits + self.weight_bits)


def key_layout(num_vertices: int, max_weight: int, where: str) -> KeyLayout:
    layout = KeyLayout.fitting(num_vertices, max_weight)
    if layout is None:
        raise DatasetError(
            f"{where}: {num_vertices} vertices and weights up to {max_weight} do not fit one 64-bit sort key"
        )
    return layout


def _threaded(task, items) -> list:
    with ThreadPoolExecutor(max_workers=_workers()) as pool:  # numpy releases the GIL on large arrays
        return list(pool.map(task, items))


def _bounds(n: int) -> list[tuple[int, int]]:
    return [(lo, min(lo + _CHUNK, n)) for lo in range(0, n, _CHUNK)]


def edge_keys(rows, cols, weights, symmetrize: bool, layout: KeyLayout) -> np.ndarray:
    """The unsorted keys of every directed edge: self-loops dropped, mirrored when `symmetrize`."""
    bounds = _bounds(len(rows))
    kept = _threaded(lambda b: int(np.count_nonzero(rows[b[0] : b[1]] != cols[b[0] : b[1]])), bounds)
    starts = np.concatenate([[0], np.cumsum(kept, dtype=np.int64)]).tolist()
    forward = starts[-1]
    keys = np.empty(forward * (2 if symmetrize else 1), dtype=np.uint64)
    wshift = np.uint64(layout.weight_bits)

    def fill(k: int) -> None:
        lo, hi = bounds[k]
        keep = rows[lo:hi] != cols[lo:hi]
        s = rows[lo:hi][keep].astype(np.uint64)
        d = cols[lo:hi][keep].astype(np.uint64)
        w = weights[lo:hi][keep].astype(np.uint64) if weights is not None else np.uint64(0)
        pairs = [(s, d, starts[k])] + ([(d, s, forward + starts[k])] if symmetrize else [])
        for a, b, at in pairs:
            out = keys[at : at + len(s)]
            np.left_shift(a, layout.src_shift, out=out)
            out |= b << wshift
            out |= w

    _threaded(fill, range(len(bounds)))
    return keys


def _dedup_edges_inplace(keys: np.ndarray, layout: KeyLayout) -> np.ndarray:
    """Keep the first key of each (src, dst) run of sorted `keys` (the smallest weight); compacts in place."""
    wshift = np.uint64(layout.weight_bits)
    write, prev = 0, None
    for lo, hi in _bounds(len(keys)):
        block = keys[lo:hi]
        pair = block >> wshift
        fresh = np.empty(len(block), dtype=bool)
        fresh[0] = prev is None or pair[0] != prev
        np.not_equal(pair[1:], pair[:-1], out=fresh[1:])
        prev = pair[-1]
        kept = block[fresh]  # a copy, taken before the write below can overlap the block
        keys[write : write + len(kept)] = kept
        write += len(kept)
    return keys[:write]


def _offsets(keys: np.ndarray, num_vertices: int, layout: KeyLayout) -> np.ndarray:
    offsets = np.empty(num_vertices + 1, dtype=np.uint64)

    def find(b) -> None:
        firsts = np.arange(b[0], b[1], dtype=np.uint64) << layout.src_shift
        offsets[b[0] : b[1]] = np.searchsorted(keys, firsts, side="left")

    _threaded(find, _bounds(num_vertices))
    offsets[num_vertices] = len(keys)
    return offsets


def _unpack(keys: np.ndarray, layout: KeyLayout, index_dtype, with_weights: bool):
    """(edges, weights) from sorted keys, reusing the key buffer for the edges (no second E-sized array).

    For 4-byte edges the ids are compacted into the front half of the buffer: chunk [lo, hi) is read (copied)
    before bytes [4 lo, 4 hi) are written, and those bytes belong to keys already read."""
    wshift, wmask = np.uint64(layout.weight_bits), np.uint64((1 << layout.weight_bits) - 1)
    vmask = np.uint64((1 << layout.vertex_bits) - 1)
    weights = np.empty(len(keys), dtype=np.uint32) if with_weights else None
    edges = keys if index_dtype == np.uint64 else keys.view(np.uint32)[: len(keys)]
    for lo, hi in _bounds(len(keys)):
        block = keys[lo:hi]
        if with_weights:
            weights[lo:hi] = block & wmask
        edges[lo:hi] = (block >> wshift) & vmask
    return edges, weights


def csr_from_keys(keys: np.ndarray, num_vertices: int, layout: KeyLayout, index_dtype, with_weights: bool):
    """Sort, merge duplicates (smallest weight), and unpack: (offsets u64, edges, weights u32 or None)."""
    keys.sort()
    keys = _dedup_edges_inplace(keys, layout)
    offsets = _offsets(keys, num_vertices, layout)
    edges, weights = _unpack(keys, layout, np.dtype(index_dtype), with_weights)
    return offsets, edges, weights


def build_weighted_csr(rows, cols, num_vertices: int, weights=None, symmetrize: bool = True, index_dtype=np.uint64):
    """CSR of the pairs (rows[i], cols[i]) carrying optional positive integer weights; see csr_from_keys."""
    max_weight = int(weights.max()) if weights is not None and len(weights) else 0
    layout = key_layout(num_vertices, max_weight, "graph")
    keys = edge_keys(rows, cols, weights, symmetrize, layout)
    return csr_from_keys(keys, num_vertices, layout, index_dtype, weights is not None)


# ---------------------------------------------------------------------------------------------- memory


def estimated_peak_bytes(num_vertices: int, nnz: int, field: str, symmetric: bool) -> int:
    """The converter's peak memory (module docstring), from the Matrix Market header alone."""
    index = 4 if num_vertices < 2**31 else 8
    value = 8  # fmm.read_coo reads every field as 8-byte values (int64, uint64, float64)
    carried = field in INTEGER_FIELDS  # an upper bound: integer values may still turn out unusable
    directed = nnz * (2 if symmetric else 1)
    read = nnz * (2 * index + value + (4 if carried else 0))
    keys = nnz * (2 * index + (4 if carried else 0)) + 8 * directed
    output = 8 * directed + 4 * directed
    return max(read, keys, output) + 16 * (num_vertices + 1) + 64 * _CHUNK * _workers() + _BASELINE_BYTES


def _memory_check(archive, log, available: int | None):
    def check(h) -> None:
        need = estimated_peak_bytes(h.nrows, h.nnz, h.field, h.symmetry != "general")
        log(
            f"matrix {h.nrows} x {h.ncols}, {h.nnz} stored entries, {h.field} {h.symmetry}; "
            f"conversion needs about {need / 2**30:.1f} GiB"
        )
        if available is not None and need > available:
            raise DatasetError(
                f"{archive}: converting needs about {need / 2**30:.1f} GiB of memory, {available / 2**30:.1f} GiB "
                "are available; run it on a larger machine, or pass --ignore-memory-check to try anyway"
            )

    return check


# ---------------------------------------------------------------------------------------------- conversion


def _progress(label: str):
    t0 = time.perf_counter()

    def log(msg: str) -> None:
        print(f"[suitesparse {label}] {time.perf_counter() - t0:8.1f} s  {msg}", file=sys.stderr, flush=True)

    return log


def _graph_from_matrix(matrix: MatrixEntries, index_dtype, weights_seed: int, log):
    """Build the CSR, releasing the matrix's arrays as soon as the keys hold everything."""
    usable, reason = dataset_weights_usable(matrix.field, matrix.symmetry, matrix.values, matrix.not_integer)
    values = matrix.values.astype(np.uint32) if usable else None
    matrix.values = None
    layout = key_layout(matrix.num_vertices, int(values.max()) if usable else 0, matrix.label)
    keys = edge_keys(matrix.rows, matrix.cols, values, matrix.symmetric, layout)
    matrix.rows = matrix.cols = values = None
    log(f"{len(keys)} directed edges before merging duplicates; sorting")
    offsets, edges, weights = csr_from_keys(keys, matrix.num_vertices, layout, index_dtype, usable)
    del keys
    if usable:
        weight_info = {"source": "dataset", "reason": reason}
    else:
        log(f"generating weights {LOW}..{HIGH} (seed {weights_seed}): {reason}")
        weights = csr_weights(offsets, edges, weights_seed)
        weight_info = {
            "source": "generated",
            "reason": reason,
            "seed": weights_seed,
            "low": LOW,
            "high": HIGH,
            "generator": "emogi.datasets.weights.csr_weights (hash of the unordered edge and the seed)",
        }
    return CSRGraph(offsets, edges, weights, directed=not matrix.symmetric), weight_info


def build_graph(matrix: MatrixEntries, index_dtype, weights_seed: int, log):
    """The graph and its weights' record from the entries, or a one-line DatasetError when memory runs out (a
    header of 2^32 vertices past --ignore-memory-check needs 32 GiB of offsets alone)."""
    try:
        return _graph_from_matrix(matrix, index_dtype, weights_seed, log)
    except MemoryError as err:
        why = f"{matrix.label}: not enough memory to build the graph ({err}); use a larger machine"
        raise DatasetError(why) from None


def convert(
    archive,
    out,
    meta=None,
    name: str | None = None,
    weights_seed: int = 1,
    index_bytes: int = 8,
    parallelism: int = 0,
    check_memory: bool = True,
    available: int | None = None,
) -> CSRGraph:
    """Convert the main matrix of `archive` into the graph file `out` (and metadata JSON `meta`)."""
    if index_bytes not in (4, 8):
        raise DatasetError(f"--index-bytes must be 4 or 8, not {index_bytes}")
    archive, out = Path(archive), Path(out)
    log = _progress(name or archive.name.removesuffix(".tar.gz").removesuffix(".tgz"))
    available = available if available is not None else available_memory_bytes()
    before_body = _memory_check(archive, log, available) if check_memory else None
    t0 = time.perf_counter()
    with open_matrix(archive, name) as (member, f, size):
        log(f"reading {member} from {archive.name}")
        matrix = read_matrix(f, f"{archive}: {member}", parallelism, before_body, size)
    if matrix.not_integer is not None:
        log(f"warning: integer matrix with a value that is not an integer (entry {matrix.not_integer[0]})")
    stored = len(matrix.rows)
    self_loops = int(np.count_nonzero(matrix.rows == matrix.cols))
    mm = {"member": member, "field": matrix.field, "symmetry": matrix.symmetry, "stored_entries": stored}
    t_read = time.perf_counter() - t0
    log(f"read {stored} entries ({self_loops} on the diagonal)")
    graph, weight_info = build_graph(matrix, np.uint32 if index_bytes == 4 else np.uint64, weights_seed, log)
    t_built = time.perf_counter() - t0
    log(f"built CSR: V={graph.num_vertices} E={graph.num_edges}; writing {out}")
    graph.header = write_csr(out, graph.offsets, graph.edges, graph.weights, graph.directed)
    graph.path = out
    if meta:
        _write_meta(
            meta,
            graph,
            archive,
            mm,
            self_loops,
            weight_info,
            {
                "read": round(t_read, 3),
                "build": round(t_built - t_read, 3),
                "write": round(time.perf_counter() - t0 - t_built, 3),
            },
        )
    log("done")
    return graph


def _write_meta(
    meta, graph: CSRGraph, archive: Path, mm: dict, self_loops: int, weight_info: dict, phases: dict
) -> None:
    symmetric = not graph.directed
    directed_before_merge = (mm["stored_entries"] - self_loops) * (2 if symmetric else 1)
    info = describe(graph)
    info["source"] = {
        "archive": archive.name,
        "archive_bytes": archive.stat().st_size,
        "archive_sha256": sha256_of(archive),
        "matrix_market": mm,
    }
    info["conversion"] = {
        "symmetrized": symmetric,
        "directed": graph.directed,
        "self_loops_removed": self_loops,
        "duplicate_edges_merged": directed_before_merge - graph.num_edges,
        "duplicate_rule": "one edge per (src, dst); the smallest weight is kept",
        "neighbour_lists_sorted": True,
    }
    info["weights"] = weight_info
    info["phase_seconds"] = phases
    write_text(json.dumps(info, indent=2) + "\n", meta)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m emogi.datasets.suitesparse", description=__doc__.split("\n")[0])
    p.add_argument("--archive", required=True, help="SuiteSparse <Name>.tar.gz (or a bare .mtx / .mtx.gz)")
    p.add_argument("--out", required=True, help="graph file to write (.csr)")
    p.add_argument("--meta", help="metadata JSON to write beside the graph")
    p.add_argument("--name", help="read <NAME>/<NAME>.mtx (default: the archive's <dir>/<dir>.mtx)")
    p.add_argument("--weights-seed", type=int, default=1, help="seed of generated weights (default 1)")
    p.add_argument("--index-bytes", type=int, choices=(4, 8), default=8, help="edge id width (default 8)")
    p.add_argument("--threads", type=int, default=0, help="parser threads (default 0: all cores)")
    p.add_argument("--ignore-memory-check", action="store_true", help="convert even if memory looks too small")
    args = p.parse_args(argv)
    exit_cleanly_on_signals()  # SIGTERM/SIGINT remove the half-written output
    try:
        convert(
            args.archive,
            args.out,
            args.meta,
            args.name,
            args.weights_seed,
            args.index_bytes,
            args.threads,
            check_memory=not args.ignore_memory_check,
        )
    except (DatasetError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
