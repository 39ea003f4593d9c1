"""The report's "Datasets" section (the paper's Table 2 and Fig. 6) on SYNTHETIC inputs (tmp dirs only): built from
the CSVs of emogi.datasets.table and figures/fig06_degree_cdf.py, it says which graphs are scaled stand-ins, sets
Fig. 6's numbers beside the paper's statements (quoted from the paper), and the report rule depends on both."""

from __future__ import annotations

import importlib
import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
import yaml

from emogi.datasets.degree_histogram import degree_histogram
from emogi.datasets.generators import generate
from emogi.datasets.table import table2
from tests.synthetic_tables import write_synthetic_tables
from tests.test_report import PAPER_TEXT, REPO, _args, _figures, _report_module, query_report, text_of

GRAPHS = {  # two scaled stand-ins (scale 10) and one graph at the paper's size (SK's V and E, metadata only)
    "kron10": {"source": "generator", "generator": "kron", "scale": 10, "edge_factor": 16, "seed": 1, "paper": "GK"},
    "urand10": {"source": "generator", "generator": "urand", "scale": 10, "edge_factor": 16, "seed": 2, "paper": "GU"},
    "sk": {"source": "law", "catalog": "sk-2005", "paper": "SK"},
}


def _meta(vertices: int, edges: int, directed: bool) -> dict:
    return {
        "num_vertices": vertices,
        "num_edges": edges,
        "index_bytes": 8,
        "edge_list_bytes": 8 * edges,
        "weights_bytes": 4 * edges,
        "avg_degree_nonisolated": edges / vertices,
        "max_degree": 1000,
        "isolated_vertices": 0,
        "directed": directed,
        "file_bytes": 12 * edges,
        "checksum": "00",
    }


