"""The CPU peer (docs/cpu.md): a well-kept graph library runs BFS, SSSP, CC, PageRank and SpMV on a project graph file,
converted in memory from our CSR; every result is checked against the project's references (the `emogi reference`
command: BFS depths, SSSP distances, CC labels, SpMV's y; PageRank against `emogi_cpu pagerank`'s values, by L1 distance
after normalising both to sum 1) and timed (median of reps after warm-up; the conversion is timed apart). One CSV
row per algorithm and root on stdout.

Libraries: `graphblas` (python-graphblas on SuiteSparse:GraphBLAS with graphblas-algorithms; the choice, see
docs/cpu.md) and `networkit` (measured as a candidate; its BFS and Dijkstra run on one thread).

CLI:
    python -m emogi.cpu_peer --graph G.csr [--library graphblas] [--algorithms bfs,sssp,cc,pagerank[,spmv]]
        [--roots 0,5] [--reps 3] [--warmup 1] [--threads N] [--emogi build/emogi]
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from emogi.csr import GraphFormatError, read_csr

UNREACHED = 0xFFFFFFFF
ALGORITHMS = ("bfs", "sssp", "cc", "pagerank", "spmv")
DEFAULT_ALGORITHMS = ALGORITHMS[:4]  # the traversals; SpMV (graphblas only) when asked for
# SpMV's y may differ from the reference's (double, row order) by this much relative to it: another summation order.
SPMV_RTOL = 1e-9
# PageRank as GAP's reference stops it: the L1 change of the normalised ranks below 1e-4.
PR_ALPHA, PR_L1_CHANGE = 0.85, 1e-4
# What the peer's normalised ranks may differ from ours by (L1): both stop at about 1e-4 of change.
PR_L1_LIMIT = 1e-2


class PeerError(RuntimeError):
    pass


def _need(module: str, package: str):
    try:
        return __import__(module)
    except ImportError as err:
        raise PeerError(f"{package} is not installed: pip install {package} (envs/requirements.txt)") from err


class GraphBlasPeer:
    """SuiteSparse:GraphBLAS through python-graphblas; BFS, SSSP and PageRank from graphblas-algorithms, CC as min
    label propagation in GraphBLAS operations (graphblas-algorithms has no connected components). Every operation
    is a parallel sparse matrix-vector product inside SuiteSparse."""

    name = "graphblas"

    def __init__(self, graph, threads: int):
        self.gb = _need("graphblas", "python-graphblas")
        self.ga = _need("graphblas_algorithms", "graphblas-algorithms")
        if threads:
            self.gb.ss.config["nthreads"] = threads
        self.threads = self.gb.ss.config["nthreads"]
        self.version = (
            f"python-graphblas {self.gb.__version__}, SuiteSparse:GraphBLAS {self.gb.ss.about['library_version']}"
        )
        n = graph.num_vertices
        indptr, cols = np.asarray(graph.offsets, np.uint64), np.asarray(graph.edges, np.uint64)
        self.pattern = self.ga.Graph(self.gb.Matrix.from_csr(indptr, cols, 1.0, nrows=n, ncols=n))
        self.weighted = None
        if graph.weights is not None:
            w = np.asarray(graph.weights, np.uint32)
            self.weighted = self.ga.Graph(self.gb.Matrix.from_csr(indptr, cols, w, nrows=n, ncols=n))
        self.n = n
        # SpMV (CF'17's case study): values are the weights (1.0 without), x as the kernels' (spmv_vector.hpp)
        values = np.asarray(graph.weights, np.float64) if graph.weights is not None else 1.0
        self.matrix = self.gb.Matrix.from_csr(indptr, cols, values, nrows=n, ncols=n)
        self.x = self.gb.Vector.from_dense(spmv_x(n))

    def _dense(self, vector, fill, dtype):
        out = np.full(self.n, fill, dtype=dtype)
        idx, vals = vector.to_coo()
        out[idx] = vals
        return out

    def bfs(self, root):
        return self.ga.algorithms.single_source_shortest_path_length(self.pattern, root)

    def bfs_depths(self, result):
        return self._dense(result, UNREACHED, np.uint32)

    def sssp(self, root):
        if self.weighted is None:
            raise PeerError("the graph has no weights: SSSP needs them")
        return self.ga.algorithms.single_source_bellman_ford_path_length(self.weighted, root)

    def sssp_distances(self, result):
        return self._dense(result, UNREACHED, np.uint32)

    def cc(self, _root=None):
        gb = self.gb
        A = self.pattern._A
        labels = gb.Vector.from_dense(np.arange(self.n, dtype=np.uint64))
        while True:
            pulled = A.mxv(labels, gb.semiring.min_second).new()
            new = labels.ewise_add(pulled, gb.binary.min).new()
            if new.isequal(labels):
                return labels
            labels = new

    def cc_labels(self, result):
        return result.to_dense()

    def pagerank(self, _root=None):
        return self.ga.algorithms.pagerank(self.pattern, alpha=PR_ALPHA, tol=PR_L1_CHANGE / max(self.n, 1))

    def pagerank_values(self, result):
        return self._dense(result, 0.0, np.float64)

    def spmv(self, _root=None):
        return self.matrix.mxv(self.x, self.gb.semiring.plus_times).new()

    def spmv_values(self, result):
        return self._dense(result, 0.0, np.float64)


def spmv_x(n: int) -> np.ndarray:
    """The kernels' x (kernels/include/emogi/spmv_vector.hpp): x_i = 1 + (i mod 7) / 7 in float32, as float64."""
    i = np.arange(n)
    return (np.float32(1) + (i % 7).astype(np.float32) / np.float32(7)).astype(np.float64)


