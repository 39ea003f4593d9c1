"""The report's "Microbenchmarks and the model" section on SYNTHETIC inputs (tmp dirs only): it builds with every
new input, with none of them (an archive without microbenchmarks) and with some; its numbers come from the figure
CSVs and the model's files; the papers' numbers are quoted from the papers."""

from __future__ import annotations

import importlib
import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
import yaml

from figures.micro_report import MICRO_FIGURES
from tests.synthetic_model import write_synthetic_model
from tests.synthetic_tables import write_synthetic_tables
from tests.test_figures_micro import FIGURES, args_for
from tests.test_report import PAPER_NUMBERS, _figures, _report_module, query_report, report_inputs
from tests.test_report import _args as bfs_args

PAPERS = Path("/work/shared/papers")


def _micro_figures(inputs: dict, out: Path) -> dict:
    """Draw the eight figures in-process; returns {key: (png, csv)}, key = the script's name less "fig_" (as in
    the report's JSON)."""
    paths = {}
    for module in MICRO_FIGURES:
        png, csv = out / f"{module}.png", out / f"{module}.csv"
        importlib.import_module(f"figures.{module}").main(
            [
                *map(str, args_for(module, inputs)),
                "--source",
                str(inputs["source"]),
                "--out",
                str(png),
                "--out-csv",
                str(csv),
            ]
        )
        paths[module.removeprefix("fig_")] = (png, csv)
    return paths


def _args(tables, figs, out_pdf, micro=None, model=None, keys=None) -> list[str]:
    """Figs. 9 and 8 (no 7, 10, 11, 12), the micro figures of `keys` (default: all given) and the model's files."""
    args = bfs_args(tables, figs, out_pdf, with_profile=False)
    files = [figs[k] for key in ("fig09", "fig08") for k in (key, f"{key}_csv")]
    files += [f for key, pair in (micro or {}).items() if keys is None or key in keys for f in pair]
    model = [model[k] for k in ("parameters", "predictions", "summary")] if model else []
    figures, model_dir = report_inputs(
        Path(f"{Path(out_pdf).with_suffix('')}-inputs"), files, model + [figs["link_bound"]]
    )
    args[args.index("--figures") + 1], args[args.index("--model") + 1] = str(figures), str(model_dir)
    return args


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    base = tmp_path_factory.mktemp("report_micro")
    tables = write_synthetic_tables(base / "tables")
    model = write_synthetic_model(base / "model", tables)
    figs = _figures(tables, base / "figures")
    (base / "micro").mkdir()
    micro = _micro_figures({**tables, **model}, base / "micro")
    return {"base": base, "tables": tables, "model": model, "figs": figs, "micro": micro}


@pytest.fixture(scope="module")
def full(setup):
    pdf = setup["base"] / "report_full" / "report.pdf"
    assert _report_module().main(_args(setup["tables"], setup["figs"], pdf, setup["micro"], setup["model"])) == 0
    return {"pdf": pdf, "data": json.loads(pdf.with_suffix(".json").read_text())}


def test_full_report_has_every_figure(full, setup):
    assert full["pdf"].read_bytes()[:4] == b"%PDF"
    micro = full["data"]["micro"]
    assert micro["any"] and [f["key"] for f in micro["figures"]] == [m.removeprefix("fig_") for m in MICRO_FIGURES]
    assert all(f["image"] for f in micro["figures"])
    assert micro["parameters"]["table"]["rows"][0][0].startswith("W")
    assert micro["cxl"]["rows"] and micro["model"]["text"]
    assert full["data"]["run"]["n_throttled_runs"] > 0


def test_full_report_figures_and_captions_in_pdf(full):
    data = full["data"]
    figures = query_report(full["pdf"].with_suffix(".json"), "figure")
    images = [f for f in figures if f["body"].get("func") == "image"]
    assert len(images) == 2 + 8
    label = data["source"]["label"]
    text = json.dumps([f["caption"] for f in figures])
    assert text.count(label) >= len(figures)


def test_report_numbers_follow_the_csvs(full, setup):
    micro = full["data"]["micro"]
    by_key = {f["key"]: f for f in micro["figures"]}
    copy = pd.read_csv(setup["micro"]["copy_bandwidth"][1])
    rows = {r[0]: r for r in by_key["copy_bandwidth"]["comparison"]["rows"]}
    pinned = copy[(copy.direction == "h2d") & (copy.host_memory == "pinned")].gbps.max()
    pageable = copy[(copy.direction == "h2d") & (copy.host_memory == "pageable")].gbps.max()
    assert rows["pinned, host to device (best size) = W"][2] == f"{pinned:.1f} GB/s"
    assert rows["pinned / pageable, host to device"][2] == f"{pinned / pageable:.1f}×"
    assert rows["pageable, host to device (best size)"][1] == "10–11 GB/s"  # CF'17

    toy = pd.read_csv(setup["micro"]["zero_copy_toy"][1])
    rows = {r[0]: r for r in by_key["zero_copy_toy"]["comparison"]["rows"]}
    a = toy[(toy.pattern == "merged-aligned") & (toy["mode"] == "zerocopy") & (toy.element_bytes == 8)].iloc[0]
    assert rows["Merged+Aligned, 8-B elements"][2].startswith(
        f"{a.timed_gbps:.1f} GB/s ({100 * a.fraction_of_peak:.0f}%"
    )
    assert rows["Merged+Aligned, 8-B elements"][1].startswith("12.23 GB/s")  # EMOGI §3.3

    params = json.loads(setup["model"]["parameters"].read_text())
    cxl = {r[0]: r for r in micro["cxl"]["rows"]}
    W, N = params["W_gbps"]["value"], params["N_max"]["value"]
    assert cxl["S needed to fill W with d = 89.6 B (S ≥ W / d)"][2] == f"{W * 1e3 / 89.6:.0f} MIOPS"
    assert cxl["L allowed with d = 89.6 B (L ≤ N_max d / W)"][2] == f"{N * 89.6 / (W * 1e3):.2f} µs"
    assert cxl["S needed to fill W with d = 89.6 B (S ≥ W / d)"][1].startswith("268 MIOPS")
    assert cxl["L allowed with d = 89.6 B (L ≤ N_max d / W)"][1].startswith("2.87 µs")

    pred = pd.read_csv(setup["model"]["predictions"])
    err = (pred.predicted_ms / pred.measured_ms - 1).abs()
    model = micro["model"]
    assert model["n_missed"] == int((err > 0.25).sum()) and model["n_predictions"] == len(pred)
    summary = json.loads(setup["model"]["summary"].read_text())
    assert f"{100 * summary['median_abs_error']:.0f}%" in model["text"]
    assert model["excluded"] and "SYNTHETIC reason" in model["excluded"][-1]


