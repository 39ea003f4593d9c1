"""Build the reproduction report: gather every number it shows into a JSON, then compile paper/report.typ.

    python workflow/scripts/build_report.py --source results/tables/source.json \
        --fig09 results/figures/fig09_speedup_over_uvm.png --fig09-csv results/figures/fig09_speedup_over_uvm.csv \
        --fig08 results/figures/fig08_pcie_bandwidth.png --fig08-csv results/figures/fig08_pcie_bandwidth.csv \
        --link-bound results/model/link_bound.csv --runs results/tables/runs.csv --link results/tables/link.csv \
        --paper-numbers paper/paper_numbers.yaml --out results/report/report.pdf

Microbenchmarks and the model (section "Microbenchmarks and the model"), every one optional:
        --parameters results/model/parameters.json --predictions results/model/predictions.csv \
        --prediction-summary results/model/prediction_summary.json \
        --fig-copy-bandwidth results/figures/fig_copy_bandwidth.png \
        --fig-copy-bandwidth-csv results/figures/fig_copy_bandwidth.csv   (likewise --fig-zero-copy-toy,
        --fig-latency, --fig-concurrency, --fig-footprint-cliff, --fig-runtime-vs-transfer-size,
        --fig-added-latency, --fig-model-vs-measured, each with its -csv)

Datasets (section "Datasets: the paper's Table 2 and Figure 6"), optional as well:
        --table2 results/figures/table2_datasets.csv \
        --fig06 results/figures/fig06_degree_cdf.png --fig06-csv results/figures/fig06_degree_cdf.csv

Writes <out>.json (everything the report shows: environment, the paper's numbers beside ours, tables) next to
the PDF, then compiles paper/report.typ with typst, which reads that JSON and includes the figure images.
--fig08/--fig08-csv and --link-bound may be left out (measurements without a profile table); the report then
says so in their place. Typst only reads files under its root, so the root is the deepest folder holding the
.typ, the JSON and the images (the repo root when everything is under results/), and paths are handed to the
.typ relative to it. Both outputs are written atomically.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from pathlib import Path

_REPO = Path(__file__).resolve().parents[2]
if str(_REPO) not in sys.path:  # run as a script: make `emogi`, `model` and `figures` importable
    sys.path.insert(0, str(_REPO))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import yaml  # noqa: E402

from emogi.atomic import write_bytes  # noqa: E402
from emogi.dataset_table import fmt_count  # noqa: E402
from emogi.schema import ALGORITHMS, MODES, VARIANTS, WEIGHT_BYTES, ZERO_COPY_MODES  # noqa: E402
from emogi.tables import TableError, default_launch, read_table, throttled  # noqa: E402
from figures import style  # noqa: E402
from figures.inputs import FigureDataError, load_source, source_label  # noqa: E402
from model.bounds import traversal_time_ms  # noqa: E402
from model.littles_law import fit_link_bandwidth  # noqa: E402
from model.outputs import PREDICTION_COLUMNS  # noqa: E402

TEMPLATE = _REPO / "paper" / "report.typ"
NOT_RECORDED = "not recorded"
TIME_DEFINITION = "mean over roots of the per-root median over reps (default launch, max_warps = 0)"
BOUND_TIME_DEFINITION = "mean over roots of the per-root median over reps"  # as model.bounds computes it


class ReportError(RuntimeError):
    """An input of the report is missing or unusable."""


# --- reading ----------------------------------------------------------------------------------------------
def read_csv(path: Path, what: str, table: str | None = None) -> pd.DataFrame:
    try:
        return read_table(path, table)
    except TableError as e:
        raise ReportError(f"report: {e} ({what})") from None


# --- formatting (the .typ prints strings as they are; all rounding happens here) ---------------------------
def fx(v, digits=2) -> str:
    return "–" if v is None or not math.isfinite(v) else f"{v:.{digits}f}×"


def fgb(v, digits=1) -> str:
    return "–" if v is None or not math.isfinite(v) else f"{v:.{digits}f} GB/s"


def fpct(v) -> str:
    return "–" if v is None or not math.isfinite(v) else f"{100 * v:.0f}%"


def fms(v) -> str:
    if v is None or not math.isfinite(v):
        return "–"
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def fbytes(b: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if b >= scale:
            return f"{b / scale:.3g} {unit}"
    return f"{b:.0f} B"


def fnum(v):
    """A float for the JSON (NaN is not JSON): None when missing."""
    return None if v is None or not math.isfinite(float(v)) else float(v)


def span(text: str, cols: int) -> dict:
    """A table cell spanning `cols` columns (the .typ turns it into table.cell(colspan: ...))."""
    return {"text": text, "colspan": cols}


def paper_value(entry: dict, fmt) -> str:
    """The paper's value as printed; a range [lo, hi] prints as "lo–hi unit"; a statement (string) as it is."""
    v = entry["value"]
    if isinstance(v, str):
        text = v
    elif isinstance(v, list):
        lo, hi = fmt(v[0]), fmt(v[1])
        unit = next((u for u in (" GB/s", "%", "×") if lo.endswith(u) and hi.endswith(u)), "")
        text = f"{lo[:len(lo) - len(unit)]}–{hi}"
    else:
        text = fmt(v)
    return ("≈ " + text + " (derived)") if entry.get("derived") else text


def interval_text(entry: dict, fmt: str = ".3g", unit: str = "") -> str:
    """A fitted value with its interval, '55.3 GB/s [54.9, 55.6]'."""
    v, lo, hi = entry.get("value"), entry.get("lo"), entry.get("hi")
    text = format(float(v), fmt) + unit
    if lo is not None and hi is not None and math.isfinite(float(lo)) and math.isfinite(float(hi)):
        text += f" [{format(float(lo), fmt)}, {format(float(hi), fmt)}]"
    return text


def frange(lo: float, hi: float, fmt) -> str:
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "–"
    return fmt(lo) if fmt(lo) == fmt(hi) else f"{fmt(lo)} to {fmt(hi)}"


# --- sections ---------------------------------------------------------------------------------------------
def environment(source: dict, runs: pd.DataFrame, paper: dict) -> tuple[list, list]:
    """Environment table (ours beside the paper's) and warnings where source.json and runs.csv disagree."""
    warnings = []

    def ours(key, same=str):
        """source.json's value of `key`, checked against the rows; `same` maps a value to what must agree."""
        value = source.get(key)
        recorded = sorted({same(v) for v in runs[key].dropna()}) if key in runs.columns else []
        if value and recorded and same(value) not in recorded:
            warnings.append(f"source.json gives {key} = {value!r} but runs.csv records {', '.join(recorded)}")
        if not value and recorded:
            value = ", ".join(recorded)  # source.json lacks it: the rows still say
        return str(value) if value else NOT_RECORDED

    date = ours("date", same=lambda d: str(d)[:10])  # rows and provenance are stamped minutes apart: compare days
    system = paper["system"]
    rows = [
        ["GPU", ours("gpu"), system["gpu"]["value"]],
        ["Host link", ours("link"), system["link"]["value"]],
        ["Driver", ours("driver"), system["driver"]["value"]],
        ["CUDA", ours("cuda"), system["cuda"]["value"]],
        ["Commit", ours("commit"), "–"],
        # access.cuh's build setting; studies built before it existed (51b3808) had only the artifact's loop.
        ["Reads in flight per lane", str(source.get("loads_in_flight") or "1 (before 51b3808: not recorded)"),
         "1 (Listing 2)"],
        ["Date", measured_between(runs) or date, paper["paper"]["venue"]],
        ["Host", str(source.get("hostname") or NOT_RECORDED), system["cpu"]["value"]],
        ["Data source", source["source"] + (f" ({source['archive_id']})" if source.get("archive_id") else ""), "–"],
        ["Command", str(source.get("command") or NOT_RECORDED), "–"],
    ]
    return rows, warnings


def measured_between(runs: pd.DataFrame) -> str:
    """'first to last' row timestamps (rows are stamped when measured; source.json when provenance was taken)."""
    if "date" not in runs.columns or runs["date"].dropna().empty:
        return ""
    first, last = str(runs["date"].min()), str(runs["date"].max())
    return first if first == last else f"{first} to {last}"


