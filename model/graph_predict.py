"""A traversal's time predicted from the graph file alone (issue 24; docs/predictor.md, "Prediction from the graph"):
the CPU-derived trace (emogi/trace_derive.py) gives per launch the lists read; from them and the graph's offsets
come D and d (model/link_requests.py), the GPU-work floor (model/gpu_work.py's fitted costs, max form, over
model/gpu_features.py's per-launch counts) and the critical path (the longest list, as model/predict.py counts it).

    zero-copy: t = D / T(d) + floor + chain_steps · L      (model.predict.predict_runtime_ms, rule "sum")
    device:    t = floor
    uvm:       t = floor + the migrations model/uvm_sim.py simulates on the trace (cold, no capacity), at the
               registered fault costs (archive/uvm-sim-validation-2026-11-25/params.json): SIMULATED, and only
               for the h100-measured preset, the machine those costs were fitted on
    streamed:  CF'17's pipeline over the trace's active blocks (model/graph_streamed.py), copies at the preset's W;
               only the variants emogi/registry.yaml streams

The fitted costs are H100 device-mode costs (archive/gpu-work-term-2026-11-25-v2, with that README's errors):
the floor of another GPU is the H100's.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.csr import GraphFormatError, read_csr
from emogi.trace_derive import SUPPORTED, default_delta, derive
from model import graph_streamed
from model.gpu_features import WARP, launch_features
from model.gpu_work import PARAMS, Launches
from model.link_requests import trace_requests
from model.predict import SECTOR_BYTES, predict_runtime_ms
from model.presets import MEASURED

ROOT = Path(__file__).resolve().parents[1]
GPU_WORK_PARAMS = ROOT / "archive" / "gpu-work-term-2026-11-25-v2" / "gpu_work_params.csv"
ALGORITHMS = ("bfs", "sssp", "cc", "pagerank")
DEFAULT_VARIANT = "merged-aligned"  # the paper's EMOGI
LOADS_IN_FLIGHT = 4  # build.loads_in_flight's default (docs/kernels.md)
DEFAULT_MODES = ("zerocopy", "device")  # what the what-if answers unless asked for more
MODES = (*DEFAULT_MODES, "uvm", "streamed")
REGIMES = {"zerocopy": "model", "device": "model", "streamed": "model", "uvm": "simulated"}  # registry `regimes`
UVM_COSTS = ROOT / "archive" / "uvm-sim-validation-2026-11-25" / "params.json"
UVM_COST_SET = "registered"
UVM_MACHINE = MEASURED  # the preset of the machine the fault costs were fitted on (H100 archives)


class GraphPredictError(ValueError):
    """Input the graph-file prediction cannot answer; one line."""


def load_graph(path, meta=None):
    """The graph at `path`, its checksum checked against the file and against its metadata (`meta`, default
    the .json beside it, if any)."""
    path = Path(path)
    try:
        graph = read_csr(path)
    except (GraphFormatError, OSError) as e:
        raise GraphPredictError(str(e)) from None
    meta = Path(meta) if meta else path.with_suffix(".json")
    if meta.exists():
        want = json.loads(meta.read_text()).get("checksum")
        have = f"{graph.header.checksum:016x}"
        if want is not None and want != have:
            raise GraphPredictError(f"{path}: checksum {have} differs from its metadata {meta} ({want})")
    return graph


def gpu_work_costs(path=GPU_WORK_PARAMS) -> pd.DataFrame:
    costs = pd.read_csv(path)
    return costs[costs["form"] == "max"]


def _costs_for(costs, algorithm, variant, edge_bytes) -> np.ndarray:
    row = costs[(costs["algorithm"] == algorithm) & (costs["variant"] == variant) & (costs["edge_bytes"] == edge_bytes)]
    if row.empty:
        have = sorted(set(zip(costs["algorithm"], costs["variant"], strict=True)))
        raise GraphPredictError(
            f"the GPU-work model does not cover {algorithm}/{variant} at {edge_bytes} bytes "
            f"(it covers: {', '.join(f'{a}/{v}' for a, v in have)})"
        )
    return row[PARAMS].to_numpy(float)[0]


def default_root(graph) -> int:
    """The vertex of largest out-degree (a root that reaches the giant component)."""
    return int(np.argmax(np.diff(graph.offsets.astype(np.int64))))


def workload(graph, algorithm: str, variant: str, root=None, costs=None, share: bool = True) -> dict:
    """D, d, floor and chain steps of one run, from the graph alone."""
    trace = derive_trace(graph, algorithm, variant, root)
    return workload_from_trace(trace, graph.offsets, variant, costs, share)


def derive_trace(graph, algorithm: str, variant: str, root=None):
    """The CPU-derived trace `workload` predicts from (root: the vertex of largest degree where none is given;
    frontier SSSP's bucket width: the binary's default)."""
    check_covered(algorithm, variant)
    if algorithm in ("bfs", "sssp") and root is None:
        root = default_root(graph)
    options = {"delta": default_delta(graph)} if (algorithm, variant) == ("sssp", "frontier") else {}
    return derive(graph, algorithm, variant, root if algorithm in ("bfs", "sssp") else None, **options)


def check_covered(algorithm: str, variant: str, mode: str | None = None, params=None) -> None:
    """GraphPredictError unless the model predicts `algorithm` `variant` (in `mode` on `params`, where given);
    cheap, so every request is checked before any trace is derived."""
    if algorithm not in SUPPORTED:
        raise GraphPredictError(f"the model does not cover algorithm {algorithm!r} (known: {', '.join(SUPPORTED)})")
    if variant not in SUPPORTED[algorithm]:
        raise GraphPredictError(
            f"the model does not cover {algorithm}/{variant} (known: {', '.join(SUPPORTED[algorithm])})"
        )
    if mode is None:
        return
    if mode not in MODES:
        raise GraphPredictError(f"the model does not cover mode {mode!r} (known: {', '.join(MODES)})")
    name = getattr(params, "name", "")
    if mode == "uvm" and name != UVM_MACHINE:
        # the fault costs belong to the H100's driver and PCIe 5.0 link; on another preset they would be a guess
        raise GraphPredictError(
            f"mode uvm: the simulator's fault costs are the H100's ({UVM_COST_SET} set of "
            f"{UVM_COSTS.relative_to(ROOT)}); preset {name or '(unnamed)'} has none: use {UVM_MACHINE}"
        )
    if mode == "streamed" and variant not in graph_streamed.streamed_variants(algorithm):
        runs = graph_streamed.streamed_variants(algorithm)
        raise GraphPredictError(
            f"mode streamed does not run {algorithm} {variant} "
            + (f"(it runs {algorithm} {', '.join(runs)})" if runs else f"(emogi/registry.yaml streams no {algorithm})")
        )


def load_uvm_costs(path=UVM_COSTS, name: str = UVM_COST_SET):
    """The simulator's cost set `name` of a model.uvm_fit params.json."""
    from model.oom_simulate import load_params  # the OOM study's loader; only the uvm mode needs it

    try:
        return load_params(path, name)
    except (OSError, KeyError, ValueError, TypeError) as e:
        raise GraphPredictError(f"uvm cost set {name!r} of {path}: {e}") from None


