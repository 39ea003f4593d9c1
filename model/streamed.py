"""CF'17's model of streamed blocks (Buono et al., §3.2.2; issue 22): a sweep over the lists cut into n blocks is a
two-stage pipeline, block i+1's copy overlapping block i's kernel, so

    T_sweep = fill + sum_i max(compute_i, copy_{i+1})        fill = copy_0, copy_n = 0

(the last kernel runs alone). copy_i is the block's bytes over the measured link bandwidth at that transfer size
(the pinned host-to-device curve of `emogi linkbw`, interpolated in log size; CF'17 Fig. 2), and compute_i the
block's entries over the per-entry rate of a device-memory run of the same kernel. An iterative algorithm pays a
sweep per round; where every block stays in a buffer (n <= buffers) only its first sweep copies, as the streamed
mode does. `per_block_ms` adds a fixed cost to every kernel (launch and tail), 0 unless measured.

Frontier-aware skipping (--stream-skip): sweep s copies and launches only the blocks holding an active vertex, a
fraction a_s of them (`active`, one per sweep; `active_from_log` reads them from a run's `streamed run:` line:
its `blocks per sweep` over the plan's blocks). The model charges sweep s the pipeline over ceil(a_s n) blocks,
plus `per_sweep_ms` (the marking kernel and its wait, 0 unless measured); a sweep with no active block costs only
that. Which blocks
are active is not modelled: with uniform blocks it does not matter. Resident blocks (n <= buffers) are copied once,
in the first sweep that has them active; the model charges the copies of the most blocks any sweep has active to
one sweep and only the kernels to the rest (an approximation: the copies of blocks that later sweeps activate
overlap other kernels in the run, not in the model).

Column blocks (--stream-layout columns, SpMV; CF'17 §3.2.1): each block of entries also copies its row index,
a row id and an 8-byte start per non-empty row plus one start (kernels/include/emogi/column_blocks.hpp), and its
slice of x (4 bytes a column, V x 4 over a sweep). The index is what makes many blocks costly ("too many blocks ...
increases the size of the CSR index", CF'17 §3.2.2): non-empty rows over n blocks are at most min(E, n V), and for
columns spread uniformly over the blocks V (1 - (1 - 1/n)^d) per block at average degree d (an upper bound for
any degree distribution of that mean: the expression is concave in d). The copies then carry each block's entries
plus its share of the index and x; the kernels run over the entries only.

    python -m model.streamed --link link.csv --device-runs spmv.csv --lists-bytes 6.2e9 --entry-bytes 12 \\
        --blocks 16M,64M,256M,1G [--sweeps 1 | --active 1,0.4,0.05 | --active-log run.log] [--buffers 2] \\
        [--layout columns --vertices 16777216 --id-bytes 8]

prints the predicted time per block size and the best of them. No GPU needed.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class LinkCurve:
    """Pinned host-to-device copy bandwidth against transfer size: medians per measured size, interpolated."""

    sizes: tuple[float, ...]  # bytes, increasing
    gbps: tuple[float, ...]

    @classmethod
    def from_table(cls, link: pd.DataFrame) -> LinkCurve:
        """From a link table (emogi.schema.LINK_COLUMNS): the median GB/s of the pinned h2d copies of each size."""
        rows = link[(link["direction"] == "h2d") & (link["host_memory"] == "pinned")]
        rows = rows[np.isfinite(rows["gbps"].astype(float))]
        if rows.empty:
            raise ValueError("link table has no pinned h2d rows: no copy bandwidth to model streamed blocks with")
        medians = rows.groupby("size_bytes")["gbps"].median().sort_index()
        return cls(tuple(float(s) for s in medians.index), tuple(float(g) for g in medians.values))

    def bandwidth(self, size: float) -> float:
        """GB/s of one copy of `size` bytes: linear in log size between measured sizes, the end values beyond."""
        if size <= self.sizes[0]:
            return self.gbps[0]
        if size >= self.sizes[-1]:
            return self.gbps[-1]
        return float(np.interp(math.log(size), np.log(self.sizes), self.gbps))

    def copy_ms(self, size: float) -> float:
        return 0.0 if size <= 0 else size / (self.bandwidth(size) * 1e6)  # bytes / (GB/s * 1e6) = ms


def device_rate(runs: pd.DataFrame, algorithm: str, variant: str) -> float:
    """List entries per ms of `algorithm` `variant` in device memory (the median run of a runs table)."""
    rows = runs[(runs["algorithm"] == algorithm) & (runs["variant"] == variant) & (runs["mode"] == "device")]
    if rows.empty:
        raise ValueError(f"no device-mode runs of {algorithm} {variant}: the compute rate comes from them")
    rate = rows["edges_traversed"].astype(float) / rows["time_ms"].astype(float)
    return float(rate.median())


def uniform_blocks(lists_bytes: float, block_bytes: float) -> list[float]:
    """Blocks of `block_bytes` and the rest, covering `lists_bytes` (the model's blocks; the streamed mode keeps
    whole lists, so its blocks are a little smaller)."""
    if block_bytes <= 0:
        raise ValueError(f"a block must hold some bytes, not {block_bytes}")
    n = max(1, math.ceil(lists_bytes / block_bytes))
    return [block_bytes] * (n - 1) + [lists_bytes - block_bytes * (n - 1)]


X_BYTES = 4  # x is float32 (kernels/include/emogi/spmv_vector.hpp)
START_BYTES = 8  # a column block's row starts (column_blocks.hpp)


def expected_nonempty_rows(num_vertices: float, edges: float, n: int) -> float:
    """Non-empty rows over n column blocks, summed over the blocks, for columns spread uniformly at random: n V (1 -
    (1 - 1/n)^d), d = E / V (an upper bound for any degree distribution of mean d; at most E, at least V where E >=
    V)."""
    if n < 1 or num_vertices < 0 or edges < 0:
        raise ValueError("column blocks need n >= 1 and non-negative V and E")
    if num_vertices == 0 or edges == 0:
        return 0.0
    d = edges / num_vertices
    return min(edges, n * num_vertices * (1 - (1 - 1 / n) ** d))


def row_index_bytes(nonempty_rows: float, n: int, id_bytes: int) -> float:
    """The row index of n column blocks: a row id and a start per non-empty row, one more start per block (as
    ColumnBlocks::index_bytes counts it)."""
    return nonempty_rows * (id_bytes + START_BYTES) + n * START_BYTES


def column_extra(
    lists_bytes: float, block_bytes: float, entry_bytes: float, num_vertices: float, id_bytes: int, nonempty_rows=None
) -> list[float]:
    """What each of the column layout's blocks copies beside its entries (uniform_blocks of the block size over the
    lists): an equal share of the row index (nonempty_rows where known, else expected_nonempty_rows) and of x."""
    n = len(uniform_blocks(lists_bytes, block_bytes))
    edges = lists_bytes / entry_bytes
    rows = expected_nonempty_rows(num_vertices, edges, n) if nonempty_rows is None else nonempty_rows
    extra = row_index_bytes(rows, n, id_bytes) + num_vertices * X_BYTES
    return [extra / n] * n


def sweep_ms(copy: list[float], compute: list[float]) -> float:
    """fill + sum_i max(compute_i, copy_{i+1}): one sweep, two or more buffers."""
    if len(copy) != len(compute):
        raise ValueError(f"{len(copy)} copy times for {len(compute)} compute times")
    if not copy:
        return 0.0
    nxt = [*copy[1:], 0.0]
    return copy[0] + sum(max(c, k) for c, k in zip(compute, nxt))


RUN_LINE = re.compile(
    r"streamed run: (?P<algorithm>\S+) (?P<variant>\S+): (?P<sweeps>\d+) sweeps, (?P<blocks>\d+) blocks, "
    r"(?P<inactive>\d+) inactive, .*, blocks per sweep (?P<per_sweep>[\d,]*)$",
    re.M,
)


def active_from_log(text: str, algorithm: str | None = None, variant: str | None = None) -> list[list[float]]:
    """The active fractions of each timed run an `emogi run` log shows (its `streamed run:` lines, in order): the
    blocks each sweep launched over the plan's blocks ((blocks + inactive) / sweeps), for `algorithm` and
    `variant` where given."""
    runs = []
    for m in RUN_LINE.finditer(text):
        if (algorithm and m["algorithm"] != algorithm) or (variant and m["variant"] != variant):
            continue
        sweeps = int(m["sweeps"])
        plan = (int(m["blocks"]) + int(m["inactive"])) // max(sweeps, 1)
        counts = [int(x) for x in m["per_sweep"].split(",") if x]
        if len(counts) != sweeps or plan == 0:
            raise ValueError(f"a streamed run line with {len(counts)} counts for {sweeps} sweeps of {plan} blocks")
        runs.append([c / plan for c in counts])
    return runs


def active_blocks(n: int, fraction: float) -> int:
    """Blocks a sweep with `fraction` of n blocks active takes: ceil(fraction n), any activity at least one."""
    if not 0 <= fraction <= 1:
        raise ValueError(f"an active fraction lies in [0, 1], not {fraction}")
    return min(n, math.ceil(fraction * n - 1e-9))


def predict_ms(
    blocks: list[float],
    entry_bytes: float,
    link: LinkCurve,
    entries_per_ms: float,
    sweeps: int = 1,
    buffers: int = 2,
    per_block_ms: float = 0.0,
    active: list[float] | None = None,
    per_sweep_ms: float = 0.0,
    extra: list[float] | None = None,
) -> float:
    """Predicted time of `sweeps` sweeps over `blocks` (bytes each, ids and weights of entry_bytes per entry); with
    `active` (one fraction per sweep, which then sets the sweeps), only that fraction of the blocks in each; with
    `extra` (bytes per block: the column layout's row index and x, column_extra), copies of blocks + extra."""
    if buffers < 1 or sweeps < 0 or entries_per_ms <= 0:
        raise ValueError("buffers >= 1, sweeps >= 0 and a positive compute rate are needed")
    if extra is not None and len(extra) != len(blocks):
        raise ValueError(f"{len(extra)} extra sizes for {len(blocks)} blocks")
    copy = [link.copy_ms(b + (extra[i] if extra else 0.0)) for i, b in enumerate(blocks)]
    compute = [b / entry_bytes / entries_per_ms + per_block_ms for b in blocks]

    def one(k: int) -> float:  # a sweep over the first k blocks, copies included
        if buffers == 1:  # no overlap: each copy waits for the kernel before it
            return sum(copy[:k]) + sum(compute[:k])
        return sweep_ms(copy[:k], compute[:k])

    counts = [len(blocks)] * sweeps if active is None else [active_blocks(len(blocks), a) for a in active]
    if not counts:
        return 0.0
    extra = 0.0 if active is None else per_sweep_ms * len(counts)
    if len(blocks) <= buffers:  # resident: copied once (the most any sweep has active), then only computed
        most = max(counts)
        return one(most) + sum(sum(compute[:k]) for k in counts) - sum(compute[:most]) + extra
    return sum(one(k) for k in counts) + extra


def best_block(
    lists_bytes: float, candidates: list[float], entry_bytes: float, link: LinkCurve, entries_per_ms: float, **kw
) -> tuple[float, pd.DataFrame]:
    """The candidate block size with the least predicted time, and the table of every candidate's prediction."""
    rows = []
    columns = kw.pop("columns", None)  # (V, id bytes): the column layout
    for b in candidates:
        blocks = uniform_blocks(lists_bytes, b)
        extra = column_extra(lists_bytes, b, entry_bytes, *columns) if columns else None
        ms = predict_ms(blocks, entry_bytes, link, entries_per_ms, extra=extra, **kw)
        row = {"block_bytes": b, "blocks": len(blocks), "predicted_ms": ms}
        if extra:
            row["extra_bytes"] = sum(extra)
        rows.append(row)
    table = pd.DataFrame(rows)
    return float(table.loc[table["predicted_ms"].idxmin(), "block_bytes"]), table


def _size(text: str) -> float:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return float(text[:-1]) * units[text[-1]] if text and text[-1] in units else float(text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m model.streamed", description=__doc__.split("\n\n")[0])
    ap.add_argument("--link", required=True, help="link table (emogi linkbw --out)")
    ap.add_argument("--device-runs", required=True, help="runs table with device-mode runs of the kernel")
    ap.add_argument("--algorithm", default="spmv")
    ap.add_argument("--variant", default="merged-aligned")
    ap.add_argument("--lists-bytes", required=True, type=_size, help="ids and weights the kernel reads per sweep")
    ap.add_argument("--entry-bytes", required=True, type=float, help="bytes per list entry (ids and weights)")
    ap.add_argument("--blocks", required=True, help="candidate block sizes, comma-separated (K, M, G: binary)")
    ap.add_argument("--sweeps", type=int, default=1)
    ap.add_argument("--active", help="skipping: the fraction of blocks active in each sweep, comma-separated")
    ap.add_argument(
        "--active-log",
        help="skipping: the fractions of the first timed run of --algorithm --variant in "
        "this `emogi run` log (its `streamed run:` lines)",
    )
    ap.add_argument("--per-sweep-ms", type=float, default=0.0, help="skipping: marking cost per sweep")
    ap.add_argument("--buffers", type=int, default=2)
    ap.add_argument("--per-block-ms", type=float, default=0.0)
    ap.add_argument("--layout", choices=("rows", "columns"), default="rows", help="--stream-layout of the runs")
    ap.add_argument("--vertices", type=float, help="columns: V (x's length, the rows a block may hold)")
    ap.add_argument("--id-bytes", type=int, default=8, help="columns: bytes of a row id (the graph's id width)")
    a = ap.parse_args(argv)
    try:
        if a.layout == "columns" and a.vertices is None:
            raise ValueError("--layout columns needs --vertices")
        columns = (a.vertices, a.id_bytes) if a.layout == "columns" else None
        active = [float(x) for x in a.active.split(",")] if a.active else None
        if a.active_log:
            runs = active_from_log(open(a.active_log).read(), a.algorithm, a.variant)
            if not runs:
                raise ValueError(f"{a.active_log} has no streamed run of {a.algorithm} {a.variant}")
            active = runs[0]
        link = LinkCurve.from_table(pd.read_csv(a.link))
        rate = device_rate(pd.read_csv(a.device_runs), a.algorithm, a.variant)
        best, table = best_block(
            a.lists_bytes,
            [_size(b) for b in a.blocks.split(",")],
            a.entry_bytes,
            link,
            rate,
            sweeps=a.sweeps,
            buffers=a.buffers,
            per_block_ms=a.per_block_ms,
            active=active,
            per_sweep_ms=a.per_sweep_ms,
            columns=columns,
        )
    except (OSError, ValueError, KeyError) as e:
        print(f"model.streamed: {e}", file=sys.stderr)
        return 2
    print(table.to_string(index=False))
    print(f"best block: {best:.0f} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
