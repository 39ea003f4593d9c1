# Exploratory, on archive/holdout-v3-h100-2026-11-27: the edges each run traversed on the GPU (its runs tables'
# edges_traversed, device mode, median over roots and repetitions) over the entries its CPU-derived trace reads
# (workloads/*/launches.csv.gz), per algorithm, variant and graph, 8-byte edges; and, for Gauss-Seidel PageRank,
# the rule v4 registers: the mix (1 - phi) GS trace + phi Jacobi (merged-aligned) trace, phi = min(1, 32 * 8448 / V).
# Usage (repository root): python archive/gpu-work-v4-exploration-2026-11-27/gs_work.py
import glob
import json

import pandas as pd

A = "archive/holdout-v3-h100-2026-11-27"
K = ["graph", "algorithm", "variant", "edge_bytes", "root"]
r = pd.concat([f for f in (pd.read_csv(p) for p in glob.glob(f"{A}/session/runs/*.csv")) if len(f)])
r = r[r["mode"] == "device"].assign(root=lambda f: f["root"].fillna(-1).astype(int))
gpu = r.groupby(K)["edges_traversed"].median().reset_index()
la = pd.concat([pd.read_csv(p) for p in glob.glob(f"{A}/workloads/*/launches.csv.gz")])
cpu = la.groupby(K)["entries"].sum().reset_index()
x = gpu.merge(cpu, on=K)
x = x[x["edge_bytes"] == 8].assign(ratio=lambda f: f["edges_traversed"] / f["entries"])
pd.set_option("display.width", 250)
print("GPU edges traversed / CPU trace entries (direction-optimizing BFS counts its bottom-up checks otherwise)")
print(x.groupby(["algorithm", "variant", "graph"])["ratio"].median().unstack().round(2).to_string())
pr = x[x["algorithm"] == "pagerank"].pivot_table(index="graph", columns="variant", values=["edges_traversed", "entries"])
V = {g: json.load(open(f"{A}/session/graphs/{g}.w8.json"))["num_vertices"] for g in pr.index}
phi = pd.Series({g: min(1.0, 32 * 8448 / v) for g, v in V.items()})
mix = (1 - phi) * pr[("entries", "gauss-seidel")] + phi * pr[("entries", "merged-aligned")]
out = pd.DataFrame({"V": pd.Series(V), "phi": phi.round(3), "gpu_gs": pr[("edges_traversed", "gauss-seidel")],
                    "cpu_gs": pr[("entries", "gauss-seidel")], "jacobi": pr[("entries", "merged-aligned")],
                    "mix": mix.round(0)})  # fmt: skip
out["gpu/cpu_gs"] = (out["gpu_gs"] / out["cpu_gs"]).round(3)
out["gpu/mix"] = (out["gpu_gs"] / out["mix"]).round(3)
print("\nGauss-Seidel PageRank, 8-byte edges: GPU edges against the CPU trace, the Jacobi trace and v4's mix")
print(out.to_string())