def what_was_run(runs: pd.DataFrame) -> dict:
    n_throttled = int((throttled(runs)["algorithm"] == "bfs").sum())
    runs = default_launch(runs)  # throttled runs (max_warps > 0) emulate added latency: counted apart
    bfs = runs[runs["algorithm"] == "bfs"]
    per_cfg = bfs.groupby(["graph", "edge_bytes", "variant", "mode"])
    graphs = []
    for (graph, w), g in bfs.groupby(["graph", "edge_bytes"]):
        # largest traversal seen: a lower bound on the edge-list size the runs had to read
        reached = float(g["edges_traversed"].max())
        graphs.append([str(graph), f"{int(w)} B", f"{reached:,.0f}", fbytes(reached * w)])
    order = lambda seq, ref: [x for x in ref if x in set(seq)]  # noqa: E731
    return {
        "algorithms": sorted(map(str, bfs["algorithm"].unique())),
        "graphs": sorted(map(str, bfs["graph"].unique())),
        "variants": order(bfs["variant"], VARIANTS),
        "variant_labels": [style.VARIANT_LABELS[v] for v in order(bfs["variant"], VARIANTS)],
        "modes": order(bfs["mode"], MODES),
        "mode_labels": [style.MODE_LABELS[m] for m in order(bfs["mode"], MODES)],
        "edge_bytes": sorted(int(w) for w in bfs["edge_bytes"].unique()),
        "roots_per_config": int(per_cfg["root"].nunique().min()),
        "reps_per_root": int(bfs.groupby(["graph", "edge_bytes", "variant", "mode", "root"]).size().min()),
        "n_runs": int(len(bfs)),
        "n_throttled_runs": n_throttled,
        "graph_table": {"columns": ["graph", "edge width", "edges traversed (max over roots)",
                                    "edge bytes read at least"], "align": "lrrr", "rows": graphs},
    }


def fig09_section(csv: Path, image: str, paper: dict, label: str) -> dict:
    t = read_csv(csv, "fig09 numbers")
    p = paper["fig09"]
    modes = [m for m in ZERO_COPY_MODES if m in set(t["mode"])]

    def mean_speedup(variant, mode):
        s = t[(t["variant"] == variant) & (t["mode"] == mode)]["speedup"]
        return float(s.mean()) if len(s) else math.nan

    def mean_aligned_over_merged(mode):
        # same baseline in each panel, so the ratio of speedups is the merged / merged-aligned time ratio
        a = t[(t["variant"] == "merged-aligned") & (t["mode"] == mode)].set_index(["graph", "edge_bytes"])
        m = t[(t["variant"] == "merged") & (t["mode"] == mode)].set_index(["graph", "edge_bytes"])
        r = (a["speedup"] / m["speedup"]).dropna()
        return float(r.mean()) if len(r) else math.nan

    quantities = [
        ("naive_over_uvm", "Naive over UVM", lambda m: mean_speedup("naive", m)),
        ("merged_over_uvm", "Merged over UVM", lambda m: mean_speedup("merged", m)),
        ("aligned_over_uvm", "Merged+Aligned over UVM", lambda m: mean_speedup("merged-aligned", m)),
        ("aligned_over_merged", "Merged+Aligned over Merged", mean_aligned_over_merged),
    ]
    rows, values = [], []
    for key, name, fn in quantities:
        ours = {m: fn(m) for m in modes}
        rows.append([name, paper_value(p[key], lambda v: fx(v)), *[fx(ours[m]) for m in modes], p[key]["section"]])
        values.append({"quantity": key, "paper": p[key]["value"], "paper_quote": p[key]["quote"],
                       "ours": {m: fnum(v) for m, v in ours.items()}})

    per_graph_rows = []
    for (graph, w), g in t.groupby(["graph", "edge_bytes"], sort=False):
        cells = [str(graph), f"{int(w)} B", style.VARIANT_LABELS[g["uvm_baseline_variant"].iloc[0]] + ", "
                 + fms(float(g["uvm_baseline_ms"].iloc[0])) + " ms"]
        for v in VARIANTS:
            for m in modes:
                s = g[(g["variant"] == v) & (g["mode"] == m)]["speedup"]
                cells.append(fx(float(s.iloc[0])) if len(s) else "–")
        per_graph_rows.append(cells)
    short = {"zerocopy": "zc", "zerocopy-pinned": "pinned"}
    return {
        "image": image,
        "label": label,
        "definition": ("time per (graph, edge width, variant, mode) = " + TIME_DEFINITION + "; UVM baseline = the "
                       "fastest variant in uvm mode for that graph and edge width (conservative: never inflates a "
                       "speedup); speedup = baseline time / time. 'Mean over graphs' = arithmetic mean over graphs and "
                       "edge widths (the paper says 'on average' without naming the mean)."),
        "comparison": {"columns": ["quantity (mean over graphs)", "paper (V100, PCIe 3.0)",
                                   *[f"ours, {style.MODE_SHORT_LABELS[m]}" for m in modes], "paper section"],
                       "align": "l" + "r" * (len(modes) + 1) + "l", "rows": rows},
        "values": values,
        "per_graph": {"columns": ["graph", "edges", "UVM baseline",
                                  *[f"{style.VARIANT_LABELS[v]} ({short.get(m, m)})" for v in VARIANTS
                                    for m in modes]],
                      "align": "lll" + "r" * (len(VARIANTS) * len(modes)), "rows": per_graph_rows},
        "mode_abbreviations": {short[m]: style.MODE_LABELS[m] for m in modes},
    }


def summary_of(t: pd.DataFrame, column: str, how: str, **where) -> float:
    """`how` ("mean", "max") of `column` over the rows whose columns equal `where`'s values; NaN when none do."""
    for key, value in where.items():
        t = t[t[key] == value]
    return float(t[column].agg(how)) if len(t) else math.nan


def _mib(text) -> float:
    """'81559 MiB' (provenance's gpu_memory) in bytes; NaN when not recorded."""
    m = re.match(r"\s*([0-9.]+)\s*MiB", str(text or ""))
    return float(m.group(1)) * 2**20 if m else math.nan


def fits_text(runs: pd.DataFrame, source: dict) -> str:
    """Whether the study's edge lists (with SSSP's weights) fit in the GPU's memory, and what that does to UVM."""
    bfs = default_launch(runs)
    bfs = bfs[bfs["algorithm"] == "bfs"]
    with_weights = bfs["edge_bytes"] + WEIGHT_BYTES["sssp"]
    largest = float((bfs["edges_traversed"] * with_weights).max()) if len(bfs) else math.nan
    memory = _mib(source.get("gpu_memory"))
    if not (math.isfinite(largest) and math.isfinite(memory)):
        return ""
    if largest < memory:
        return (f"Our largest edge list with its weights (at least {fbytes(largest)}) fits in this GPU's "
                f"{fbytes(memory)}: a cold UVM run migrates each page once and then reads it in GPU memory, so the "
                "applications that sweep the edge list many times (PageRank, CC's label propagation, SSSP's "
                "repeated scans) pay the page faults once and then run at in-memory speed. The paper's graphs "
                "exceeded its V100's 16 GB, so its UVM baseline had to evict and fetch again on every sweep; ours "
                "does not, and cannot here: oversubscribing managed memory can hang a shared GPU (the workflow "
                "refuses it unless measure.allow_managed_oversubscription is set on a GPU of one's own).")
    return (f"Our largest edge list with its weights (at least {fbytes(largest)}) exceeds this GPU's "
            f"{fbytes(memory)}, as the paper's did: UVM must evict pages and fetch them again on every sweep.")


