"""Fresh or archived, the same tables: results/tables/{runs,profile,link}.csv plus source.json.

    python -m emogi.archive collect --runs A.csv B.csv --profile P.csv --link L.csv ... --provenance prov.json \
        --out-dir D
    python -m emogi.archive restore --archive latest --out-dir D        (no GPU: use committed measurements)
    python -m emogi.archive pack --tables-dir D --archive-root archive    (after a fresh run: commit its tables)

An archive, archive/<gpu>-<date>/, holds each table of emogi.schema.TABLES as <name>.csv.gz and provenance.json
(GPU, driver, CUDA, link, commit, date, command, row counts and SHA-256 of each table). source.json tells figures
and the report which kind of data they show. `--study oom` does the same for the out-of-GPU-memory study
(emogi.schema.OOM_TABLES), whose archives are archive/oom-<gpu>-<date>/ with oom.json in place of provenance.json
(so that the main study's "latest" never picks one).
"""

import argparse
import dataclasses
import hashlib
import json
import re
import sys
from pathlib import Path

import pandas as pd

from emogi import schema
from emogi.atomic import write_csv, write_text

ARCHIVE_ROOT = Path(__file__).resolve().parent.parent / "archive"


class ArchiveError(RuntimeError):
    pass


@dataclasses.dataclass(frozen=True)
class Study:
    tables: dict  # name -> columns
    record: str  # the archive's provenance file
    prefix: str  # of the archive's folder name


STUDIES = {
    "main": Study(schema.TABLES, "provenance.json", ""),
    "oom": Study(schema.OOM_TABLES, "oom.json", "oom-"),
}
MAIN = STUDIES["main"]


def archive_id(prov):
    """'h100-80gb-hbm3-2026-11-21-0050' from the GPU name and the UTC date and time of the measurements (the time
    keeps two studies of one day apart)."""
    slug = re.sub(r"[^a-z0-9]+", "-", prov["gpu"].lower().replace("nvidia", "")).strip("-")
    date = prov["date"]
    return f"{slug}-{date[:10]}" + (f"-{date[11:13]}{date[14:16]}" if len(date) >= 16 else "")


def available(root=ARCHIVE_ROOT, study=MAIN):
    """Archives under `root`, oldest first (by the date of their measurements): folders with the study's record
    and its first table (an experiment's folder may keep a provenance.json of its own, e.g. archive/cpu-gpu-*)."""
    found = []
    first = next(iter(study.tables))
    for prov_path in Path(root).glob(f"*/{study.record}"):
        if not (prov_path.parent / f"{first}.csv.gz").is_file():
            continue
        found.append((json.loads(prov_path.read_text())["date"], prov_path.parent))
    return [path for _, path in sorted(found)]


def resolve(which="latest", root=ARCHIVE_ROOT, study=MAIN):
    archives = available(root, study)
    if not archives:
        raise ArchiveError(f"no archived measurements under {root}: run on a GPU (measurements: fresh)")
    if which == "latest":
        return archives[-1]
    for path in archives:
        if path.name == which:
            return path
    raise ArchiveError(f"archive '{which}' not found under {root}; available: {', '.join(p.name for p in archives)}")


def _sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def collect(parts, provenance_json, out_dir, study=MAIN):
    """Concatenate fresh per-job tables ({table: [csv paths]}) into results/tables and describe them in
    source.json. A table with no parts is written header-only (that study did not measure it)."""
    out_dir = Path(out_dir)
    for name, columns in study.tables.items():
        frames = [pd.read_csv(p) for p in parts.get(name, [])]
        frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)
        write_csv(schema.check_columns(frame, name), out_dir / f"{name}.csv")
    prov = json.loads(Path(provenance_json).read_text())
    source = {"source": "fresh", "archive_id": None, **prov}
    write_text(json.dumps(source, indent=2) + "\n", out_dir / "source.json")


