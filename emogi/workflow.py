"""Start-up decisions of the Snakemake workflow, kept out of the Snakefiles so they stay declarative."""

import os
import sys
from pathlib import Path

from emogi.gpu import detect_gpu
from emogi.passes_archive import packed_passes, pass_names


class SourceError(RuntimeError):
    pass


def prepare_environment(repo, invocation=""):
    """Rules run `python3 -m emogi...`: make that the Python running snakemake (a conda env's, under --sdm
    conda, still comes first) and let it import this repository from any working directory. The command line
    reaches provenance records through the environment, not rule parameters, so that running a different target
    does not make snakemake re-run measurements whose parameters "changed"."""
    os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(repo), os.environ.get("PYTHONPATH")]))
    os.environ["EMOGI_INVOCATION"] = invocation


def is_dry_run(argv=None):
    from snakemake.cli import get_argument_parser

    args = get_argument_parser().parse_known_args(sys.argv[1:] if argv is None else argv)[0]
    return bool(getattr(args, "dryrun", False))


def requested_targets(argv=None):
    """The targets on snakemake's command line (rule names or files; empty for the default target)."""
    from snakemake.cli import get_argument_parser

    args = get_argument_parser().parse_known_args(sys.argv[1:] if argv is None else argv)[0]
    return list(getattr(args, "targets", None) or [])


def wants_bench(targets):
    """Whether the targets ask for the kernel benchmark's GPU work: rule `bench` (or another bench rule) or one of
    its files under results/bench/ (its roots, drawn on the CPU, excepted)."""
    return any(
        t.startswith("bench") or (t.startswith("results/bench/") and not t.startswith("results/bench/roots/"))
        for t in map(str, targets)
    )


def bench_refusal(targets, dry_run=False):
    """Why the benchmark the targets ask for cannot run here (one line), or None: it times the kernels on a GPU, so
    without one it stops at start-up rather than after building them. A dry run may preview the plan anywhere."""
    if dry_run or not wants_bench(targets):
        return None
    has_gpu, detail = detect_gpu()
    if has_gpu:
        return None
    return (
        f"bench: the kernel benchmark times the kernels on a CUDA GPU, and none is usable here ({detail}); "
        "without one, `snakemake --cores all` draws the figures and the report from archived measurements"
    )


def measurement_source(choice, dry_run=False):
    """'fresh' or 'archive' for config `measurements` (auto | fresh | archive), with the reason."""
    has_gpu, detail = detect_gpu()
    if choice == "fresh" and not has_gpu and not dry_run:  # a dry run may preview the GPU plan anywhere
        raise SourceError(f"measurements: fresh needs a GPU, but {detail}. Use measurements: archive (or auto).")
    source = choice if choice != "auto" else ("fresh" if has_gpu else "archive")
    return source, f"{'auto' if choice == 'auto' else 'config'}: {detail}"


def check_apps(config):
    """Problems with the `apps` section that would only show after the GPU work, when Figs. 11 and 12 are drawn:
    one line each, empty when there are none (or when the applications are disabled)."""
    apps = config["apps"]
    if not apps["enabled"]:
        return []
    problems = []
    missing_modes = [m for m in ("zerocopy", "uvm") if m not in apps["modes"]]
    if missing_modes:
        problems.append(f"apps.modes lacks {', '.join(missing_modes)}: Fig. 11 compares zerocopy with uvm")
    lacking = [a for a, variants in apps["variants"].items() if "merged-aligned" not in variants]
    if lacking:
        problems.append(
            f"apps.variants of {', '.join(lacking)} lack merged-aligned, the paper's EMOGI kernel "
            "that Figs. 11 and 12 plot"
        )
    widths = [w for w in (4, 8) if w not in apps["edge_bytes"]]
    if widths:
        problems.append(
            f"apps.edge_bytes lacks {widths[0]}: Fig. 11 is drawn at 8-byte edges and Fig. 12 compares 4 with 8"
        )
    if apps["roots"] > config["roots"]["count"]:
        problems.append(
            f"apps.roots is {apps['roots']}, more than the {config['roots']['count']} roots drawn (roots.count)"
        )
    return problems


def comma(items):
    return ",".join(str(i) for i in items)


def fresh_table_parts(config, graphs, widths, throttle_graph):
    """The per-job CSVs each table of a fresh study is concatenated from (emogi.schema.TABLES), for the config."""

    def per_graph(pattern):
        return [pattern.format(graph=g, width=w) for g in graphs for w in widths]

    micro, profile, apps = config["micro"]["enabled"], config["profile"]["enabled"], config["apps"]
    parts = {
        "runs": per_graph("results/fresh/runs/{graph}.w{width}.csv"),
        "apps": [
            f"results/fresh/apps/{g}.{a}.w{w}.csv" for g in graphs for a in apps["variants"] for w in apps["edge_bytes"]
        ]
        if apps["enabled"]
        else [],
        "profile": per_graph("results/fresh/profile/{graph}.w{width}.csv") if profile else [],
        "link": ["results/fresh/link.csv"],
        "toy": ["results/fresh/micro/toy.csv"] if micro else [],
        "latency": ["results/fresh/micro/latency.csv"] if micro else [],
        "concurrency": [f"results/fresh/micro/concurrency_{s}.csv" for s in ("warps", "footprints")] if micro else [],
        "toy_profile": ["results/fresh/micro/toy_profile.csv"] if micro and profile else [],
        "concurrency_profile": ["results/fresh/micro/concurrency_profile.csv"] if micro and profile else [],
        "amplification": per_graph("results/fresh/amplification/{graph}.w{width}.csv"),
        "latency_emulation": [f"results/fresh/latency_emulation/{throttle_graph}.w{widths[-1]}.csv"] if micro else [],
    }
    throttle = config["model"]["throttle"]
    if micro and throttle["warps"]:  # the throttled BFS runs join the runs table
        parts["runs"] += [f"results/fresh/runs/{throttle_graph}.w{widths[-1]}.warps{w}.csv" for w in throttle["warps"]]
    return {name: paths for name, paths in parts.items() if paths}


def figure_inputs(repo, figure_inputs, figure):
    """A figure rule's inputs: its script, source.json and the files FIGURE_INPUTS lists (flag -> path)."""
    inputs = {flag.replace("-", "_"): path for flag, path in figure_inputs[figure].items()}
    return {"script": repo / f"figures/{figure}.py", "source": "results/tables/source.json", **inputs}


# A held-out validation's passes archive (workflow/rules/model.smk): see emogi.passes_archive.
def pass_inputs(archive):
    """What a judgement of the passes reads: their runs tables, or the packed passes."""
    packed = packed_passes(archive)
    if packed is not None:
        return [packed]
    return sorted(
        f for p in pass_names(archive) for f in (Path(archive) / "passes" / p / "session" / "runs").glob("*.csv")
    )


def pass_unpack_step(archive, out):
    """The judgement's first shell step: packed passes unpacked into OUT/packed (empty where they are folders)."""
    packed = packed_passes(archive)
    return (
        "" if packed is None else f"rm -rf {out}/packed && mkdir -p {out}/packed && tar xzf {packed} -C {out}/packed &&"
    )


def passes_dir(archive, out):
    """Where the passes' folders are for the judgement: the archive's, or OUT/packed/passes."""
    return f"{out}/packed/passes" if packed_passes(archive) is not None else f"{archive}/passes"