def apps_section(a, root: Path, paper: dict, runs: pd.DataFrame, source: dict) -> dict | None:
    """EMOGI §5.4: Figs. 11 and 12 with the paper's means beside ours; None when the figures were not given."""
    if not (a.fig11 and a.fig12):
        return None
    t11, t12 = pd.read_csv(a.fig11_csv), pd.read_csv(a.fig12_csv)
    section = {"fig11": rooted(a.fig11, root), "fig12": rooted(a.fig12, root), "measured": bool(len(t11))}
    if t11.empty:
        return section
    p = paper["apps"]
    label = {"bfs": "BFS", "sssp": "SSSP", "cc": "CC", "pagerank": "PageRank"}
    algorithms = [x for x in ALGORITHMS if x in set(t11["algorithm"])]

    def mean(t, column, **where):
        return summary_of(t, column, "mean", **where)

    emogi, fastest, device = (t11[t11["bar"] == b] for b in ("emogi", "fastest", "device"))
    rows = [["EMOGI over UVM, mean over graphs and applications", paper_value(p["emogi_over_uvm"], fx),
             fx(mean(emogi, "speedup")), p["emogi_over_uvm"]["section"]]]
    rows += [[f"  {label[x]}", "–", fx(mean(emogi, "speedup", algorithm=x)), ""] for x in algorithms]
    rows += [["fastest zero-copy variant over UVM, mean", "–", fx(mean(pd.concat([emogi, fastest]).groupby(
        ["graph", "algorithm"])["speedup"].max().reset_index(), "speedup")), ""],
             ["edge list in GPU memory over UVM, mean", "–", fx(mean(device, "speedup")), ""]]
    if len(t12):
        rows.append(["EMOGI, 4-byte over 8-byte edges, mean", paper_value(p["four_over_eight"], fx),
                     fx(float(t12["speedup"].mean())), p["four_over_eight"]["section"]])
        rows += [[f"  {label[x]} (bytes per edge: {fx(mean(t12, 'byte_ratio', algorithm=x), 1)})", "–",
                  fx(mean(t12, "speedup", algorithm=x)), ""] for x in algorithms if x in set(t12["algorithm"])]
    per_graph = []
    for (graph, algorithm), g in t11.groupby(["graph", "algorithm"], sort=False):
        base = str(g["uvm_baseline_variant"].iloc[0])
        cells = [str(graph), label[algorithm],
                 f"{style.VARIANT_LABELS.get(base, base)}, {fms(float(g['uvm_baseline_ms'].iloc[0]))} ms"]
        for bar in ("emogi", "fastest", "device"):
            hit = g[g["bar"] == bar]
            if len(hit):
                r = hit.iloc[0]
                name = "" if bar == "emogi" else f"{r['variant']}: "
                cells.append(f"{name}{fms(float(r['time_ms']))} ms ({fx(float(r['speedup']))})")
            else:
                cells.append("–")
        per_graph.append(cells)
    slower = emogi[emogi["speedup"] < 1]
    below = [f"{label[r.algorithm]} on {r.graph} ({fx(float(r.speedup))})" for r in slower.itertuples()]
    return {**section,
            "comparison": {"columns": ["quantity", "paper (V100, PCIe 3.0)", "ours", "paper section"],
                           "align": "lrrl", "rows": rows},
            "per_graph": {"columns": ["graph", "application", "UVM baseline", "EMOGI (Merged+Aligned, zero-copy)",
                                      "fastest zero-copy", "edge list in GPU memory"],
                          "align": "llllll", "rows": per_graph},
            "fits": fits_text(runs, source),
            "below_uvm": ("EMOGI is slower than UVM here for " + ", ".join(below) + ".") if below else "",
            "iterative_quote": p["iterative_lower"]["quote"]}


def fig08_section(csv: Path, image: str, paper: dict, label: str, link: pd.DataFrame, source: dict) -> dict:
    t = read_csv(csv, "fig08 numbers")
    p = paper["fig08"]
    peak, spread = fit_link_bandwidth(link)  # the same W the figure's line shows
    modes = [m for m in ZERO_COPY_MODES if m in set(t["mode"])]

    def up_to(variant, mode):
        s = t[(t["variant"] == variant) & (t["mode"] == mode)]["pcie_read_gbps"]
        return float(s.max()) if len(s) else math.nan

    def gain_range(mode):
        a = t[(t["variant"] == "merged-aligned") & (t["mode"] == mode)].set_index(["graph", "edge_bytes"])
        m = t[(t["variant"] == "merged") & (t["mode"] == mode)].set_index(["graph", "edge_bytes"])
        d = (a["pcie_read_gbps"] - m["pcie_read_gbps"]).dropna()
        return (float(d.min()), float(d.max())) if len(d) else (math.nan, math.nan)

    uvm = t[t["mode"] == "uvm"]["pcie_read_gbps"]
    uvm_max = float(uvm.max()) if len(uvm) else math.nan
    n = len(modes)
    link_name = source.get("link") or "our link"
    rows = [
        ["pinned cudaMemcpy H2D peak", paper_value(p["memcpy_peak_gbps"], fgb),
         span(f"{fgb(peak)} (IQR {spread:.2f}) on {link_name}", n), p["memcpy_peak_gbps"]["section"]],
        ["UVM, up to", paper_value(p["uvm_gbps"], fgb), span(fgb(uvm_max), n), p["uvm_gbps"]["section"]],
        ["Naive, up to", paper_value(p["naive_max_gbps"], fgb), *[fgb(up_to("naive", m)) for m in modes],
         p["naive_max_gbps"]["section"]],
        ["Merged, up to", paper_value(p["merged_max_gbps"], fgb), *[fgb(up_to("merged", m)) for m in modes],
         p["merged_max_gbps"]["section"]],
        ["Merged, fraction of copy peak", paper_value(p["merged_fraction_of_peak"], fpct),
         *[fpct(up_to("merged", m) / peak) for m in modes], p["merged_fraction_of_peak"]["section"]],
        ["Merged+Aligned gain over Merged", paper_value(p["aligned_gain_over_merged_gbps"], fgb),
         *[frange(*gain_range(m), lambda x: f"{x:+.1f} GB/s") for m in modes],
         p["aligned_gain_over_merged_gbps"]["section"]],
        ["Merged+Aligned, up to", "–", *[fgb(up_to("merged-aligned", m)) for m in modes], "–"],
        ["Merged+Aligned, fraction of copy peak", paper_value(p["aligned_fraction_of_peak"], fpct),
         *[fpct(up_to("merged-aligned", m) / peak) for m in modes], p["aligned_fraction_of_peak"]["section"]],
    ]
    values = {
        "peak_gbps": {"paper": p["memcpy_peak_gbps"]["value"], "ours": fnum(peak), "ours_iqr": fnum(spread)},
        "uvm_max_gbps": {"paper": p["uvm_gbps"]["value"], "ours": fnum(uvm_max)},
        **{f"{v.replace('-', '_')}_max_gbps": {"ours": {m: fnum(up_to(v, m)) for m in modes}} for v in VARIANTS},
        "merged_fraction_of_peak": {"paper": p["merged_fraction_of_peak"]["value"],
                                    "ours": {m: fnum(up_to("merged", m) / peak) for m in modes}},
        "aligned_fraction_of_peak": {"paper": p["aligned_fraction_of_peak"]["value"],
                                     "ours": {m: fnum(up_to("merged-aligned", m) / peak) for m in modes}},
    }
    values["naive_max_gbps"]["paper"] = p["naive_max_gbps"]["value"]
    values["merged_max_gbps"]["paper"] = p["merged_max_gbps"]["value"]
    return {
        "image": image,
        "label": label,
        "definition": ("achieved bandwidth = pcie_read_bytes / gpu_time_ns of the profiled traversal (Nsight "
                       "Compute counters summed over its kernels); copy peak = max over copy sizes of the median "
                       "pinned host-to-device cudaMemcpy bandwidth; 'up to' = max over graphs and edge widths. "
                       "The paper measured with an FPGA monitor and VTune, we with GPU counters."),
        "comparison": {"columns": ["quantity", "paper (V100, PCIe 3.0)",
                                   *[f"ours, {style.MODE_SHORT_LABELS[m]}" for m in modes], "paper section"],
                       "align": "l" + "r" * (n + 1) + "l", "rows": rows},
        "values": values,
    }


