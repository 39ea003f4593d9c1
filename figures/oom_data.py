"""The out-of-GPU-memory study's numbers (issue 21), shared by its figures and its report section.

Inputs: the `oom` table (measured: fits, budget, emulated), `oom_simulated` (UVM simulated from the runs' recorded
traces) and `oom_placement` (the share c of the read bytes each placement serves). Definitions:
  time       per (graph, algorithm, variant, budget, placement) = mean over roots of the per-root median over
             reps (as Fig. 9). zerocopy keeps only vertex data in GPU memory: measured at the smallest budget, it
             stands for every budget
  UVM        at each budget, two baselines: `simulated` (model/uvm_sim.py, eviction inside launches as an
             oversubscribed driver does: the paper's regime, extrapolated from the validated cold and capped
             parts) and `emulated` (uvm-capped measured: the lists keep at most the budget's capacity, least
             recently used 2 MiB chunks evicted after each of K sub-launches); per (graph, algorithm, budget),
             the fastest of the paper's variants (Naive, Merged, Merged+Aligned) in UVM (conservative, as Fig. 9)
  speedup    UVM baseline time / time
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from emogi.schema import VARIANTS
from figures.inputs import FigureDataError

KEYS = ["graph", "algorithm", "variant", "edge_bytes"]
BASELINES = {"simulated": "unrestricted", "emulated": "uvm-capped"}  # baseline regime -> sim_mode / mode
PLACEMENTS = ("zerocopy", "auto-prefix", "auto-hottest-first")


def _per_root(frame: pd.DataFrame, by: list[str], column: str = "time_ms") -> pd.DataFrame:
    """Mean over roots of the per-root median (roots empty for CC and PageRank)."""
    f = frame.assign(root=frame["root"].fillna(-1))
    med = f.groupby([*by, "root"], dropna=False, as_index=False)[column].median()
    return med.groupby(by, dropna=False, as_index=False)[column].mean()


def simulated(sim: pd.DataFrame) -> pd.DataFrame:
    """The simulated rows the figures use: cold with the registered costs; capped and unrestricted with the
    emulation's fitted costs (model/oom_calibrate.py, params capped-fit) where the tables have them."""
    if "params" not in sim.columns or not (sim["params"] == "capped-fit").any():
        return sim
    cold = sim["sim_mode"] == "cold"
    return sim[(cold & (sim["params"] == "registered")) | (~cold & (sim["params"] == "capped-fit"))]


def parts(oom: pd.DataFrame) -> pd.DataFrame:
    """`oom` with each row's `part` (the `date` stamp emogi.oom_measure gives every row of one run: one graph and
    algorithm in one device call) and `supplement` (a part without fits rows: a later call's hottest-first runs
    beside their own zerocopy baseline, `--only-hottest-first`)."""
    part = oom["date"].astype(str) if "date" in oom.columns else pd.Series("", index=oom.index)
    oom = oom.assign(part=part)
    fits = oom["regime"].eq("fits").groupby([oom["graph"], oom["algorithm"], oom["part"]]).transform("any")
    return oom.assign(supplement=~fits)


def measured_times(oom: pd.DataFrame) -> pd.DataFrame:
    """One row per (KEYS, budget_fraction, placement) for zerocopy and auto, and (KEYS, budget_fraction) for
    uvm-capped (placement 'uvm-capped'); `regime` of each. Only the main parts: a supplement's runs came from
    another call (another machine), so they enter no comparison with this call's UVM runs."""
    oom = parts(oom)
    return _times(oom[~oom["supplement"]])


def _times(oom: pd.DataFrame) -> pd.DataFrame:
    oom = oom.assign(placement=oom["mode"].where(oom["mode"] != "auto", "auto-" + oom["auto_order"].fillna("")))
    budgets = sorted(oom["budget_fraction"].dropna().unique(), reverse=True)
    rows = _per_root(oom[oom["regime"] != "fits"], [*KEYS, "budget_fraction", "placement", "regime"])
    zc = rows[rows["placement"] == "zerocopy"]
    rest = rows[rows["placement"] != "zerocopy"]
    spread = pd.concat([zc.assign(budget_fraction=b) for b in budgets], ignore_index=True)
    return pd.concat([spread, rest], ignore_index=True)


