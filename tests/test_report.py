"""The report builder on SYNTHETIC inputs (tmp dirs only). Fast: the whole module runs in a few seconds
(figures drawn in-process, one typst compile per report); `test_report_is_fast` guards the 30 s budget."""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from figures import inputs
from tests.synthetic_tables import write_synthetic_tables

REPO = Path(__file__).resolve().parents[1]
BUILD = REPO / "workflow" / "scripts" / "build_report.py"
PAPER_NUMBERS = REPO / "paper" / "paper_numbers.yaml"
PAPER_TEXT = Path("/work/shared/papers/emogi-pvldb2021.txt")


# the report's figures of BFS: key -> script name (the file names build_report.py looks for)
FIGURE_NAMES = {
    "fig09": "fig09_speedup_over_uvm",
    "fig08": "fig08_pcie_bandwidth",
    "fig07": "fig07_pcie_requests",
    "fig10": "fig10_read_amplification",
    "fig11": "fig11_applications",
    "fig12": "fig12_edge_width",
}
PROFILE_FIGURES = ("fig08", "fig07", "fig10")  # drawn from the profile table


def _figures(tables: dict, out: Path, with_profile: bool = True) -> dict:
    """Draw the figures and the model table in-process, as the workflow's rules would (but faster); returns the
    paths by key (fig09, fig09_csv, ..., link_bound)."""
    from model import bounds

    p = {}
    keys = ["fig09", "fig11", "fig12"] + (list(PROFILE_FIGURES) if with_profile else [])
    inputs = {
        "fig09": ["--runs", tables["runs"]],
        "fig11": ["--apps", tables["apps"]],
        "fig12": ["--apps", tables["apps"]],
        "fig07": ["--profile", tables["profile"]],
        "fig10": ["--profile", tables["profile"], "--runs", tables["runs"]],
        "fig08": ["--profile", tables["profile"], "--link", tables["link"]],
    }
    for key in keys:
        name = FIGURE_NAMES[key]
        p[key], p[f"{key}_csv"] = out / f"{name}.png", out / f"{name}.csv"
        importlib.import_module(f"figures.{name}").main(
            [
                *map(str, inputs[key]),
                "--source",
                str(tables["source"]),
                "--out",
                str(p[key]),
                "--out-csv",
                str(p[f"{key}_csv"]),
            ]
        )
    if with_profile:
        p["link_bound"] = out / "link_bound.csv"
        bounds.main(
            [
                "--runs",
                str(tables["runs"]),
                "--profile",
                str(tables["profile"]),
                "--link",
                str(tables["link"]),
                "--out",
                str(p["link_bound"]),
            ]
        )
    return p


def report_inputs(dest: Path, figures=(), model=()) -> tuple[Path, Path]:
    """build_report's --figures and --model folders, holding copies of the files given (and nothing else)."""
    if dest.exists():
        shutil.rmtree(dest)
    folders = dest / "figures", dest / "model"
    for folder, files in zip(folders, (figures, model)):
        folder.mkdir(parents=True)
        for f in files:
            shutil.copy(f, folder / Path(f).name)
    return folders


def _args(tables, figs, out_pdf, with_profile=True, extra=(), model=()) -> list[str]:
    """The command line for a report of the BFS figures (those of the profile table `with_profile`), `extra`
    files beside them and `model` files (link_bound.csv comes with the profile)."""
    keys = ["fig09", "fig11", "fig12"] + (list(PROFILE_FIGURES) if with_profile else [])
    files = [figs[k] for key in keys for k in (key, f"{key}_csv")] + list(extra)
    model = list(model) + ([figs["link_bound"]] if with_profile else [])
    figures, model_dir = report_inputs(Path(f"{Path(out_pdf).with_suffix('')}-inputs"), files, model)
    args = [
        "--tables",
        Path(tables["source"]).parent,
        "--figures",
        figures,
        "--model",
        model_dir,
        "--paper-numbers",
        PAPER_NUMBERS,
        "--out",
        out_pdf,
    ]
    return [str(a) for a in args]