def test_report_without_microbenchmarks(setup, tmp_path):
    """An archive without the new tables and model files: the section says 'not available', the rest builds."""
    pdf = tmp_path / "report.pdf"
    assert _report_module().main(_args(setup["tables"], setup["figs"], pdf)) == 0
    micro = json.loads(pdf.with_suffix(".json").read_text())["micro"]
    assert not micro["any"] and micro["parameters"] is None and micro["model"] is None and micro["cxl"] is None
    assert all(f["image"] is None for f in micro["figures"])
    assert pdf.read_bytes()[:4] == b"%PDF"


def test_report_with_some_microbenchmarks(setup, tmp_path):
    """Only the copy and latency figures (no model): those appear, the others say 'not available'."""
    pdf = tmp_path / "report.pdf"
    assert (
        _report_module().main(
            _args(setup["tables"], setup["figs"], pdf, setup["micro"], keys={"copy_bandwidth", "latency"})
        )
        == 0
    )
    micro = json.loads(pdf.with_suffix(".json").read_text())["micro"]
    shown = {f["key"] for f in micro["figures"] if f["image"]}
    assert shown == {"copy_bandwidth", "latency"} and micro["parameters"] is None
    assert [r[0] for r in micro["cxl"]["rows"]] == ["L, one read of host memory"]


def test_png_without_csv_is_an_error(setup, tmp_path):
    png, _ = setup["micro"]["latency"]
    args = _args(setup["tables"], setup["figs"], tmp_path / "r.pdf")
    shutil.copy(png, args[args.index("--figures") + 1])
    with pytest.raises(SystemExit, match="fig_latency.png has no fig_latency.csv beside it"):
        _report_module().main(args)


def test_figure_list_matches_the_scripts():
    assert set(MICRO_FIGURES) == set(FIGURES)


MICRO_GROUPS = ("copy_bandwidth", "zero_copy_toy", "cxl")


def test_micro_paper_numbers_have_sources():
    numbers = yaml.safe_load(PAPER_NUMBERS.read_text())
    refs = numbers["references"]
    for group in MICRO_GROUPS:
        for key, entry in numbers[group].items():
            assert entry.get("section") and entry.get("quote") and "value" in entry, (group, key)
            assert entry["ref"] in refs, (group, key)


@pytest.mark.skipif(not PAPERS.is_dir(), reason="paper texts not on this machine")
def test_micro_paper_numbers_are_quoted_from_the_papers():
    norm = lambda s: re.sub(r"\s+", " ", s)  # noqa: E731  (the PDF-to-text has runs of spaces around math)
    numbers = yaml.safe_load(PAPER_NUMBERS.read_text())
    texts = {
        k: norm((PAPERS / r["text"]).read_text())
        for k, r in numbers["references"].items()
        if (PAPERS / r["text"]).is_file()
    }
    checked = 0
    for group in MICRO_GROUPS:
        for key, entry in numbers[group].items():
            if entry["ref"] not in texts:
                continue
            for fragment in entry["quote"].split(" ... "):
                assert norm(fragment) in texts[entry["ref"]], (group, key, fragment)
                checked += 1
    assert checked >= 20


def test_read_sizes_section_by_hand(tmp_path):
    """Link requests and bytes per read from the concurrency profile's counters (synthetic counters)."""
    import pandas as pd

    from emogi import schema
    from figures.fig_concurrency import read_sizes_section
    from figures.report_format import fnum

    row = {c: 0 for c in schema.CONCURRENCY_PROFILE_COLUMNS}
    row.update(
        gpu="SYNTHETIC",
        mode="zerocopy",
        footprint_bytes=64 << 20,
        request_bytes=96,
        reads_per_warp=4,
        warps=4096,
        reads=1000,
        sysmem_read_requests=2000,
        sysmem_read_sectors=3000,
        pcie_read_bytes=120000,
    )
    path = tmp_path / "cp.csv"
    pd.DataFrame([row]).to_csv(path, index=False)
    table = read_sizes_section(path)
    cells = table["rows"][0]
    assert cells[2] == "96 B"
    assert cells[3] == fnum(2.0)  # two link requests per read
    assert cells[4] == "48.0 B"  # 32 B x 3000 sectors / 2000 requests
    assert cells[5] == "120.0 B"  # PCIe bytes per read
    assert cells[6] == "12.0 B"  # (120000 - 96000) / 2000 per request
    empty = tmp_path / "empty.csv"
    pd.DataFrame(columns=schema.CONCURRENCY_PROFILE_COLUMNS).to_csv(empty, index=False)
    assert read_sizes_section(empty) is None  # an archive that did not profile the reads
