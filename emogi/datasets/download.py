"""HTTP downloads that survive interruptions and never leave a partial file under the final name.

The bytes go to `<out>.part` beside the target. An interrupted transfer (dropped connection, timeout, 5xx, a
killed process) resumes from the end of the `.part` file with an HTTP Range request; transient failures are
retried with exponential back-off. When the transfer is complete its size and SHA-256 are checked against the
values recorded in config (config/datasets_catalog.yaml), and only then is the file renamed to its final name.
A 4xx answer or a checksum mismatch fails at once with a message naming the dataset, the URL and what to do.

Missing checksums are an explicit state: a catalog entry with `sha256: null` refuses to download unless the
caller opts in with `trust_on_first_use`, which downloads, prints the SHA-256 and size to record after checking
them against a trusted source, and writes them to `<out>.sha256` (sha256sum format).

Why not pooch (1.9, checked): each attempt downloads afresh into a temporary file deleted on failure (no Range
resume, which matters for multi-GB archives), it retries 4xx answers too, checks no recorded size, and downloads
unchecked when the hash is None (we refuse unless trusted on first use); its progress bar needs tqdm.

CLI:
    python -m emogi.datasets.download --url U --sha256 H --size N --out PATH [--dataset NAME]
    python -m emogi.datasets.download --catalog config/datasets_catalog.yaml --dataset GAP-kron --out PATH
    python -m emogi.datasets.download --check-reachable --url U [--dataset NAME]     (the workflow's preflight)
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import os
import re
import socket
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from emogi.atomic import write_text

CHUNK_BYTES = 1 << 20
USER_AGENT = "emogi-repro-download/1"
# 4xx answers that no retry will fix (408 timeout and 429 rate limit are worth retrying).
RETRYABLE_4XX = {408, 429}
MAX_BACKOFF_S = 60.0


class DownloadError(RuntimeError):
    """A download that cannot succeed without someone doing something (the message says what)."""


class _Transient(Exception):
    """A failure worth retrying: the connection broke, timed out, or the server had a temporary problem."""


@dataclass
class Expected:
    """What the catalog records about a file: None means not recorded."""

    sha256: str | None
    size: int | None


def part_path(out) -> Path:
    """Where the bytes of `out` accumulate until the file is complete and verified."""
    out = Path(out)
    return out.with_name(out.name + ".part")


def sha256_of(path) -> str:
    h = hashlib.sha256()
    buf = bytearray(CHUNK_BYTES * 8)
    view = memoryview(buf)
    with open(path, "rb", buffering=0) as f:
        while n := f.readinto(buf):
            h.update(view[:n])
    return h.hexdigest()


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1024
    raise AssertionError("unreachable")


class _Progress:
    """Progress lines on stderr, at most one every `interval_s` seconds plus one at the end."""

    def __init__(self, label: str, total: int | None, log, interval_s: float = 5.0):
        self.label, self.total, self.log, self.interval_s = label, total, log, interval_s
        self.t0 = self.last = time.monotonic()
        self.start_bytes = None

    def update(self, done: int, final: bool = False) -> None:
        now = time.monotonic()
        if self.start_bytes is None:
            self.start_bytes = done
        if not final and now - self.last < self.interval_s:
            return
        self.last = now
        rate = (done - self.start_bytes) / max(now - self.t0, 1e-9)
        of = f" of {_human(self.total)} ({100 * done / self.total:.1f}%)" if self.total else ""
        self.log(f"[download {self.label}] {_human(done)}{of}, {_human(rate)}/s")


# ---------------------------------------------------------------------------------------------- one request


def _request(url: str, offset: int) -> urllib.request.Request:
    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "identity"}  # byte ranges of the file as stored
    if offset:
        headers["Range"] = f"bytes={offset}-"
    return urllib.request.Request(url, headers=headers)


def _content_range(value: str | None) -> tuple[int | None, int | None]:
    """(first byte, total size) of a Content-Range header such as 'bytes 100-199/1000' or 'bytes */1000'."""
    m = re.fullmatch(r"bytes\s+(?:(\d+)-\d+|\*)/(\d+|\*)", (value or "").strip())
    if not m:
        return None, None
    first = int(m.group(1)) if m.group(1) is not None else None
    total = int(m.group(2)) if m.group(2) != "*" else None
    return first, total


class _Context:
    """What every message about one download names."""

    def __init__(self, url: str, out: Path, dataset: str | None):
        self.url, self.out, self.label = url, out, dataset or out.name

    def fail(self, what: str, todo: str) -> DownloadError:
        return DownloadError(f"dataset {self.label}: {what} (URL {self.url}, output {self.out}); {todo}")


def _http_error(ctx: _Context, err: urllib.error.HTTPError, part: Path) -> Exception:
    """Map an HTTP error status to a permanent DownloadError or a retryable _Transient."""
    if err.code >= 500 or err.code in RETRYABLE_4XX:
        return _Transient(f"HTTP {err.code} {err.reason}")
    if err.code == 404 or err.code == 410:
        todo = (
            "the file is not at this URL (moved or renamed upstream?): check the dataset's page and fix the url "
            "in config/datasets_catalog.yaml, or place a verified copy at the output path"
        )
    else:
        todo = "the server refuses this request: check the url in config/datasets_catalog.yaml"
    if part.exists():
        todo += f" (the partial file {part} is kept for a later resume)"
    return ctx.fail(f"HTTP {err.code} {err.reason}", todo)


def _open(ctx: _Context, part: Path, offset: int, timeout_s: float):
    try:
        return urllib.request.urlopen(_request(ctx.url, offset), timeout=timeout_s)
    except urllib.error.HTTPError as err:
        if err.code == 416 and offset:
            _, total = _content_range(err.headers.get("Content-Range"))
            err.close()
            if total == offset:
                return None  # the .part file already holds every byte
            part.unlink(missing_ok=True)  # longer than the file: not a prefix of it, start again
            raise _Transient(
                f"HTTP 416: partial file of {offset} bytes does not fit a file of {total} bytes; restarting"
            ) from None
        raise _http_error(ctx, err, part) from None
    except (urllib.error.URLError, http.client.HTTPException, OSError) as err:
        reason = getattr(err, "reason", err)
        raise _Transient(f"cannot connect: {reason}") from None


def _resume_mode(ctx: _Context, resp, offset: int, log) -> tuple[int, int | None]:
    """(offset the body starts at, total size if the server says) after checking the answer to a Range request."""
    length = resp.headers.get("Content-Length")
    length = int(length) if length and length.isdigit() else None
    if offset and resp.status == 206:
        first, total = _content_range(resp.headers.get("Content-Range"))
        if first != offset:
            raise _Transient(f"server answered bytes from {first}, asked for {offset}")
        return offset, total if total is not None else (offset + length if length is not None else None)
    if offset:
        log(f"[download {ctx.label}] server ignored the range request; starting again from byte 0")
    return 0, length


def _stream_body(ctx: _Context, resp, part: Path, start: int, total: int | None, progress: _Progress) -> None:
    """Write the response body into `part` from byte `start` (dropping anything after it)."""
    received = 0
    try:
        f = open(part, "r+b" if start else "wb")
    except OSError as err:
        raise ctx.fail(f"cannot write {part}: {err}", "check the folder's permissions and free space") from None
    with f:
        f.seek(start)
        f.truncate()  # drops anything past `start` (a server that ignored the range restarts at 0)
        while True:
            try:
                chunk = resp.read(CHUNK_BYTES)
            except (http.client.IncompleteRead, OSError, http.client.HTTPException) as err:
                raise _Transient(f"connection broke after {start + received} bytes: {err!r}") from None
            if not chunk:
                break
            try:
                f.write(chunk)
            except OSError as err:
                raise ctx.fail(f"cannot write {part}: {err}", "free disk space, then run again to resume") from None
            received += len(chunk)
            progress.update(start + received)
        f.flush()
        os.fsync(f.fileno())
    if total is not None and start + received < total:
        raise _Transient(f"connection closed after {start + received} of {total} bytes")


def _fetch_once(ctx: _Context, part: Path, offset: int, timeout_s: float, progress: _Progress, log) -> None:
    """One GET (ranged when resuming) appended to `part`. Raises _Transient or DownloadError."""
    resp = _open(ctx, part, offset, timeout_s)
    if resp is None:
        return
    with resp:
        start, total = _resume_mode(ctx, resp, offset, log)
        if progress.total is None:
            progress.total = total
        elif total is not None and total != progress.total:
            raise ctx.fail(
                f"the server reports {total} bytes but the catalog records {progress.total}",
                "the file changed upstream or the URL is wrong: verify it and update config/datasets_catalog.yaml",
            )
        _stream_body(ctx, resp, part, start, total, progress)


# ---------------------------------------------------------------------------------------------- retries


def _fetch(ctx: _Context, part: Path, size: int | None, retries: int, backoff_s: float, timeout_s: float, log) -> None:
    """Fill `part` with the whole file, resuming and retrying; consecutive failures without progress count."""
    progress = _Progress(ctx.label, size, log)
    failures = 0
    while True:
        offset = part.stat().st_size if part.exists() else 0
        if size is not None and offset > size:
            log(f"[download {ctx.label}] {part} holds {offset} bytes, more than the {size} expected; starting again")
            part.unlink()
            offset = 0
        if size is not None and offset == size:
            return
        if offset:
            log(f"[download {ctx.label}] resuming at byte {offset} ({_human(offset)})")
        try:
            _fetch_once(ctx, part, offset, timeout_s, progress, log)
            progress.update(part.stat().st_size, final=True)
            return
        except _Transient as err:
            progressed = (part.stat().st_size if part.exists() else 0) > offset
            failures = 0 if progressed else failures + 1
            if failures > retries:
                raise ctx.fail(
                    f"gave up after {retries} retries: {err}",
                    "check the network (or whether this machine is offline) and run again: the "
                    f"download resumes from {part}; or place a verified copy at the output path",
                ) from None
            delay = min(backoff_s * 2 ** max(failures - 1, 0), MAX_BACKOFF_S)
            log(f"[download {ctx.label}] {err}; retrying in {delay:.1f} s")
            time.sleep(delay)


# ---------------------------------------------------------------------------------------------- verification


def _verify(ctx: _Context, path: Path, expected: Expected) -> str:
    """The SHA-256 of `path`, after checking size and checksum; a mismatch raises DownloadError."""
    actual_size = path.stat().st_size
    if expected.size is not None and actual_size != expected.size:
        raise ctx.fail(
            f"{path} has {actual_size} bytes, the catalog records {expected.size}",
            f"delete {path} and run again; if it happens again the file changed upstream",
        )
    actual = sha256_of(path)
    if expected.sha256 is not None and actual != expected.sha256.lower():
        raise ctx.fail(
            f"checksum mismatch: sha256 of {path} is {actual}, the catalog records {expected.sha256}",
            f"the file is corrupt or changed upstream; {path} was deleted: run again to download it "
            "anew, and if the mismatch repeats, verify the file and update config/datasets_catalog.yaml",
        )
    return actual


def _record_tofu(ctx: _Context, out: Path, digest: str, size: int, log) -> None:
    write_text(f"{digest}  {out.name}\n", out.with_name(out.name + ".sha256"))
    log(
        f"[download {ctx.label}] NOT VERIFIED (no checksum recorded): sha256 {digest}, size {size} bytes; "
        f"check them against a trusted source, then record them in config/datasets_catalog.yaml "
        f"(written to {out.name}.sha256)"
    )


def _missing_checksum(ctx: _Context) -> DownloadError:
    return ctx.fail(
        "no sha256 is recorded for this file",
        "download it once with --trust-on-first-use (python -m emogi.datasets.download), check the printed "
        "sha256 and size against a trusted source, and record them in config/datasets_catalog.yaml",
    )


def download(
    url: str,
    out,
    sha256: str | None,
    size: int | None = None,
    dataset: str | None = None,
    *,
    trust_on_first_use: bool = False,
    retries: int = 5,
    backoff_s: float = 1.0,
    timeout_s: float = 60.0,
    log=_stderr,
) -> Path:
    """Download `url` to `out` (resumable, retried, verified, renamed into place); returns `out`.

    A file already at `out` that verifies is kept without any network access (a copy placed there by hand
    is how an offline machine gets its datasets)."""
    out = Path(out)
    ctx = _Context(url, out, dataset)
    expected = Expected(sha256.lower() if sha256 else None, size)
    if expected.sha256 is None and not trust_on_first_use:
        raise _missing_checksum(ctx)
    if out.exists():
        if expected.sha256 is not None:
            _check_existing(ctx, out, expected)
        log(f"[download {ctx.label}] {out} is present" + (" and verified" if expected.sha256 else ""))
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    part = part_path(out)
    _fetch(ctx, part, expected.size, retries, backoff_s, timeout_s, log)
    log(f"[download {ctx.label}] verifying {part.name}")
    try:
        digest = _verify(ctx, part, expected)
    except DownloadError:
        part.unlink(missing_ok=True)  # resuming a corrupt file would only repeat the failure
        raise
    if expected.sha256 is None:
        _record_tofu(ctx, out, digest, part.stat().st_size, log)
    os.replace(part, out)
    log(f"[download {ctx.label}] done: {out}")
    return out


def _check_existing(ctx: _Context, path: Path, expected: Expected) -> None:
    """Accept a file already at the final name only if it verifies; it is never deleted here (not ours)."""
    try:
        _verify(ctx, path, expected)
    except DownloadError:
        raise ctx.fail(
            f"{path} exists but does not match the recorded size/sha256",
            f"delete {path} (it is not what the catalog describes) and run again",
        ) from None


# ---------------------------------------------------------------------------------------------- preflight


def check_reachable(url: str, dataset: str | None = None, timeout_s: float = 15.0) -> int | None:
    """Ask the server for `url` without downloading it; returns its size in bytes when the server says.

    Raises DownloadError when the URL cannot be reached (offline machine, DNS, refused, 4xx/5xx)."""
    label = dataset or url.rstrip("/").rsplit("/", 1)[-1]
    for method, headers in (("HEAD", {}), ("GET", {"Range": "bytes=0-0"})):  # some servers refuse HEAD
        req = urllib.request.Request(url, method=method, headers={"User-Agent": USER_AGENT, **headers})
        try:
            with urllib.request.urlopen(req, timeout=timeout_s) as resp:
                _, total = _content_range(resp.headers.get("Content-Range"))
                length = resp.headers.get("Content-Length")
                return total if total is not None else (int(length) if length and length.isdigit() else None)
        except urllib.error.HTTPError as err:
            if method == "HEAD" and err.code in (403, 405, 501):
                continue
            raise DownloadError(
                f"dataset {label}: {url} answers HTTP {err.code} {err.reason}; check the url "
                "in config/datasets_catalog.yaml"
            ) from None
        except (urllib.error.URLError, http.client.HTTPException, OSError, socket.timeout) as err:
            reason = getattr(err, "reason", err)
            raise DownloadError(
                f"dataset {label}: cannot reach {url} ({reason}); this machine looks offline or the server is "
                "down: run again with network access, or download the file elsewhere and place it (verified "
                "against its recorded sha256) at its output path"
            ) from None
    return None


# ---------------------------------------------------------------------------------------------- catalog + CLI


def catalog_entry(catalog, name: str) -> dict:
    """The entry for dataset `name` in a catalog YAML file (config/datasets_catalog.yaml)."""
    import yaml

    with open(catalog) as f:
        datasets = (yaml.safe_load(f) or {}).get("datasets", {})
    if name not in datasets:
        raise DownloadError(
            f"dataset {name} is not in {catalog} (known: {', '.join(sorted(datasets))}); "
            "add an entry with url, sha256 and size"
        )
    return datasets[name]


def _parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m emogi.datasets.download", description=__doc__.split("\n")[0])
    p.add_argument("--url", help="where to download from (default: the catalog entry's url)")
    p.add_argument("--sha256", help="expected SHA-256 (hex); 'null' or omitted: none recorded")
    p.add_argument("--size", type=int, help="expected size in bytes")
    p.add_argument("--out", help="final path of the file")
    p.add_argument("--dataset", help="dataset name for messages (and the catalog key with --catalog)")
    p.add_argument("--catalog", help="take url, sha256 and size of --dataset from this YAML catalog")
    p.add_argument(
        "--trust-on-first-use",
        action="store_true",
        help="download even without a recorded sha256, and print the one to record",
    )
    p.add_argument("--retries", type=int, default=5, help="retries after consecutive failures (default 5)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds without data before a retry (default 60)")
    p.add_argument("--check-reachable", action="store_true", help="only check that --url answers; print its size")
    return p.parse_args(argv)


def _resolved(args) -> tuple[str, str | None, int | None]:
    url, sha, size = args.url, args.sha256, args.size
    if args.catalog:
        if not args.dataset:
            raise DownloadError("--catalog needs --dataset NAME")
        entry = catalog_entry(args.catalog, args.dataset)
        url = url or entry.get("url")
        sha = sha if sha is not None else entry.get("sha256")
        size = size if size is not None else entry.get("size")
    if not url:
        raise DownloadError("no URL: give --url, or --catalog and --dataset")
    return url, None if sha in (None, "", "null", "none") else sha, size


def main(argv=None) -> int:
    args = _parse_args(argv)
    try:
        url, sha, size = _resolved(args)
        if args.check_reachable:
            found = check_reachable(url, args.dataset)
            print(f"{url}: reachable" + (f", {found} bytes" if found is not None else ""))
            return 0
        if not args.out:
            raise DownloadError("--out PATH is required to download")
        download(
            url,
            args.out,
            sha,
            size,
            args.dataset,
            trust_on_first_use=args.trust_on_first_use,
            retries=args.retries,
            timeout_s=args.timeout,
        )
    except DownloadError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
