"""The GPU-work term v16 (issue 24; docs/holdout-v16.md, registered before the session): term v12
(model/gpu_work_v12.py: v8's floor, v12's zero-copy link terms) with one change in the floor of Jacobi PageRank
(`pagerank`, `merged-aligned`): its longest walk K_l is replaced by the launch's critical path through the grid
order, C(rho) (model/critical_path.py), in the same column (cost s, fitted as before).

Why: held-out validations v13h, v14 and v15 missed Jacobi PageRank in device memory on kron19ef13 by -16.2%,
-16.5% and -16.4%, and its train cells miss by up to 24% in sample. Its time per round on Kronecker graphs is set by
one warp walking a hub's list (~0.2 us a step) more than by the throughput work, and the ids are permuted, so where
the hub sits in the grid (how much of the grid is left to overlap its walk) differs from graph to graph.
(archive/jacobi-critical-path-exploration-2026-11-29 chose it, in sample, on train cells.)

rho is chosen on the registered grid (model.critical_path.RHOS) by the least sum of squared relative errors of the
fitted floor over the group's train device cells (per edge width, as the group's costs are fitted); rho = 0 is term
v12. The chosen rho is a column of the costs table. Only the listed groups change: the other algorithms' launches
read a frontier's lists, which the launches table does not name, and their kernels are not warp-per-vertex sweeps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

import numpy as np
import pandas as pd

from model import gpu_work_v8 as v8
from model.critical_path import COLUMNS as CRITICAL_COLUMNS
from model.critical_path import RHOS, table_of

GROUPS = (("pagerank", "merged-aligned"),)  # the (algorithm, variant) whose longest walk becomes C(rho)
FILE = "critical.csv"  # beside a graph's workloads.csv: model.critical_path's table of that graph


class CriticalError(ValueError):
    """A critical-path table that is missing or from another graph file; one line."""


def read_critical(*wdirs) -> pd.DataFrame:
    """The critical-path tables of the workload folders that hold one, with their graph (from the folder's
    workloads.csv); an empty table where none does."""
    out = []
    for wdir in wdirs:
        path = Path(wdir) / FILE
        if not path.is_file():
            continue
        graphs = set(pd.read_csv(Path(wdir) / "workloads.csv", usecols=["graph"])["graph"])
        if len(graphs) != 1:
            raise CriticalError(f"{path}: its workloads.csv holds {len(graphs)} graphs, not one")
        t = pd.read_csv(path, dtype={"checksum": str})
        missing = [c for c in CRITICAL_COLUMNS if c not in t]
        if missing:
            raise CriticalError(f"{path}: lacks column(s) {', '.join(missing)}")
        out.append(t.assign(graph=graphs.pop()))
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame(columns=["graph", *CRITICAL_COLUMNS])


def critical_of(graphs: dict) -> pd.DataFrame:
    """The critical-path tables of graph files (`graphs`: name -> path of its 8-byte file), as read_critical's."""
    return pd.concat([table_of(p).assign(graph=g) for g, p in sorted(graphs.items())], ignore_index=True)


def _in_groups(frame: pd.DataFrame) -> np.ndarray:
    return np.array([(a, v) in GROUPS for a, v in zip(frame["algorithm"], frame["variant"], strict=True)], bool)


def check_critical(critical: pd.DataFrame | None, workloads: pd.DataFrame) -> None:
    """Every graph of the listed groups' workloads has C on the whole grid at each width, from the same file."""
    if critical is None:
        raise CriticalError(f"term v16 needs the graphs' critical-path tables ({FILE} beside their workloads)")
    need = workloads[_in_groups(workloads)]
    for (g, w), grp in need.groupby(["graph", "edge_bytes"]):
        mine = critical[(critical["graph"] == g) & (critical["edge_bytes"] == int(w))]
        if not np.array_equal(np.sort(mine["rho"].to_numpy(float)), RHOS):
            raise CriticalError(f"no critical-path table of {g} at {int(w)} bytes on the registered grid "
                                f"(python -m model.critical_path, into its workloads folder as {FILE})")  # fmt: skip
        have, want = set(mine["checksum"].astype(str)), set(grp["checksum"].astype(str))
        if have != want:
            raise CriticalError(f"the critical-path table of {g} is of checksum(s) {sorted(have)}, its workloads' "
                                f"{sorted(want)}")  # fmt: skip


