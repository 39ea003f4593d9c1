"""The report's "Microbenchmarks and the model" section: the eight figures in order, the fitted link parameters
and the CXL paper's numbers beside ours. What each figure compares with its paper is in its own script
(report_comparison, read_sizes_section, model_summary_section); every input is optional (missing: a note that
says what the figure is drawn from).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.schema import MODES, ZERO_COPY_MODES
from figures import fig_concurrency, fig_copy_bandwidth, fig_model_vs_measured, fig_zero_copy_toy, style
from figures.inputs import ReportFigure, report_csv
from figures.report_format import fgb, fsize, fus, interval_text, paper_entry, paper_value
from model.littles_law import max_L, required_S

# The section's figures, in the report's order; each script's REPORT_TITLE, DRAWN_FROM and DEFINITION say the rest.
MICRO_FIGURES = (
    "fig_copy_bandwidth",
    "fig_zero_copy_toy",
    "fig_latency",
    "fig_concurrency",
    "fig_footprint_cliff",
    "fig_runtime_vs_transfer_size",
    "fig_added_latency",
    "fig_model_vs_measured",
)
EMOGI_D = 89.6  # the CXL paper's EMOGI request size (B)


def _definition(script) -> str:
    """The figure's DEFINITION as a caption (a per-figure placeholder {r} left to the figure)."""
    return script.DEFINITION.split("; r = {r}")[0].replace("{r}", "see the figure")


def report_section(
    figures: dict[str, ReportFigure | None],
    parameters: dict | None,
    predictions: pd.DataFrame | None,
    summary: dict | None,
    concurrency_profile: Path | None,
    paper: dict,
    source: dict,
) -> dict:
    """Everything of 'Microbenchmarks and the model': `figures` by script name (None: not drawn), the model's
    parameters.json, predictions and summary, and the concurrency profile (each None when absent)."""
    csvs, entries = {}, []
    for module in MICRO_FIGURES:
        script, key = importlib.import_module(f"figures.{module}"), module.removeprefix("fig_")
        fig = figures.get(module)
        entry = {
            "key": key,
            "title": script.REPORT_TITLE,
            "definition": _definition(script),
            "image": None,
            "needs": script.DRAWN_FROM,
            "comparison": None,
        }
        if fig is not None:
            entry["image"] = fig.image
            csvs[key] = report_csv(fig.csv, f"{module} numbers")
        entries.append(entry)
    by_key = {f["key"]: f for f in entries}
    if "copy_bandwidth" in csvs:
        by_key["copy_bandwidth"]["comparison"] = fig_copy_bandwidth.report_comparison(csvs["copy_bandwidth"], paper)
    if "zero_copy_toy" in csvs:
        by_key["zero_copy_toy"]["comparison"] = fig_zero_copy_toy.report_comparison(csvs["zero_copy_toy"], paper)
    link_name = source.get("link") or "our link"
    return {
        "any": bool(csvs) or parameters is not None or predictions is not None or concurrency_profile is not None,
        "parameters": parameters_section(parameters) if parameters is not None else None,
        "figures": entries,
        "cxl": cxl_comparison(paper, parameters, csvs, link_name),
        "model": fig_model_vs_measured.model_summary_section(predictions, summary),
        "read_sizes": fig_concurrency.read_sizes_section(concurrency_profile),
        "references": paper.get("references", {}),
    }


def parameters_section(parameters: dict) -> dict:
    """The fitted link parameters with their intervals (parameters.json of model.fit)."""

    def iv(e, fmt, unit=""):
        if e.get("value") is None:
            return "–"
        return interval_text(e, fmt, unit)

    rows = [
        [
            "W (link bandwidth)",
            "all",
            "–",
            iv(parameters["W_gbps"], ".4g", " GB/s"),
            str(parameters["W_gbps"].get("source", "")),
        ]
    ]
    src = parameters["N_max"].get("from") or {}
    where = ", ".join(
        style.MODE_SHORT_LABELS.get(v, v)
        if k == "mode"
        else style.fmt_size(v)
        if k == "footprint_bytes"
        else f"{v}-B reads"
        if k == "request_bytes"
        else f"{k} {v}"
        for k, v in src.items()
    )
    rows.append(
        ["N_max (requests in flight)", "all", "–", iv(parameters["N_max"], ".0f"), f"from {where}" if where else ""]
    )
    for e in sorted(
        parameters.get("latency", []),
        key=lambda e: (MODES.index(e["mode"]) if e["mode"] in MODES else 9, e["footprint_bytes"]),
    ):
        rows.append(
            [
                "L (latency of one read)",
                style.MODE_SHORT_LABELS.get(e["mode"], e["mode"]),
                fsize(e["footprint_bytes"]),
                iv({"value": e["L_us"], "lo": e.get("lo"), "hi": e.get("hi")}, ".3g", " µs"),
                "pointer chase",
            ]
        )
    for e in parameters.get("S", []):
        value = (
            "not limiting"
            if e.get("S_miops") is None
            else iv({"value": e["S_miops"], "lo": e.get("lo"), "hi": e.get("hi")}, ".3g", " MIOPS")
        )
        rows.append(
            [
                "S (request rate)",
                style.MODE_SHORT_LABELS.get(e["mode"], e["mode"]),
                fsize(e["footprint_bytes"]),
                value,
                "limiting" if e.get("limiting") else "N_max / L explains the rate",
            ]
        )
    method = str(parameters.get("method", "")).strip()
    return {
        "method": method + ("" if not method or method.endswith(".") else "."),
        "table": {
            "columns": ["parameter", "allocation", "footprint", "value [95% interval]", "note"],
            "align": "lllrl",
            "rows": rows,
        },
    }


