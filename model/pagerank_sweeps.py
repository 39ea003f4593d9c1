"""How many times push PageRank reads the edge list before every residual is at most the tolerance.

The artifact's PageRank (kernels/include/emogi/pagerank.cuh) works in Jacobi rounds: a round pushes, from every
vertex whose residual exceeds the tolerance, alpha * residual / out-degree to each out-neighbour, using the
residuals as they stood when the round began. In zero-copy mode each push reads the vertex's list over the link,
so the run's time is about (list entries read) x (bytes per entry) / (link throughput): what counts is how many
whole edge lists ("sweeps") the pushes add up to.

Gauss-Seidel order (the `gauss-seidel` variant) takes a vertex's residual when its turn comes, so residual pushed
to it earlier in the same round moves on in that round. The GPU takes vertices in waves of consecutive ids; here
the vertices are cut into `blocks` consecutive ranges taken one after another, each range pushing at once.
blocks = 1 is the Jacobi round exactly. Both stop at the same rule: a round in which no residual exceeds the
tolerance.

A decaying threshold (`--decays`) asks whether waiting pays: pass k pushes only residuals above
max(tolerance, (1 - alpha) * decay^(k+1)), so a vertex pushes later, with more residual gathered per read of its
list. Passes that push nothing while the threshold is above the tolerance are not counted as rounds; the run still
ends with a round at the tolerance that pushes nothing.

    python -m model.pagerank_sweeps --graph resources/graphs/kron23.w8.csr --blocks 1,256 --out sweeps.csv
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv
from emogi.csr import GraphFormatError, read_csr

SWEEP_COLUMNS = [
    "graph",
    "blocks",
    "decay",
    "alpha",
    "tolerance",
    "rounds",
    "entries_read",
    "edges",
    "sweeps",
    "max_residual",
    "min_residual",
]


def push_pagerank(
    offsets,
    edges,
    blocks: int = 1,
    alpha: float = 0.85,
    tolerance: float = 1e-3,
    max_rounds: int = 5000,
    decay: float = 0.0,
) -> dict:
    """Runs push PageRank from residual 1 - alpha everywhere; returns rounds (those that pushed), list entries
    read (in all and per round), the values and the residuals left. `blocks` consecutive vertex ranges are taken
    in turn each round; decay > 0 lowers the threshold from (1 - alpha) * decay to the tolerance, pass by pass."""
    offsets = np.asarray(offsets, dtype=np.int64)
    n = len(offsets) - 1
    if blocks < 1 or blocks > max(n, 1):
        raise ValueError(f"blocks must lie in [1, {max(n, 1)}], got {blocks}")
    if not 0 <= decay < 1:
        raise ValueError(f"decay must lie in [0, 1), got {decay}")
    degree = np.diff(offsets)
    share = np.divide(alpha, degree, out=np.zeros(n), where=degree > 0)  # what each list entry carries per unit
    bounds = np.linspace(0, n, blocks + 1).astype(np.int64)
    residual = np.full(n, 1.0 - alpha)
    value = np.zeros(n)
    rounds = read = passes = 0
    per_round = []
    while rounds < max_rounds:
        passes += 1
        threshold = max(tolerance, (1.0 - alpha) * decay**passes)
        pushed, round_read = False, 0
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            r = residual[lo:hi]
            take = r > threshold
            if not take.any():
                continue
            taken = np.where(take, r, 0.0)
            value[lo:hi] += taken
            r[take] = 0.0
            first, last = offsets[lo], offsets[hi]
            carried = np.repeat(taken * share[lo:hi], degree[lo:hi])  # per list entry of the range
            residual += np.bincount(np.asarray(edges[first:last]), weights=carried, minlength=n)
            pushers = take & (degree[lo:hi] > 0)
            round_read += int(degree[lo:hi][pushers].sum())
            pushed = pushed or bool(pushers.any())
        if not pushed:
            if threshold > tolerance:
                continue
            break
        rounds += 1
        read += round_read
        per_round.append(round_read)
    else:
        raise RuntimeError(f"push PageRank did not converge in {max_rounds} rounds")
    return {"rounds": rounds, "entries_read": read, "per_round": per_round, "value": value, "residual": residual}


def sweeps_table(
    offsets, edges, name: str, blocks_list, alpha: float = 0.85, tolerance: float = 1e-3, decays=(0.0,)
) -> pd.DataFrame:
    """SWEEP_COLUMNS rows, one per block count x decay (0: no waiting, the GPU's schedules)."""
    E = int(np.asarray(offsets)[-1])
    rows = []
    for blocks, decay in itertools.product(blocks_list, decays):
        run = push_pagerank(offsets, edges, int(blocks), alpha, tolerance, decay=float(decay))
        rows.append(
            {
                "graph": name,
                "blocks": int(blocks),
                "decay": float(decay),
                "alpha": alpha,
                "tolerance": tolerance,
                "rounds": run["rounds"],
                "entries_read": run["entries_read"],
                "edges": E,
                "sweeps": run["entries_read"] / E if E else float("nan"),
                "max_residual": float(run["residual"].max()),
                "min_residual": float(run["residual"].min()),
            }
        )
    return pd.DataFrame(rows, columns=SWEEP_COLUMNS)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m model.pagerank_sweeps", description=__doc__.split("\n\n")[0])
    ap.add_argument("--graph", type=Path, required=True, help="EMOGI CSR file")
    ap.add_argument("--name", help="graph name for the table (default: the file's stem)")
    ap.add_argument("--blocks", default="1,256", help="vertex ranges per round; 1 is the Jacobi round")
    ap.add_argument("--decays", default="0", help="threshold decays per pass, in [0, 1); 0 pushes at the tolerance")
    ap.add_argument("--alpha", type=float, default=0.85)
    ap.add_argument("--tolerance", type=float, default=1e-3)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    try:
        blocks = [int(b) for b in a.blocks.split(",")]
        decays = [float(d) for d in a.decays.split(",")]
        if not 0 < a.alpha < 1 or not a.tolerance > 0:
            raise ValueError(f"need 0 < alpha < 1 and tolerance > 0, got {a.alpha} and {a.tolerance}")
        t0 = time.perf_counter()
        g = read_csr(a.graph, verify_checksum=False)
        table = sweeps_table(
            g.offsets, g.edges, a.name or a.graph.name.split(".")[0], blocks, a.alpha, a.tolerance, decays
        )
    except (GraphFormatError, ValueError, OSError) as e:
        print(f"model.pagerank_sweeps: {e}", file=sys.stderr)
        return 2
    write_csv(table, a.out)
    print(table[["graph", "blocks", "decay", "rounds", "sweeps"]].to_string(index=False))
    print(f"({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