def workload_from_trace(trace, offsets, variant: str, costs=None, share: bool = True) -> dict:
    """D, d, floor and chain steps of the run `trace` describes, read by `variant` (trace.edge_bytes wide)."""
    p = _costs_for(gpu_work_costs() if costs is None else costs, trace.algorithm, variant, trace.edge_bytes)
    per, w = trace_counts(trace, offsets, variant, share)
    return w | {"floor_ms": floor_ms(per, p)}


def floor_ms(per: pd.DataFrame, p) -> float:
    """The GPU-work floor (max form) of one run's launches (`trace_counts`' table) at costs p = (a, b, c, s)."""
    return float(Launches(per.assign(one=1.0, cell=0), 1).predict(np.asarray(p, float), "max")[0])


def trace_counts(trace, offsets, variant: str, share: bool = True) -> tuple[pd.DataFrame, dict]:
    """What the prediction needs of a run before any cost: its launches (model.gpu_features: grid, entries,
    walk) and D, d, requests and chain steps (a `workload` without the floor)."""
    algorithm, eb, root = trace.algorithm, trace.edge_bytes, trace.root
    per = launch_features(trace, offsets, variant, eb)
    req = np.array(trace_requests(trace, offsets, variant, share), dtype=float).reshape(-1, 3)
    requests, sectors, needed = req.sum(axis=0) if len(req) else (0.0, 0.0, 0.0)
    # the longest list walked, in round trips (model.predict.chain_bytes_per_step: a sector for naive, else the
    # k warp steps read together)
    longest = float(per["walk"].max()) if len(per) else 0.0
    chain = longest * (1 if variant != "naive" else eb) / (LOADS_IN_FLIGHT if variant != "naive" else SECTOR_BYTES)
    return per, {
        "algorithm": algorithm,
        "variant": variant,
        "edge_bytes": eb,
        "root": root if root is not None and root >= 0 else None,
        "launches": trace.num_launches,
        "fidelity": trace.fidelity,
        "bytes_needed": needed,
        "requests": requests,
        "D_bytes": SECTOR_BYTES * sectors,
        "d_bytes": SECTOR_BYTES * sectors / requests if requests else math.nan,
        "chain_steps": math.ceil(chain),
    }