def with_critical(launches: pd.DataFrame, critical: pd.DataFrame, rho: dict) -> pd.DataFrame:
    """`launches` with the listed groups' walk replaced by C(rho[width]) of their graph (each launch of a Jacobi
    sweep reads the lists of the vertices still pushing, which include the hubs: the whole grid's C stands for
    each)."""
    out = launches.copy()
    rows = _in_groups(out)
    if not rows.any():
        return out
    wanted = critical["edge_bytes"].astype(int).map(rho).to_numpy(float)  # NaN at a width without a rho
    pick = critical[np.isclose(critical["rho"].to_numpy(float), wanted)]
    c = pick.set_index(["graph", "edge_bytes"])["critical_steps"]
    keys = pd.MultiIndex.from_arrays([out.loc[rows, "graph"], out.loc[rows, "edge_bytes"].astype(int)])
    out.loc[rows, "walk"] = c.reindex(keys).to_numpy(float)
    return out


def choose_rho(table: pd.DataFrame, launches: pd.DataFrame, critical: pd.DataFrame, mu: dict, nonisolated: dict,
               classes: dict, train: str, check_fit_set: Callable[[Iterable[str]], None]) -> dict:  # fmt: skip
    """Per edge width of the listed groups: the rho of the grid whose fitted floor has the least Σ (predicted /
    measured − 1)² over the groups' train device cells (the first such rho on ties)."""
    fit = table[_in_groups(table) & (table["mode"] == "device").to_numpy() & (table["split"] == train).to_numpy()]
    mine = launches[_in_groups(launches)]  # the fits below read only these launches: copy them, not all, per rho
    chosen = {}
    for w, cells in fit.groupby("edge_bytes"):
        measured = cells["measured_ms"].to_numpy(float)
        at_width = mine[mine["edge_bytes"] == w]
        losses = []
        for r in RHOS:
            la = with_critical(at_width, critical, {int(w): r})
            costs = v8.fit_costs(cells, la, mu, nonisolated, classes, train, check_fit_set)
            pred = v8.floor_ms(cells, la, costs, mu, nonisolated, classes)
            losses.append(float(np.sum((pred / measured - 1) ** 2)) if np.isfinite(pred).all() else np.inf)
        chosen[int(w)] = float(RHOS[int(np.argmin(losses))])
    return chosen


def floor_launches(table, launches, critical, mu, nonisolated, classes, sp) -> tuple[pd.DataFrame, dict]:
    """The launches term v16's floor is fitted and priced on, and rho per width (`sp`: the split, its TRAIN and
    check_fit_set); the tables checked against the workloads first."""
    check_critical(critical, table)
    rho = choose_rho(table, launches, critical, mu, nonisolated, classes, sp.TRAIN, sp.check_fit_set)
    return with_critical(launches, critical, rho), rho


def with_rho(costs: pd.DataFrame, rho: dict) -> pd.DataFrame:
    """The costs table with a `rho` column: the chosen rho in the listed groups' rows, empty elsewhere."""
    keys = zip(costs["algorithm"], costs["variant"], costs["edge_bytes"], strict=True)
    return costs.assign(rho=[rho.get(int(w), np.nan) if (a, v) in GROUPS else np.nan for a, v, w in keys])


__all__ = ["FILE", "GROUPS", "RHOS", "CriticalError", "check_critical", "choose_rho", "critical_of", "floor_launches",
           "read_critical", "with_critical", "with_rho"]  # fmt: skip
