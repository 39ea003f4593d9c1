"""Start-up decisions of the Snakemake workflow, kept out of the Snakefiles so they stay declarative."""
import os
import sys
from pathlib import Path

from emogi.gpu import detect_gpu


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


def measurement_source(choice, dry_run=False):
    """'fresh' or 'archive' for config `measurements` (auto | fresh | archive), with the reason."""
    has_gpu, detail = detect_gpu()
    if choice == "fresh" and not has_gpu and not dry_run:  # a dry run may preview the GPU plan anywhere
        raise SourceError(f"measurements: fresh needs a GPU, but {detail}. Use measurements: archive (or auto).")
    source = choice if choice != "auto" else ("fresh" if has_gpu else "archive")
    return source, f"{'auto' if choice == 'auto' else 'config'}: {detail}"


def comma(items):
    return ",".join(str(i) for i in items)
