"""Progress of the long dataset steps reaches the terminal as well as the rule's log (issue 26: graph generation
ran 30-40 s per graph with nothing on the screen, its progress lines going to logs/datasets/ only)."""

from __future__ import annotations

import yaml

from test_workflow import snakemake

TINY = {"kron8": {"source": "generator", "generator": "kron", "scale": 8, "edge_factor": 16, "seed": 1}}
GRAPH = "resources/graphs/kron8.w8.csr"
LOG = "logs/datasets/generate_kron8.log"


def _config(workdir):
    (workdir / "tiny.yaml").write_text(yaml.safe_dump({"graphs": TINY, "measurements": "archive"}))
    return ["--configfile", "tiny.yaml", "--replace-workflow-config"]


def test_generator_progress_on_the_terminal_and_in_the_log(workdir):
    done = snakemake(workdir, *_config(workdir), GRAPH)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    log = (workdir / LOG).read_text()
    lines = [line for line in log.splitlines() if line.startswith("[generators kron scale=8")]
    assert len(lines) >= 3 and any("written" in line for line in lines), log
    terminal = done.stdout + done.stderr
    for line in lines:
        assert line in terminal


def test_a_failing_generator_still_fails_the_job(workdir):
    """The step's output is piped through tee: its exit status, not tee's, must be the job's (pipefail)."""
    (workdir / "emogi" / "datasets" / "generators.py").write_text(
        'import sys\nprint("[generators stub] about to fail", file=sys.stderr)\nsys.exit(3)\n'
    )
    done = snakemake(workdir, *_config(workdir), GRAPH)
    assert done.returncode != 0
    assert "[generators stub] about to fail" in done.stdout + done.stderr
    assert "[generators stub] about to fail" in (workdir / LOG).read_text()
    assert not (workdir / GRAPH).exists()
