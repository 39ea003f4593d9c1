"""A SYNTHETIC CPU-study archive folder (tests only, never archived): the files tools/device/cpu_study.sh and the GPU
runs write (docs/cpu.md), with round numbers whose side by side, blocking speedups and ratios are known by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from emogi.schema import APP_COLUMNS, PROVENANCE_COLUMNS

E24 = 268_000_000  # the synthetic graphs' edges
V24, V27 = 1 << 24, 1 << 27
LLC = 300 << 20
GPU_COLUMNS = [c for c in APP_COLUMNS if c not in PROVENANCE_COLUMNS]  # what `emogi run` prints


def _kernel_rows(graph, vertices, form, rows, verified="yes"):
    out = []
    for kernel, segments, iterations, ms in rows:
        row = dict(graph=f"{graph}.w4.csr", vertices=vertices, edges=E24, index_bytes=4, kernel=kernel,
                   segments=segments, home_vertices=0, duplication=1.5 if segments else 0, build_s=0.1,
                   iterations=iterations, verified=verified, median_ms=ms, min_ms=ms, max_ms=ms, reps=1,
                   ms_per_iteration=ms / iterations, gteps=0, threads=16, llc_bytes=LLC)  # fmt: skip
        if form:
            row = {"form": form, **row}
        out.append(row)
    return pd.DataFrame(out)


def synthetic_archive(folder: Path, graphs=("kron24", "urand24"), kron27=True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    prov = dict(gpu="SYNTHETIC GPU (test fixture)", driver="0", cuda="0", commit="synthetic", date="2000-01-02T03:04Z",
                command="tests/cpu_study_fixture.py")  # fmt: skip
    (folder / "provenance.json").write_text(json.dumps(prov))
    (folder / "machine.json").write_text(json.dumps({"numa_nodes": 1, "llc_bytes": LLC, "logical_cpus": 16}))
    mem = [("sequential", 16, 0.1), ("random", 16, 0.8), ("sequential", 1, 0.5), ("random", 1, 2.5)]
    pd.DataFrame([dict(pattern=p, pass_threads=t, array_bytes=2 << 30, accesses=1 << 28, seconds=s) for p, t, s in mem]
                 ).to_csv(folder / "membench.csv", index=False)  # fmt: skip
    # kron24: blocking at 4 segments 1.25x per round (2000 / 20 rounds unblocked, 1600 / 20 blocked)
    _kernel_rows("kron24", V24, "jacobi", [("unblocked", 0, 20, 2000), ("blocked", 1, 20, 2400),
                 ("blocked", 4, 20, 1600)]).to_csv(folder / "pagerank_kron24.csv", index=False)  # fmt: skip
    _kernel_rows("kron24", V24, "delta", [("unblocked", 0, 30, 1500), ("blocked", 1, 30, 1500)]).to_csv(
        folder / "pagerank_delta_kron24.csv", index=False)  # fmt: skip
    _kernel_rows("kron24", V24, None, [("unblocked", 0, 5, 500), ("blocked", 2, 5, 250)]).to_csv(
        folder / "cc_kron24.csv", index=False)  # fmt: skip
    if kron27:  # 10 fixed rounds: PageRank 2x, delta 1.6x, CC 2.5x per round
        _kernel_rows("kron27", V27, "jacobi", [("unblocked", 0, 10, 10000), ("blocked", 4, 10, 5000)],
                     "not converged").to_csv(folder / "pagerank_kron27.csv.gz", index=False)  # fmt: skip
        _kernel_rows("kron27", V27, "delta", [("unblocked", 0, 10, 8000), ("blocked", 4, 10, 5000)],
                     "not converged").to_csv(folder / "pagerank_delta_kron27.csv", index=False)  # fmt: skip
        _kernel_rows("kron27", V27, None, [("unblocked", 0, 8, 4000), ("blocked", 8, 8, 1600)],
                     "skipped").to_csv(folder / "cc_kron27.csv", index=False)  # fmt: skip
    for g in graphs:
        peer = []
        for a, ms in (("bfs", 400), ("sssp", 4000), ("cc", 2000), ("pagerank", 3000)):
            for root in (11, 22) if a in ("bfs", "sssp") else [""]:
                t = ms + (100 if root == 22 else 0)  # the two roots: mean = ms + 50
                peer.append(dict(graph=f"{g}.w4.csr", library="graphblas", version="9.9", threads=16, algorithm=a,
                                 root=root, median_ms=t, min_ms=t, max_ms=t, reps=3, edges=E24,
                                 edges_per_s=E24 / t * 1e3, convert_s=1, check="ok", detail=""))  # fmt: skip
        pd.DataFrame(peer).to_csv(folder / f"peer_{g}.csv", index=False)
        gpu = []
        times = {("bfs", "merged-aligned"): 100, ("bfs", "direction-optimizing"): 20, ("sssp", "merged-aligned"): 250,
                 ("sssp", "frontier"): 80, ("cc", "merged-aligned"): 200, ("cc", "afforest"): 15,
                 ("pagerank", "merged-aligned"): 4000, ("pagerank", "gauss-seidel"): 1500}  # fmt: skip
        for (a, v), ms in times.items():
            for mode, scale in (("zerocopy", 1.0), ("device", 0.25)):
                for root in (11, 22) if a in ("bfs", "sssp") else [""]:
                    for rep, jitter in enumerate((1.0, 1.1, 0.9)):  # median = the middle one
                        gpu.append(dict(graph=g, algorithm=a, variant=v, mode=mode, edge_bytes=4, max_warps=0,
                                        root=root, rep=rep, time_ms=ms * scale * jitter, edges_traversed=E24,
                                        levels=0, iterations=0, components=0, verified=True))  # fmt: skip
        pd.DataFrame(gpu, columns=GPU_COLUMNS).to_csv(folder / f"gpu_{g}.csv", index=False)
    return folder
