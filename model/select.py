"""The mode selector `select` (issue 22): per graph file, algorithm, variant, edge width and GPU-memory budget, the
memory mode the model predicts fastest among device, zero-copy, streamed and `auto` (emogi/registry.yaml
`mode_selectors`; `auto` stays the mode it is: as much of the lists in GPU memory as fits, the rest zero-copy).

    python -m model.select --graph G.csr --algorithm pagerank --variant gauss-seidel --budget fits,0.5,0.25 \\
        [--name kron24] [--root R] [--json] [--out select.csv] [--run --binary build/emogi --runs-out R.csv -- ARGS]

Only the model's inputs are used, never a measured time of the runs it is judged on: the graph file (the
CPU-derived trace, emogi/trace_derive.py), the link parameters (`--parameters`, model.fit's parameters.json: the
h100-measured preset), the pinned copy curve (`--link`, a link table) and the fitted GPU-work costs
(model/graph_predict.py). Per budget, each candidate:
  device    the GPU-work floor; only where the lists and the vertex data fit the budget
  zerocopy  the floor + D / T(d) + the chain term (model.graph_predict, rule "sum")
  streamed  CF'17's pipeline (model.streamed.predict_ms) over uniform blocks of the best candidate size whose
            buffers (two) fit beside the vertex data; each sweep launches only the blocks holding a list the
            trace's launch reads (--stream-skip on), kernels at the floor's rate per list entry read; only for the
            variants the registry streams, and for gauss-seidel only blocks no list is split by
  auto      zero-copy with D × (1 − c): c the share of the read bytes that the prefix of the lists the budget
            keeps serves (model.oom_simulate.served_bytes; --auto-order prefix, the OOM study's placement)
The fastest feasible candidate is chosen (ties: the order above). A budget is `fits` (no budget), a fraction of
the lists' bytes in (0, 1) (0.5: the OOM study's budgets, emogi.oom_measure.gpu_memory) or a size (2G, 512M,
bytes); the vertex data come out of it first (VERTEX_BYTES). Bad input: one line, exit 1, nothing written.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi import schema
from emogi.atomic import write_csv
from emogi.cli import exit_status
from emogi.datasets.build_plan import parse_bytes
from emogi.oom_measure import gpu_memory
from emogi.registry import vocabulary
from emogi.traces import TraceError
from model import graph_predict as gp
from model import graph_streamed
from model.oom_simulate import served_bytes
from model.predict import predict_runtime_ms
from model.presets import MEASURED, get_preset
from model.streamed import LinkCurve

ROOT = Path(__file__).resolve().parents[1]
PARAMETERS = ROOT / "archive" / "graph-predict-zerocopy-2026-11-25" / "parameters.json"
LINK = ROOT / "archive" / "h100-80gb-hbm3-2026-11-21-0732" / "link.csv.gz"  # the session those were fitted from
# GPU memory a run takes before the lists, per vertex (offsets, the algorithm's arrays, work lists, counters): the
# largest "N bytes in use before placing the lists" of the OOM study's logs over its modes and variants, over
# kron24's 2^24 vertices, rounded up (archive/oom-h100-80gb-hbm3-2026-11-25-1207/logs.tgz, 8-byte ids).
VERTEX_BYTES = {"bfs": 20.7, "sssp": 29.7, "cc": 18.2, "pagerank": 29.7}
STARTS_BYTES = 8  # per vertex: a whole-list auto order's list starts (placement.cu)
AUTO_ORDER = "prefix"


class SelectError(ValueError):
    """Input the selector cannot answer; one line."""


def selector():
    """The registry's entry of the mode selector (name, candidates)."""
    return vocabulary().mode_selectors[0]


def parse_budget(text: str, list_bytes: int) -> int | None:
    """GPU memory in bytes for `text`: None for fits, a fraction of `list_bytes` in (0, 1), or a size."""
    t = str(text).strip()
    if t.lower() in ("fits", "none", ""):
        return None
    if "." in t and t[-1].isdigit():
        f = float(t)
        if not 0 < f < 1:
            raise SelectError(f"budget {t}: a fraction of the lists' bytes lies in (0, 1)")
        return gpu_memory(list_bytes, f) or int(list_bytes * f)  # whole MiB as the OOM study, bytes below one
    try:
        return parse_bytes(t)
    except ValueError:
        raise SelectError(f"budget {t!r}: give fits, a fraction in (0, 1) or a size (2G, 512M, bytes)") from None


