"""Read amplification of BFS (CXL paper §3.1): bytes fetched when the edge list is read in aligned blocks.

A level-synchronous BFS reads the neighbour list of every vertex it expands exactly once: every vertex it reaches
that has out-edges. With byte offsets start = offsets[v] * edge_bytes and end = offsets[v+1] * edge_bytes,

    E    = sum over expanded v of (end - start)                                (bytes needed)
    D(a) = sum over expanded v of (ceil(end / a) - floor(start / a)) * a        (bytes fetched at alignment a)
    RAF  = D / E
    max_list_bytes = max over expanded v of (end - start)   (the critical path of the traversal: model.predict)

Each list is rounded out on its own: no cache keeps a block between two lists. On the GPU that is what zero-copy
reads do (host lines are not kept in the L2, ../shared/FACTS.md), and it is the paper's definition; two short
lists that share a block therefore both pay for it, so D(a) is an upper bound where a cache would help.

Reach comes from scipy.sparse.csgraph.breadth_first_order over the out-edges (directed=True: the GPU kernel
follows out-edges). A scale-23 graph (8.4 M vertices, 268 M edges) needs the edges once as int32 (1 GB); the
data array scipy requires is a zero-stride view, so it costs nothing.

    python -m model.amplification --graph resources/graphs/kron23.w8.csr --name kron23 \\
        --roots results/roots/kron23.txt --count 2 --alignments 32,64,128,256,512,1024,2048,4096 \\
        --out results/fresh/amplification/kron23.w8.csv
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order

from emogi.atomic import write_csv
from emogi.csr import GraphFormatError, read_csr
from emogi.schema import AMPLIFICATION_COLUMNS

_CHUNK = 1 << 24  # edges converted per step (bounded temporaries)


def fetched_bytes(offsets, edge_bytes: int, expanded_mask, alignment: int) -> tuple[int, int]:
    """(E, D): bytes of the lists of the expanded vertices, and those lists rounded out to `alignment`-byte
    blocks. `expanded_mask` is a boolean array of V entries (reached vertices; those without out-edges add
    nothing)."""
    if not (isinstance(alignment, (int, np.integer)) and alignment > 0):
        raise ValueError(f"alignment must be a positive integer number of bytes, got {alignment!r}")
    if edge_bytes not in (4, 8):
        raise ValueError(f"edge_bytes must be 4 or 8, got {edge_bytes!r}")
    offsets = np.asarray(offsets)
    mask = np.asarray(expanded_mask, dtype=bool)
    if mask.shape != (len(offsets) - 1,):
        raise ValueError(f"expanded_mask has {mask.shape} entries, the graph {len(offsets) - 1} vertices")
    v = np.flatnonzero(mask)
    start = offsets[v].astype(np.int64) * edge_bytes
    end = offsets[v + 1].astype(np.int64) * edge_bytes
    keep = end > start  # a vertex without out-edges reads nothing (its empty range would round to one block)
    start, end = start[keep], end[keep]
    E = int((end - start).sum())
    blocks = -(-end // alignment) - start // alignment
    return E, int(blocks.sum()) * int(alignment)


def out_edge_graph(offsets, edges) -> sp.csr_matrix:
    """The CSR as a scipy matrix for csgraph, with the narrowest index type scipy accepts and no real data."""
    n, m = len(offsets) - 1, len(edges)
    itype = np.int32 if max(n, m) < np.iinfo(np.int32).max else np.int64
    indptr = np.asarray(offsets).astype(itype)
    indices = np.empty(m, dtype=itype)
    for lo in range(0, m, _CHUNK):  # bounded temporaries while converting a memory-mapped u32/u64 array
        indices[lo : lo + _CHUNK] = edges[lo : lo + _CHUNK]
    data = np.lib.stride_tricks.as_strided(np.ones(1), shape=(m,), strides=(0,))  # csgraph ignores weights
    return sp.csr_matrix((data, indices, indptr), shape=(n, n), copy=False)


def reached(graph: sp.csr_matrix, root: int) -> np.ndarray:
    """Boolean mask of the vertices a BFS from `root` reaches along out-edges (root included)."""
    n = graph.shape[0]
    if not 0 <= root < n:
        raise ValueError(f"root {root} is not a vertex of a {n}-vertex graph")
    order = breadth_first_order(graph, int(root), directed=True, return_predecessors=False)
    mask = np.zeros(n, dtype=bool)
    mask[order] = True
    return mask


def longest_list_bytes(offsets, edge_bytes: int, expanded_mask) -> int:
    """Bytes of the longest neighbour list among the expanded vertices (0 when none is expanded)."""
    degrees = np.diff(np.asarray(offsets, dtype=np.int64))[np.asarray(expanded_mask, dtype=bool)]
    return int(degrees.max()) * int(edge_bytes) if degrees.size else 0


def amplification_table(offsets, edges, edge_bytes: int, roots, alignments, name: str) -> pd.DataFrame:
    """AMPLIFICATION_COLUMNS rows, one per root x alignment."""
    graph = out_edge_graph(offsets, edges)
    rows = []
    for root in roots:
        mask = reached(graph, int(root))
        longest = longest_list_bytes(offsets, edge_bytes, mask)
        for a in alignments:
            E, D = fetched_bytes(offsets, edge_bytes, mask, int(a))
            rows.append(
                {
                    "graph": name,
                    "edge_bytes": edge_bytes,
                    "root": int(root),
                    "alignment_bytes": int(a),
                    "bytes_needed": E,
                    "bytes_fetched": D,
                    "raf": D / E if E else float("nan"),
                    "max_list_bytes": longest,
                }
            )
    return pd.DataFrame(rows, columns=AMPLIFICATION_COLUMNS)


def _int_list(text: str, what: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{what} must be comma-separated integers, got {text!r}") from None
    if not values or any(v <= 0 for v in values):
        raise ValueError(f"{what} must be positive integers, got {text!r}")
    return values


def _roots(path: Path) -> list[int]:
    words = path.read_text().split()
    try:
        roots = [int(w) for w in words]
    except ValueError:
        raise ValueError(f"roots file {path} must hold one vertex id per line") from None
    if not roots or min(roots) < 0:
        raise ValueError(f"roots file {path} holds no vertex ids" if not roots else f"{path}: negative vertex id")
    return roots


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m model.amplification", description=__doc__.split("\n\n")[0])
    ap.add_argument("--graph", type=Path, required=True, help="EMOGI CSR file")
    ap.add_argument("--name", required=True, help="graph name for the table")
    ap.add_argument("--roots", type=Path, required=True, help="roots file, one vertex per line")
    ap.add_argument("--count", type=int, default=2, help="use the first COUNT roots")
    ap.add_argument("--alignments", default="32,64,128,256,512,1024,2048,4096")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    try:
        alignments = _int_list(a.alignments, "--alignments")
        if a.count < 1:
            raise ValueError(f"--count must be >= 1, got {a.count}")
        if not a.roots.is_file():
            raise ValueError(f"roots file {a.roots} is missing")
        roots = _roots(a.roots)[: a.count]
        t0 = time.perf_counter()
        g = read_csr(a.graph, verify_checksum=False)  # the workflow verifies graphs where it makes them
        table = amplification_table(g.offsets, g.edges, g.index_bytes, roots, alignments, a.name)
    except (GraphFormatError, ValueError, OSError) as e:
        print(f"model.amplification: {e}", file=sys.stderr)
        return 2
    write_csv(table, a.out)
    raf = table.groupby("alignment_bytes")["raf"].mean()
    print(
        f"{a.name}: {len(roots)} root(s) x {len(alignments)} alignments in {time.perf_counter() - t0:.1f} s; "
        f"mean RAF " + ", ".join(f"{al} B: {r:.4f}" for al, r in raf.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
