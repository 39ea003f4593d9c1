"""Build the reproduction report: gather every section's numbers into a JSON, then compile paper/report.typ.

    python workflow/scripts/build_report.py --tables results/tables --figures results/figures \
        --model results/model --out results/report/report.pdf [--paper-numbers paper/paper_numbers.yaml]

Each section is built by the module of the figure it describes (see `build`), from the numbers that figure's
script wrote beside its image: <figure>.png and <figure>.csv in --figures (Table 2: table2_datasets.csv).
--tables holds source.json, runs.csv, link.csv and, optionally, concurrency_profile.csv; --model the model's
files (link_bound.csv, parameters.json, predictions.csv, prediction_summary.json). Only Fig. 9 and those three
tables are required: a figure or file that is absent (measurements without a profile table, microbenchmarks or
model) makes the report say so in its place. An image without its CSV, or a CSV without its image, is an error.

Writes <out>.json (everything the report shows: environment, the paper's numbers beside ours, tables) next to
the PDF, then compiles paper/report.typ with typst, which reads that JSON and includes the figure images. Typst
only reads files under its root, so the root is the deepest folder holding the .typ, the JSON and the figures
(the repo root when everything is under results/), and paths are handed to the .typ relative to it. Both outputs
are written atomically.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

_REPO = Path(__file__).resolve().parents[2]
if str(_REPO) not in sys.path:  # run as a script: make `emogi`, `model` and `figures` importable
    sys.path.insert(0, str(_REPO))

import yaml  # noqa: E402

from emogi.atomic import write_bytes  # noqa: E402
from figures import (  # noqa: E402
    applications,
    claims,
    cpu_data,
    cpu_report,
    fig07_pcie_requests,
    fig08_pcie_bandwidth,
    fig09_speedup_over_uvm,
    fig_holdout,
    fig_holdout_v3,
    fig_holdout_v4,
    fig_holdout_v5,
    fig_holdout_v6,
    fig_holdout_v7,
    fig_holdout_v8,
    fig_holdout_v9,
    fig_holdout_v10,
    fig_holdout_v11,
    fig_holdout_v12,
    fig_holdout_v13,
    fig_holdout_v14,
    fig_holdout_v15,
    fig_holdout_v16,
    fig_link_ladder,
    micro_report,
    oom_report,
    report_setup,
    streamed_report,
    table2_datasets,
)
from figures.inputs import (  # noqa: E402
    FigureDataError,
    ReportError,
    ReportFigure,
    load_source,
    report_csv,
    report_model_file,
    source_label,
)
from model.outputs import read_parameters, read_predictions, read_summary  # noqa: E402

TEMPLATE = _REPO / "paper" / "report.typ"
TITLE = "EMOGI reproduction: zero-copy graph traversal against UVM"
FIG09, FIG08, FIG07, FIG10 = (
    "fig09_speedup_over_uvm",
    "fig08_pcie_bandwidth",
    "fig07_pcie_requests",
    "fig10_read_amplification",
)
FIG11, FIG12, FIG06 = "fig11_applications", "fig12_edge_width", "fig06_degree_cdf"
FIGURES = (
    FIG09,
    FIG08,
    FIG07,
    FIG10,
    FIG11,
    FIG12,
    FIG06,
    *micro_report.MICRO_FIGURES,
    fig_link_ladder.FIGURE,
    fig_holdout.FIGURE,
    fig_holdout_v3.FIGURE,
    fig_holdout_v4.FIGURE,  # v4 to v12: only where the session's archive exists (workflow/rules/model.smk)
    fig_holdout_v5.FIGURE,
    fig_holdout_v6.FIGURE,
    fig_holdout_v7.FIGURE,
    fig_holdout_v8.FIGURE,
    fig_holdout_v9.FIGURE,
    fig_holdout_v10.FIGURE,
    fig_holdout_v11.FIGURE,
    fig_holdout_v12.FIGURE,
    fig_holdout_v13.FIGURE,  # v13: its passes' archive (holdout_judge_passes)
    fig_holdout_v14.FIGURE,  # v14: likewise
    fig_holdout_v15.FIGURE,  # v15: likewise (its passes packed)
    fig_holdout_v16.FIGURE,  # v16: likewise, with term v16
)
TABLE2 = "table2_datasets.csv"  # emogi.datasets.table's Table 2, beside the figures


# --- finding the inputs -----------------------------------------------------------------------------------
def typst_root(paths) -> Path:
    """The deepest folder that holds every path: typst reads nothing outside its root."""
    return Path(os.path.commonpath([str(Path(p).resolve()) for p in paths]))


def rooted(path: Path, root: Path) -> str:
    """`path` as typst wants it: absolute from the root ("/results/figures/x.png")."""
    return "/" + Path(path).resolve().relative_to(root).as_posix()


def find_figures(folder: Path, root: Path) -> dict[str, ReportFigure | None]:
    """Every figure of FIGURES as the report shows it; None where the folder has neither its image nor its CSV."""
    found = {}
    for name in FIGURES:
        png, csv = folder / f"{name}.png", folder / f"{name}.csv"
        if png.is_file() != csv.is_file():
            has, lacks = (png, csv) if png.is_file() else (csv, png)
            raise ReportError(f"report: {has} has no {lacks.name} beside it (a figure script writes both)")
        found[name] = ReportFigure(rooted(png, root), csv) if png.is_file() else None
    if found[FIG09] is None:
        raise ReportError(f"report: figure image {folder / FIG09}.png is missing")
    return found


def find_oom_figures(folder: Path, root: Path, names=oom_report.FIGURES) -> dict[str, ReportFigure | None]:
    """The out-of-GPU-memory figures, or other optional ones (the section says when they are absent)."""
    return {
        name: ReportFigure(rooted(folder / f"{name}.png", root), folder / f"{name}.csv")
        if (folder / f"{name}.png").is_file() and (folder / f"{name}.csv").is_file()
        else None
        for name in names
    }


def oom_section(a, root: Path) -> dict | None:
    """ "Out of GPU memory", labelled by its own tables' source (results/oom/tables/source.json)."""
    source = a.oom_tables / "source.json" if a.oom_tables else None
    if source is None or not source.is_file():
        return None
    figs = find_oom_figures(a.figures, root, oom_report.FIGURES + oom_report.OPTIONAL_FIGURES)
    return oom_report.report_section(figs, source_label(load_source(source)))