class NetworkitPeer:
    """networkit: BFS and Dijkstra are sequential; ParallelConnectedComponents and PageRank use OpenMP."""

    name = "networkit"

    def __init__(self, graph, threads: int):
        self.nk = _need("networkit", "networkit")
        if threads:
            self.nk.setNumberOfThreads(threads)
        self.threads = self.nk.getMaxNumberOfThreads()
        self.version = f"networkit {self.nk.__version__}"
        n = graph.num_vertices
        offsets = np.asarray(graph.offsets, np.int64)
        rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(offsets))
        cols = np.asarray(graph.edges, np.int64)
        keep = rows < cols if not graph.directed else slice(None)  # undirected: each edge once
        weights = np.asarray(graph.weights, np.float64)[keep] if graph.weights is not None else None
        pairs = (rows[keep], cols[keep])
        self.pattern = self.nk.GraphFromCoo(pairs, n=n, directed=graph.directed)
        self.weighted = None
        if weights is not None:
            self.weighted = self.nk.GraphFromCoo((weights, pairs), n=n, weighted=True, directed=graph.directed)
        self.n = n

    def _distances(self, algo):
        d = np.asarray(algo.getDistances(), dtype=np.float64)
        return np.where(np.isfinite(d) & (d < 1e300), d, UNREACHED).astype(np.uint32)

    def bfs(self, root):
        return self.nk.distance.BFS(self.pattern, int(root), storePaths=False).run()

    bfs_depths = _distances

    def sssp(self, root):
        if self.weighted is None:
            raise PeerError("the graph has no weights: SSSP needs them")
        return self.nk.distance.Dijkstra(self.weighted, int(root), storePaths=False).run()

    sssp_distances = _distances

    def cc(self, _root=None):
        return self.nk.components.ParallelConnectedComponents(self.pattern).run()

    def cc_labels(self, result):
        return np.asarray(result.getPartition().getVector(), dtype=np.uint64)

    def pagerank(self, _root=None):
        pr = self.nk.centrality.PageRank(self.pattern, damp=PR_ALPHA, tol=PR_L1_CHANGE)
        pr.norm = self.nk.centrality.Norm.L1_NORM
        return pr.run()

    def pagerank_values(self, result):
        return np.asarray(result.scores(), dtype=np.float64)

    def spmv(self, _root=None):
        raise PeerError("networkit has no sparse matrix-vector product (use --library graphblas)")


PEERS = {"graphblas": GraphBlasPeer, "networkit": NetworkitPeer}


def canonical_labels(labels: np.ndarray) -> np.ndarray:
    """Each vertex labelled by the smallest vertex of its class: a partition in the reference's form."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    return first[inverse].astype(np.uint64)


class References:
    """The project's answers, from the `emogi` binary (and `emogi_cpu` beside it for PageRank), cached per run."""

    def __init__(self, binary: Path, graph_path: Path, workdir: Path):
        self.binary, self.graph, self.workdir = binary, graph_path, workdir

    def _run(self, args, out, dtype):
        done = subprocess.run([str(a) for a in args], capture_output=True, text=True)
        if done.returncode != 0:
            raise PeerError(f"{args[0]} {args[1]}: {done.stderr.strip()}")
        return np.fromfile(out, dtype=dtype)

    def array(self, algorithm, root=None):
        out = self.workdir / f"{algorithm}-{root}.bin"
        args = [self.binary, "reference", "--graph", self.graph, "--algorithm", algorithm, "--out", out]
        args += ["--root", root] if root is not None else []
        dtype = {"cc": np.uint64, "spmv": np.float64}.get(algorithm, np.uint32)
        return self._run(args, out, dtype)

    def pagerank(self):
        cpu = self.binary.parent / "emogi_cpu"
        out = self.workdir / "pagerank.f32"
        args = [cpu, "pagerank", "--graph", self.graph, "--kernels", "unblocked", "--reps", 1, "--warmup", 0]
        return self._run([*args, "--tolerance", "1e-4", "--out", out], out, np.float32).astype(np.float64)


