"""BFS source vertices: distinct vertices with out-edges, drawn uniformly at random for a seed.

The paper times 64 random roots with out-edges per graph and reuses the same roots for every kernel variant and
memory mode; writing them once per graph (and seed) is how the workflow does that.

CLI:
    python -m emogi.datasets.roots GRAPH.csr --count 8 --seed 7 --out roots.txt
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from emogi.atomic import write_text
from emogi.csr import GraphFormatError, read_csr


def pick_roots(offsets, count: int, seed) -> np.ndarray:
    """`count` distinct vertices with out-degree > 0, uniform without replacement, as uint64 (in draw order)."""
    offsets = np.asarray(offsets)
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    candidates = np.flatnonzero(offsets[1:] > offsets[:-1])
    if len(candidates) < count:
        raise ValueError(
            f"asked for {count} roots but only {len(candidates)} of {len(offsets) - 1} vertices have out-edges"
        )
    rng = np.random.Generator(np.random.PCG64(seed))
    return rng.choice(candidates, size=count, replace=False).astype(np.uint64)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m emogi.datasets.roots", description="Pick BFS roots with out-edges; one per line."
    )
    parser.add_argument("graph")
    parser.add_argument("--count", type=int, default=64)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        # Only the offsets are needed, but the roots are for kernels: the whole file is checked (ids < V too).
        graph = read_csr(args.graph)
        roots = pick_roots(graph.offsets, args.count, args.seed)
        write_text("".join(f"{int(r)}\n" for r in roots), args.out)
    except (GraphFormatError, ValueError, OSError) as e:
        print(f"error: {args.graph}: {e}" if not str(e).startswith(str(args.graph)) else f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
