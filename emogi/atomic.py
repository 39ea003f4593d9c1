"""Files appear under their final name only when complete: write a temporary sibling, then rename it."""

import contextlib
import os
from pathlib import Path


@contextlib.contextmanager
def atomic_path(path):
    """Yield a temporary path beside `path`; rename it to `path` if the block succeeds, delete it if not."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_csv(frame, path, **to_csv):
    """Write a pandas frame as CSV (gzip when the name ends in .gz), atomically."""
    path = Path(path)
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False, compression="gzip" if path.suffix == ".gz" else None, **to_csv)
    return path


def write_text(text, path):
    with atomic_path(path) as tmp:
        Path(tmp).write_text(text)


def write_bytes(payload, path):
    with atomic_path(path) as tmp:
        Path(tmp).write_bytes(payload)
