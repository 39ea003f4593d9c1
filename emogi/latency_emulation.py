"""Added latency, emulated and measured (CXL paper §4.2, Fig. 11): for each requested delay D, the pointer chase
and the BFS run with every read waiting D after it arrives (`--added-latency-ns`, kernels/include/emogi/
added_latency.cuh). The latency a delay really adds is the chase's latency at D minus its latency at 0, measured
in the same job on an allocation of the graph's footprint: never inferred from the BFS's throughput.

    python -m emogi.latency_emulation --binary build/emogi --graph G.csr --name kron23 --roots 1,2 \\
        --delays-ns 0,500,1000,2000,4000 --out latency_emulation.csv

One row per timed run, both kinds in one table (emogi.schema: latency_emulation), rows stamped with provenance.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from emogi import csr, provenance, schema
from emogi.atomic import write_csv
from emogi.measure import run_binary

CHASE_STEPS = 20000


def _ints(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x]
    except ValueError:
        raise SystemExit(f"latency_emulation: --delays-ns must be integers, comma-separated (got {text!r})") from None
    if not values or 0 not in values or min(values) < 0:
        raise SystemExit("latency_emulation: --delays-ns needs 0 (the baseline) and no negative delay")
    return sorted(set(values))


def sweep(
    binary, graph: Path, name: str, roots: str, delays, variant: str, mode: str, reps: int, device: int, out: Path
):
    """The rows of every chase and BFS run, in the table's columns (provenance left to the caller); the binary's
    temporary outputs go beside `out`."""
    header = csr.read_header(graph)
    footprint = max(256, header.num_edges * header.index_bytes // 128 * 128)  # the chase's array: the edge list's size
    parts = []
    for ns in delays:
        chase = run_binary(
            binary,
            "chase",
            [
                "--modes",
                mode,
                "--footprints",
                str(footprint),
                "--steps",
                str(CHASE_STEPS),
                "--reps",
                str(reps),
                "--added-latency-ns",
                str(ns),
            ],
            out,
            device,
        )
        parts.append(
            chase.assign(
                kind="chase",
                graph=name,
                variant="",
                edge_bytes=header.index_bytes,
                requested_ns=ns,
                root=pd.NA,
            )
        )
        bfs = run_binary(
            binary,
            "run",
            [
                "--algorithm",
                "bfs",
                "--graph",
                str(graph),
                "--name",
                name,
                "--roots",
                roots,
                "--variants",
                variant,
                "--modes",
                mode,
                "--reps",
                str(reps),
                "--warmup",
                "1",
                "--added-latency-ns",
                str(ns),
            ],
            out,
            device,
        )
        parts.append(bfs.assign(kind="bfs", footprint_bytes=footprint, requested_ns=ns, latency_ns=pd.NA))
    rows = pd.concat(parts, ignore_index=True)
    own = [c for c in schema.LATENCY_EMULATION_COLUMNS if c not in schema.PROVENANCE_COLUMNS]
    return rows[own]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m emogi.latency_emulation", description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--graph", type=Path, required=True)
    ap.add_argument("--name", required=True, help="the graph's name in the table")
    ap.add_argument("--roots", required=True, help="BFS sources, comma-separated")
    ap.add_argument("--delays-ns", default="0,500,1000,2000,4000", help="delays to emulate, ns (0 is the baseline)")
    ap.add_argument("--variant", default="merged-aligned", help="the BFS variant (a scan variant: they wait)")
    ap.add_argument("--mode", default="zerocopy", help="where the edge list and the chase's array live")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--device", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    delays = _ints(a.delays_ns)
    prov = provenance.collect(a.binary, a.device)
    rows = sweep(a.binary, a.graph, a.name, a.roots, delays, a.variant, a.mode, a.reps, a.device, a.out)
    write_csv(schema.check_columns(provenance.stamp(rows, prov), "latency_emulation"), a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
