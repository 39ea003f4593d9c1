"""The EMOGI artifact's `.bel` graph files: export our CSR graphs to them and import them back.

The format (illinois-impact/EMOGI README; the readers are the main() functions of bfs.cu, sssp.cu, ...):

    PREFIX.bel.col   header, then V + 1 row offsets, u64
    PREFIX.bel.dst   header, then E column indices, u64 (the artifact's 4-byte programs narrow them in memory)
    PREFIX.bel.val   header, then E weights, u32 (only SSSP reads it)

Each header is 16 bytes: a little-endian u64 counting the elements that follow, then a u64 the readers ignore
(we write 0). The readers take the count of `.col` as V + 1 (`vertex_count--` after reading it) and then read
V + 1 offsets, so that count is the number of offsets, not V. A `.col` whose count is V (one fewer than the
offsets it holds) is refused on import: the artifact would silently drop the last vertex.

PREFIX is what the artifact's `-f` option takes (`data/kron24.bel`); a PREFIX without `.bel` gets it appended.
Import keeps the lists exactly as the files hold them (no self-loop or duplicate removal), so that export then
import gives back the same graph. `.bel` does not say whether a graph is directed: import takes --directed or
--undirected, or, given neither, finds out by checking whether the edge list is symmetric (it sorts two keys
per edge: about 32 bytes of memory per edge, so name the directedness for the largest graphs).
Weights on import: the `.val` file's when there is one (--weights-seed is then unused); otherwise uniform
8..72 from emogi.datasets.weights when --weights-seed is given, or none (recorded in the metadata).

CLI:
    python -m emogi.datasets.bel export G.csr --out PREFIX
    python -m emogi.datasets.bel import PREFIX --out G.csr --meta G.json [--directed|--undirected]
        [--index-bytes 4|8] [--weights-seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import sys
from pathlib import Path

import numpy as np

from emogi.atomic import atomic_path, exit_cleanly_on_signals, write_text
from emogi.cli import exit_status
from emogi.csr import CSRGraph, GraphFormatError, check_index_width, describe, narrow_edges, read_csr, write_csr
from emogi.csr_checks import check_edge_ids, check_offsets
from emogi.datasets.weights import HIGH, LOW, csr_weights

HEADER = struct.Struct("<QQ")  # element count, placeholder
SUFFIXES = {"col": ("<u8", ".bel.col"), "dst": ("<u8", ".bel.dst"), "val": ("<u4", ".bel.val")}
_CHUNK_ELEMENTS = 8 << 20


def bel_paths(prefix) -> dict[str, Path]:
    """The three file names of a `.bel` graph; `prefix` may end in `.bel` (the artifact's -f argument) or not."""
    base = str(prefix)
    if not base.endswith(".bel"):
        base += ".bel"
    return {part: Path(base[: -len(".bel")] + suffix) for part, (_, suffix) in SUFFIXES.items()}


# ---------------------------------------------------------------------------------------------- export


def _write_array(path: Path, array, dtype: str) -> None:
    """Header (count, 0) and the array as `dtype`, streamed in bounded chunks, written atomically."""
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        f.write(HEADER.pack(len(array), 0))
        for lo in range(0, len(array), _CHUNK_ELEMENTS):
            f.write(np.ascontiguousarray(array[lo : lo + _CHUNK_ELEMENTS], dtype=dtype).tobytes())
        f.flush()
        os.fsync(f.fileno())


def export_bel(graph: CSRGraph, prefix) -> dict[str, Path]:
    """Write `graph` as PREFIX.bel.col/.dst (and .val when it has weights); returns the paths written."""
    paths = bel_paths(prefix)
    _write_array(paths["col"], graph.offsets, SUFFIXES["col"][0])
    _write_array(paths["dst"], graph.edges, SUFFIXES["dst"][0])  # always 8-byte ids, as the artifact reads them
    if graph.has_weights:
        _write_array(paths["val"], graph.weights, SUFFIXES["val"][0])
    else:
        paths["val"].unlink(missing_ok=True)  # a .val left from an earlier export would be imported as this graph's
    return {part: p for part, p in paths.items() if p.exists()}


# ---------------------------------------------------------------------------------------------- import


def read_count(path: Path) -> int:
    """The element count in the header of one `.bel` file."""
    with open(path, "rb") as f:
        head = f.read(HEADER.size)
    if len(head) < HEADER.size:
        raise GraphFormatError(f"{path}: truncated: {len(head)} bytes, shorter than the {HEADER.size}-byte header")
    return HEADER.unpack(head)[0]


def _check_size(path: Path, count: int, itemsize: int) -> None:
    size = path.stat().st_size
    expected = HEADER.size + count * itemsize
    if size == expected:
        return
    if path.name.endswith(".col") and size == expected + itemsize:
        raise GraphFormatError(
            f"{path}: header counts {count} offsets but the file holds {count + 1}: it was written with V instead "
            f"of V + 1 in the first header word, and the artifact would read only {count - 1} vertices; "
            f"rewrite its first 8 bytes as {count + 1}"
        )
    raise GraphFormatError(
        f"{path}: header counts {count} elements of {itemsize} bytes, so the file should have "
        f"{expected} bytes; it has {size}"
    )


def _map(path: Path, dtype: str, count: int) -> np.ndarray:
    if count == 0:
        return np.empty(0, dtype=dtype)
    return np.memmap(path, dtype=dtype, mode="r", offset=HEADER.size, shape=(count,))


def read_bel(prefix, index_bytes: int = 8) -> CSRGraph:
    """Map a `.bel` graph read-only (edges narrowed to uint32 when index_bytes is 4). Counts and sizes are checked
    first, then the offsets and every id: the files come from outside, and errors name the input file at fault."""
    paths = bel_paths(prefix)
    for part in ("col", "dst"):
        if not paths[part].exists():
            raise GraphFormatError(
                f"{paths[part]}: missing (a .bel graph needs {paths['col'].name} and {paths['dst'].name}; check PREFIX)"
            )
    num_offsets, num_edges = read_count(paths["col"]), read_count(paths["dst"])
    if num_offsets < 1:
        raise GraphFormatError(f"{paths['col']}: header counts 0 offsets; a graph has V + 1 >= 1")
    # The width check needs only the header, so a claim of 2^32 vertices is refused before anything is mapped.
    check_index_width(num_offsets - 1, index_bytes, str(paths["col"]))
    _check_size(paths["col"], num_offsets, 8)
    _check_size(paths["dst"], num_edges, 8)
    weights = None
    if paths["val"].exists():
        num_weights = read_count(paths["val"])
        if num_weights != num_edges:
            raise GraphFormatError(
                f"{paths['val']}: counts {num_weights} weights but {paths['dst'].name} counts {num_edges} edges"
            )
        _check_size(paths["val"], num_weights, 4)
        weights = _map(paths["val"], "<u4", num_weights)
    offsets, edges = _map(paths["col"], "<u8", num_offsets), _map(paths["dst"], "<u8", num_edges)
    # The lists are checked before anything uses them (symmetry, weights, narrowing), naming the file at fault.
    check_offsets(offsets, num_edges, f"{paths['col']} (with {num_edges} edges in {paths['dst'].name})")
    check_edge_ids(edges, num_offsets - 1, str(paths["dst"]), offsets)
    graph = CSRGraph(offsets, edges, weights, path=paths["col"])
    return narrow_edges(graph) if index_bytes == 4 else graph


def is_symmetric(offsets, edges) -> bool:
    """Whether every edge (u, v) has its reverse (v, u), multiplicities included (sorts 2 x E keys)."""
    num_vertices = len(offsets) - 1
    if num_vertices > 2**32:
        raise GraphFormatError(f"{num_vertices} vertices: too many to check symmetry; pass --directed or --undirected")
    src = np.repeat(np.arange(num_vertices, dtype=np.uint64), np.diff(offsets).astype(np.int64))
    dst = np.asarray(edges, dtype=np.uint64)
    forward = np.sort((src << np.uint64(32)) | dst)
    backward = np.sort((dst << np.uint64(32)) | src)
    return bool(np.array_equal(forward, backward))


# ---------------------------------------------------------------------------------------------- CLI


def _progress(message: str) -> None:
    print(f"[emogi.datasets.bel] {message}", file=sys.stderr, flush=True)


def _cmd_export(args) -> None:
    graph = read_csr(args.graph, verify_checksum=True)
    _progress(f"{args.graph}: V={graph.num_vertices}, E={graph.num_edges}; writing {bel_paths(args.out)['col']}")
    written = export_bel(graph, args.out)
    _progress("wrote " + ", ".join(str(p) for p in written.values()))


def _directedness(args, graph: CSRGraph) -> tuple[bool, str]:
    if args.directed is not None:
        return args.directed, "given on the command line"
    _progress("checking whether the edge list is symmetric (pass --directed or --undirected to skip)")
    return not is_symmetric(graph.offsets, graph.edges), "detected: edge list symmetry"


def _weights(args, graph: CSRGraph, paths) -> tuple[np.ndarray | None, dict | None]:
    if graph.has_weights:
        if args.weights_seed is not None:
            _progress(f"using the weights of {paths['val']}; --weights-seed {args.weights_seed} is not needed")
        return graph.weights, {"source": "dataset", "file": str(paths["val"])}
    if args.weights_seed is None:
        return None, None
    _progress(f"generating weights {LOW}..{HIGH} from seed {args.weights_seed}")
    return (
        csr_weights(graph.offsets, graph.edges, args.weights_seed),
        {
            "source": "generated",
            "reason": f"{paths['val'].name} absent",
            "seed": args.weights_seed,
            "low": LOW,
            "high": HIGH,
            "generator": "emogi.datasets.weights.csr_weights (hash of the unordered edge and the seed)",
        },
    )


def _cmd_import(args) -> None:
    paths = bel_paths(args.prefix)
    graph = read_bel(args.prefix, args.index_bytes)
    _progress(f"{paths['col']}: V={graph.num_vertices}, E={graph.num_edges}")
    directed, how = _directedness(args, graph)
    weights, weights_meta = _weights(args, graph, paths)
    header = write_csr(args.out, graph.offsets, graph.edges, weights, directed)
    out = CSRGraph(graph.offsets, graph.edges, weights, directed, header=header, path=Path(args.out))
    _progress(f"wrote {args.out} ({header.file_size} bytes)")
    if args.meta:
        meta = describe(out)
        meta["source"] = {
            "format": "emogi-bel",
            "files": [str(p) for p in paths.values() if p.exists()],
            "directedness": how,
        }
        meta["weights"] = weights_meta
        write_text(json.dumps(meta, indent=2) + "\n", args.meta)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m emogi.datasets.bel", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("export", help="write a CSR graph as PREFIX.bel.col/.dst/.val")
    p.add_argument("graph", help="graph file (.csr)")
    p.add_argument("--out", required=True, help="PREFIX of the .bel files (PREFIX or PREFIX.bel)")
    p.set_defaults(func=_cmd_export)
    p = sub.add_parser("import", help="write PREFIX.bel.col/.dst/.val as a CSR graph")
    p.add_argument("prefix", help="PREFIX of the .bel files (PREFIX or PREFIX.bel)")
    p.add_argument("--out", required=True, help="graph file to write (.csr)")
    p.add_argument("--meta", help="metadata JSON to write beside --out")
    p.add_argument("--index-bytes", type=int, choices=(4, 8), default=8, help="edge id width (default 8)")
    p.add_argument(
        "--weights-seed",
        type=int,
        help="generate weights 8..72 from this seed when there is no .val (default: no weights then)",
    )
    way = p.add_mutually_exclusive_group()
    way.add_argument("--directed", dest="directed", action="store_true", help="record the graph as directed")
    way.add_argument(
        "--undirected",
        dest="directed",
        action="store_false",
        help="record it as undirected (not checked); given neither, symmetry decides",
    )
    p.set_defaults(func=_cmd_import, directed=None)
    args = parser.parse_args(argv)
    exit_cleanly_on_signals()  # SIGTERM/SIGINT remove the half-written output
    return exit_status(lambda: args.func(args), (GraphFormatError, OSError))


if __name__ == "__main__":
    sys.exit(main())
