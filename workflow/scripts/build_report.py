"""Build the reproduction report: gather every number it shows into a JSON, then compile paper/report.typ.

    python workflow/scripts/build_report.py --source results/tables/source.json \
        --fig09 results/figures/fig09_speedup_over_uvm.png --fig09-csv results/figures/fig09_speedup_over_uvm.csv \
        --fig08 results/figures/fig08_pcie_bandwidth.png --fig08-csv results/figures/fig08_pcie_bandwidth.csv \
        --link-bound results/model/link_bound.csv --runs results/tables/runs.csv --link results/tables/link.csv \
        --paper-numbers paper/paper_numbers.yaml --out results/report/report.pdf

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
import sys
from pathlib import Path

_REPO = Path(__file__).resolve().parents[2]
if str(_REPO) not in sys.path:  # run as a script: make `emogi`, `model` and `figures` importable
    sys.path.insert(0, str(_REPO))

import pandas as pd  # noqa: E402
import yaml  # noqa: E402

from emogi.atomic import write_bytes  # noqa: E402
from emogi.schema import MODES, VARIANTS, ZERO_COPY_MODES  # noqa: E402
from emogi.tables import TableError, read_table  # noqa: E402
from figures import style  # noqa: E402
from model.bounds import traversal_time_ms  # noqa: E402
from model.littles_law import fit_link_bandwidth  # noqa: E402

TEMPLATE = _REPO / "paper" / "report.typ"
NOT_RECORDED = "not recorded"
TIME_DEFINITION = "mean over roots of the per-root median over reps"


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
    """The paper's value as printed; a range [lo, hi] prints as "lo–hi unit"."""
    v = entry["value"]
    if isinstance(v, list):
        lo, hi = fmt(v[0]), fmt(v[1])
        unit = next((u for u in (" GB/s", "%", "×") if lo.endswith(u) and hi.endswith(u)), "")
        text = f"{lo[:len(lo) - len(unit)]}–{hi}"
    else:
        text = fmt(v)
    return ("≈ " + text + " (derived)") if entry.get("derived") else text


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
                 f"read over the link in the profiled traversal; d = mean request size. measured = {TIME_DEFINITION} "
                 "(over the profiled roots). A ratio near 1 means the traversal is bound by link bandwidth; larger "
                 "ratios leave time to the request-size, request-rate and latency terms that this thin version "
                 "does not fit yet."),
        "table": {"columns": ["graph", "edges", "variant", "zero-copy", "measured (ms)", "D (GB)", "d (B)",
                              "D / W (ms)", "measured / bound", "achieved (GB/s)"],
                  "align": "llll" + "r" * 6, "rows": rows},
    }


def times_section(runs: pd.DataFrame) -> dict:
    """BFS time per (graph, edge width, variant) x mode, the same definition as fig09."""
    t = traversal_time_ms(runs)
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
    t = traversal_time_ms(runs)
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


# --- assembling -------------------------------------------------------------------------------------------
def typst_root(paths) -> Path:
    """The deepest folder that holds every path: typst reads nothing outside its root."""
    return Path(os.path.commonpath([str(Path(p).resolve()) for p in paths]))


def rooted(path: Path, root: Path) -> str:
    """`path` as typst wants it: absolute from the root ("/results/figures/x.png")."""
    return "/" + Path(path).resolve().relative_to(root).as_posix()


def build(a) -> tuple[dict, Path]:
    source = style.load_source(a.source)
    label = style.source_label(source)
    paper = yaml.safe_load(a.paper_numbers.read_text())
    runs = read_csv(a.runs, "runs table", "runs")
    link = read_csv(a.link, "link table", "link")
    for img in [a.fig09] + ([a.fig08] if a.fig08 else []):
        if not img.is_file():
            raise ReportError(f"report: figure image {img} is missing")
    if bool(a.fig08) != bool(a.fig08_csv):
        raise ReportError("report: give both --fig08 and --fig08-csv, or neither")

    json_path = a.out.with_suffix(".json")
    root = typst_root([TEMPLATE, json_path.parent, a.fig09] + ([a.fig08] if a.fig08 else []))
    env_rows, warnings = environment(source, runs, paper)
    data = {
        "title": "EMOGI reproduction: zero-copy BFS against UVM",
        "source": {**source, "label": label},
        "paper": paper["paper"],
        "environment": {"columns": ["", "ours", "paper"], "align": "lll", "rows": env_rows},
        "warnings": warnings,
        "run": what_was_run(runs),
        "fig09": fig09_section(a.fig09_csv, rooted(a.fig09, root), paper, label),
        "fig08": (fig08_section(a.fig08_csv, rooted(a.fig08, root), paper, label, link, source) if a.fig08
                  else None),
        "link_bound": link_bound_section(a.link_bound) if a.link_bound else None,
        "times": times_section(runs),
        "allocations": allocation_section(runs),
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
    ap.add_argument("--out", type=Path, required=True, help="the PDF; the JSON goes beside it (.json)")
    a = ap.parse_args(argv)
    if a.out.suffix.lower() != ".pdf":
        ap.error("--out must end in .pdf")
    try:
        data, root = build(a)
        json_path = a.out.with_suffix(".json")
        write_bytes(json.dumps(data, indent=1, ensure_ascii=False).encode(), json_path)
        write_bytes(compile_pdf(json_path, root), a.out)
    except (ReportError, style.FigureDataError, ValueError) as e:
        raise SystemExit(f"error: {e}") from None
    for w in data["warnings"]:
        print(f"report warning: {w}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
