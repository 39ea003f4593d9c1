"""UVM in issue 22's crossover, simulated: a pass at active fraction x on managed memory holding only a fraction of
the lists (the paper's regime, the lists larger than the GPU memory), beside the measured streamed and zero-copy
passes of fig_streamed_crossover (docs/streamed.md). Streamed and zero-copy keep the lists in host memory whatever
the GPU holds, so their passes do not depend on the capacity and the UVM line is comparable with them as measured.

**Assumption.** A pass's active vertices are drawn anew each pass, each vertex independently with probability x
(so x is also the expected fraction of the list entries read, whatever the degrees). Real passes are not like
that (PageRank's late passes re-read the same unconverged lists), so the line is UVM under spread-out activity.

**The curve** (`curve`, once, from a graph file; stored in the crossover archive as uvm_curve.csv so the workflow
needs no graph file): per graph, capacity fraction and x,
- the expected fractions of the lists' 4 KiB pages, 64 KiB blocks and 2 MiB chunks a pass touches: exactly
  1 - mean over units of (1 - x)^n_u, n_u the non-empty lists overlapping unit u (`touched_fraction`);
- per pass in the LRU steady state, the counts of model/uvm_sim.py (the project's simulator, mode `unrestricted`:
  eviction inside launches as an oversubscribed driver does, 64 KiB blocks, density prefetch at 51%, batches of
  256 fault entries) on random passes of the graph, per byte of lists (migrated bytes, fault entries, batches) or
  per 2 MiB chunk (serviced, evicted): the mean over `KEEP` passes after `warm_passes` passes that fill the capacity.
  A pass that touches more chunks than the capacity holds faults on every one of them every pass (the simulator's
  known case); one that touches fewer hits on the chunks still resident from earlier passes.

**The line** (`uvm_pass_ms`): the counts scaled to the measured graph's lists, timed with the registered cold
costs (archive/uvm-sim-validation-2026-11-25/params.json, `registered`: throughput, per batch, per serviced chunk)
plus the emulation's fitted cost per evicted chunk (archive/oom-h100-80gb-hbm3-2026-11-25-1207/
oom_calibration.json, e; the OOM figures' `capped-fit` rows for the unrestricted mode), added to the pass's GPU
work a + b V + c N (the zero-copy line's floor; no overlap: the registered set's overlap is 0). As x -> 0 the
line tends to the per-pass fixed work a + b V; at x = 1 every chunk faults.

    python -m model.streamed_uvm curve --graph kron24=kron23.w8.csr --graph urand24=urand23.w8.csr \\
        --entry-bytes 4 --capacity 0.5 --capacity 0.25 --out uvm_curve.csv
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

from emogi.atomic import write_csv
from emogi.traces import CHUNK_BYTES, Trace, graph_checksum
from model.oom_simulate import load_params
from model.streamed_crossover import named_graph
from model.uvm_sim import BLOCK_BYTES, PAGE_BYTES, UvmParams, simulate

UNITS = {"pages": PAGE_BYTES, "blocks": BLOCK_BYTES, "chunks": CHUNK_BYTES}
COUNTS = ["migrated_per_byte", "fault_entries_per_byte", "batches_per_byte", "serviced_per_chunk"]
COUNTS += ["evicted_per_chunk"]
CURVE_COLUMNS = ["graph", "file", "entry_bytes", "capacity_fraction", "active_fraction"]
CURVE_COLUMNS += [f"{u}_touched" for u in UNITS] + ["passes", "kept_passes", "seed", *COUNTS]
FRACTIONS = np.logspace(-6, 0, 25)  # 4 per decade; the figure interpolates in log x
KEEP = 12  # steady-state passes averaged
MAX_WARM = 240
SEED = 22  # issue 22
PARAMS = "archive/uvm-sim-validation-2026-11-25/params.json"  # the registered costs (docs/model.md)
CALIBRATION = "archive/oom-h100-80gb-hbm3-2026-11-25-1207/oom_calibration.json"  # e per evicted chunk


class UvmCurveError(ValueError):
    """A curve that cannot be used; one line."""


# --- the curve -------------------------------------------------------------------------------------------
def lists_per_unit(offsets, entry_bytes: int, unit: int) -> np.ndarray:
    """n_u: the non-empty lists overlapping each `unit`-byte unit of the list array."""
    off = np.asarray(offsets, dtype=np.int64)
    begin, end = off[:-1] * entry_bytes, off[1:] * entry_bytes
    keep = end > begin
    first, after = begin[keep] // unit, (end[keep] - 1) // unit + 1
    n = -(-int(off[-1] - off[0]) * entry_bytes // unit)
    diff = np.bincount(first, minlength=n + 1)[: n + 1] - np.bincount(after, minlength=n + 1)[: n + 1]
    return np.cumsum(diff[:n])


def touched_fraction(offsets, entry_bytes: int, unit: int, fractions) -> np.ndarray:
    """Expected fraction of the units a pass touches, each vertex active with probability x (per x)."""
    counts = np.bincount(lists_per_unit(offsets, entry_bytes, unit))
    n = np.arange(len(counts))
    x = np.atleast_1d(np.asarray(fractions, dtype=float))
    return np.array([(counts * (1 - (1 - f) ** n)).sum() / counts.sum() for f in x])


def warm_passes(capacity_chunks: int, touched_chunks: float) -> int:
    """Passes before the steady state: twice the passes that fill the capacity, at least 2, at most MAX_WARM."""
    return int(min(max(2, math.ceil(2 * capacity_chunks / max(touched_chunks, 1.0))), MAX_WARM))


def simulated_counts(graph, trace_of, capacity_bytes: int, warm: int, params: UvmParams) -> dict:
    """Mean per-pass counts of the simulator (unrestricted) over the KEEP passes after `warm`."""
    trace = trace_of(warm + KEEP)
    lists = trace.num_edges * trace.edge_bytes
    sim = simulate(trace, graph, "unrestricted", capacity_bytes, params).launches.iloc[warm:]
    chunks = -(-lists // CHUNK_BYTES)
    return {
        "migrated_per_byte": sim["migrated_bytes"].mean() / lists,
        "fault_entries_per_byte": sim["fault_entries"].mean() / lists,
        "batches_per_byte": sim["batches"].mean() / lists,
        "serviced_per_chunk": sim["serviced_chunks"].mean() / chunks,
        "evicted_per_chunk": sim["evicted_chunks"].mean() / chunks,
        "passes": warm + KEEP,
        "kept_passes": KEEP,
    }


def graph_file(path):
    """What the simulator needs of a CSR file (its header's checksum and offsets), the ids left unread."""
    from emogi.csr import read_header
    from model.gpu_features import read_offsets

    return SimpleNamespace(header=read_header(path), offsets=read_offsets(path), path=Path(path))


class _RandomPasses:
    """Traces of the first n random passes at fraction x: the same passes for every capacity."""

    def __init__(self, trace: Trace, x: float, seed: int, i: int):
        self.trace, self.x, self.rng = trace, x, np.random.default_rng([seed, i])

    def __call__(self, passes: int) -> Trace:
        v = self.trace.num_vertices
        while self.trace.num_launches < passes:  # each vertex active with probability x: a uniform subset of a
            mask = np.zeros(v, dtype=bool)  # binomial size (sampled by index: fast where x is small)
            mask[self.rng.choice(v, self.rng.binomial(v, self.x), replace=False)] = True
            self.trace.add_launch(mask)
        return Trace(**{**vars(self.trace), "bits": self.trace.bits[:passes], "labels": self.trace.labels[:passes]})


def curve(name: str, graph, entry_bytes: int, capacities, fractions=FRACTIONS, params=None, seed=SEED):
    """CURVE_COLUMNS rows of one graph: every capacity fraction at every x."""
    params = params or UvmParams()
    off = np.asarray(graph.offsets, dtype=np.int64)
    v, e = len(off) - 1, int(off[-1])
    lists = e * entry_bytes
    touched = {u: touched_fraction(off, entry_bytes, size, fractions) for u, size in UNITS.items()}
    chunks = -(-lists // CHUNK_BYTES)
    rows = []
    for i, x in enumerate(fractions):
        trace_of = _RandomPasses(Trace(name, graph_checksum(graph), v, e, "random", "random", entry_bytes), x, seed, i)
        for c in capacities:
            cap = int(c * lists) // CHUNK_BYTES * CHUNK_BYTES
            warm = warm_passes(cap // CHUNK_BYTES, touched["chunks"][i] * chunks)
            counts = simulated_counts(graph, trace_of, cap, warm, params)
            rows.append(
                {"graph": name, "file": Path(str(graph.path)).name, "entry_bytes": entry_bytes,
                 "capacity_fraction": c, "active_fraction": x, **{f"{u}_touched": t[i] for u, t in touched.items()},
                 "seed": seed, **counts}
            )  # fmt: skip
        print(f"{name} x = {x:.3g}: {rows[-1]['migrated_per_byte']:.3g} of the bytes migrate", file=sys.stderr)
    return pd.DataFrame(rows, columns=CURVE_COLUMNS)


# --- the line --------------------------------------------------------------------------------------------
def load_costs(params_path, calibration_path) -> tuple[UvmParams, float]:
    """The registered cold costs and the fitted cost per evicted chunk (ms)."""
    e = json.loads(Path(calibration_path).read_text())["e_ms_per_evicted_chunk"]
    return load_params(params_path, "registered"), float(e)


def uvm_pass_ms(rows: pd.DataFrame, fractions, list_bytes, entries, vertices, params: UvmParams, e_ms: float, cost):
    """ms per pass at `fractions`: the curve's counts (one graph and capacity, interpolated in log x) scaled to
    `list_bytes`, migrations timed with `params` and e, added to the GPU work a + b V + c x `entries`. SSSP's
    weights (a second array laid out as 4-byte ids are) touch the same share of their units as the ids: a curve
    of 4-byte ids gives its counts per byte of ids and weights together."""
    if rows.empty:
        raise UvmCurveError("the UVM curve has no row for this graph and capacity")
    rows = rows.sort_values("active_fraction")
    x = np.asarray(fractions, dtype=float)
    lx, at, low = np.log10(rows["active_fraction"]), np.log10(x), float(rows["active_fraction"].iloc[0])
    # below the curve's least x every count is proportional to x (a pass there reads a few lists, each faulting)
    per = {k: np.interp(at, lx, rows[k]) * np.minimum(x / low, 1.0) for k in COUNTS}
    chunks = list_bytes / CHUNK_BYTES
    moved, batches = per["migrated_per_byte"] * list_bytes, per["batches_per_byte"] * list_bytes
    migration = params.migration_ms(moved, batches, per["serviced_per_chunk"] * chunks)
    migration += e_ms * per["evicted_per_chunk"] * chunks
    a, b, c = cost
    work = a + b * vertices + c * x * entries
    return params.total_ms(work, migration)


def crossing(fractions, first_ms, second_ms) -> float:
    """The highest fraction where the two lines change order (log-interpolated); nan where they never do."""
    f, d = np.log(np.asarray(fractions, float)), np.asarray(first_ms, float) - np.asarray(second_ms, float)
    changes = np.nonzero(np.sign(d[:-1]) * np.sign(d[1:]) < 0)[0]
    if not len(changes):
        return math.nan
    i = int(changes[-1])
    return math.exp(f[i] + (f[i + 1] - f[i]) * d[i] / (d[i] - d[i + 1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m model.streamed_uvm", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("curve", help="touched units and simulated UVM counts per pass against x, per graph file")
    c.add_argument("--graph", action="append", required=True, help="NAME=FILE (a .csr)")
    c.add_argument("--entry-bytes", type=int, default=4)
    c.add_argument("--capacity", type=float, action="append", required=True, help="a fraction of the lists")
    c.add_argument("--seed", type=int, default=SEED)
    c.add_argument("--params", type=Path, default=PARAMS, help="cost sets (model.uvm_fit); 'registered' is used")
    c.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    try:
        frames = []
        params = load_params(a.params, "registered")  # counts: its batch size and prefetch threshold
        for name, path in map(named_graph, a.graph):
            frames.append(curve(name, graph_file(path), a.entry_bytes, a.capacity, params=params, seed=a.seed))
        write_csv(pd.concat(frames, ignore_index=True), a.out)
    except (OSError, UvmCurveError, ValueError, KeyError) as e:
        print(f"model.streamed_uvm: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
