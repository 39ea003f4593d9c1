"""The dataset lock: `datasets.lock` beside graph files records the digest of each file a full check passed.

Every reader checks a graph's structure (offsets, ids < V, padding) and checksum before use, since a file may come
from anywhere and a checksum can be repaired by whoever changed it. The one exception: a file whose whole-file
digest equals its entry in the lock of its folder, recorded here by an earlier full check. A flag inside the file
could not serve (whoever repairs a checksum can set it); a record outside it can. The lock also catches a valid file
that is not the graph it was recorded as (its digest differs), which no structural check can.

Lines: `<digest>  <bytes>  <file name>`, `#` comments. The digest is SHA-256 over the SHA-256 digests of the file's
64 MiB blocks (hashed on all cores); kernels/src/dataset_lock.cpp reads the same file and computes the same digest.

CLI:
    python -m emogi.dataset_lock add GRAPH.csr ...     full check, then record (replaces the file's entry)
    python -m emogi.dataset_lock check GRAPH.csr ...   compare with the lock; exit 1 on a mismatch or no entry
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from emogi.atomic import atomic_path
from emogi.cli import exit_status
from emogi.csr_checks import GraphFormatError

LOCK_NAME = "datasets.lock"
DIGEST_BLOCK = 64 << 20
_LINE = re.compile(r"^([0-9a-f]{64})\s+(\d+)\s+(.+)$")
_HEAD = (
    "# emogi dataset lock (emogi/dataset_lock.py): files that passed a full check.\n"
    "# digest (SHA-256 of the SHA-256 of each 64 MiB block), bytes, file name\n"
)


class LockError(GraphFormatError):
    """A lock that does not parse, or a file that does not match its entry."""


@dataclass(frozen=True)
class LockEntry:
    lock_path: Path
    digest: str
    bytes: int


def lock_path_for(graph) -> Path:
    return Path(graph).parent / LOCK_NAME


def _entries(lock: Path) -> dict[str, tuple[str, int]]:
    entries = {}
    for number, line in enumerate(lock.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            raise LockError(f"{lock}:{number}: not a lock line (digest, size, file name)")
        entries[m.group(3)] = (m.group(1), int(m.group(2)))
    return entries


def find_locked(graph) -> LockEntry | None:
    """The entry for `graph`'s file name in the lock of its folder; None when there is none."""
    lock = lock_path_for(graph)
    if not lock.is_file():
        return None
    found = _entries(lock).get(Path(graph).name)
    return LockEntry(lock, *found) if found else None


def digest_of(data) -> str:
    """The lock's digest of a buffer (bytes, memoryview or uint8 array)."""
    view = memoryview(data).cast("B")
    starts = range(0, len(view), DIGEST_BLOCK)
    with ThreadPoolExecutor(max_workers=min(os.cpu_count() or 1, 64)) as pool:  # hashlib releases the GIL
        parts = pool.map(lambda lo: hashlib.sha256(view[lo : lo + DIGEST_BLOCK]).digest(), starts)
        return hashlib.sha256(b"".join(parts)).hexdigest()


def file_digest(path) -> str:
    import numpy as np  # the mapping is read once, in blocks, by the hashing threads

    if Path(path).stat().st_size == 0:
        return digest_of(b"")
    return digest_of(np.memmap(path, dtype=np.uint8, mode="r"))


def mismatch(path, entry: LockEntry, digest: str, size: int) -> str:
    return (
        f"{path}: differs from its entry in the dataset lock {entry.lock_path} (digest {digest}, {size} bytes; locked "
        f"{entry.digest}, {entry.bytes} bytes): a changed or different file; check it and record it again with "
        "`python -m emogi.dataset_lock add FILE`"
    )


def record(graph) -> str:
    """Check `graph` fully (checksum and structure, never the lock), then record its digest; returns it."""
    from emogi.csr import verify_csr  # csr reads the lock: imported here, not at the top

    graph = Path(graph)
    verify_csr(graph)  # never the lock
    digest, size = file_digest(graph), graph.stat().st_size
    lock = lock_path_for(graph)
    with open(lock.with_name(lock.name + ".flock"), "a") as guard:  # concurrent jobs add their graphs one by one
        fcntl.flock(guard, fcntl.LOCK_EX)
        entries = _entries(lock) if lock.is_file() else {}
        entries[graph.name] = (digest, size)
        with atomic_path(lock) as tmp:
            Path(tmp).write_text(_HEAD + "".join(f"{d}  {b}  {n}\n" for n, (d, b) in sorted(entries.items())))
    return digest


def _cmd_add(args) -> None:
    for graph in args.graphs:
        print(f"{graph}: checked, locked as {record(graph)}")


def _cmd_check(args) -> None:
    for graph in args.graphs:
        entry = find_locked(graph)
        if entry is None:
            raise LockError(f"{graph}: no entry in {lock_path_for(graph)}")
        digest, size = file_digest(graph), Path(graph).stat().st_size
        if (digest, size) != (entry.digest, entry.bytes):
            raise LockError(mismatch(graph, entry, digest, size))
        print(f"{graph}: matches {entry.lock_path}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m emogi.dataset_lock", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("add", help="check graph files fully and record their digests in the lock beside them")
    p.add_argument("graphs", nargs="+")
    p.set_defaults(func=_cmd_add)
    p = sub.add_parser("check", help="compare graph files with their lock entries")
    p.add_argument("graphs", nargs="+")
    p.set_defaults(func=_cmd_check)
    args = parser.parse_args(argv)
    return exit_status(lambda: args.func(args), (GraphFormatError, OSError))


if __name__ == "__main__":
    sys.exit(main())