def vertex_bytes(algorithm: str, num_vertices: int) -> int:
    return math.ceil(VERTEX_BYTES[algorithm] * num_vertices)


class Inputs:
    """One graph, algorithm and variant: the trace and workload every budget's candidates are predicted from."""

    def __init__(self, graph, algorithm, variant, root=None, params=None, link=None, name=None):
        if algorithm not in VERTEX_BYTES:
            raise SelectError(f"the selector does not cover algorithm {algorithm!r} (known: {', '.join(VERTEX_BYTES)})")
        self.graph, self.algorithm, self.variant, self.params, self.link = graph, algorithm, variant, params, link
        self.name = name
        self.trace = gp.derive_trace(graph, algorithm, variant, root)
        self.w = gp.workload_from_trace(self.trace, graph.offsets, variant)
        self.eb, self.wb = self.trace.edge_bytes, self.trace.weight_bytes
        self.entry = self.eb + self.wb
        self.list_bytes = graph.num_edges * self.entry
        self.vertex = vertex_bytes(algorithm, graph.num_vertices)

    def zerocopy_ms(self, kept: float = 0.0) -> float:
        """The zero-copy prediction with a share `kept` of the read bytes served from GPU memory instead."""
        w = self.w
        if kept >= 1 or not w["requests"]:
            return w["floor_ms"]
        D = w["D_bytes"] * (1 - kept)
        return predict_runtime_ms(D, w["d_bytes"], self.params, w["floor_ms"], "sum", w["chain_steps"])

    def served_fraction(self, room: int | None) -> float:
        """c of auto's prefix with `room` bytes for the lists (None: no budget, all of them)."""
        if room is None or room >= self.list_bytes:
            return 1.0
        near = max(room, 0) // 128 * 128  # whole lines, edges first, then weights (placement.cu, place_prefix)
        edges = min(near // self.eb, self.graph.num_edges)
        weights = (near - edges * self.eb) // self.wb if self.wb else 0
        total, (served,) = served_bytes(self.trace, self.graph.offsets, [(edges, weights)])
        return served / total if total else 0.0

    def streamed(self, room: int | None, memory: int | None = None) -> tuple[float, int, int, str]:
        """(predicted ms, block bytes, blocks, why not) of the best block whose buffers fit `room` (of `memory`)."""
        return graph_streamed.predict(self.trace, self.graph, self.w, self.link, room, memory)

    def table(self, budgets: list[str]) -> pd.DataFrame:
        rows = []
        for text in budgets:
            memory = parse_budget(text, self.list_bytes)
            if memory is not None and memory < self.vertex:
                raise SelectError(
                    f"budget {text} ({memory} bytes) is below the vertex data of {self.algorithm} on "
                    f"{self.graph.num_vertices} vertices (~{self.vertex} bytes)"
                )
            room = None if memory is None else memory - self.vertex
            head = {
                "graph": self.name,
                "algorithm": self.algorithm,
                "variant": self.variant,
                "edge_bytes": self.eb,
                "root": self.trace.root if self.trace.root >= 0 else np.nan,
                "budget": "fits" if memory is None else text,
                "budget_fraction": np.nan if memory is None else memory / self.list_bytes,
                "gpu_memory_bytes": np.nan if memory is None else memory,
                "list_bytes": self.list_bytes,
                "vertex_bytes": self.vertex,
                "auto_order": AUTO_ORDER,
            }
            c = self.served_fraction(room)
            s_ms, block, blocks, why = self.streamed(room, memory)
            fits_device = room is None or room >= self.list_bytes
            cand = {
                "device": (self.w["floor_ms"] if fits_device else math.nan, "" if fits_device else "lists do not fit"),
                "zerocopy": (self.zerocopy_ms(), ""),
                "streamed": (s_ms, why),
                "auto": (self.zerocopy_ms(c), ""),
            }
            for mode in selector().candidates:
                ms, why_not = cand[mode]
                rows.append(
                    {**head, "mode": mode, "feasible": not why_not, "why_not": why_not, "predicted_ms": ms,
                     "block_bytes": block if mode == "streamed" and not why_not else np.nan,
                     "blocks": blocks if mode == "streamed" and not why_not else np.nan,
                     "served_fraction": c if mode == "auto" else np.nan}
                )  # fmt: skip
        t = pd.DataFrame(rows)
        t["chosen"] = False
        for _, g in t[t["feasible"]].groupby("budget", sort=False):
            t.loc[g["predicted_ms"].idxmin(), "chosen"] = True  # first of equal minima: the candidates' order
        t["selector"] = selector().name
        return t[schema.SELECT_COLUMNS]


def load_inputs(a) -> Inputs:
    """The graph and the model's parameters of the command line, each checked; SelectError in one line."""
    for path, what in ((a.parameters, "--parameters"), (a.link, "--link")):
        if not Path(path).is_file():
            raise SelectError(f"{what} {path}: no such file (the model's microbenchmark parameters)")
    try:
        params = get_preset(a.preset, a.parameters if a.preset == MEASURED else None)
        link = LinkCurve.from_table(pd.read_csv(a.link))
    except (KeyError, ValueError) as e:
        raise SelectError(str(e.args[0] if e.args else e)) from None
    graph = gp.load_graph(a.graph)
    name = a.name or Path(a.graph).name.split(".")[0]
    return Inputs(graph, a.algorithm, a.variant, a.root, params, link, name)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    split = argv.index("--") if "--" in argv else len(argv)
    p = argparse.ArgumentParser(prog="python -m model.select", description=__doc__.split("\n\n")[0])
    p.add_argument("--graph", required=True)
    p.add_argument("--name", help="the graph's name in the table (default: the file name before its first dot)")
    p.add_argument("--algorithm", required=True)
    p.add_argument("--variant", default=gp.DEFAULT_VARIANT)
    p.add_argument("--budget", default="fits", help="comma-separated: fits, a fraction of the lists or a size")
    p.add_argument("--root", type=int, help="BFS and SSSP: the root (default: the vertex of largest degree)")
    p.add_argument("--parameters", default=str(PARAMETERS), help="model.fit's parameters.json")
    p.add_argument("--preset", default=MEASURED, help="the link preset (h100-measured: from --parameters)")
    p.add_argument("--link", default=str(LINK), help="a link table: the pinned copy curve of streamed blocks")
    p.add_argument("--json", action="store_true", help="print the table as JSON records")
    p.add_argument("--out", help="write the table (CSV, emogi/schema.py SELECT_COLUMNS)")
    p.add_argument("--run", action="store_true", help="run `emogi run` with the chosen mode of every budget")
    p.add_argument("--binary", default="build/emogi")
    p.add_argument("--runs-out", help="--run: the rows (emogi/schema.py OOM_RUN_COLUMNS)")
    a = p.parse_args(argv[:split])

    def go():
        if a.run and not a.runs_out:
            raise SelectError("--run needs --runs-out")
        t = load_inputs(a).table(a.budget.split(","))
        if a.json:
            print(json.dumps(json.loads(t.to_json(orient="records")), indent=1))
        else:
            show = t.assign(predicted_ms=t["predicted_ms"].round(3), chosen=t["chosen"].map({True: "<-", False: ""}))
            print(show[["budget", "mode", "feasible", "predicted_ms", "block_bytes", "served_fraction", "chosen",
                        "why_not"]].to_string(index=False))  # fmt: skip
        if a.out:
            write_csv(t, a.out)
        if a.run:
            from model.select_run import run_table  # the binary only where asked

            run_table(t, a.graph, a.binary, a.runs_out, argv[split + 1 :], modes="chosen")

    return exit_status(go, (SelectError, gp.GraphPredictError, TraceError, OSError))


if __name__ == "__main__":
    sys.exit(main())