def cpu_section(a, root: Path) -> dict | None:
    """ "The GPU over the host link against the CPU in host memory", labelled by its archive folder's provenance;
    None without --cpu-archive or without the figure (the report then says so)."""
    png, csv = a.figures / f"{cpu_report.FIGURE}.png", a.figures / f"{cpu_report.FIGURE}.csv"
    if a.cpu_archive is None or not (png.is_file() and csv.is_file()):
        return None
    folders = cpu_data.find_archives(a.cpu_archive)
    return cpu_report.report_section(ReportFigure(rooted(png, root), csv), cpu_data.source(folders))


def streamed_section(a, root: Path, paper: dict) -> dict | None:
    """ "Streamed transfers (CF'17)", labelled by its own source record (results/streamed/source.json)."""
    source = a.streamed_tables / "source.json" if a.streamed_tables else None
    if source is None or not source.is_file():
        return None
    figs = find_oom_figures(a.figures, root, streamed_report.FIGURES + streamed_report.OPTIONAL_FIGURES)
    select_source = a.streamed_tables / "select_source.json"
    select_label = source_label(load_source(select_source)) if select_source.is_file() else None
    crossover_source = a.streamed_tables / "crossover_source.json"
    crossover = (
        (optional(a.streamed_tables, "crossover_bound.csv"), source_label(load_source(crossover_source)))
        if crossover_source.is_file()
        else None
    )
    spmv_source = a.streamed_tables / "spmv" / "source.json"
    spmv_label = source_label(load_source(spmv_source)) if spmv_source.is_file() else None
    wide = (a.streamed_w8, yaml.safe_load(a.artifact.read_text())) if a.streamed_w8 and a.artifact else None
    return streamed_report.report_section(
        figs,
        paper,
        source_label(load_source(source)),
        select_label,
        a.streamed_inplace,
        crossover,
        spmv_label,
        wide,
        a.streamed_packed,
        a.pr_accuracy,
    )


