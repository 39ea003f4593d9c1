"""The Snakemake workflow: lint-clean, config checked at start-up, dry runs of both plans, and the complete
no-GPU run (archived measurements -> tables, model, figures, report) in a temporary copy of the repository."""

import json
import shutil
import sys
from pathlib import Path

import pytest

from conftest import REPO, run

SNAKEMAKE = [sys.executable, "-m", "snakemake"]


def snakemake(workdir, *args):
    return run([*SNAKEMAKE, "--cores", "2", *args], cwd=workdir)


def paper_dry_run(workdir, measurements):
    """A dry run of config/paper.yaml in place of the default config; asserts it plans."""
    done = snakemake(
        workdir,
        "-n",
        "--configfile",
        "config/paper.yaml",
        "--replace-workflow-config",
        "--config",
        f"measurements={measurements}",
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    return done


def test_lint_is_clean(workdir):
    done = snakemake(workdir, "--lint")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Lints for" not in done.stdout + done.stderr


def test_dry_run_of_the_default_config(workdir):
    done = snakemake(workdir, "-n", "--config", "measurements=archive")
    assert done.returncode == 0, done.stderr
    for rule in ("restore_tables", "link_bound", "fig09_speedup_over_uvm", "fig08_pcie_bandwidth", "report"):
        assert rule in done.stdout
    assert "measure_bfs" not in done.stdout


def test_link_ladder_rule_lists_every_file_its_command_reads(workdir):
    # model.link_ladder --term v16 reads the presets, v16's packed passes (its train cells and link), workloads and
    # critical paths besides the graphs: a change to any must rerun it
    done = snakemake(workdir, "-n", "results/model/link_ladder.csv", "--config", "measurements=archive")
    assert done.returncode == 0, done.stderr
    job = done.stdout.split("rule link_ladder:", 1)[1]
    inputs = next(line for line in job.splitlines() if line.strip().startswith("input:"))
    for name in (
        "model/presets.yaml",
        "holdout-v16-h200-2026-11-29/holdout_cells.csv",
        "model/link_ladder.py",
        "model/graph_predict_v12.py",
        "model/gpu_work_v16.py",
        "model/critical_path.py",
        "holdout-v16-h200-2026-11-29/passes.tgz",
        "holdout-v16-h200-2026-11-29/workloads/kron19ef10/critical.csv",
    ):
        assert name in inputs, inputs


def test_dry_run_previews_the_gpu_plan(workdir):
    done = snakemake(workdir, "-n", "--config", "measurements=fresh")
    assert done.returncode == 0, done.stderr
    for rule in (
        "generate_graph",
        "pick_roots",
        "build_kernels",
        "measure_bfs",
        "link_probe",
        "profile_bfs",
        "measure_app",
        "first_roots",
        "narrow_graph",
        "collect_tables",
        "report",
    ):
        assert rule in done.stdout


def test_dry_run_of_the_papers_study(workdir):
    """config/paper.yaml's six datasets resolve through the catalog (downloads and all) into one plan."""
    done = paper_dry_run(workdir, "fresh")
    for rule in (
        "generate_graph",
        "download_dataset",
        "convert_suitesparse",
        "convert_law",
        "measure_bfs",
        "measure_app",
    ):
        assert rule in done.stdout


def test_apps_that_could_not_draw_figs_11_and_12_fail_at_start_up(workdir):
    done = snakemake(workdir, "-n", "--config", "measurements=fresh", "apps={'modes': ['zerocopy']}")
    assert done.returncode != 0
    assert "apps.modes lacks uvm" in done.stdout + done.stderr
    (workdir / "no_apps.yaml").write_text("apps:\n  enabled: false\n")
    done = snakemake(workdir, "-n", "--config", "measurements=fresh", "--configfile", "no_apps.yaml")
    assert done.returncode == 0, done.stderr
    assert "measure_app" not in done.stdout


@pytest.mark.parametrize(
    "override,message",
    [
        ("colour=blue", "config: unknown key 'colour'"),  # unknown key
        ("mesure={'reps': 2}", "unknown key 'mesure'; did you mean 'measure'?"),  # a typo: the closest key
        ("apps={'bogus': 1}", "unknown key 'bogus' in apps"),
        ("roots={'count': 'many'}", "config key roots.count: 'many'"),  # wrong type
        ("measurements=sometimes", "'sometimes' is not one of auto, fresh, archive"),  # not one of the choices
        ("apps={'variants': {'cc': ['frontier']}}", "apps.variants.cc[0]: 'frontier'"),  # not a variant of CC
        ("bench={'modes': ['swap']}", "bench.modes[0]: 'swap' is not one of device"),  # not a memory mode
    ],
)
def test_bad_config_fails_at_start_up_in_one_line(workdir, override, message):
    """The reason is one line naming the key, not the validator's dump of schema and config."""
    done = snakemake(workdir, "-n", "--config", override)
    assert done.returncode != 0
    lines = [
        line for line in (done.stdout + done.stderr).splitlines() if line.strip() and not line.startswith("Config file")
    ]
    assert len(lines) == 1 and message in lines[0], lines[:5]


def test_archive_without_fresh_measurements_says_why(workdir):
    done = snakemake(workdir, "archive", "--config", "measurements=archive")
    assert done.returncode != 0
    assert "nothing to archive" in done.stderr and "fresh run made on a GPU" in done.stderr
    assert "MissingRuleException" not in done.stdout + done.stderr


def test_config_schema_names_agree_with_emogi_schema():
    """The $defs config/schema.yaml refers to spell out the names emogi/schema.py holds (both come from
    emogi/registry.yaml; test_kernels checks the binary)."""
    import yaml

    from emogi import schema

    defs = yaml.safe_load((REPO / "config" / "vocabulary.schema.yaml").read_text())["$defs"]
    assert defs["algorithm"]["enum"] == list(schema.ALGORITHMS)
    assert defs["variant"]["enum"] == list(schema.ALL_VARIANTS)
    assert defs["paper_variant"]["enum"] == list(schema.VARIANTS)
    assert {a: d["enum"] for a, d in defs["variants_of"].items()} == {a: list(v) for a, v in schema.VARIANTS_OF.items()}
    assert defs["paper_mode"]["enum"] == list(schema.MODES)
    assert defs["mode"]["enum"] == list(schema.ALL_MODES)
    assert defs["micro_mode"]["enum"] == list(schema.MICRO_MODES)


# The complete run's graphs and results: 8 GiB at the suite's peak (measured on a fresh clone, 2026-11-28). A full
# disk otherwise fails it, and every test after it, with errors that do not say why.
COMPLETE_RUN_DISK = 9 << 30


@pytest.mark.slow
def test_complete_run_from_archived_measurements(workdir):
    free = shutil.disk_usage(workdir).free
    if free < COMPLETE_RUN_DISK:
        pytest.fail(f"the complete run needs {COMPLETE_RUN_DISK >> 30} GiB free under {workdir.parent}, "
                    f"{free / 2**30:.1f} GiB are", pytrace=False)  # fmt: skip
    done = snakemake(workdir, "--config", "measurements=archive")
    assert done.returncode == 0, (done.stdout + done.stderr)[-5000:]
    results = workdir / "results"
    source = json.loads((results / "tables" / "source.json").read_text())
    assert source["source"] == "archive"
    for figure in (
        "fig09_speedup_over_uvm",
        "fig08_pcie_bandwidth",
        "fig07_pcie_requests",
        "fig10_read_amplification",
        "fig11_applications",
        "fig12_edge_width",
        "fig_streamed_spmv",
        "fig_streamed_pagerank",
    ):
        assert (results / "figures" / f"{figure}.png").stat().st_size > 10_000
    pdf = results / "report" / "report.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    # the report found every figure, table and model file the rule hands it (none says "not available")
    report = json.loads(pdf.with_suffix(".json").read_text())
    # (the CPU study's section needs an archive/cpu-gpu-* folder: without one, it says so)
    no_cpu = [] if any(Path(workdir, "archive").glob("cpu-gpu-*")) else ["cpu"]
    # (issue 24's v4 to v12 sections need their sessions' archives, workflow/rules/model.smk
    # HOLDOUT_SPLIT_ARCHIVES: until one exists, neither the rule nor the figure is in the workflow for that split
    # and its section is left out)
    # (v13's archive holds its passes, as folders or packed in passes.tgz, workflow/rules/model.smk
    # HOLDOUT_PASS_ARCHIVES)
    judged = ("session/runs", "passes/p1/session/runs")
    sessions = [p.name for p in Path(workdir, "archive").glob("holdout-v*-*")
                if any((p / j).is_dir() for j in judged) or (p / "passes.tgz").is_file()]  # fmt: skip
    splits = ("v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13")
    no_split = [f"holdout_{s}" for s in splits if not any(n.startswith(f"holdout-{s}-") for n in sessions)]
    assert [k for k, v in report.items() if v is None] == no_cpu + no_split
    assert all(report["datasets"].values()) and all(f["image"] for f in report["micro"]["figures"])
    assert all(report["micro"][k] for k in ("parameters", "cxl", "model", "read_sizes"))
    assert not any(Path(workdir, "build").glob("*")), "the no-GPU path must not need the CUDA build"