def requests_section(a, root: Path, paper: dict) -> dict | None:
    """Figs. 7 and 10: PCIe requests per variant and the read amplification, the paper's extremes beside ours
    (zero-copy managed, the default); None when the figures were not given (no profile table)."""
    if not (a.fig07 and a.fig10):
        return None
    t7, t10 = pd.read_csv(a.fig07_csv), pd.read_csv(a.fig10_csv)
    p7, p10 = paper["fig07"], paper["fig10"]
    zc7, zc10 = t7[t7["mode"] == "zerocopy"], t10[t10["mode"] == "zerocopy"]

    def most(t, column, **where):
        return summary_of(t, column, "max", **where)

    rows = [
        ["Merged: fewer requests than Naive, up to", paper_value(p7["merged_fewer_than_naive"], fpct1),
         fpct1(most(zc7, "fewer_than_naive", variant="merged")), p7["merged_fewer_than_naive"]["section"]],
        ["Merged+Aligned: fewer requests than Merged, up to", paper_value(p7["aligned_fewer_than_merged"], fpct1),
         fpct1(most(zc7, "fewer_than_merged", variant="merged-aligned")), p7["aligned_fewer_than_merged"]["section"]],
        ["Merged+Aligned: mean request size, up to", "–",
         f"{most(zc7, 'avg_request_bytes', variant='merged-aligned'):.0f} B", "–"],
        ["UVM read amplification, up to", paper_value(p10["uvm_up_to"], fx), fx(most(t10, "amplification", mode="uvm")),
         p10["uvm_up_to"]["section"]],
        ["EMOGI read amplification, at most", paper_value(p10["emogi_at_most"], fx),
         f"{fx(most(zc10, 'amplification'))} (payload {fx(most(zc10, 'payload_amplification'))})",
         p10["emogi_at_most"]["section"]],
    ]
    return {"fig07": rooted(a.fig07, root), "fig10": rooted(a.fig10, root),
            "comparison": {"columns": ["quantity", "paper (V100, PCIe 3.0)", "ours, zero-copy (managed)",
                                       "paper section"], "align": "lrrl", "rows": rows}}


def link_bound_section(csv: Path) -> dict:
    t = read_csv(csv, "model link bound")
    rows = []
    for r in t.itertuples():
        rows.append([str(r.graph), f"{int(r.edge_bytes)} B", style.VARIANT_LABELS.get(r.variant, r.variant),
                     {"zerocopy": "managed", "zerocopy-pinned": "pinned"}.get(r.mode, r.mode),
                     fms(r.measured_ms), f"{r.D_bytes / 1e9:.3g}", "–" if pd.isna(r.d_bytes) else f"{r.d_bytes:.0f}",
                     fms(r.predicted_ms), "–" if pd.isna(r.ratio) else f"{r.ratio:.2f}",
                     "–" if pd.isna(r.achieved_gbps) else f"{r.achieved_gbps:.1f}"])
    W = float(t["W_gbps"].iloc[0])
    return {
        "W_gbps": W,
        "text": (f"Lower bound t = D / W with W = {W:.1f} GB/s, the pinned cudaMemcpy host-to-device peak; D = bytes "
                 f"read over the link in the profiled traversal; d = mean request size. measured = {BOUND_TIME_DEFINITION} "
                 "(over the profiled roots). A ratio near 1 means the traversal is bound by link bandwidth; larger "
                 "ratios leave time to the request-size, request-rate and latency terms that this thin version "
                 "does not fit yet."),
        "table": {"columns": ["graph", "edges", "variant", "zero-copy", "measured (ms)", "D (GB)", "d (B)",
                              "D / W (ms)", "measured / bound", "achieved (GB/s)"],
                  "align": "llll" + "r" * 6, "rows": rows},
    }


def times_section(runs: pd.DataFrame) -> dict:
    """BFS time per (graph, edge width, variant) x mode, the same definition as fig09 (default launches)."""
    t = traversal_time_ms(default_launch(runs))
    modes = [m for m in MODES if m in set(t["mode"])]
    rows = []
    for (graph, w), g in t.groupby(["graph", "edge_bytes"]):
        for v in VARIANTS:
            if not (g["variant"] == v).any():
                continue
            cells = [str(graph), f"{int(w)} B", style.VARIANT_LABELS[v]]
            for m in modes:
                s = g[(g["variant"] == v) & (g["mode"] == m)]["time_ms"]
                cells.append(fms(float(s.iloc[0])) if len(s) else "–")
            rows.append(cells)
    return {"definition": "BFS time in ms, " + TIME_DEFINITION,
            "table": {"columns": ["graph", "edges", "variant", *[style.MODE_SHORT_LABELS[m] for m in modes]],
                      "align": "lll" + "r" * len(modes), "rows": rows}}


def allocation_section(runs: pd.DataFrame) -> dict | None:
    """The two zero-copy allocations side by side: managed + AccessedBy (our default) and pinned (the paper's)."""
    t = traversal_time_ms(default_launch(runs))
    t = t[t["mode"].isin(ZERO_COPY_MODES)].pivot_table(index=["graph", "edge_bytes", "variant"], columns="mode",
                                                         values="time_ms")
    if not set(ZERO_COPY_MODES) <= set(t.columns) or t.empty:
        return None
    ratio = t["zerocopy-pinned"] / t["zerocopy"]
    rows = [[str(g), f"{int(w)} B", style.VARIANT_LABELS[v], fms(t.loc[(g, w, v), "zerocopy"]),
             fms(t.loc[(g, w, v), "zerocopy-pinned"]), f"{ratio[(g, w, v)]:.2f}"]
            for g, w, v in sorted(t.index, key=lambda k: (k[0], k[1], VARIANTS.index(k[2])))]
    text = (f"Pinned over managed time ranges from {ratio.min():.2f} to {ratio.max():.2f} across graphs and "
            "variants. Random reads from pinned host memory slow down sharply past a ~1 GiB footprint on the H100, "
            "which is why zero-copy defaults to managed memory. ")
    if ratio.between(0.9, 1.1).all():
        text += ("Here the two allocations perform alike (within 10%): this level-synchronous BFS visits active "
                 "vertices in index order, so each level sweeps the edge list in address order rather than at "
                 "random (docs/profiling.md has the same comparison on an 8 GiB edge list).")
    else:
        text += f"Here pinned memory is up to {ratio.max():.2f}x the managed time."
    return {"text": text, "table": {"columns": ["graph", "edges", "variant", "managed (ms)", "pinned (ms)",
                                                "pinned / managed"], "align": "lllrrr", "rows": rows}}


# --- datasets: the paper's Table 2 and Figure 6 -----------------------------------------------------------
# What the paper says about Fig. 6, per dataset (quoted from §5.3 and §5.3.1; tests check the quotes).
FIG06_PAPER = {
    "GU": ("all of its edges associated with vertices with degree between 16 and 48", "Fig. 6 caption"),
    "GK": ("The neighbor lists of the GK graph are extremely unbalanced", "§5.3.1"),
    "ML": ("the ML graph has nearly no edges associated with small degree vertices", "§5.3.1"),
    "FS": ("have some edges associated with small degree vertices", "§5.3.1"),
}
FIG06_CUT_QUOTE = "The horizontal axis of this CDF is cut to 96 as many of the graphs have vertices with an extremely high degree"
TABLE2_COLUMNS = ["symbol", "paper_graph", "graph", "source", "paper_vertices", "vertices", "paper_edges", "edges",
                  "paper_edge_list_gib", "edge_list_gib", "paper_weights_gib", "weights_gib", "paper_avg_degree",
                  "avg_degree", "paper_directed", "directed"]
FIG06_COLUMNS = ["graph", "degree", "edges_cdf", "share_beyond_cut"]
FULL_SIZE = 1.25  # ours within this factor of the paper's V and E: the paper's size, otherwise a scaled stand-in
FULL_SIZE_TEXT, STAND_IN_TEXT = "paper's size", "scaled stand-in"


def _text(x) -> str | None:
    return x if isinstance(x, str) and x else None


def _bool(x) -> bool | None:
    if pd.isna(x):
        return None
    return str(x).strip().lower() in ("true", "1")


def fpct1(v) -> str:
    return "–" if v is None or not math.isfinite(v) else f"{100 * v:.1f}%"


def _stand_in(row) -> str | None:
    """'paper's size' or 'scaled stand-in, 1/16 of V' (of the paper's V); None without both sides."""
    if pd.isna(row["vertices"]) or pd.isna(row["paper_vertices"]):
        return None
    v = float(row["vertices"]) / float(row["paper_vertices"])
    e = float(row["edges"]) / float(row["paper_edges"])
    if all(1 / FULL_SIZE <= r <= FULL_SIZE for r in (v, e)):
        return FULL_SIZE_TEXT
    share = f"1/{1 / v:.0f}" if v < 1 else f"{v:.1f}×"
    return f"{STAND_IN_TEXT}, {share} of V"


