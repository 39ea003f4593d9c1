"""What the UVM validations' tests (tests/test_uvm_validation5.py to 11) share: tests/test_uvm_validation4.py's
SYNTHETIC call with pageable copies at the start and the close, judged by a validation module, the files the judge
writes, and its figure (the figure and report table for the capped validations too). Each validation's rule, seed
and numbers stay in its own test file."""

import importlib
import json
import re
import subprocess
import tarfile
from pathlib import Path

import pandas as pd
import pytest

from tests.test_uvm_validation4 import _link, synthetic_call

WRITTEN = ("cells", "summary", "micro", "missing", "runs", "by_run", "noise")  # validation{n}_{name}.csv
ROOT = Path(__file__).resolve().parents[1]


def with_end_copies(tmp_path: Path, start: float, end: float | None, n: int) -> Path:
    """synthetic_call's tarball (validation `n`) with its pageable copies at `start` GB/s and (where given) `end`
    at the close."""
    sess = tmp_path / f"uvm{n}"
    _link(start).to_csv(sess / "micro/link.csv", index=False)
    if end is not None:
        _link(end).to_csv(sess / "micro/link_end.csv", index=False)
    with tarfile.open(tmp_path / f"uvm{n}.tgz", "w:gz") as tar:
        tar.add(sess, arcname=f"uvm{n}")
    return tmp_path / f"uvm{n}.tgz"


def judge_synthetic_call(tmp_path: Path, module, n: int, seed: int, scales, start: float, end: float, edit=None):
    """synthetic_call (validation `n`, seed `seed`, timed runs `scales`) with copies at `start` and `end` GB/s,
    judged by `module` with its registered JSON (changed by `edit` where given); checked: every file written,
    the note names validation `n`. Returns (the summary's "all" rows by rule, the output folder, the JSON)."""
    _, gdir, registered, how = synthetic_call(tmp_path, n, seed, scales)
    tarball = with_end_copies(tmp_path, start, end, n)
    registered = edit(registered) if edit else registered
    out = tmp_path / "out"
    summary = module.judge(tarball, gdir, out, 1, registered, how)
    assert f"validation {n}" in json.loads((out / "source.json").read_text())["note"]
    for name in WRITTEN:
        assert (out / f"validation{n}_{name}.csv").exists()
    return summary[summary["group"] == "all"].set_index("rule"), out, registered


def assert_figure_draws(out: Path, tmp_path: Path, n: int) -> None:
    """figures/fig_uvm_validation{n}.py draws a figure from the judged cells in `out`."""
    fig = importlib.import_module(f"figures.fig_uvm_validation{n}")
    png = tmp_path / "fig.png"
    args = ["--cells", str(out / f"validation{n}_cells.csv"), "--source", str(out / "source.json"), "--out", str(png)]
    assert fig.main(args) == 0 and png.stat().st_size > 0


def figure_with_report_table(out: Path, tmp_path: Path, figure: str, cells: str) -> tuple[dict, dict, dict]:
    """figures/`figure`.py draws the judged cells `out`/`cells` and writes its table (its rules in order); the
    report's image and table blocks from it, and each rule's verdict."""
    from figures import uvm_validation_report
    from figures.inputs import ReportFigure

    fig = importlib.import_module(f"figures.{figure}")
    png, csv = tmp_path / "fig.png", tmp_path / "fig.csv"
    args = ["--cells", str(out / cells), "--source", str(out / "source.json")]
    assert fig.main([*args, "--out", str(png), "--out-csv", str(csv)]) == 0
    assert png.stat().st_size > 0 and list(pd.read_csv(csv)["rule"].unique()) == list(fig.RULES)
    image, table = uvm_validation_report.blocks(fig.FIGURE, ReportFigure("/fig.png", csv))
    verdicts = {row[0].split(" ")[0].split(":")[0]: row[-1] for row in table["table"]["rows"]}
    return image, table, verdicts