def fits_times(oom: pd.DataFrame) -> pd.DataFrame:
    """device and cold uvm with no budget, per KEYS: columns device_ms, uvm_ms."""
    fits = _per_root(oom[oom["regime"] == "fits"], [*KEYS, "mode"])
    return fits.pivot_table(index=KEYS, columns="mode", values="time_ms").add_suffix("_ms").reset_index()


def uvm_baselines(oom: pd.DataFrame, sim: pd.DataFrame) -> pd.DataFrame:
    """Per (graph, algorithm, edge_bytes, budget_fraction, baseline): the fastest variant's UVM time."""
    frames = []
    sim = simulated(sim)
    s = sim[sim["sim_mode"] == "unrestricted"]
    if not s.empty:
        t = _per_root(s, [*KEYS, "budget_fraction"])
        frames.append(t.assign(baseline="simulated"))
    c = oom[oom["mode"] == "uvm-capped"]
    if not c.empty:
        t = _per_root(c, [*KEYS, "budget_fraction"])
        frames.append(t.assign(baseline="emulated"))
    if not frames:
        raise FigureDataError("the OOM tables have neither simulated nor uvm-capped runs: no UVM baseline")
    t = pd.concat(frames, ignore_index=True)
    paper = t[t["variant"].isin(VARIANTS)]  # the paper's UVM ran its own kernels; ours where it has none
    t = pd.concat([paper, t[~t["algorithm"].isin(set(paper["algorithm"]))]], ignore_index=True)
    group = ["graph", "algorithm", "edge_bytes", "budget_fraction", "baseline"]
    best = t.loc[t.groupby(group)["time_ms"].idxmin()]
    return best.rename(columns={"time_ms": "uvm_ms", "variant": "uvm_variant"})


def speedups(oom: pd.DataFrame, sim: pd.DataFrame) -> pd.DataFrame:
    """Every zerocopy and auto time over both UVM baselines: one row per (KEYS, budget, placement, baseline);
    `regime` says how the comparison was obtained: the baseline's (simulated | emulated)."""
    times = measured_times(oom)
    times = times[times["placement"].isin(PLACEMENTS)]
    base = uvm_baselines(oom, sim)
    out = times.drop(columns="regime").merge(base, on=["graph", "algorithm", "edge_bytes", "budget_fraction"])
    if out.empty:
        raise FigureDataError("the OOM tables have no zerocopy or auto runs at a budget with a UVM baseline")
    out["speedup"] = out["uvm_ms"] / out["time_ms"]
    out["regime"] = out["baseline"]
    return out.sort_values(["graph", "algorithm", "budget_fraction", "variant", "placement", "baseline"])


def amplification(sim: pd.DataFrame) -> pd.DataFrame:
    """Bytes moved over bytes needed per (KEYS, budget, what): zero-copy (32-byte sectors the traces touch) and
    UVM simulated (unrestricted and capped), mean over roots."""
    rows = []
    sim = simulated(sim)
    zc = _per_root(sim[sim["sim_mode"] == "cold"], KEYS, "zero_copy_bytes")
    need = _per_root(sim[sim["sim_mode"] == "cold"], KEYS, "bytes_needed")
    zc = zc.merge(need, on=KEYS)
    budgets = sorted(sim["budget_fraction"].dropna().unique(), reverse=True)
    for b in budgets:
        rows.append(zc.assign(budget_fraction=b, what="zero-copy", moved=zc["zero_copy_bytes"]))
    for mode in ("unrestricted", "capped"):
        s = sim[sim["sim_mode"] == mode]
        if s.empty:
            continue
        moved = _per_root(s, [*KEYS, "budget_fraction"], "migrated_bytes").merge(need, on=KEYS)
        rows.append(moved.assign(what=f"UVM {mode}", moved=moved["migrated_bytes"]))
    out = pd.concat(rows, ignore_index=True)
    out["amplification"] = out["moved"] / out["bytes_needed"]
    out["regime"] = "simulated"
    return out[[*KEYS, "budget_fraction", "what", "bytes_needed", "moved", "amplification", "regime"]]