def table2_section(csv: Path) -> dict:
    """The paper's Table 2 beside ours (emogi.dataset_table's CSV): each cell 'paper / ours'."""
    t = read_csv(csv, "Table 2 (datasets)")
    missing = [c for c in TABLE2_COLUMNS if c not in t.columns]
    if missing:
        raise ReportError(f"report: {csv} lacks columns {missing} (Table 2)")
    both = lambda p, o: f"{p} / {o}"  # noqa: E731
    num = lambda x, d=1: "–" if pd.isna(x) else f"{float(x):.{d}f}"  # noqa: E731
    directed = lambda x: "–" if _bool(x) is None else ("yes" if _bool(x) else "no")  # noqa: E731
    rows, ours, absent = [], [], []
    for _, r in t.iterrows():
        symbol, graph = _text(r["symbol"]), _text(r["graph"])
        status = _stand_in(r)
        rows.append([symbol or "–", _text(r["paper_graph"]) or "–", graph or "(not in this study)",
                     both(fmt_count(r["paper_vertices"]), fmt_count(r["vertices"])),
                     both(fmt_count(r["paper_edges"]), fmt_count(r["edges"])),
                     both(num(r["paper_edge_list_gib"]), num(r["edge_list_gib"])),
                     both(num(r["paper_weights_gib"]), num(r["weights_gib"])),
                     both(num(r["paper_avg_degree"]), num(r["avg_degree"])),
                     both(directed(r["paper_directed"]), directed(r["directed"])),
                     status or ("–" if graph is None else "no paper dataset")])
        if graph is None:
            absent.append(symbol)
        else:
            ours.append({"graph": graph, "symbol": symbol, "source": _text(r["source"]) or "", "status": status})

    def who(o):
        return f"{o['graph']} (for {o['symbol']})" if o["symbol"] else o["graph"]

    stand_ins = [o for o in ours if o["status"] and o["status"].startswith(STAND_IN_TEXT)]
    full = [o for o in ours if o["status"] == FULL_SIZE_TEXT]
    made = "; ".join(f"{who(o)}: {o['source']}" for o in ours)
    parts = [f"This run's graphs: {made}."]
    if stand_ins:
        parts.append("Scaled stand-ins, not the paper's graphs: " + "; ".join(
            f"{o['graph']} for {o['symbol']} ({o['status'].split(', ', 1)[1].removesuffix(' of V')} of the paper's V)"
            for o in stand_ins)
            + ". Their sizes are not the paper's, nor is whether their edge lists fit in GPU memory (Limitations).")
    if full:
        parts.append("At the paper's size (V and E within 25%): " + ", ".join(who(o) for o in full) + ".")
    if absent:
        parts.append(f"Not in this study: {', '.join(absent)}; config/paper.yaml runs all six of the paper's "
                     "datasets at their sizes (docs/datasets.md).")
    return {"text": " ".join(parts), "stand_ins": [o["graph"] for o in stand_ins],
            "full_size": [o["graph"] for o in full], "absent": absent,
            "symbols": {o["graph"]: o["symbol"] for o in ours if o["symbol"]},
            "table": {"columns": ["Sym.", "paper's graph", "ours", "V", "E", "E size (GB)", "w size (GB)",
                                  "avg. degree", "directed", "ours is"],
                      "align": "lll" + "r" * 5 + "ll", "rows": rows}}


def fig06_section(csv: Path, image: str, symbols: dict) -> dict:
    """Fig. 6 in numbers: the share of each graph's edges by degree band, beside what the paper says."""
    t = read_csv(csv, "fig06 numbers")
    missing = [c for c in FIG06_COLUMNS if c not in t.columns]
    if missing:
        raise ReportError(f"report: {csv} lacks columns {missing} (fig06)")
    from figures.fig06_degree_cdf import CUT, DEFINITION

    rows, shares = [], {}
    for graph, g in t.groupby("graph", sort=False):
        cdf = g.set_index("degree")["edges_cdf"]
        at = lambda d: float(cdf.get(d, math.nan))  # noqa: E731
        beyond = float(g["share_beyond_cut"].iloc[0])
        s = {"below_16": at(15), "16_to_48": at(48) - at(15), "49_to_96": at(CUT) - at(48), "beyond_96": beyond}
        shares[str(graph)] = s
        symbol = symbols.get(str(graph))
        quote, where = FIG06_PAPER.get(symbol, ("–", "")) if symbol else ("–", "")
        rows.append([str(graph) + (f" ({symbol})" if symbol else ""), *[fpct1(s[k]) for k in s],
                     f"“{quote}” ({where})" if where else quote])

    def said(graph):
        s, sym = shares[graph], symbols.get(graph)
        name = graph + (f" (for {sym})" if sym else "")
        return (f"{name} has {fpct1(s['16_to_48'])} of its edges on vertices of degree 16 to 48 and "
                f"{fpct1(s['beyond_96'])} beyond 96")

    return {"image": image, "definition": DEFINITION[0].upper() + DEFINITION[1:],
            "paper_cut_quote": FIG06_CUT_QUOTE, "shares": shares,
            "ours_text": "; ".join(said(g) for g in shares) + ".",
            "table": {"columns": ["graph", "degree < 16", "16 to 48", "49 to 96", "> 96", "the paper (Fig. 6)"],
                      "align": "lrrrrl", "rows": rows}}


def datasets_section(a, root: Path) -> dict | None:
    """Table 2 and Fig. 6, each optional (the report says 'not available' for what is left out)."""
    if a.table2 is None and a.fig06 is None:
        return None
    table2 = table2_section(a.table2) if a.table2 is not None else None
    fig06 = (fig06_section(a.fig06_csv, rooted(a.fig06, root), table2["symbols"] if table2 else {})
             if a.fig06 is not None else None)
    return {"table2": table2, "fig06": fig06}


# --- microbenchmarks and the model -------------------------------------------------------------------------
# The eight figures of this section, in the report's order: key (CLI --fig-<key with dashes> PNG and
# --fig-<key>-csv CSV), the figure script (its DEFINITION is the caption's definition) and a title.
MICRO_FIGURES = (
    ("copy_bandwidth", "fig_copy_bandwidth", "Copy bandwidth against transfer size (CF'17 Figure 2)"),
    ("zero_copy_toy", "fig_zero_copy_toy", "The zero-copy toy copy (EMOGI Figure 4)"),
    ("latency", "fig_latency", "Latency of one read (CXL paper Figure 9)"),
    ("concurrency", "fig_concurrency", "Throughput and requests in flight (CXL paper Figure 10)"),
    ("footprint_cliff", "fig_footprint_cliff", "Random reads against footprint: the pinned-memory cliff"),
    ("runtime_vs_transfer_size", "fig_runtime_vs_transfer_size", "Runtime against transfer size (CXL paper Figure 4)"),
    ("added_latency", "fig_added_latency", "Runtime against added latency (CXL paper Figure 11)"),
    ("model_vs_measured", "fig_model_vs_measured", "The model against the measurements"),
)
MICRO_INPUTS = {  # what each figure is drawn from, for the "not available" note
    "copy_bandwidth": "the link table", "zero_copy_toy": "the toy table (and toy_profile, link)",
    "latency": "the latency table", "concurrency": "the concurrency and latency tables",
    "footprint_cliff": "the concurrency table", "runtime_vs_transfer_size": "the amplification table and the model's "
    "parameters", "added_latency": "the model's predictions and parameters",
    "model_vs_measured": "the model's predictions and prediction summary"}
MISS = 0.25  # |predicted / measured - 1| above which the report lists a run as missed
MAX_MISSES_SHOWN = 20
EMOGI_D = 89.6  # the CXL paper's EMOGI request size (B)


def fus(v, digits=2) -> str:
    return "–" if v is None or not math.isfinite(v) else f"{v:.{digits}f} µs"


def fsize(b) -> str:
    return "–" if b is None or not math.isfinite(float(b)) else style.fmt_size(b)


def _micro_definition(module: str) -> str:
    import importlib

    try:
        d = importlib.import_module(f"figures.{module}").DEFINITION
    except (ImportError, AttributeError):  # pragma: no cover - a figure script without a DEFINITION
        return ""
    return d.split("; r = {r}")[0].replace("{r}", "see the figure")


def _entry(paper: dict, group: str, key: str) -> dict:
    return paper.get(group, {}).get(key, {"value": "–", "section": "–"})