def write_dataset_inputs(out: Path) -> dict:
    """table2_datasets.csv and fig06_degree_cdf.{png,csv}, made as the workflow's rules make them."""
    out.mkdir(parents=True, exist_ok=True)
    metas, histograms = {}, []
    for name, spec in GRAPHS.items():
        if spec["source"] == "generator":
            g = generate(spec["generator"], spec["scale"], spec["edge_factor"], spec["seed"])
            metas[name] = _meta(g.num_vertices, g.num_edges, False)
            h = degree_histogram(g.offsets)
            h.insert(0, "graph", name)
            path = out / f"{name}.degrees.csv"
            h.to_csv(path, index=False)
            histograms.append(path)
        else:
            metas[name] = _meta(50_600_000, 1_950_000_000, True)
    paper = yaml.safe_load((REPO / "paper" / "table2_datasets.yaml").read_text())
    table2(GRAPHS, metas, paper).to_csv(out / "table2_datasets.csv", index=False, float_format="%.4f")
    fig06 = importlib.import_module("figures.fig06_degree_cdf")
    assert (
        fig06.main(
            [
                "--degrees",
                *map(str, histograms),
                "--out",
                str(out / "fig06_degree_cdf.png"),
                "--out-csv",
                str(out / "fig06_degree_cdf.csv"),
            ]
        )
        == 0
    )
    return {
        "table2": out / "table2_datasets.csv",
        "fig06": out / "fig06_degree_cdf.png",
        "fig06_csv": out / "fig06_degree_cdf.csv",
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    base = tmp_path_factory.mktemp("report_datasets")
    tables = write_synthetic_tables(base / "tables")
    figs = _figures(tables, base / "figures", with_profile=False)
    datasets = write_dataset_inputs(base / "datasets")
    pdf = base / "report" / "report.pdf"
    assert _report_module().main(_args(tables, figs, pdf, with_profile=False, extra=datasets.values())) == 0
    return {
        "pdf": pdf,
        "data": json.loads(pdf.with_suffix(".json").read_text()),
        "tables": tables,
        "figs": figs,
        "datasets": datasets,
        "base": base,
    }


def test_table2_says_which_graphs_are_stand_ins(built):
    t2 = built["data"]["datasets"]["table2"]
    assert t2["stand_ins"] == ["kron10", "urand10"] and t2["full_size"] == ["sk"]
    assert t2["absent"] == ["FS", "ML", "UK5"]
    rows = {r[0]: r for r in t2["table"]["rows"]}
    assert rows["GK"][2] == "kron10" and rows["GK"][3] == "134.2M / 1.0K"  # 2^10 vertices
    assert rows["GK"][-1] == f"scaled stand-in, 1/{134.2e6 / 1024:.0f} of V"  # the paper's 134.2M over 2^10
    assert rows["SK"][-1] == "paper's size" and rows["SK"][8] == "yes / yes"
    assert rows["UK5"][2] == "(not in this study)" and rows["UK5"][3] == "105.9M / –"
    assert (
        f"kron10 for GK (1/{134.2e6 / 1024:.0f} of the paper's V)" in t2["text"]
        and "Not in this study: FS, ML, UK5" in t2["text"]
    )


def test_fig06_numbers_follow_the_csv(built):
    f6 = built["data"]["datasets"]["fig06"]
    cdf = pd.read_csv(built["datasets"]["fig06_csv"]).set_index(["graph", "degree"])["edges_cdf"]
    for graph in ("kron10", "urand10"):
        s = f6["shares"][graph]
        assert s["16_to_48"] == pytest.approx(cdf[(graph, 48)] - cdf[(graph, 15)])
        assert sum(s.values()) == pytest.approx(1.0)
    assert f6["shares"]["urand10"]["16_to_48"] > 0.95 and f6["shares"]["kron10"]["beyond_96"] > 0.3
    rows = {r[0]: r for r in f6["table"]["rows"]}
    assert "GU" in rows["urand10 (GU)"][0] and "between 16 and 48" in rows["urand10 (GU)"][-1]
    assert "extremely unbalanced" in rows["kron10 (GK)"][-1]
    assert "urand10 (for GU) has" in f6["ours_text"]


def test_section_in_pdf_with_source_in_every_caption(built):
    data = built["data"]
    figures = query_report(built["pdf"].with_suffix(".json"), "figure")
    assert len([f for f in figures if f["body"].get("func") == "image"]) == 4  # Figs. 9, 6, 11, 12 (no fig08 here)
    captions = [text_of(f["caption"]) for f in figures]
    assert all(data["source"]["label"] in c for c in captions), captions
    assert any(c.startswith("Edges CDF by vertex degree (paper Figure 6)") for c in captions), captions
    assert any("Table 2 beside ours" in c for c in captions), captions
    headings = [text_of(h) for h in query_report(built["pdf"].with_suffix(".json"), "heading")]
    assert "Datasets (paper Table 2 and Figure 6)" in headings, headings


def test_without_dataset_inputs_the_section_says_not_available(built, tmp_path):
    report = _report_module()
    pdf = tmp_path / "report.pdf"
    assert report.main(_args(built["tables"], built["figs"], pdf, with_profile=False)) == 0
    assert json.loads(pdf.with_suffix(".json").read_text())["datasets"] is None
    with pytest.raises(SystemExit, match="fig06_degree_cdf.png has no fig06_degree_cdf.csv beside it"):
        report.main(
            _args(
                built["tables"],
                built["figs"],
                tmp_path / "r.pdf",
                with_profile=False,
                extra=[built["datasets"]["fig06"]],
            )
        )


@pytest.mark.skipif(not PAPER_TEXT.is_file(), reason="paper text not on this machine")
def test_fig06_statements_are_quoted_from_the_paper():
    norm = lambda s: re.sub(r"\s+", " ", s)  # noqa: E731
    text = norm(PAPER_TEXT.read_text())
    from figures.fig06_degree_cdf import PAPER_CUT_QUOTE, PAPER_STATEMENTS

    for quote, _ in PAPER_STATEMENTS.values():
        assert norm(quote) in text, quote
    assert norm(PAPER_CUT_QUOTE) in text


def test_report_rule_depends_on_table2_and_fig06(tmp_path):
    """snakemake builds Table 2 and Fig. 6 before the report (a dry run of the report alone plans them)."""
    from conftest import IGNORE
    from test_workflow import snakemake

    workdir = Path(shutil.copytree(REPO, tmp_path / "repo", ignore=IGNORE))
    done = snakemake(workdir, "-n", "--config", "measurements=archive", "--", "results/report/report.pdf")
    assert done.returncode == 0, done.stderr[-3000:]
    for rule in ("table2_datasets", "fig06_degree_cdf", "degree_histogram", "report"):
        assert rule in done.stdout, rule