def figure_and_report_blocks(out: Path, tmp_path: Path, n: int) -> dict:
    """Validation `n`'s figure and report table from the judged cells in `out`: the pageable rule met, the floor
    not a prediction, the caption naming validation `n`. Returns each rule's verdict."""
    _, table, verdicts = figure_with_report_table(out, tmp_path, f"fig_uvm_validation{n}", f"validation{n}_cells.csv")
    assert verdicts["pageable"] == "met" and verdicts["floor"] == "not a prediction"
    assert f"validation {n}" in table["caption"]
    return verdicts


def factors_without_and_with_the_closing_copy(tmp_path: Path, module) -> tuple[dict, dict]:
    """`module`'s session factors on a session copied at 10 GB/s at the start, first without a closing copy (the
    start alone is used), then with one at 40 GB/s (the median of the two, 25 GB/s); both back."""
    from model import uvm_validation4
    from tests.test_uvm_validation4 import _session

    _session(tmp_path, {"start": 1.1, "end": 1.0}, gbps=10.0)
    rule = {"c": 0.0, "k": 0.8, "p_ref_gbps": 10.0}
    alone, _ = module.session_factors(tmp_path, uvm_validation4.load_access()[0], rule)
    assert alone["pageable"] == pytest.approx(1.0) and alone["pageable_end_gbps"] is None
    assert alone["pageable_from"].startswith("start only")
    _link(40.0).to_csv(tmp_path / "micro/link_end.csv", index=False)
    both, _ = module.session_factors(tmp_path, uvm_validation4.load_access()[0], rule)
    assert both["pageable_gbps"] == pytest.approx(25.0) and both["pageable"] == pytest.approx(0.4**0.8)
    return alone, both


def dry_run_capped_script(tmp_path: Path, body: str, stubs: str, keep: tuple[str, ...]) -> tuple[list[str], str]:
    """A capped device script's BODY (its set and guard, up to `capped_session`) run with the device steps stubbed
    (provenance, build, link, uvmfault; the binary `true`) and the script's own STUBS (graph, the runs), then its
    capped_body; the output lines starting with KEEP, and the whole output (deferred.txt last)."""
    harness = f"""set -uo pipefail
log() {{ :; }}
. tools/device/uvm_session.sh
validation_dirs() {{ W={tmp_path}/w; S=$W/uvmc$1; G=$W/graphs; mkdir -p "$S/runs" "$S/logs" "$S/graphs" "$G"; }}
{body}
provenance() {{ :; }}; build_kernels() {{ :; }}; link() {{ :; }}; uvmfault() {{ :; }}; uvmfault_stride() {{ :; }}
EMOGI_BINARY=true
{stubs}
capped_body
cat "$S/deferred.txt"
"""
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(["bash", "-c", harness], cwd=root, capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if line.startswith(keep)], done.stdout


def archived_over_calls(name: str, listed_in: str, first_tarball: str, commit: str, rule: str):
    """A validation judged over three device calls, as archived: `name` (e.g. validation13) is in oom.smk's
    `listed_in` tuple, so the workflow draws it; the one archive/uvm-<name>-* folder holding `first_tarball`, its
    source.json the H200 calls' at `commit`, named after the folder; every judged cell measured in 3 calls, none
    missing. Returns the folder, the summary row of `rule` over all cells, and the per-call rows of `rule`."""
    text = (ROOT / "workflow/rules/oom.smk").read_text()
    listed = re.search(rf"^{listed_in} = \(([^)]*)\)", text, re.M).group(1)
    assert re.search(r"\d+$", name).group() in re.findall(r"\d+", listed)
    folder = f"uvm-{name.replace('_', '-')}-*"
    (archive,) = [p for p in (ROOT / "archive").glob(folder) if (p / first_tarball).exists()]
    source = json.loads((archive / "source.json").read_text())
    assert (source["gpu"], source["commit"], source["archive_id"]) == ("NVIDIA H200", commit, archive.name)
    summary = pd.read_csv(archive / f"{name}_summary.csv")
    (row,) = summary[(summary["group"] == "all") & (summary["rule"] == rule)].itertuples()
    per_call = pd.read_csv(archive / f"{name}_per_call.csv").query(f"rule == '{rule}'")
    cells = pd.read_csv(archive / f"{name}_cells.csv")
    assert (cells["calls"] == 3).all() and pd.read_csv(archive / f"{name}_missing.csv").empty
    return archive, row, per_call
