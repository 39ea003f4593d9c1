"""What the README promises a newcomer before the first command (issue 26)."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
COMMANDS = [  # the README's two set-up commands, which stay exactly as they are
    "python3 -m venv .venv && . .venv/bin/activate && pip install -r envs/requirements.txt && snakemake --cores all",
    "python3 -m venv .venv && . .venv/bin/activate && pip install -r envs/requirements-test.txt && python -m pytest",
]


def test_the_two_commands_are_unchanged():
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    assert blocks[:2] == COMMANDS


def test_disk_need_stated_before_the_tests_command():
    """The default run's disk need (graphs under resources/, the environment, the CUDA wheels that come without
    a GPU too) is said between the run command and the test command, where a newcomer reads before starting."""
    run_end, tests_at = README.index(COMMANDS[0]), README.index(COMMANDS[1])
    between = README[run_end:tests_at]
    assert "**Disk:**" in between
    for what in ("resources/", "results/", "envs/requirements.txt", "CUDA toolkit wheels", "without a GPU"):
        assert what in between, what
    assert re.search(r"about \d+ GiB", between)


def test_ci_runs_the_readme_test_command_and_sets_up_slurm_first():
    """CI (.ci/run) ends with the README's test command, verbatim; before it, the SLURM cluster and executor
    plugin for tests/test_slurm.py, and a trap that stops the cluster whatever the tests' outcome."""
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    lines = [line for line in ci.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert lines[-1] == COMMANDS[1]
    head = "\n".join(lines[:-1])
    assert "tools/slurm/local_cluster.sh up" in head and "envs/requirements-slurm.txt" in head
    assert "trap 'sh tools/slurm/local_cluster.sh stop' EXIT" in head
