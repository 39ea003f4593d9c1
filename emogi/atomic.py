"""Files appear under their final name only when complete: write a temporary sibling, then rename it.

A temporary is `.NAME.PID.tmp` beside NAME (a build folder `.NAME.PID.buckets`). It is removed when the writer
fails, and when it is stopped by SIGTERM or SIGINT once its command has called exit_cleanly_on_signals(); a writer
killed outright (SIGKILL, a crash, a lost machine) leaves it behind, so the next writer of NAME removes the
temporaries whose process is gone (sweep_stale) before it starts: a full-size hidden file does not linger.
"""

import contextlib
import os
import re
import shutil
import signal
import sys
import threading
from pathlib import Path

_TEMPORARY = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.(?:tmp|buckets)$")


def exit_cleanly_on_signals() -> None:
    """Make SIGTERM and SIGINT unwind the stack (SystemExit 143 or 130), so that `finally` blocks remove the
    temporaries: a job stopped by snakemake, a timeout or Ctrl-C leaves nothing behind. Call it from main()."""
    if threading.current_thread() is not threading.main_thread():
        return  # handlers can only be set in the main thread; a caller elsewhere keeps its own
    for sig, status in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
        signal.signal(sig, lambda *_, status=status: sys.exit(status))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def sweep_stale(path, folder=None) -> list[Path]:
    """Remove the temporaries of `path` (in `folder`, default its own) left by writers that are no longer running;
    those of running processes (a concurrent writer) stay. Returns what was removed."""
    path = Path(path)
    folder = Path(folder) if folder is not None else path.parent
    removed = []
    if not folder.is_dir():
        return removed
    for p in folder.iterdir():
        m = _TEMPORARY.match(p.name)
        if not m or m["name"] != path.name or int(m["pid"]) == os.getpid() or _running(int(m["pid"])):
            continue
        shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)
        print(f"removed {p}: a temporary left by process {m['pid']}, which is gone", file=sys.stderr)
        removed.append(p)
    return removed


@contextlib.contextmanager
def atomic_path(path):
    """Yield a temporary path beside `path`; rename it to `path` if the block succeeds, delete it if not."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    sweep_stale(path)
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