def validation(oom: pd.DataFrame, sim: pd.DataFrame) -> pd.DataFrame:
    """Simulated against measured, per traced run: cold against uvm (fits), capped against uvm-capped at each
    budget; error = simulated / measured - 1."""
    roots = simulated(sim).assign(root=sim["root"].fillna(-1))
    meas = oom.assign(root=oom["root"].fillna(-1))
    med = meas.groupby([*KEYS, "root", "mode", "budget_fraction"], dropna=False, as_index=False)["time_ms"].median()
    cold = roots[roots["sim_mode"] == "cold"].merge(
        med[med["mode"] == "uvm"].drop(columns="budget_fraction"), on=[*KEYS, "root"], suffixes=("_sim", "")
    )
    capped = roots[roots["sim_mode"] == "capped"].merge(
        med[med["mode"] == "uvm-capped"], on=[*KEYS, "root", "budget_fraction"], suffixes=("_sim", "")
    )
    out = pd.concat([cold, capped], ignore_index=True)
    out = out.rename(columns={"time_ms": "measured_ms", "time_ms_sim": "simulated_ms"})
    out["error"] = out["simulated_ms"] / out["measured_ms"] - 1
    cols = [*KEYS, "root", "sim_mode", "budget_fraction", "device_ms", "measured_ms", "simulated_ms", "error"]
    return out[cols]


def placement_gains(oom: pd.DataFrame, placement: pd.DataFrame) -> pd.DataFrame:
    """Issue 21 item 6a: each auto placement's gain over zerocopy (same variant and width) beside c and the bound
    1 / (1 - c), mean over roots; `of_bound` = gain / bound. Each placement is paired with the zerocopy runs of
    its own part (one call), supplements included; `part` says which; c too where its rows say their part.
    `of_device`: the time with every list in GPU memory over the placement's, the most any placement can give
    a run the link does not bound (direction-optimizing BFS)."""
    t = pd.concat([_times(rows).assign(part=p) for p, rows in parts(oom).groupby("part")], ignore_index=True)
    zc = t[t["placement"] == "zerocopy"][[*KEYS, "budget_fraction", "part", "time_ms"]]
    auto = t[t["placement"].str.startswith("auto-")]
    g = auto.merge(zc, on=[*KEYS, "budget_fraction", "part"], suffixes=("", "_zerocopy"))
    g["auto_order"] = g["placement"].str.removeprefix("auto-")
    cell = [*KEYS, "budget_fraction", "auto_order"]
    own, rest = _served(placement)
    g = g.merge(own, on=[*cell, "part"], how="left").merge(rest, on=cell, how="left", suffixes=("", "_undated"))
    g["served_fraction"] = g["served_fraction"].fillna(g.pop("served_fraction_undated"))
    g["gain"] = g["time_ms_zerocopy"] / g["time_ms"]
    g["bound"] = 1 / (1 - g["served_fraction"])
    g["of_bound"] = g["gain"] / g["bound"]
    # beside the bound: the run with every list in GPU memory (device, fits; a supplement's from its main part)
    device = _per_root(oom[oom["mode"] == "device"], KEYS).rename(columns={"time_ms": "time_ms_device"})
    g = g.merge(device, on=KEYS, how="left")
    g["of_device"] = g["time_ms_device"] / g["time_ms"]
    return g[[*KEYS, "budget_fraction", "auto_order", "time_ms_zerocopy", "time_ms", "gain", "served_fraction",
              "bound", "of_bound", "time_ms_device", "of_device", "part"]]  # fmt: skip


def _served(placement: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """c, mean over roots: per (KEYS, budget, order, part) from rows that carry their part's `date`
    (model/oom_simulate.py stamps it), and per (KEYS, budget, order) from older rows without one, which stand
    for every part of their cell that has no c of its own."""
    cell = [*KEYS, "budget_fraction", "auto_order"]
    if "date" not in placement.columns:
        placement = placement.assign(date=np.nan)
    dated = placement["date"].notna()
    own = placement[dated].rename(columns={"date": "part"}).astype({"part": str})
    own = own.groupby([*cell, "part"], as_index=False)["served_fraction"].mean()
    rest = placement[~dated].groupby(cell, as_index=False)["served_fraction"].mean()
    return own, rest


def geomean(values) -> float:
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v) & (v > 0)]
    return float(np.exp(np.log(v).mean())) if len(v) else float("nan")
