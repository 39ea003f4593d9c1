"""A held-out validation's passes archive: passes/pP/session folders, or the same packed in passes.tgz (v15),
which a judgement unpacks under its own folder first. Kept apart from emogi.workflow, which imports snakemake, so
that the model can read archives in an environment without it."""

import tarfile
from pathlib import Path


def packed_passes(archive):
    """The archive's passes.tgz, or None where its passes are folders."""
    packed = Path(archive) / "passes.tgz"
    return packed if packed.is_file() else None


def pass_names(archive):
    """The archive's passes (p1, p2, ...): its folders, or the members of its passes.tgz."""
    packed = packed_passes(archive)
    if packed is None:
        return sorted(d.name for d in (Path(archive) / "passes").glob("p*"))
    with tarfile.open(packed) as t:
        parts = [Path(n).parts for n in t.getnames()]
    return sorted({p[1] for p in parts if len(p) > 1 and p[0] == "passes"})
