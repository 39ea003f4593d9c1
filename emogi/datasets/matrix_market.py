"""Matrix Market coordinate files, as SuiteSparse ships them, read into arrays (emogi.datasets.suitesparse builds the
graph from them).

A source is a SuiteSparse `<Name>.tar.gz` archive (streamed, never extracted: its main matrix `<Name>/<Name>.mtx`
is parsed straight out of the gzip stream), or a bare `.mtx` / `.mtx.gz` file. fast_matrix_market's C++ parser
reads the entries, its worker threads parsing blocks of lines in parallel.

Files from outside are untrusted: every way one can be wrong ends in one DatasetError naming the file (and the line,
where the parser knows it), never a traceback:
- an index or a value beyond 64 bits, an index outside the matrix, an unparsable line, too few or too many lines;
- a header announcing more entries than the file's bytes can hold (checked before anything is allocated, where the
  size is known: bare files and archive members), or more than memory holds (--ignore-memory-check);
- values of an `integer` matrix are read as reals and checked: one that is not an integer (3.7) is not truncated;
  the rule then applied (such values are not used as weights) is recorded in the graph's metadata by the caller.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import re
import tarfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import fast_matrix_market as fmm
import numpy as np

MAX_VERTICES = 2**32  # ids must fit u32 (the 4-byte width) and the key layout
INTEGER_FIELDS = ("integer", "unsigned-integer")
REAL_FIELDS = ("real", "double")
# What a damaged archive or file raises while fast_matrix_market reads it (Python errors pass through C++).
_READ_ERRORS = (ValueError, RuntimeError, OSError, EOFError, OverflowError, tarfile.TarError)
_READ_BLOCK = 4 << 20  # bytes per read from a compressed stream
_MAX_HEADER = 1 << 20  # bytes of banner, comments and size line read before giving the header to fmm
_MIN_ENTRY_BYTES = 4  # "1 1\n": two one-digit indices, a separator and a line break
_CHECK_BLOCK = 1 << 20  # values checked per step (bounded temporaries)
_LINE = re.compile(r"^\s*Line (\d+):\s*(.*)$", re.DOTALL)
_DAMAGED = "if it came from an archive, the archive may be damaged: delete it and download it again"


class DatasetError(ValueError):
    """An archive or matrix that cannot become a graph file (the message names it and says why)."""


@dataclass
class MatrixEntries:
    """The coordinate entries of a Matrix Market file, 0-based, as stored (one triangle if symmetric)."""

    label: str  # archive and member, for messages
    field: str
    symmetry: str
    num_vertices: int
    rows: np.ndarray | None
    cols: np.ndarray | None
    values: np.ndarray | None
    # (entry number, value) of the first value of an integer matrix that is not an integer; None if all are.
    not_integer: tuple[int, float] | None = None

    @property
    def symmetric(self) -> bool:
        return self.symmetry != "general"


# ---------------------------------------------------------------------------------------------- the archive


def _is_main_matrix(member_name: str, name: str | None) -> bool:
    """`<Name>/<Name>.mtx`: the file named after its folder (auxiliary files are `<Name>_<aux>.mtx`)."""
    path = PurePosixPath(member_name)
    if path.suffix != ".mtx" or len(path.parts) < 2:
        return False
    folder = path.parts[-2]
    return path.stem == folder and (name is None or folder == name)


@contextlib.contextmanager
def open_matrix(source, name: str | None = None):
    """Yield (member name, binary stream, size in bytes or None) of the main matrix in `source`: a SuiteSparse
    `.tar.gz` archive (streamed, one pass), or a bare `.mtx` / `.mtx.gz` file (whose size is unknown)."""
    source = Path(source)
    if not source.is_file():
        raise DatasetError(f"{source}: no such file (download it first: python -m emogi.datasets.download)")
    if source.name.endswith(".mtx"):
        with open(source, "rb") as f:
            yield source.name, f, source.stat().st_size
        return
    if source.name.endswith(".mtx.gz"):
        with gzip.open(source, "rb") as f:
            yield source.name, f, None
        return
    with _open_tar(source) as tar:
        member = _find_main_member(tar, source, name)
        yield member.name, tar.extractfile(member), member.size


def _open_tar(source: Path) -> tarfile.TarFile:
    try:
        return tarfile.open(source, mode="r|*", bufsize=1 << 20)  # a stream: one pass, members in archive order
    except (tarfile.TarError, EOFError, OSError) as err:
        raise DatasetError(f"{source}: not a readable tar archive ({err}); delete it and download it again") from None


def _find_main_member(tar: tarfile.TarFile, source: Path, name: str | None) -> tarfile.TarInfo:
    seen = []
    try:
        for member in tar:
            if member.isfile() and _is_main_matrix(member.name, name):
                return member
            seen.append(member.name)
    except (tarfile.TarError, EOFError, OSError) as err:
        raise DatasetError(f"{source}: damaged archive ({err}); delete it and download it again") from None
    want = f"{name}/{name}.mtx" if name else "<Name>/<Name>.mtx"
    raise DatasetError(f"{source}: no matrix file {want} in the archive (it holds: {', '.join(seen) or 'nothing'})")


class _LargeReads:
    """A read-only view of a stream for fast_matrix_market's Python stream adapter, which asks for 1 KiB per
    call and uses whatever a call returns: answer with large blocks, the header read off the stream first.
    Having no seek/tell also stops the adapter from seeking back on close, which a tar member stream cannot do
    (the process would abort). Two inputs crash fast_matrix_market 1.7.6's parser (SIGSEGV; both found by
    tools/fuzz/matrix_market_fuzz.py): a NUL byte, refused here (no text matrix holds one), and a last line with
    more than its fields and no line break after it, so a missing final line break is supplied."""

    def __init__(self, raw, head: bytes = b"", label: str = "input"):
        self.raw, self.head, self.label = raw, head, label
        self.offset = self.lines = 0  # bytes and line breaks handed out so far
        self.last, self.ended = ord("\n"), False  # the last byte handed out; whether a line break was added

    def read(self, size: int = -1) -> bytes:
        if self.head:
            block, self.head = self.head, b""
        else:
            block = self.raw.read(_READ_BLOCK)
        if not block:
            if self.ended or self.last == ord("\n"):
                return b""
            self.ended, block = True, b"\n"
        self.last = block[-1]
        nul = block.find(b"\0")
        if nul >= 0:
            line = self.lines + block.count(b"\n", 0, nul) + 1
            raise DatasetError(
                f"{self.label}, line {line}: a NUL byte (byte {self.offset + nul}); not a text Matrix Market file; "
                + _DAMAGED
            )
        self.offset += len(block)
        self.lines += block.count(b"\n")
        return block


# ---------------------------------------------------------------------------------------------- reading


def _read_head(stream) -> bytes:
    """The Matrix Market banner, comment lines and size line, read off a one-pass stream (nothing more)."""
    lines = [stream.readline(_MAX_HEADER)]
    while lines[0].startswith(b"%%MatrixMarket") and sum(map(len, lines)) < _MAX_HEADER:
        line = stream.readline(_MAX_HEADER)
        lines.append(line)
        if not line or (line.strip() and not line.startswith(b"%")):  # end of file, or the size line
            break
    return b"".join(lines)


def _located(label: str, err: BaseException, line: int | None = None) -> str:
    """`label, line N: what` from a parser message ("Line N: what"), or with `line` when the message has none."""
    text = str(err).strip() or type(err).__name__
    m = _LINE.match(text)
    if m:
        line, text = int(m.group(1)), m.group(2)
    if isinstance(err, OverflowError):
        text += " (an index or a value beyond 64 bits)"
    return f"{label}, line {line}: {text}" if line else f"{label}: {text}"


def _as_reals(head: bytes) -> bytes:
    """The header with an integer field declared real, so that the parser reads values whole: it would stop an
    integer at the first character that is not a digit (3.7 -> 3, 1e3 -> 1) and say nothing."""
    banner, rest = head.split(b"\n", 1) if b"\n" in head else (head, b"")
    banner = re.sub(rb"(?i)\b(unsigned-integer|integer)\b", b"real", banner, count=1)
    return banner + b"\n" + rest


def _first_not_integer(values: np.ndarray) -> tuple[int, float] | None:
    for lo in range(0, len(values), _CHECK_BLOCK):
        block = values[lo : lo + _CHECK_BLOCK]
        bad = np.flatnonzero(~np.isfinite(block) | (np.floor(block) != block))
        if len(bad):
            return lo + int(bad[0]) + 1, float(block[bad[0]])
    return None


def read_matrix(stream, label: str, parallelism: int = 0, before_body=None, size: int | None = None) -> MatrixEntries:
    """Parse a Matrix Market coordinate matrix with fast_matrix_market (parallel C++ parser).

    Only fmm's public API: read_header consumes its stream and read_coo allocates and reads in one call, but an
    archive member can be read only once. So the header lines are read here, checked (and `before_body(header)`
    runs) before anything large is allocated, then handed to read_coo ahead of the rest of the stream.
    generalize_symmetry=False keeps one triangle (no mirrored copy); indices are int32 when the size allows.
    Values are 8 bytes whatever the field; real and pattern ones are dropped before the keys phase, which
    stays the peak (emogi.datasets.suitesparse.estimated_peak_bytes). `size`: the file's bytes, when known.
    """
    head = b""
    try:
        head = _read_head(stream)
        h = fmm.read_header(io.BytesIO(head))
    except _READ_ERRORS as err:
        where = _located(label, err, head.count(b"\n") or None)
        raise DatasetError(f"{where}: not a readable Matrix Market header; {_DAMAGED}") from None
    _check_header(h, label, head.count(b"\n"), size, len(head))
    if before_body is not None:
        before_body(h)
    integer = h.field in INTEGER_FIELDS
    try:
        (values, (rows, cols)), _ = fmm.read_coo(
            _LargeReads(stream, _as_reals(head) if integer else head, label), parallelism, generalize_symmetry=False
        )
    except DatasetError:
        raise
    except MemoryError as err:
        raise DatasetError(
            f"{label}: not enough memory for the {h.nnz} entries its header announces ({err}); convert it on a larger "
            "machine"
        ) from None
    except _READ_ERRORS as err:
        raise DatasetError(f"{_located(label, err)}: unreadable Matrix Market body; {_DAMAGED}") from None
    not_integer = _first_not_integer(values) if integer else None
    return MatrixEntries(label, h.field, h.symmetry, h.nrows, rows, cols, values, not_integer)


def _check_header(h, label: str, size_line: int, size: int | None, head_bytes: int) -> None:
    if h.object != "matrix" or h.format != "coordinate":
        raise DatasetError(f"{label}: a {h.object} in {h.format} format; a graph needs a coordinate matrix")
    if h.field not in INTEGER_FIELDS + REAL_FIELDS + ("pattern",):
        raise DatasetError(f"{label}: {h.field} values are not supported (pattern, integer or real only)")
    if h.nrows != h.ncols:
        raise DatasetError(f"{label}: {h.nrows} x {h.ncols} matrix; an adjacency matrix must be square")
    if h.nrows > MAX_VERTICES:
        raise DatasetError(f"{label}: {h.nrows} vertices; at most 2^32 are supported")
    if size is not None:  # refused before read_coo allocates arrays for them
        room = size - head_bytes
        if h.nnz > 0 and _MIN_ENTRY_BYTES * h.nnz - 1 > room:
            raise DatasetError(
                f"{label}, line {size_line}: the header announces {h.nnz} entries, but the {room} bytes after it "
                f"hold at most {(room + 1) // _MIN_ENTRY_BYTES} (an entry takes {_MIN_ENTRY_BYTES} bytes or more)"
            )
