"""The SLURM profile (workflow/profiles/slurm) on a real SLURM: the no-GPU workflow's claims table and figures
through snakemake-executor-plugin-slurm, compared with the same target run locally, and a `resources: gpu=1` job
routed to the GPU partition with one GPU. Marked `slurm`; skipped, with the reason, where there is no SLURM
(`sbatch`, `sacct` and a responding controller with accounting) or no plugin. tools/slurm/local_cluster.sh sets
up such a cluster on one Debian machine; the plugin is pinned in envs/requirements-slurm.txt.

The profile's own shape (partitions for GPU and CPU jobs, no global GPU limit) is checked without SLURM too."""

import csv
import importlib.util
import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest
import yaml

from conftest import REPO, run

PROFILE = REPO / "workflow" / "profiles" / "slurm"
# Small enough for a 2-CPU test cluster (no 3 GiB graphs): the archived tables, the model, every figure drawn from
# them and the claims table (23 jobs).
TARGET = "claims"
COMMANDS = ("sbatch", "sacct", "sacctmgr", "scontrol", "sinfo")
ACCOUNT = "emogi"  # tools/slurm/local_cluster.sh's account
# Without slurm_account the plugin (2.8.0) guesses one with `sacct -nu USER -o Account%256 | tail -1`, run without a
# shell (sacct: invalid option -- '1'), prints this warning and submits without -A: SLURM's default account. Harmless.
NO_ACCOUNT_WARNING = "not able to get a SLURM account via sacct"


def why_no_slurm() -> str | None:
    """The reason the SLURM tests cannot run here, or None."""
    missing = [c for c in COMMANDS if shutil.which(c) is None]
    if missing:
        return f"no SLURM here ({', '.join(missing)} not found; tools/slurm/local_cluster.sh sets one up)"
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        return "snakemake-executor-plugin-slurm is not installed (pip install -r envs/requirements-slurm.txt)"
    ping = run(["scontrol", "ping"], timeout=30)
    if ping.returncode != 0 or "UP" not in ping.stdout:
        return f"the SLURM controller does not answer: {(ping.stdout + ping.stderr).strip()[:200]}"
    sacct = run(["sacct", "-n", "-X", "-S", "now-1hours", "-o", "JobID"], timeout=30)
    if sacct.returncode != 0:
        return f"SLURM has no accounting (sacct: {sacct.stderr.strip()[:200]}); the plugin needs it"
    nodes = run(["sinfo", "-h", "-o", "%t"], timeout=30).stdout.split()
    if not any(state.rstrip("*~#") in ("idle", "mix", "alloc") for state in nodes):
        return f"no SLURM node is up (sinfo: {' '.join(nodes) or 'none'})"
    return None


@pytest.fixture(scope="module")
def slurm():
    reason = why_no_slurm()
    if reason:
        print(f"SLURM tests skipped: {reason}")
        pytest.skip(reason)