def optional(folder: Path | None, name: str) -> Path | None:
    """folder/name if there is such a file: an input the report can do without."""
    path = folder / name if folder is not None else None
    return path if path is not None and path.is_file() else None


# --- assembling -------------------------------------------------------------------------------------------
def build(a) -> tuple[dict, Path]:
    """The report's data, section by section in the order of the JSON, and the typst root."""
    source = load_source(a.tables / "source.json")
    label = source_label(source)
    paper = yaml.safe_load(a.paper_numbers.read_text())
    runs = report_csv(a.tables / "runs.csv", "runs table", "runs")
    link = report_csv(a.tables / "link.csv", "link table", "link")
    root = typst_root([TEMPLATE, a.out.parent, a.figures])
    fig = find_figures(a.figures, root)
    link_bound = optional(a.model, "link_bound.csv")
    parameters = report_model_file(read_parameters, optional(a.model, "parameters.json"), "model parameters")
    predictions = report_model_file(read_predictions, optional(a.model, "predictions.csv"), "model predictions")
    summary = report_model_file(read_summary, optional(a.model, "prediction_summary.json"), "model prediction summary")
    env_rows, warnings = report_setup.environment(source, runs, paper)
    data = {
        "title": TITLE,
        "source": {**source, "label": label},
        "paper": paper["paper"],
        "environment": {"columns": ["", "ours", "paper"], "align": "lll", "rows": env_rows},
        "warnings": warnings,
        "run": report_setup.what_was_run(runs),
        "claims": claims.report_section(a.figures),
        "datasets": table2_datasets.report_section(optional(a.figures, TABLE2), fig[FIG06]),
        "fig09": fig09_speedup_over_uvm.report_section(fig[FIG09], paper, label),
        "fig08": fig08_pcie_bandwidth.report_section(fig[FIG08], paper, label, link, source) if fig[FIG08] else None,
        "link_bound": fig08_pcie_bandwidth.link_bound_section(link_bound) if link_bound else None,
        "requests": fig07_pcie_requests.report_section(fig[FIG07], fig[FIG10], paper),
        "apps": applications.report_section(fig[FIG11], fig[FIG12], paper, runs, source),
        "oom": oom_section(a, root),
        "cpu": cpu_section(a, root),
        "streamed": streamed_section(a, root, paper),
        "times": fig09_speedup_over_uvm.times_section(runs),
        "allocations": fig09_speedup_over_uvm.allocation_section(runs),
        "micro": micro_report.report_section(
            fig,
            parameters.raw if parameters else None,
            predictions,
            summary,
            optional(a.tables, "concurrency_profile.csv"),
            paper,
            source,
        ),
        "ladder": fig_link_ladder.report_section(fig[fig_link_ladder.FIGURE]),
        "holdout": fig_holdout.report_section(fig[fig_holdout.FIGURE]),
        "holdout_v3": fig_holdout_v3.report_section(fig[fig_holdout_v3.FIGURE]),
        "holdout_v4": fig_holdout_v4.report_section(fig[fig_holdout_v4.FIGURE]),
        "holdout_v5": fig_holdout_v5.report_section(fig[fig_holdout_v5.FIGURE]),
        "holdout_v6": fig_holdout_v6.report_section(fig[fig_holdout_v6.FIGURE]),
        "holdout_v7": fig_holdout_v7.report_section(fig[fig_holdout_v7.FIGURE]),
        "holdout_v8": fig_holdout_v8.report_section(fig[fig_holdout_v8.FIGURE]),
        "holdout_v9": fig_holdout_v9.report_section(fig[fig_holdout_v9.FIGURE]),
        "holdout_v10": fig_holdout_v10.report_section(fig[fig_holdout_v10.FIGURE]),
        "holdout_v11": fig_holdout_v11.report_section(fig[fig_holdout_v11.FIGURE]),
        "holdout_v12": fig_holdout_v12.report_section(fig[fig_holdout_v12.FIGURE]),
        "holdout_v13": fig_holdout_v13.report_section(fig[fig_holdout_v13.FIGURE]),
        "holdout_v14": fig_holdout_v14.report_section(fig[fig_holdout_v14.FIGURE]),
        "holdout_v15": fig_holdout_v15.report_section(fig[fig_holdout_v15.FIGURE]),
        "holdout_v16": fig_holdout_v16.report_section(fig[fig_holdout_v16.FIGURE]),
        "paper_numbers": paper,
        "typst_root": str(root),  # image paths above are relative to it; recompiling needs the same root
    }
    return data, root