def copy_bandwidth_comparison(t: pd.DataFrame, paper: dict) -> dict:
    """CF'17's pinned and pageable copy bandwidth beside ours (fig_copy_bandwidth's CSV)."""
    def line(direction, host):
        r = t[(t["direction"] == direction) & (t["host_memory"] == host)]
        return (float(r["gbps"].max()), float(r["near_peak_size_bytes"].iloc[0])) if len(r) else (math.nan, math.nan)

    pin, pin_size = line("h2d", "pinned")
    page, page_size = line("h2d", "pageable")
    d2h_pin, _ = line("d2h", "pinned")
    d2h_page, _ = line("d2h", "pageable")
    e = lambda k: _entry(paper, "copy_bandwidth", k)  # noqa: E731
    rows = [
        ["pageable, host to device (best size)", paper_value(e("pageable_gbps"), lambda v: fgb(v, 0)), fgb(page),
         e("pageable_gbps")["section"]],
        ["pinned, host to device (best size) = W", "≈ " + paper_value(e("pinned_gbps"), lambda v: fgb(v, 0)), fgb(pin),
         e("pinned_gbps")["section"]],
        ["pinned / pageable, host to device", "≈ " + paper_value(e("pinned_over_pageable"), lambda v: f"{v:g}×"),
         fx(pin / page, 1),
         e("pinned_over_pageable")["section"]],
        ["smallest size within 5% of the best (pinned / pageable)", "> " + fsize(e("peak_from_bytes")["value"]),
         f"{fsize(pin_size)} / {fsize(page_size)}", e("peak_from_bytes")["section"]],
        ["device to host, pinned / pageable (best size)", "–", f"{fgb(d2h_pin)} / {fgb(d2h_page)}", "–"],
    ]
    ref = paper.get("references", {}).get("cf2017", {})
    return {"columns": ["quantity", f"paper ({ref.get('system', 'CF’17')})", "ours", "paper section"],
            "align": "lrrl", "rows": rows}


def toy_comparison(t: pd.DataFrame, paper: dict) -> dict:
    """EMOGI's toy (§3.3) beside ours (fig_zero_copy_toy's CSV): GB/s, fraction of the copy peak, request size."""
    e = lambda k: _entry(paper, "zero_copy_toy", k)  # noqa: E731
    modes = [m for m in ZERO_COPY_MODES if m in set(t["mode"])]
    peak = float(t["peak_gbps"].iloc[0])
    paper_cell = {
        "merged-aligned": (paper_value(e("aligned_gbps"), lambda v: fgb(v, 2)) + " (" + paper_value(e("aligned_fraction_of_peak"), fpct)
                           + ")", e("aligned_gbps")["section"]),
        "strided": ("≤ " + paper_value(e("strided_bound_gbps"), lambda v: fgb(v, 2)) + " (bound at 1.6–1.0 µs RTT; "
                    + paper_value(e("strided_fraction_of_peak"), fpct) + ")", e("strided_bound_gbps")["section"]),
        "merged-misaligned": (paper_value(e("misaligned"), str), e("misaligned")["section"]),
    }
    rows = [["pinned cudaMemcpy H2D peak", paper_value(e("copy_peak_gbps"), fgb), span(fgb(peak), len(modes)),
             e("copy_peak_gbps")["section"]]]
    for eb in sorted(t["element_bytes"].unique()):
        for pattern in ("merged-aligned", "strided", "merged-misaligned"):
            cells = []
            for m in modes:
                r = t[(t["pattern"] == pattern) & (t["mode"] == m) & (t["element_bytes"] == eb)]
                if r.empty:
                    cells.append("–")
                    continue
                r = r.iloc[0]
                d = "" if pd.isna(r["avg_request_bytes"]) else f", d {r['avg_request_bytes']:.0f} B"
                cells.append(f"{fgb(r['timed_gbps'])} ({fpct(r['fraction_of_peak'])}{d})")
            rows.append([f"{style.PATTERN_LABELS[pattern]}, {int(eb)}-B elements", paper_cell[pattern][0], *cells,
                         paper_cell[pattern][1]])
    return {"columns": ["quantity", "paper (V100, PCIe 3.0)", *[f"ours, {style.MODE_SHORT_LABELS[m]}" for m in modes],
                        "paper section"], "align": "l" + "r" * (len(modes) + 1) + "l", "rows": rows}


def parameters_section(parameters: dict) -> dict:
    """The fitted link parameters with their intervals (parameters.json of model.fit)."""
    def iv(e, fmt, unit=""):
        if e.get("value") is None:
            return "–"
        return interval_text(e, fmt, unit)

    rows = [["W (link bandwidth)", "all", "–", iv(parameters["W_gbps"], ".4g", " GB/s"),
             str(parameters["W_gbps"].get("source", ""))]]
    src = parameters["N_max"].get("from") or {}
    where = ", ".join(style.MODE_SHORT_LABELS.get(v, v) if k == "mode" else style.fmt_size(v) if k == "footprint_bytes"
                      else f"{v}-B reads" if k == "request_bytes" else f"{k} {v}" for k, v in src.items())
    rows.append(["N_max (requests in flight)", "all", "–", iv(parameters["N_max"], ".0f"), f"from {where}" if where else ""])
    for e in sorted(parameters.get("latency", []), key=lambda e: (MODES.index(e["mode"]) if e["mode"] in MODES else 9,
                                                                 e["footprint_bytes"])):
        rows.append(["L (latency of one read)", style.MODE_SHORT_LABELS.get(e["mode"], e["mode"]),
                     fsize(e["footprint_bytes"]), iv({"value": e["L_us"], "lo": e.get("lo"), "hi": e.get("hi")},
                                                     ".3g", " µs"), "pointer chase"])
    for e in parameters.get("S", []):
        value = ("not limiting" if e.get("S_miops") is None else
                 iv({"value": e["S_miops"], "lo": e.get("lo"), "hi": e.get("hi")}, ".3g", " MIOPS"))
        rows.append(["S (request rate)", style.MODE_SHORT_LABELS.get(e["mode"], e["mode"]), fsize(e["footprint_bytes"]),
                     value, "limiting" if e.get("limiting") else "N_max / L explains the rate"])
    method = str(parameters.get("method", "")).strip()
    return {"method": method + ("" if not method or method.endswith(".") else "."),
            "table": {"columns": ["parameter", "allocation", "footprint", "value [95% interval]", "note"],
                      "align": "lllrl", "rows": rows}}


def cxl_comparison(paper: dict, parameters: dict | None, csvs: dict, link_name: str) -> dict | None:
    """The CXL paper's latency, concurrency and worked examples beside ours (parameters and figure CSVs)."""
    from model.littles_law import max_L, required_S

    e = lambda k: _entry(paper, "cxl", k)  # noqa: E731
    rows = []
    lat = csvs.get("latency")
    if lat is not None:
        cells = []
        for m in ZERO_COPY_MODES:
            r = lat[lat["mode"] == m].sort_values("footprint_bytes")
            if len(r):
                lo, hi = r.iloc[0], r.iloc[-1]
                cells.append(f"{style.MODE_SHORT_LABELS[m]}: {fus(lo['latency_us'])} ({fsize(lo['footprint_bytes'])})"
                             f" to {fus(hi['latency_us'])} ({fsize(hi['footprint_bytes'])})")
        rows.append(["L, one read of host memory", paper_value(e("host_dram_latency_us"), fus) + " (host DRAM)",
                     "; ".join(cells) or "–", e("host_dram_latency_us")["section"]])
    if parameters is not None:
        W, N = float(parameters["W_gbps"]["value"]), float(parameters["N_max"]["value"])
        rows += [
            ["N_max, requests in flight", f"{e('n_max_gen3')['value']} (Gen 3), {e('n_max_gen45')['value']} (Gen 4, 5)",
             interval_text(parameters["N_max"], ".0f") + f" ({link_name})", e("n_max_gen45")["section"]],
            ["W, effective link bandwidth", paper_value(e("W_gen4_gbps"), fgb) + " (Gen 4)",
             interval_text(parameters["W_gbps"], ".3g", " GB/s"), e("W_gen4_gbps")["section"]],
            [f"S needed to fill W with d = {EMOGI_D} B (S ≥ W / d)",
             f"{e('S_required_gen4_miops')['value']} MIOPS (Gen 4), {e('S_required_gen3_miops')['value']} (Gen 3)",
             f"{required_S(W, EMOGI_D):.0f} MIOPS", e("S_required_gen4_miops")["section"]],
            [f"L allowed with d = {EMOGI_D} B (L ≤ N_max d / W)",
             f"{fus(e('L_max_gen4_us')['value'])} (Gen 4), {fus(e('L_max_gen3_us')['value'])} (Gen 3)",
             fus(max_L(N, EMOGI_D, W)), e("L_max_gen4_us")["section"]],
        ]
    added = csvs.get("added_latency")
    if added is not None:
        m = added[(added["kind"] == "model") & (added["added_us"] == 0)]
        m = m[np.isfinite(m["tolerated_added_us"])]
        if len(m):
            total = (m["L_us"] + m["tolerated_added_us"])
            rows.append(["latency up to which BFS runtime stays flat", "≈ " + fus(e("runtime_flat_below_us")["value"], 0)
                         + " (Gen 3, ≈ 1.91 µs)", f"model: {fus(float(total.min()))} to {fus(float(total.max()))} "
                         f"(L + tolerated added latency, over {len(m)} configurations)",
                         e("runtime_flat_below_us")["section"]])
    rvt = csvs.get("runtime_vs_transfer_size")
    if rvt is not None:
        opt = rvt.drop_duplicates("hardware")[["hardware", "d_opt_bytes"]]
        cells = "; ".join(f"{h}: {'–' if pd.isna(d) else f'{d:.0f} B'}" for h, d in opt.itertuples(index=False))
        rows.append(["d_opt, smallest transfer that fills W", paper_value(e("d_opt_rule"), str), cells,
                     e("d_opt_rule")["section"]])
    if not rows:
        return None
    return {"columns": ["quantity", "paper (A5000, PCIe 4.0 / 3.0)", "ours", "paper section"], "align": "lrrl",
            "rows": rows}