def _report_module():
    spec = importlib.util.spec_from_file_location("build_report", BUILD)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build(tables, figs, out_pdf, with_profile=True):
    """The CLI as the workflow runs it (a fresh interpreter)."""
    return subprocess.run(
        [sys.executable, str(BUILD), *_args(tables, figs, out_pdf, with_profile)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _build_in_process(tables, figs, out_pdf, with_profile=True):
    """The same, without the interpreter start-up (seconds on a busy machine)."""
    return _report_module().main(_args(tables, figs, out_pdf, with_profile))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    base = tmp_path_factory.mktemp("report")
    tables = write_synthetic_tables(base / "tables")
    figs = _figures(tables, base / "figures")
    pdf = base / "report" / "report.pdf"
    t0 = time.monotonic()
    r = _build(tables, figs, pdf)
    elapsed = time.monotonic() - t0
    assert r.returncode == 0, r.stderr
    return {"tables": tables, "figs": figs, "pdf": pdf, "json": pdf.with_suffix(".json"), "elapsed": elapsed}


def test_pdf_and_json_written(built):
    assert built["pdf"].read_bytes()[:4] == b"%PDF"
    assert built["pdf"].stat().st_size > 50_000  # it embeds the two figures
    assert not list(built["pdf"].parent.glob(".*")), "temporary files left behind"
    data = json.loads(built["json"].read_text())
    src = json.loads(built["tables"]["source"].read_text())
    assert (
        data["source"]["label"] == inputs.source_label(src) == "fresh measurements on SYNTHETIC-GPU (test data), "
        "2000-01-01"
    )


def test_json_has_paper_and_our_numbers(built):
    data = json.loads(built["json"].read_text())
    paper = yaml.safe_load(PAPER_NUMBERS.read_text())
    f9 = {v["quantity"]: v for v in data["fig09"]["values"]}
    assert f9["naive_over_uvm"]["paper"] == 0.73 == paper["fig09"]["naive_over_uvm"]["value"]
    assert f9["merged_over_uvm"]["paper"] == 3.24
    assert f9["aligned_over_merged"]["paper"] == 1.10
    for q in ("naive_over_uvm", "merged_over_uvm", "aligned_over_uvm", "aligned_over_merged"):
        ours = f9[q]["ours"]
        assert set(ours) == {"zerocopy", "zerocopy-pinned"} and all(v > 0 for v in ours.values())

    # ours must equal the mean of the fig09 CSV it was built from
    import pandas as pd

    t = pd.read_csv(built["figs"]["fig09_csv"])
    sel = t[(t.variant == "merged") & (t["mode"] == "zerocopy-pinned")]
    assert f9["merged_over_uvm"]["ours"]["zerocopy-pinned"] == pytest.approx(sel.speedup.mean())

    f8 = data["fig08"]["values"]
    assert f8["peak_gbps"]["paper"] == 12.3 and f8["peak_gbps"]["ours"] > 0
    assert f8["merged_fraction_of_peak"]["paper"] == 0.90
    assert 0 < f8["aligned_fraction_of_peak"]["ours"]["zerocopy"] < 2
    assert data["link_bound"]["table"]["rows"]
    assert data["times"]["table"]["rows"]
    env = {row[0]: row[1:] for row in data["environment"]["rows"]}
    assert env["GPU"] == ["SYNTHETIC-GPU (test data)", "Tesla V100 HBM2 16GB"]
    assert env["Driver"][1] == "440.82" and env["CUDA"][1] == "10.2.89"
    assert env["Host link"] == ["SYNTHETIC link", "PCIe 3.0 x16"]


def text_of(node) -> str:
    """The plain text of a typst content node from `typst query` (smart quotes and spaces included)."""
    if isinstance(node, dict):
        if node.get("func") == "smartquote":
            return "'" if node.get("double") is False else '"'
        if node.get("func") == "space":
            return " "
        if isinstance(node.get("text"), str):
            return node["text"]
        return "".join(text_of(v) for k, v in node.items() if k not in ("text", "supplement", "separator"))
    if isinstance(node, list):
        return "".join(text_of(v) for v in node)
    return ""


def query_report(data_json, selector: str, **extra):
    """`typst query` on paper/report.typ with the root and data file the report was compiled with (image paths
    are relative to that root)."""
    typst = pytest.importorskip("typst")
    root = Path(json.loads(Path(data_json).read_text())["typst_root"])
    data_path = "/" + Path(data_json).resolve().relative_to(root).as_posix()
    return json.loads(
        typst.query(
            str(REPO / "paper" / "report.typ"),
            selector,
            root=str(root),
            sys_inputs={"data": data_path},
            ignore_system_fonts=True,
            **extra,
        )
    )


def test_source_line_on_first_page_and_under_each_figure(built):
    label = json.loads(built["json"].read_text())["source"]["label"]
    meta = query_report(built["json"], "<source-line>", one=True)
    assert meta["value"] == {"page": 1, "text": label}
    figures = query_report(built["json"], "figure")
    images = [f for f in figures if f["body"].get("func") == "image"]
    assert len(images) == 6  # Figs. 9, 8, 7, 10, 11 and 12
    for f in figures:
        assert label in text_of(f["caption"]), text_of(f["caption"])


def test_report_without_profile_table(built, tmp_path):
    """Archived measurements without profile.csv: no fig08, no model table, the report still builds."""
    tables = write_synthetic_tables(tmp_path / "tables", source="archive")
    pdf = tmp_path / "out" / "report.pdf"
    # the fresh-labelled fig09 image is reused to save time; only the report's own text is checked here
    assert _build_in_process(tables, built["figs"], pdf, with_profile=False) == 0
    assert pdf.read_bytes()[:4] == b"%PDF"
    data = json.loads(pdf.with_suffix(".json").read_text())
    assert data["fig08"] is None and data["link_bound"] is None
    assert data["source"]["label"] == "archived measurements from SYNTHETIC-GPU (test data) on 2000-01-01"


def test_applications_section_is_the_mean_of_the_figures_numbers(built):
    import pandas as pd

    ap = json.loads(built["json"].read_text())["apps"]
    assert ap["measured"]
    rows = {r[0]: r[1:] for r in ap["comparison"]["rows"]}
    t11, t12 = pd.read_csv(built["figs"]["fig11_csv"]), pd.read_csv(built["figs"]["fig12_csv"])
    ours = t11[t11["bar"] == "emogi"]["speedup"].mean()
    assert rows["EMOGI over UVM, mean over graphs and applications"][:2] == ["2.60×", f"{ours:.2f}×"]
    assert rows["EMOGI, 4-byte over 8-byte edges, mean"][:2] == ["1.57×", f"{t12['speedup'].mean():.2f}×"]
    assert len(ap["per_graph"]["rows"]) == len(t11.groupby(["graph", "algorithm"]))
    assert ap["below_uvm"] == ""  # the synthetic EMOGI is faster than UVM everywhere


def test_report_with_an_archive_without_applications(built, tmp_path):
    import pandas as pd

    from emogi.schema import APP_COLUMNS

    tables = dict(built["tables"], apps=tmp_path / "apps.csv")
    pd.DataFrame(columns=APP_COLUMNS).to_csv(tables["apps"], index=False)
    figs = _figures(tables, tmp_path / "figs", with_profile=False)
    pdf = tmp_path / "out" / "report.pdf"
    assert _build_in_process(tables, figs, pdf, with_profile=False) == 0
    assert json.loads(pdf.with_suffix(".json").read_text())["apps"]["measured"] is False


def test_report_shows_the_link_ladder_as_predictions(built, tmp_path):
    """The ladder's figure (drawn from model.link_ladder on a tiny graph) enters the model section with its
    paragraph: predictions, and each algorithm's gain from Gen3 to Gen4 to Gen5 from the figure's CSV."""
    from figures import fig_link_ladder
    from model import link_ladder
    from tests.graphs import write_generated

    graph = write_generated(tmp_path / "k8.w8.csr", "kron", 8)
    ladder, png, csv = tmp_path / "ladder.csv", tmp_path / "fig_link_ladder.png", tmp_path / "fig_link_ladder.csv"
    presets = "pcie3-x16,pcie4-x16,pcie5-x16,h100-measured"
    assert link_ladder.main(["--graph-file", str(graph), "--presets", presets, "--out", str(ladder)]) == 0
    source = str(built["tables"]["source"])
    fig_link_ladder.main(["--ladder", str(ladder), "--source", source, "--out", str(png), "--out-csv", str(csv)])
    pdf = tmp_path / "out" / "report.pdf"
    args = _args(built["tables"], built["figs"], pdf, extra=[png, csv])
    assert _report_module().main(args) == 0
    section = json.loads(pdf.with_suffix(".json").read_text())["ladder"]
    assert section["image"].endswith("fig_link_ladder.png")
    assert section["text"].startswith("These are predictions, not measurements")
    for label in ("BFS", "SSSP", "CC", "PR"):
        assert re.search(label + r" gains [0-9.–]+× from Gen3 to Gen4 and [0-9.–]+× from Gen4 to Gen5", section["text"])
    assert section["table"]["columns"][-2:] == ["Gen3→4", "Gen4→5"] and len(section["table"]["rows"]) == 8


def test_missing_figure_is_a_clear_error(built, tmp_path):
    args = _args(built["tables"], built["figs"], tmp_path / "r.pdf")
    figures = Path(args[args.index("--figures") + 1])
    for ext in ("png", "csv"):
        (figures / f"fig09_speedup_over_uvm.{ext}").unlink()
    with pytest.raises(SystemExit, match="fig09_speedup_over_uvm.png is missing"):
        _report_module().main(args)
    assert not (tmp_path / "r.pdf").exists()


def test_image_without_its_csv_is_an_error(built, tmp_path):
    args = _args(built["tables"], built["figs"], tmp_path / "r.pdf")
    (Path(args[args.index("--figures") + 1]) / "fig08_pcie_bandwidth.csv").unlink()
    with pytest.raises(SystemExit, match="fig08_pcie_bandwidth.png has no fig08_pcie_bandwidth.csv beside it"):
        _report_module().main(args)


# The JSON paper/report.typ renders: its sections in order (a section may be null: "not available").
SECTIONS = [
    "title",
    "source",
    "paper",
    "environment",
    "warnings",
    "run",
    "claims",
    "datasets",
    "fig09",
    "fig08",
    "link_bound",
    "requests",
    "apps",
    "oom",
    "cpu",
    "streamed",
    "times",
    "allocations",
    "micro",
    "ladder",
    "holdout",
    "holdout_v3",
    "holdout_v4",
    "holdout_v5",
    "holdout_v6",
    "holdout_v7",
    "holdout_v8",
    "holdout_v9",
    "holdout_v10",
    "holdout_v11",
    "holdout_v12",
    "holdout_v13",
    "holdout_v14",
    "holdout_v15",
    "holdout_v16",
    "paper_numbers",
    "typst_root",
]


def test_sections_in_order(built):
    data = json.loads(built["json"].read_text())
    assert list(data) == SECTIONS
    # no Table 2 or Fig. 6, no out-of-GPU-memory tables (--oom-tables), no CPU study (--cpu-archive), no streamed
    # study (--streamed-tables)
    absent = ["datasets", "oom", "cpu", "streamed", "ladder", "holdout", *(f"holdout_v{v}" for v in range(3, 17))]
    assert [k for k in SECTIONS if data[k] is None] == absent
    assert list(data["micro"]) == ["any", "parameters", "figures", "cxl", "model", "read_sizes", "references"]


def test_report_shows_every_figure_the_workflow_draws():
    """build_report.py looks for each figure of the workflow (figures.smk, and Fig. 6 of dataset_report.smk), the
    out-of-GPU-memory ones through figures/oom_report.py, the streamed ones through figures/streamed_report.py."""
    from figures import oom_report, streamed_report

    rules = (REPO / "workflow" / "rules" / "figures.smk").read_text()
    # a key of FIGURE_INPUTS, or one set after (indented where only set with its archive), and each registered
    # split's fig_holdout_{split} (model.smk's HOLDOUT_SPLITS, where its archive exists)
    named = r'^(?:    "|(?:    )?FIGURE_INPUTS\[")(fig\w+)"(?:: [\{_]|\] = )'
    drawn = set(re.findall(named, rules, re.M)) | {"fig06_degree_cdf"}
    model_rules = (REPO / "workflow" / "rules" / "model.smk").read_text()
    splits = re.search(r"^HOLDOUT_SPLITS = \(([^)]*)\)", model_rules, re.M).group(1)
    assert 'FIGURE_INPUTS[_figure] = {"holdout"' in rules
    drawn |= {f"fig_holdout_{s}" for s in re.findall(r'"(v\d+)"', splits)}
    # and v13's on (model.smk's HOLDOUT_PASS_SPLITS: each held-out cell measured by several processes)
    passes = re.search(r"^HOLDOUT_PASS_SPLITS = \(([^)]*)\)", model_rules, re.M).group(1)
    drawn |= {f"fig_holdout_{s}" for s in re.findall(r'"(v\d+)"', passes)}
    # and each UVM validation's fig_uvm_validation{n} (oom.smk's UVM_VALIDATIONS, where its archive exists)
    oom_rules = (REPO / "workflow" / "rules" / "oom.smk").read_text()
    validations = re.search(r"^UVM_VALIDATIONS = \(([^)]*)\)", oom_rules, re.M).group(1)
    assert "for _figure, _archive in UVM_VALIDATION_ARCHIVES.items():" in rules
    drawn |= {f"fig_uvm_validation{n}" for n in re.findall(r"\d+", validations)}
    # and uvm-capped's validations (oom.smk's UVM_CAPPED_VALIDATIONS, where its archive exists)
    capped = re.search(r"^UVM_CAPPED_VALIDATIONS = \(([^)]*)\)", oom_rules, re.M).group(1)
    assert 'UVM_VALIDATION_ARCHIVES[f"fig_uvm_{_name}"]' in oom_rules
    drawn |= {f"fig_uvm_capped_validation{n}" for n in re.findall(r"\d+", capped)}
    shown = set(oom_report.FIGURES) | set(oom_report.OPTIONAL_FIGURES)
    shown |= set(streamed_report.FIGURES) | set(streamed_report.OPTIONAL_FIGURES)
    assert set(_report_module().FIGURES) | shown == drawn


def test_interval_text():
    from figures.report_format import interval_text

    assert interval_text({"value": 55.3, "lo": 54.9, "hi": 55.61}, ".3g", " GB/s") == "55.3 GB/s [54.9, 55.6]"
    assert interval_text({"value": 640, "lo": None, "hi": None}, ".0f") == "640"


def _xref_offsets_point_at_their_objects(pdf: bytes) -> int:
    """Check the classic cross-reference table at startxref: each in-use entry's offset starts 'N G obj'.
    Returns the number of objects checked."""
    start = int(re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", pdf).group(1))
    assert pdf[start : start + 4] == b"xref", "no classic xref table at startxref"
    lines = iter(pdf[start:].split(b"\n")[1:])
    checked = 0
    for line in lines:
        head = line.split()
        if not head or head[0] == b"trailer":
            break
        first, count = int(head[0]), int(head[1])
        for n in range(first, first + count):
            offset, gen, kind = next(lines).split()
            if kind == b"n":
                assert re.match(rb"%d %d obj" % (n, int(gen)), pdf[int(offset) : int(offset) + 20]), n
                checked += 1
    return checked


def test_pdf_without_poppler_false_alarm_and_sound(built):
    """Issue 26: pdfinfo printed 'Syntax Error: Suspects object is wrong type (boolean)'. That is poppler
    (22.12 at least) misreading typst's valid /Suspects false; build_report blanks the entry byte for byte, so the
    cross-reference table must still point at every object."""
    pdf = built["pdf"].read_bytes()
    assert b"/Suspects" not in pdf
    assert b"/MarkInfo<</Marked true" in pdf  # still a tagged PDF
    assert _xref_offsets_point_at_their_objects(pdf) > 100


def test_without_suspects_false_only_blanks_the_entry():
    report = _report_module()
    pdf = b"%PDF-1.7\n1 0 obj\n<</Type/Catalog/MarkInfo<</Marked true/Suspects false>>>>\nendobj\n"
    out = report.without_suspects_false(pdf)
    assert len(out) == len(pdf) and b"/Suspects" not in out and out.startswith(b"%PDF-1.7\n1 0 obj")
    other = pdf.replace(b"/Suspects false", b"/Suspects true")  # not typst's entry: left alone
    assert report.without_suspects_false(other) == other


def test_sizes_in_binary_units(built):
    """Issue 26: sizes were printed in decimal units (GPU memory '85.5 GB' for an 80 GB card, footprints 268 MB
    and 8.59 GB beside the MiB and GiB of the other tables). Every size is binary now; rates stay GB/s."""
    from figures.report_format import fbytes

    assert [fbytes(b) for b in (256 << 20, 8 << 30, 81559 << 20, 258666186 * 8, 2147479664, 512)] == [
        "256 MiB",
        "8 GiB",
        "79.6 GiB",
        "1.93 GiB",
        "2.00 GiB",
        "512 B",
    ]
    data = json.loads(built["json"].read_text())
    data.pop("paper_numbers")  # the papers' own words and units, quoted
    text = json.dumps(data, ensure_ascii=False).replace("(1 GB = 1e9 B", "")  # defines the rates' unit
    marketed = r"(?! as sold)(?! V100)"  # a card's size as sold, as in its name ("the 16 GB V100")
    decimal = [text[m.start() - 60 : m.end()] for m in re.finditer(r"\d (?:GB|MB|kB)(?!/s)" + marketed, text)]
    assert not decimal, decimal
    import pandas as pd

    from figures import applications

    runs = pd.DataFrame({"algorithm": ["bfs"], "edge_bytes": [8], "edges_traversed": [268434958], "max_warps": [0]})
    fits = applications.fits_text(runs, {"gpu_memory": "81559 MiB"})  # an H100 80GB as nvidia-smi reports it
    assert "(at least 3.00 GiB) fits in this GPU's 79.6 GiB of memory" in fits


def test_image_figures_float_except_in_the_microbenchmarks(built):
    """Issue 26: a figure too tall for the rest of a page left half of page 2 blank; figures of images float
    (placement auto), except those of the microbenchmark subsections, which hold nothing else."""
    images = [f for f in query_report(built["json"], "figure") if f["body"].get("func") == "image"]
    assert images and all(f.get("placement") == "auto" for f in images)
    typ = (REPO / "paper" / "report.typ").read_text()
    assert "#figure(image(f.image, width: 100%), placement: none," in typ


def test_report_is_fast(built):
    assert built["elapsed"] < 15, f"build_report took {built['elapsed']:.1f} s"


@pytest.mark.skipif(not PAPER_TEXT.is_file(), reason="paper text not on this machine")
def test_paper_numbers_are_quoted_from_the_paper():
    """Every number of paper_numbers.yaml (every group: EMOGI's without a `ref`, the others with the paper they
    quote) has a section and a quote, and each fragment of the quote (split at " ... ") is in that paper's text."""
    norm = lambda s: re.sub(r"\s+", " ", s.replace("$1.10 \\times$", "1.10×"))  # noqa: E731  (PDF-to-text math)
    numbers = yaml.safe_load(PAPER_NUMBERS.read_text())
    texts = {k: norm((PAPER_TEXT.parent / r["text"]).read_text()) for k, r in numbers["references"].items()}
    groups = [g for g in numbers if g not in ("paper", "references")]
    assert {"system", "fig09", "fig08", "fig07", "fig10", "apps", "previous_works", "pcie4"} <= set(groups)
    assert {"emogi_analysis", "cxl_more", "spmv", "graphit"} <= set(groups)  # the claims table's other numbers
    checked = 0
    for group in groups:
        for key, entry in numbers[group].items():
            assert entry.get("section") and entry.get("quote") and "value" in entry, (group, key)
            for fragment in entry["quote"].split(" ... "):
                assert norm(fragment) in texts[entry.get("ref", "emogi")], (group, key, fragment)
                checked += 1
    assert checked >= 120


@pytest.mark.parametrize("pinned_ms,alike", [(10.5, True), (30.0, False)])
def test_allocation_text_follows_the_data(pinned_ms, alike):
    """The managed-vs-pinned sentence must say what the numbers say, not what we expect."""
    import pandas as pd

    from figures.fig09_speedup_over_uvm import allocation_section

    rows = [
        {
            "graph": "g",
            "algorithm": "bfs",
            "variant": "merged",
            "mode": mode,
            "edge_bytes": 8,
            "root": 1,
            "rep": rep,
            "time_ms": ms,
            "verified": True,
        }
        for mode, ms in (("zerocopy", 10.0), ("zerocopy-pinned", pinned_ms))
        for rep in range(2)
    ]
    section = allocation_section(pd.DataFrame(rows))
    assert section["table"]["rows"][0][-1] == f"{pinned_ms / 10.0:.2f}"
    assert ("perform alike" in section["text"]) == alike
    assert ("up to 3.00x" in section["text"]) == (not alike)