def check(peer, refs: References, algorithm: str, root, result) -> tuple[str, str]:
    """(verdict, detail): "ok" or "MISMATCH", and what was compared."""
    if algorithm == "bfs":
        got, want = peer.bfs_depths(result), refs.array("bfs", root)
    elif algorithm == "sssp":
        got, want = peer.sssp_distances(result), refs.array("sssp", root)
    elif algorithm == "cc":
        got, want = canonical_labels(peer.cc_labels(result)), refs.array("cc")
        detail = f"{len(np.unique(want))} components"
        return ("ok" if np.array_equal(got, want) else "MISMATCH"), detail
    elif algorithm == "spmv":
        got, want = peer.spmv_values(result), refs.array("spmv")
        worst = float(np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-300), initial=0.0))
        return ("ok" if worst <= SPMV_RTOL else "MISMATCH"), f"max relative difference {worst:.3g}"
    else:
        got, want = peer.pagerank_values(result), refs.pagerank()
        l1 = float(np.abs(got / got.sum() - want / want.sum()).sum())
        return ("ok" if l1 <= PR_L1_LIMIT else "MISMATCH"), f"L1 {l1:.3g}"
    differ = int(np.count_nonzero(got != want))
    return ("ok" if differ == 0 else "MISMATCH"), f"{differ} vertices differ"


def timed(call, reps: int, warmup: int):
    """(median seconds, min, max, the last result)."""
    seconds, result = [], None
    for i in range(warmup + reps):
        start = time.perf_counter()
        result = call()
        if i >= warmup:
            seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), min(seconds), max(seconds), result


COLUMNS = ["graph", "library", "version", "threads", "algorithm", "root", "median_ms", "min_ms", "max_ms", "reps"]
COLUMNS += ["edges", "edges_per_s", "convert_s", "check", "detail"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m emogi.cpu_peer", description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", required=True, type=Path)
    parser.add_argument("--library", choices=sorted(PEERS), default="graphblas")
    parser.add_argument("--algorithms", default=",".join(DEFAULT_ALGORITHMS), help=f"any of {','.join(ALGORITHMS)}")
    parser.add_argument("--roots", default="0", help="BFS and SSSP sources, comma-separated")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--threads", type=int, default=0, help="library threads (0: its default, all cores)")
    parser.add_argument("--emogi", type=Path, default=Path(os.environ.get("EMOGI_BINARY", "build/emogi")))
    parser.add_argument("--no-check", action="store_true", help="time only; no comparison with the references")
    args = parser.parse_args(argv)
    try:
        algorithms = [a for a in args.algorithms.split(",") if a]
        unknown = sorted(set(algorithms) - set(ALGORITHMS))
        if unknown:
            raise PeerError(f"unknown algorithm {unknown[0]!r} ({', '.join(ALGORITHMS)})")
        if args.reps < 1:
            raise PeerError("--reps must be at least 1")
        if not args.no_check and not args.emogi.exists():
            raise PeerError(f"{args.emogi}: no emogi binary for the references (build it, or give --emogi)")
        graph = read_csr(args.graph, verify_checksum=False)
        roots = [int(r) for r in args.roots.split(",") if r]
        start = time.perf_counter()
        peer = PEERS[args.library](graph, args.threads)
        convert_s = time.perf_counter() - start
        writer = csv.DictWriter(sys.stdout, COLUMNS)
        writer.writeheader()
        with tempfile.TemporaryDirectory(prefix="emogi-peer-") as tmp:
            refs = References(args.emogi, args.graph, Path(tmp))
            for algorithm in algorithms:
                for root in roots if algorithm in ("bfs", "sssp") else [None]:
                    med, lo, hi, result = timed(lambda: getattr(peer, algorithm)(root), args.reps, args.warmup)
                    verdict, detail = ("unchecked", "") if args.no_check else check(peer, refs, algorithm, root, result)
                    row = dict(graph=args.graph.name, library=peer.name, version=peer.version, threads=peer.threads)
                    row.update(algorithm=algorithm, root="" if root is None else root, reps=args.reps)
                    row.update(median_ms=f"{med * 1e3:.2f}", min_ms=f"{lo * 1e3:.2f}", max_ms=f"{hi * 1e3:.2f}")
                    row.update(edges=graph.num_edges, edges_per_s=f"{graph.num_edges / med:.4g}")
                    row.update(convert_s=f"{convert_s:.2f}", check=verdict, detail=detail)
                    writer.writerow(row)
                    sys.stdout.flush()
                    if verdict == "MISMATCH":
                        raise PeerError(f"{peer.name} {algorithm} root {root}: result mismatch ({detail})")
    except (PeerError, GraphFormatError, OSError, ValueError) as err:
        print(f"cpu_peer: error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