def env_with_plugin() -> dict:
    """This interpreter's path for the jobs' snakemake too (sbatch exports the environment)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def snakemake(workdir, *args, timeout=1800):
    return run([sys.executable, "-m", "snakemake", *args], cwd=workdir, env=env_with_plugin(), timeout=timeout)


def submitted(done) -> dict[str, str]:
    """{SLURM job id: its log path} from the plugin's "submitted with SLURM jobid N (log: PATH)" lines (the logs of
    successful jobs are deleted afterwards)."""
    return dict(re.findall(r"submitted with SLURM jobid (\d+) \(log: ([^)]+)\)", done.stdout + done.stderr))


def sacct_jobs(since: str) -> list[dict]:
    done = run(
        ["sacct", "-X", "-n", "--parsable2", "-S", since, "-o", "JobIDRaw,JobName%80,Partition,State,AllocTRES%200"]
    )
    keys = ("id", "name", "partition", "state", "tres")
    return [dict(zip(keys, line.split("|"))) for line in done.stdout.splitlines() if line]


def test_profile_routes_gpu_jobs_to_a_gpu_partition_and_sets_no_gpu_limit():
    config = yaml.safe_load((PROFILE / "config.yaml").read_text())
    assert config["executor"] == "slurm"
    assert "resources" not in config, "a global gpu limit would serialise the cluster's GPU jobs"
    partitions = yaml.safe_load((REPO / config["slurm-partition-config"]).read_text())["partitions"]
    assert {name for name, p in partitions.items() if p.get("max_gpu", 0) > 0} == {"gpu"}
    assert {name for name, p in partitions.items() if p.get("max_gpu", 0) == 0} == {"cpu"}
    requirements = (REPO / "envs" / "requirements-slurm.txt").read_text()
    assert "snakemake-executor-plugin-slurm==" in requirements and "-r requirements.txt" in requirements


@pytest.mark.slurm
@pytest.mark.slow
def test_no_gpu_workflow_through_slurm_matches_the_local_run(slurm, workdir, tmp_path):
    local = Path(shutil.copytree(workdir, tmp_path / "local"))
    since = time.strftime("%Y-%m-%dT%H:%M:%S")
    done = snakemake(workdir, "--workflow-profile", "workflow/profiles/slurm", "--cores", "2", TARGET)
    assert done.returncode == 0, (done.stdout + done.stderr)[-5000:]
    done_local = snakemake(local, "--cores", "2", TARGET)
    assert done_local.returncode == 0, (done_local.stdout + done_local.stderr)[-5000:]

    # every job went through SLURM, to the CPU partition, and completed
    logs = submitted(done)
    jobs = [j for j in sacct_jobs(since) if j["id"] in logs]
    assert len(jobs) == len(logs) >= 20, (logs, jobs)
    assert {(j["partition"], j["state"]) for j in jobs} == {("cpu", "COMPLETED")}
    assert any("rule_claims" in log for log in logs.values())

    # the same outputs as the local run
    ours, theirs = workdir / "results", local / "results"
    claims = list(csv.DictReader((ours / "report" / "claims.csv").open()))
    assert len(claims) > 20
    assert (ours / "report" / "claims.csv").read_text() == (theirs / "report" / "claims.csv").read_text()
    figures = sorted(p.name for p in (theirs / "figures").iterdir())
    assert figures == sorted(p.name for p in (ours / "figures").iterdir())
    assert len([f for f in figures if f.endswith(".png")]) >= 15
    for name in figures:
        if name.endswith(".csv"):
            assert (ours / "figures" / name).read_text() == (theirs / "figures" / name).read_text(), name
        else:
            assert (ours / "figures" / name).stat().st_size > 10_000, name


GPU_SNAKEFILE = """
rule all:
    input:
        "gpu.txt",
        "cpu.txt",

rule timed:
    output:
        "gpu.txt",
    resources:
        gpu=1,
    shell:
        "echo CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES > {output}"

rule drawn:
    output:
        "cpu.txt",
    shell:
        "echo cpu > {output}"
"""


@pytest.mark.slurm
def test_gpu_job_gets_one_gpu_in_the_gpu_partition(slurm, tmp_path):
    """A `resources: gpu=1` rule, as the measurement rules have, through the profile: `--gpus=1` in the `gpu`
    partition (the test cluster's GPU is a fake gres); a plain rule in the `cpu` partition. With `slurm_account`
    set, as the profile's comment says (the test cluster's account), the plugin checks it and guesses nothing."""
    (tmp_path / "Snakefile").write_text(GPU_SNAKEFILE)
    profile = tmp_path / "profile"
    shutil.copytree(PROFILE, profile)
    config = yaml.safe_load((profile / "config.yaml").read_text())
    config["slurm-partition-config"] = str(profile / "partitions.yaml")
    config["default-resources"].append(f"slurm_account={ACCOUNT}")
    (profile / "config.yaml").write_text(yaml.safe_dump(config))
    since = time.strftime("%Y-%m-%dT%H:%M:%S")
    done = snakemake(tmp_path, "--workflow-profile", str(profile), "--cores", "1", timeout=900)
    assert done.returncode == 0, (done.stdout + done.stderr)[-5000:]
    assert NO_ACCOUNT_WARNING not in done.stdout + done.stderr
    assert (tmp_path / "gpu.txt").read_text().startswith("CUDA_VISIBLE_DEVICES=")
    logs = submitted(done)
    jobs = {("rule_timed" in logs[j["id"]]): j for j in sacct_jobs(since) if j["id"] in logs}
    assert jobs[True]["partition"] == "gpu" and "gres/gpu=1" in jobs[True]["tres"], jobs
    assert jobs[False]["partition"] == "cpu" and "gres/gpu" not in jobs[False]["tres"], jobs
    assert {j["state"] for j in jobs.values()} == {"COMPLETED"}