def cxl_comparison(paper: dict, parameters: dict | None, csvs: dict, link_name: str) -> dict | None:
    """The CXL paper's latency, concurrency and worked examples beside ours (parameters and figure CSVs)."""
    e = lambda k: paper_entry(paper, "cxl", k)  # noqa: E731
    rows = []
    lat = csvs.get("latency")
    if lat is not None:
        cells = []
        for m in ZERO_COPY_MODES:
            r = lat[lat["mode"] == m].sort_values("footprint_bytes")
            if len(r):
                lo, hi = r.iloc[0], r.iloc[-1]
                cells.append(
                    f"{style.MODE_SHORT_LABELS[m]}: {fus(lo['latency_us'])} ({fsize(lo['footprint_bytes'])})"
                    f" to {fus(hi['latency_us'])} ({fsize(hi['footprint_bytes'])})"
                )
        rows.append(
            [
                "L, one read of host memory",
                paper_value(e("host_dram_latency_us"), fus) + " (host DRAM)",
                "; ".join(cells) or "–",
                e("host_dram_latency_us")["section"],
            ]
        )
    if parameters is not None:
        W, N = float(parameters["W_gbps"]["value"]), float(parameters["N_max"]["value"])
        rows += [
            [
                "N_max, requests in flight",
                f"{e('n_max_gen3')['value']} (Gen 3), {e('n_max_gen45')['value']} (Gen 4, 5)",
                interval_text(parameters["N_max"], ".0f") + f" ({link_name})",
                e("n_max_gen45")["section"],
            ],
            [
                "W, effective link bandwidth",
                paper_value(e("W_gen4_gbps"), fgb) + " (Gen 4)",
                interval_text(parameters["W_gbps"], ".3g", " GB/s"),
                e("W_gen4_gbps")["section"],
            ],
            [
                f"S needed to fill W with d = {EMOGI_D} B (S ≥ W / d)",
                f"{e('S_required_gen4_miops')['value']} MIOPS (Gen 4), {e('S_required_gen3_miops')['value']} (Gen 3)",
                f"{required_S(W, EMOGI_D):.0f} MIOPS",
                e("S_required_gen4_miops")["section"],
            ],
            [
                f"L allowed with d = {EMOGI_D} B (L ≤ N_max d / W)",
                f"{fus(e('L_max_gen4_us')['value'])} (Gen 4), {fus(e('L_max_gen3_us')['value'])} (Gen 3)",
                fus(max_L(N, EMOGI_D, W)),
                e("L_max_gen4_us")["section"],
            ],
        ]
    added = csvs.get("added_latency")
    if added is not None:
        m = added[(added["kind"] == "model") & (added["added_us"] == 0)]
        m = m[np.isfinite(m["tolerated_added_us"])]
        if len(m):
            total = m["L_us"] + m["tolerated_added_us"]
            rows.append(
                [
                    "latency up to which BFS runtime stays flat",
                    "≈ " + fus(e("runtime_flat_below_us")["value"], 0) + " (Gen 3, ≈ 1.91 µs)",
                    f"model: {fus(float(total.min()))} to {fus(float(total.max()))} "
                    f"(L + tolerated added latency, over {len(m)} configurations)",
                    e("runtime_flat_below_us")["section"],
                ]
            )
    rvt = csvs.get("runtime_vs_transfer_size")
    if rvt is not None:
        opt = rvt.drop_duplicates("hardware")[["hardware", "d_opt_bytes"]]
        cells = "; ".join(f"{h}: {'–' if pd.isna(d) else f'{d:.0f} B'}" for h, d in opt.itertuples(index=False))
        rows.append(
            [
                "d_opt, smallest transfer that fills W",
                paper_value(e("d_opt_rule"), str),
                cells,
                e("d_opt_rule")["section"],
            ]
        )
    if not rows:
        return None
    return {
        "columns": ["quantity", "paper (A5000, PCIe 4.0 / 3.0)", "ours", "paper section"],
        "align": "lrrl",
        "rows": rows,
    }