def model_summary_section(predictions: pd.DataFrame | None, summary: dict | None) -> dict | None:
    """Median and worst error of the model, the runs it misses by more than MISS and what the summary excludes."""
    if predictions is None and summary is None:
        return None
    out = {"text": "", "misses": None, "excluded": []}
    if summary is not None:
        from figures.fig_model_vs_measured import run_name

        med, worst = summary.get("median_abs_error"), summary.get("worst_abs_error")
        run = summary.get("worst_run")
        text = (f"Over the {summary.get('n_runs', '–')} zero-copy configurations model.predict could predict, the "
                f"median |predicted / measured − 1| is {fpct(med) if med is not None else '–'} and the worst "
                f"{fpct(worst) if worst is not None else '–'} ({run_name(run) if run is not None else '–'}).")
        if summary.get("rule"):
            text += (" The prediction has three measured terms: the transfer time D / T(d), the GPU's own work"
                     " (floor: the same traversal with the edge list in GPU memory) and the critical path (the"
                     " longest neighbour list, walked by one thread or warp one round trip at a time: chain ="
                     " steps x L); they are combined by"
                     f" '{summary['rule']}'")
            by_rule = summary.get("by_rule") or {}
            others = [f"'{r}' would give {fpct(e.get('median_abs_error'))} median" for r, e in by_rule.items()
                      if r != summary["rule"] and isinstance(e, dict)]
            text += (" (" + "; ".join(others) + ")." if others else ".")
        without = summary.get("without_chain")
        if isinstance(without, dict) and without.get("median_abs_error") is not None:
            text += (f" Without the critical-path term the median error would be {fpct(without['median_abs_error'])}"
                     f" and the worst {fpct(without['worst_abs_error'])}")
            text += (": the longest lists (hub vertices) keep the thread or warp that walks them busy after the rest"
                     " are done." if worst is not None and without["worst_abs_error"] > 1.25 * worst else ".")
        if summary.get("footprint_rule"):
            text += f" Link parameters are taken at footprint rule '{summary['footprint_rule']}'"
            other = summary.get("other_footprint_rule") or {}
            if other.get("footprint_rule"):
                text += (f" ('{other['footprint_rule']}' would give {fpct(other.get('median_abs_error'))} median, "
                         f"{fpct(other.get('worst_abs_error'))} worst)")
            text += "."
        out["text"] = text
        excluded = summary.get("excluded") or []
        if isinstance(excluded, dict):
            excluded = [{"run": k, "reason": v} for k, v in excluded.items()]
        for x in excluded:
            if isinstance(x, dict):
                what = x.get("run") or ", ".join(f"{k} {v}" for k, v in x.items() if k != "reason")
                out["excluded"].append(f"{what}: {x.get('reason', 'no reason given')}")
            else:
                out["excluded"].append(str(x))
    if predictions is not None:
        p = predictions.copy()
        p["err"] = p["predicted_ms"] / p["measured_ms"] - 1
        miss = p[p["err"].abs() > MISS].sort_values("err", key=lambda s: -s.abs())
        n_missed = len(miss)
        miss = miss.head(MAX_MISSES_SHOWN)
        rows = [[str(r.graph), f"{int(r.edge_bytes)} B", style.VARIANT_LABELS.get(r.variant, r.variant),
                 style.MODE_SHORT_LABELS.get(r.mode, r.mode), str(int(r.max_warps)) if r.max_warps else "default",
                 fms(r.measured_ms), fms(r.predicted_ms), f"{100 * r.err:+.0f}%", str(r.bound)]
                for r in miss.itertuples()]
        out["n_predictions"] = int(len(p))
        out["n_missed"] = n_missed
        out["misses"] = {"columns": ["graph", "edges", "variant", "mode", "max_warps", "measured (ms)",
                                     "predicted (ms)", "error", "binding term"], "align": "lllllrrrl",
                         "rows": rows} if rows else None
        shown = "" if n_missed <= len(rows) else f" (the {len(rows)} largest errors shown; all in predictions.csv)"
        out["miss_text"] = (f"{n_missed} of {len(p)} configurations (throttled runs included) are predicted more "
                            f"than {MISS:.0%} off{shown}. For each, the table gives the term of T(d) that the model "
                            "says binds (the 'bound' column of predictions.csv); the runs the summary leaves out "
                            "follow with the reason it states." if rows else
                            f"Every one of the {len(p)} configurations is predicted within {MISS:.0%}.")
    return out


def read_sizes_section(path) -> dict | None:
    """What a random d-byte read is on the link (Nsight counters of the concurrency sweep): link requests and
    bytes per read, the request size the L2 saw and the link's bytes per request beyond the payload."""
    if path is None:
        return None
    try:
        t = read_table(path, "concurrency_profile")
    except TableError as e:
        if e.state == "empty":  # an archive that did not profile the reads restores the table header-only
            return None
        raise ReportError(f"report: {e} (concurrency profile)") from None
    rows = []
    for (mode, footprint, d), g in t.groupby(["mode", "footprint_bytes", "request_bytes"]):
        reads, requests = float(g["reads"].sum()), float(g["sysmem_read_requests"].sum())
        payload = 32.0 * float(g["sysmem_read_sectors"].sum())
        pcie = float(g["pcie_read_bytes"].sum())
        rows.append([style.MODE_SHORT_LABELS.get(mode, mode), fbytes(footprint), f"{int(d)} B",
                     fnum(requests / reads) if reads else "–", f"{payload / requests:.1f} B" if requests else "–",
                     f"{pcie / reads:.1f} B" if reads else "–",
                     f"{(pcie - payload) / requests:.1f} B" if requests else "–"])
    return {"columns": ["allocation", "footprint", "read", "link requests per read", "request size (L2)",
                        "PCIe bytes per read", "overhead per request"], "align": "lllrrrr", "rows": rows}