def restore(which, out_dir, root=ARCHIVE_ROOT, study=MAIN):
    """Copy an archive's tables to out_dir. A table the archive lacks becomes a header-only CSV, so the figure
    that needs it fails with a message naming the missing table instead of the workflow failing here."""
    archive = resolve(which, root, study)
    prov = json.loads((archive / study.record).read_text())
    missing = []
    for name, columns in study.tables.items():
        path = archive / f"{name}.csv.gz"
        if path.is_file():
            recorded = prov.get("tables", {}).get(name, {}).get("sha256")
            if recorded and recorded != _sha256(path):
                raise ArchiveError(f"{path} does not match the SHA-256 in its {study.record} (corrupt archive)")
            frame = schema.check_columns(pd.read_csv(path), name)
        else:
            missing.append(name)
            frame = pd.DataFrame(columns=columns)
        write_csv(frame, Path(out_dir) / f"{name}.csv")
    source = {**prov, "source": "archive", "archive_id": archive.name, "missing_tables": missing}
    source.pop("tables", None)
    write_text(json.dumps(source, indent=2) + "\n", Path(out_dir) / "source.json")
    print(
        f"using archived measurements {archive.name} ({prov['gpu']}, {prov['date']})"
        + (f"; missing tables: {', '.join(missing)}" if missing else ""),
        file=sys.stderr,
    )


def pack(tables_dir, root=ARCHIVE_ROOT, config=None, study=MAIN):
    """Write fresh tables as a new archive; refuse to overwrite one or to archive archived data."""
    tables_dir = Path(tables_dir)
    source = json.loads((tables_dir / "source.json").read_text())
    if source["source"] != "fresh":
        raise ArchiveError(f"{tables_dir} holds {source['source']} measurements; only fresh ones are archived")
    target = Path(root) / (study.prefix + archive_id(source))
    if target.exists():
        raise ArchiveError(f"{target} exists already; remove it first to replace it")
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.mkdir(parents=True)
    tables = {}
    for name in study.tables:
        frame = pd.read_csv(tables_dir / f"{name}.csv")
        if frame.empty:
            continue
        write_csv(frame, tmp / f"{name}.csv.gz")
        tables[name] = {"rows": len(frame), "sha256": _sha256(tmp / f"{name}.csv.gz")}
    prov = {k: v for k, v in source.items() if k not in ("source", "archive_id", "missing_tables")}
    prov.update(tables=tables, config=config)
    write_text(json.dumps(prov, indent=2) + "\n", tmp / study.record)
    tmp.rename(target)
    return target


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--study", choices=sorted(STUDIES), default="main", help="which study's tables (default main)")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    for name in {**schema.TABLES, **schema.OOM_TABLES}:
        c.add_argument(
            f"--{name.replace('_', '-')}", dest=name, nargs="*", default=[], help=f"parts of the {name} table"
        )
    c.add_argument("--provenance", required=True)
    c.add_argument("--out-dir", required=True)
    r = sub.add_parser("restore")
    r.add_argument("--archive", default="latest")
    r.add_argument("--archive-root", default=str(ARCHIVE_ROOT))
    r.add_argument("--out-dir", required=True)
    k = sub.add_parser("pack")
    k.add_argument("--tables-dir", required=True)
    k.add_argument("--archive-root", default=str(ARCHIVE_ROOT))
    k.add_argument("--config", help="the config the study ran with (YAML/JSON), stored in provenance.json")
    a = p.parse_args(argv)
    study = STUDIES[a.study]
    try:
        if a.command == "collect":
            collect({name: getattr(a, name) for name in study.tables}, a.provenance, a.out_dir, study)
        elif a.command == "restore":
            restore(a.archive, a.out_dir, a.archive_root, study)
        else:
            import yaml

            config = yaml.safe_load(Path(a.config).read_text()) if a.config else None
            print(pack(a.tables_dir, a.archive_root, config, study))
    except (ArchiveError, ValueError, FileNotFoundError) as err:
        sys.exit(f"emogi archive {a.command}: {err}")


if __name__ == "__main__":
    main()