def predict(w: dict, mode: str, params) -> float:
    """The time of the modes a workload alone answers (device, zerocopy); `predict_mode` answers every mode."""
    if mode == "device":
        return w["floor_ms"]
    if mode in MODES and mode != "zerocopy":
        raise GraphPredictError(f"mode {mode} needs the trace: model.graph_predict.predict_mode")
    if mode != "zerocopy":
        raise GraphPredictError(f"the model does not cover mode {mode!r} (known: {', '.join(MODES)})")
    if not w["requests"]:
        return w["floor_ms"]
    return predict_runtime_ms(w["D_bytes"], w["d_bytes"], params, w["floor_ms"], "sum", w["chain_steps"])


def predict_mode(trace, graph, w: dict, mode: str, params, uvm_costs=None, block_bytes=None) -> dict:
    """predicted_ms of `mode` and the mode's own columns, for the run `trace` describes (workload `w`)."""
    check_covered(trace.algorithm, w["variant"], mode, params)
    if mode in DEFAULT_MODES:
        return {"predicted_ms": predict(w, mode, params)}
    if mode == "uvm":
        from model.uvm_sim import UvmSimError, lists_per_warp_of, simulate

        costs = load_uvm_costs() if uvm_costs is None else uvm_costs
        per_warp = lists_per_warp_of(trace)
        try:
            sim = simulate(trace, graph, "cold", params=costs, lists_per_warp=per_warp)
        except UvmSimError as e:
            raise GraphPredictError(f"mode uvm: {e}") from None
        t = sim.totals()
        return {
            "predicted_ms": sim.predicted_ms(w["floor_ms"]),
            "costs": f"{UVM_COST_SET} H100 fault costs ({UVM_COSTS.relative_to(ROOT)})",
            "migration_ms": sim.migration_ms,
            **{k: t[k] for k in ("migrated_bytes", "batches", "serviced_chunks")},
        }
    sizes = None if block_bytes is None else [int(block_bytes)]
    ms, block, blocks, why = graph_streamed.predict(
        trace, graph, w, graph_streamed.flat_link(params.W_gbps), sizes=sizes
    )
    if why:
        raise GraphPredictError(f"mode streamed, {trace.algorithm} {w['variant']}: {why}")
    return {
        "predicted_ms": ms,
        "costs": f"copies at W {params.W_gbps:g} GB/s, {graph_streamed.BUFFERS} buffers",
        "block_bytes": block,
        "blocks": blocks,
    }


EXTRA_COLUMNS = ["regime", "costs", "migrated_bytes", "batches", "serviced_chunks", "migration_ms"]
EXTRA_COLUMNS += ["block_bytes", "blocks"]


def predictions(
    graph, algorithms, variant, modes, params, root=None, costs=None, uvm_costs=None, block_bytes=None
) -> pd.DataFrame:
    """One row per algorithm and mode. With uvm or streamed asked for, every row also says how it was obtained
    (`regime`, the registry's words) and carries EXTRA_COLUMNS (empty where a mode has none)."""
    for algorithm in algorithms:  # refuse before deriving anything
        for mode in modes:
            check_covered(algorithm, variant, mode, params)
    extended = any(m not in DEFAULT_MODES for m in modes)
    rows = []
    for algorithm in algorithms:
        trace = derive_trace(graph, algorithm, variant, root)
        w = workload_from_trace(trace, graph.offsets, variant, costs)
        for mode in modes:
            got = predict_mode(trace, graph, w, mode, params, uvm_costs, block_bytes)
            row = {**w, "mode": mode, "predicted_ms": got.pop("predicted_ms")}
            rows.append(row | ({"regime": REGIMES[mode], **got} if extended else {}))
    out = pd.DataFrame(rows)
    return (
        out.reindex(columns=[*out.columns[: out.columns.get_loc("predicted_ms") + 1], *EXTRA_COLUMNS])
        if extended
        else out
    )


__all__ = [
    "ALGORITHMS",
    "GraphPredictError",
    "MODES",
    "WARP",
    "derive_trace",
    "load_graph",
    "predict_mode",
    "predictions",
    "workload",
]
