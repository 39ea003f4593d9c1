"""Regenerates graphs of the v12 combined session in memory with the project's generator
(emogi.datasets.generators.generate: the split's kind, scale, edge factor and seed, 4-byte ids) and saves their
CSR as NAME.npz (offsets, edges) for wave_sim.py. Each spec is NAME:KIND:SCALE:EDGE_FACTOR:SEED (the seeds are the
`source` of archive/holdout-v12-h100-2026-11-28/session/graphs/NAME.w8.json); the printed edge count is checked
against that file's num_edges by hand (all matched).

    PYTHONPATH=. python archive/gs-rounds-exploration-2026-11-28/make_graphs.py /tmp/gsr kron19ef11:kron:19:11:34
"""

from __future__ import annotations

import sys
import time

import numpy as np

from emogi.datasets.generators import generate


def main() -> None:
    out = sys.argv[1]
    for spec in sys.argv[2:]:
        name, kind, scale, ef, seed = spec.split(":")
        t = time.time()
        g = generate(kind, int(scale), int(ef), seed=int(seed), workers=1, index_dtype=np.uint32)
        offsets = np.asarray(g.offsets, np.int64)
        np.savez(f"{out}/{name}.npz", offsets=offsets, edges=np.asarray(g.edges, np.uint32))
        print(name, len(offsets) - 1, int(offsets[-1]), round(time.time() - t, 1), flush=True)


if __name__ == "__main__":
    main()