def micro_section(a, root: Path, paper: dict, source: dict) -> dict:
    """Everything of 'Microbenchmarks and the model'; every input optional (missing: a 'not available' note)."""
    csvs, figures = {}, []
    for key, module, title in MICRO_FIGURES:
        img, csv = getattr(a, f"fig_{key}"), getattr(a, f"fig_{key}_csv")
        entry = {"key": key, "title": title, "definition": _micro_definition(module), "image": None,
                 "needs": MICRO_INPUTS[key], "comparison": None}
        if img is not None:
            entry["image"] = rooted(img, root)
            csvs[key] = read_csv(csv, f"{module} numbers")
        figures.append(entry)
    parameters = None
    if a.parameters is not None:
        from model.fit import load_parameters

        try:
            parameters = load_parameters(a.parameters)
        except ValueError as e:
            raise ReportError(f"report: {e}") from None
    predictions = None
    if a.predictions:
        predictions = read_csv(a.predictions, "model predictions")
        missing = [c for c in PREDICTION_COLUMNS if c not in predictions.columns]
        if missing:
            raise ReportError(f"report: {a.predictions} lacks columns {missing} (model predictions)")
        predictions["max_warps"] = pd.to_numeric(predictions["max_warps"], errors="coerce").fillna(0)
    summary = None
    if a.prediction_summary:
        try:
            summary = json.loads(Path(a.prediction_summary).read_text())
        except FileNotFoundError:
            raise ReportError(f"report: {a.prediction_summary} is missing (model prediction summary)") from None
        except json.JSONDecodeError as e:
            raise ReportError(f"report: {a.prediction_summary} is not valid JSON: {e}") from None

    by_key = {f["key"]: f for f in figures}
    if "copy_bandwidth" in csvs:
        by_key["copy_bandwidth"]["comparison"] = copy_bandwidth_comparison(csvs["copy_bandwidth"], paper)
    if "zero_copy_toy" in csvs:
        by_key["zero_copy_toy"]["comparison"] = toy_comparison(csvs["zero_copy_toy"], paper)
    link_name = source.get("link") or "our link"
    return {
        "any": bool(csvs) or parameters is not None or predictions is not None or a.concurrency_profile is not None,
        "parameters": parameters_section(parameters) if parameters is not None else None,
        "figures": figures,
        "cxl": cxl_comparison(paper, parameters, csvs, link_name),
        "model": model_summary_section(predictions, summary),
        "read_sizes": read_sizes_section(getattr(a, "concurrency_profile", None)),
        "references": paper.get("references", {}),
    }


# --- assembling -------------------------------------------------------------------------------------------
def typst_root(paths) -> Path:
    """The deepest folder that holds every path: typst reads nothing outside its root."""
    return Path(os.path.commonpath([str(Path(p).resolve()) for p in paths]))


def rooted(path: Path, root: Path) -> str:
    """`path` as typst wants it: absolute from the root ("/results/figures/x.png")."""
    return "/" + Path(path).resolve().relative_to(root).as_posix()


def build(a) -> tuple[dict, Path]:
    source = load_source(a.source)
    label = source_label(source)
    paper = yaml.safe_load(a.paper_numbers.read_text())
    runs = read_csv(a.runs, "runs table", "runs")
    link = read_csv(a.link, "link table", "link")
    micro_images = [getattr(a, f"fig_{key}") for key, _, _ in MICRO_FIGURES if getattr(a, f"fig_{key}")]
    micro_images += [a.fig06] if a.fig06 else []  # the datasets figure: same checks, same typst root
    # requests and amplification (§5.3), the applications (§5.4)
    micro_images += [img for img in (a.fig07, a.fig10, a.fig11, a.fig12) if img]
    for img in [a.fig09] + ([a.fig08] if a.fig08 else []) + micro_images:
        if not img.is_file():
            raise ReportError(f"report: figure image {img} is missing")
    for key in ("fig06", "fig07", "fig08", "fig10", "fig11", "fig12"):  # the optional figures
        if bool(getattr(a, key)) != bool(getattr(a, f"{key}_csv")):
            raise ReportError(f"report: give both --{key} and --{key}-csv, or neither")
    for key, _, _ in MICRO_FIGURES:
        if bool(getattr(a, f"fig_{key}")) != bool(getattr(a, f"fig_{key}_csv")):
            flag = key.replace("_", "-")
            raise ReportError(f"report: give both --fig-{flag} and --fig-{flag}-csv, or neither")

    json_path = a.out.with_suffix(".json")
    root = typst_root([TEMPLATE, json_path.parent, a.fig09] + ([a.fig08] if a.fig08 else []) + micro_images)
    env_rows, warnings = environment(source, runs, paper)
    data = {
        "title": "EMOGI reproduction: zero-copy graph traversal against UVM",
        "source": {**source, "label": label},
        "paper": paper["paper"],
        "environment": {"columns": ["", "ours", "paper"], "align": "lll", "rows": env_rows},
        "warnings": warnings,
        "run": what_was_run(runs),
        "datasets": datasets_section(a, root),
        "fig09": fig09_section(a.fig09_csv, rooted(a.fig09, root), paper, label),
        "fig08": (fig08_section(a.fig08_csv, rooted(a.fig08, root), paper, label, link, source) if a.fig08
                  else None),
        "link_bound": link_bound_section(a.link_bound) if a.link_bound else None,
        "requests": requests_section(a, root, paper),
        "apps": apps_section(a, root, paper, runs, source),
        "times": times_section(runs),
        "allocations": allocation_section(runs),
        "micro": micro_section(a, root, paper, source),
        "paper_numbers": paper,
        "typst_root": str(root),  # image paths above are relative to it; recompiling needs the same root
    }
    return data, root


def compile_pdf(json_path: Path, root: Path) -> bytes:
    import typst  # imported here: the JSON side of the report does not need it

    try:
        # embedded fonts only: the same PDF on every machine, whatever fonts it has installed
        return typst.compile(str(TEMPLATE), root=str(root), sys_inputs={"data": rooted(json_path, root)},
                             ignore_system_fonts=True)
    except Exception as e:  # typst reports template errors as one exception with the source location
        raise ReportError(f"report: typst could not compile {TEMPLATE}: {e}") from None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Build the reproduction report (JSON + PDF)")
    ap.add_argument("--source", type=Path, required=True)
    ap.add_argument("--fig09", type=Path, required=True)
    ap.add_argument("--fig09-csv", type=Path, required=True)
    ap.add_argument("--fig08", type=Path)
    ap.add_argument("--fig08-csv", type=Path)
    ap.add_argument("--link-bound", type=Path)
    ap.add_argument("--runs", type=Path, required=True)
    ap.add_argument("--link", type=Path, required=True)
    ap.add_argument("--paper-numbers", type=Path, default=_REPO / "paper" / "paper_numbers.yaml")
    # Microbenchmarks and the model: every one optional (left out: the report says "not available" there)
    ap.add_argument("--parameters", type=Path, help="parameters.json of model.fit")
    ap.add_argument("--predictions", type=Path, help="predictions.csv of model.predict")
    ap.add_argument("--prediction-summary", type=Path, help="prediction_summary.json of model.predict")
    ap.add_argument("--concurrency-profile", type=Path, help="concurrency_profile.csv (Nsight counters of random reads)")
    for key, module, _ in MICRO_FIGURES:
        flag = key.replace("_", "-")
        ap.add_argument(f"--fig-{flag}", type=Path, help=f"{module}.png")
        ap.add_argument(f"--fig-{flag}-csv", type=Path, help=f"{module}.csv (its plotted numbers)")
    # Datasets (the paper's Table 2 and Fig. 6): optional too
    ap.add_argument("--table2", type=Path, help="table2_datasets.csv of emogi.dataset_table")
    ap.add_argument("--fig06", type=Path, help="fig06_degree_cdf.png")
    ap.add_argument("--fig06-csv", type=Path, help="fig06_degree_cdf.csv (its plotted numbers)")
    # PCIe requests and read amplification (§5.3, Figs. 7 and 10) and the applications (§5.4, Figs. 11, 12): optional
    for key, module in (("fig07", "fig07_pcie_requests"), ("fig10", "fig10_read_amplification"),
                        ("fig11", "fig11_applications"), ("fig12", "fig12_edge_width")):
        ap.add_argument(f"--{key}", type=Path, help=f"{module}.png")
        ap.add_argument(f"--{key}-csv", type=Path, help=f"{module}.csv (its plotted numbers)")
    ap.add_argument("--out", type=Path, required=True, help="the PDF; the JSON goes beside it (.json)")
    a = ap.parse_args(argv)
    if a.out.suffix.lower() != ".pdf":
        ap.error("--out must end in .pdf")
    try:
        data, root = build(a)
        json_path = a.out.with_suffix(".json")
        write_bytes(json.dumps(data, indent=1, ensure_ascii=False).encode(), json_path)
        write_bytes(compile_pdf(json_path, root), a.out)
    except (ReportError, FigureDataError, ValueError) as e:
        raise SystemExit(f"error: {e}") from None
    for w in data["warnings"]:
        print(f"report warning: {w}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