def compile_pdf(json_path: Path, root: Path) -> bytes:
    import typst  # imported here: the JSON side of the report does not need it

    try:
        # embedded fonts only: the same PDF on every machine, whatever fonts it has installed
        pdf = typst.compile(
            str(TEMPLATE), root=str(root), sys_inputs={"data": rooted(json_path, root)}, ignore_system_fonts=True
        )
    except Exception as e:  # typst reports template errors as one exception with the source location
        raise ReportError(f"report: typst could not compile {TEMPLATE}: {e}") from None
    return without_suspects_false(pdf)


SUSPECTS_FALSE = b"/MarkInfo<</Marked true/Suspects false>>"


def without_suspects_false(pdf: bytes) -> bytes:
    """Typst marks its tagged PDFs with /MarkInfo << /Marked true /Suspects false >>: valid PDF (false is also the
    default), but poppler's catalog reader (22.12, Debian 12's pdfinfo, at least) takes only a true /Suspects, so
    `pdfinfo` prints "Syntax Error: Suspects object is wrong type (boolean)" for a sound file (issue 26). Blank
    the entry out, byte for byte, so that every offset of the cross-reference table stays right; a PDF without
    exactly this entry (another typst version, a compressed catalog) is returned as it is."""
    if pdf.count(SUSPECTS_FALSE) != 1:
        return pdf
    blanked = SUSPECTS_FALSE.replace(b"/Suspects false", b" " * len(b"/Suspects false"))
    return pdf.replace(SUSPECTS_FALSE, blanked)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Build the reproduction report (JSON + PDF)")
    ap.add_argument(
        "--tables", type=Path, required=True, help="source.json, runs.csv, link.csv [, concurrency_profile.csv]"
    )
    ap.add_argument("--figures", type=Path, required=True, help="each figure's .png and .csv, and " + TABLE2)
    ap.add_argument(
        "--model",
        type=Path,
        help="the model's files (link_bound.csv, parameters.json, predictions.csv, "
        "prediction_summary.json); each optional",
    )
    ap.add_argument("--paper-numbers", type=Path, default=_REPO / "paper" / "paper_numbers.yaml")
    ap.add_argument("--oom-tables", type=Path, help="the out-of-GPU-memory study's source.json (optional section)")
    ap.add_argument(
        "--cpu-archive", help="fig_cpu_gpu's archive/cpu-gpu-* folder(s), comma-separated (optional section)"
    )
    ap.add_argument("--streamed-tables", type=Path, help="the streamed study's source.json (optional section)")
    ap.add_argument(
        "--streamed-inplace", type=Path, help="an archived table of streamed PageRank read in place (optional)"
    )
    ap.add_argument(
        "--streamed-packed", type=Path, help="an archived table of streamed PageRank for issue 22's targets"
    )
    ap.add_argument(
        "--pr-accuracy", type=Path, help="an archived table of PageRank's L1 to a reference (emogi.pr_accuracy)"
    )
    ap.add_argument("--streamed-w8", type=Path, help="an archived table of streamed PageRank at 8-byte ids (optional)")
    ap.add_argument("--artifact", type=Path, help="the EMOGI artifact's side-by-side times (paper/artifact_h100.yaml)")
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
