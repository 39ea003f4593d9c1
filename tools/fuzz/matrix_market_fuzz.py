"""Fuzzing the Matrix Market reader (emogi.datasets.matrix_market) and the graph built from it (suitesparse).

Inputs are valid coordinate matrices of random shape, then mutated token by token: the banner's words, the size
line's numbers (0, -1, 2^32, 2^64, 10^30, words), an entry's index or value (0, n + 1, 10^25, 3.7, nan), lines
dropped, doubled, cut or given extra tokens, NUL bytes. Every input must end in either a DatasetError of one line
or a graph whose offsets and ids are valid; when a plain reading of the text after the Matrix Market rules
(`reference`, written apart from the reader) accepts it too, the graph must be the one that reading gives (edges,
directedness, and whether the values became the weights). 'Lenient' acceptances are the inputs the plain reading
refuses but fast_matrix_market reads: entry lines with tokens beyond the declared fields, which it ignores (the
graph is then the declared fields' graph). Input I of seed S is reproducible (--one I).

    python -m tools.fuzz.matrix_market_fuzz --seed 1 --count 1000000 [--json summary.json]
"""

from __future__ import annotations

import argparse
import io
import math
import random
import sys
import time
from collections import Counter
from functools import partial

import numpy as np

from emogi.csr_checks import check_edge_ids, check_offsets
from emogi.datasets import matrix_market, suitesparse
from emogi.datasets.matrix_market import DatasetError, read_matrix
from tools.fuzz.fuzz_summary import report, summary, timed_check

NUMBERS = ["0", "-1", "1", "2", "4294967295", "4294967296", "9223372036854775808", "18446744073709551616"]
NUMBERS += ["1" + "0" * 30, "3.7", "1e3", "x", "", "+5", "0x10"]
VALUES = ["3.7", "1e3", "-5", "0", "nan", "inf", "1e30", "99999999999999999999999", "x", "255", "7.0"]
FIELDS = ["pattern", "integer", "real", "double", "complex", "unsigned-integer", "bogus", "INTEGER"]
SYMMETRIES = ["general", "symmetric", "skew-symmetric", "hermitian", "bogus"]


def matrix_text(rng: random.Random) -> list[str]:
    """A valid coordinate matrix as lines (banner, comment, size line, entries)."""
    n = rng.randrange(0, 20)
    field, symmetry = rng.choice(["pattern", "integer", "real"]), rng.choice(["general", "symmetric"])
    nnz = rng.randrange(0, 30) if n else 0
    lines = [f"%%MatrixMarket matrix coordinate {field} {symmetry}", "% fuzz", f"{n} {n} {nnz}"]
    for _ in range(nnz):
        i, j = rng.randrange(1, n + 1), rng.randrange(1, n + 1)
        if symmetry == "symmetric" and i < j:
            i, j = j, i
        value = {"pattern": "", "integer": f" {rng.randrange(1, 300)}", "real": f" {rng.random() * 10:.3f}"}[field]
        lines.append(f"{i} {j}{value}")
    return lines


def mutate(lines: list[str], rng: random.Random) -> bytes:
    kind = rng.randrange(9)
    if kind == 0:
        words = lines[0].split()
        at = rng.randrange(1, 5)
        if at < len(words):
            choices = {1: ["matrix", "vector"], 2: ["coordinate", "array"], 3: FIELDS, 4: SYMMETRIES}[at]
            words[at] = rng.choice(choices)
        lines[0] = " ".join(words)
    elif kind == 1:
        words = lines[2].split()
        if words:
            words[rng.randrange(len(words))] = rng.choice(NUMBERS)
        lines[2] = " ".join(words)
    elif kind in (2, 3) and len(lines) > 3:
        at = rng.randrange(3, len(lines))
        words = lines[at].split()
        if words:
            k = rng.randrange(len(words))
            words[k] = rng.choice(NUMBERS if k < 2 else VALUES)
        lines[at] = " ".join(words)
    elif kind == 4 and len(lines) > 3:
        del lines[rng.randrange(3, len(lines))]
    elif kind == 5 and len(lines) > 3:
        lines.insert(rng.randrange(3, len(lines) + 1), rng.choice(lines[3:]))
    elif kind == 6 and len(lines) > 3:
        lines[rng.randrange(3, len(lines))] += rng.choice([" 7", " 1 2", "  ", "\t"])
    elif kind == 7:
        lines.insert(rng.randrange(1, len(lines) + 1), rng.choice(["", "% comment", "   "]))
    text = ("\n".join(lines) + "\n").encode()
    if kind == 8:  # bytes: cut anywhere, or a NUL or a high byte put anywhere
        at = rng.randrange(len(text) + 1)
        text = text[:at] if rng.random() < 0.5 else text[:at] + rng.choice([b"\0", b"\xff"]) + text[at:]
    return text


def input_bytes(seed: int, i: int) -> bytes:
    return random_input(random.Random(seed * 1_000_003 + i))


def random_input(rng: random.Random) -> bytes:
    """A valid matrix, mutated 1-3 times in 95% of cases."""
    lines = matrix_text(rng)
    if rng.random() < 0.05:
        return ("\n".join(lines) + "\n").encode()
    text = b""
    for _ in range(rng.randrange(1, 4)):
        text = mutate(lines, rng)
    return text


def reference(data: bytes):
    """The matrix after the Matrix Market rules, read plainly: (n, field, symmetry, [(i, j, value)]) or None."""
    try:
        lines = data.decode("ascii").split("\n")
    except UnicodeDecodeError:
        return None
    banner = lines[0].split()
    if len(banner) != 5 or banner[0] != "%%MatrixMarket" or banner[1:3] != ["matrix", "coordinate"]:
        return None
    field, symmetry = banner[3].lower(), banner[4].lower()
    if field not in ("pattern", "integer", "real", "double", "unsigned-integer"):
        return None
    if symmetry not in ("general", "symmetric", "skew-symmetric", "hermitian"):  # the last two: real ones mirror
        return None
    field = {"double": "real", "unsigned-integer": "integer"}.get(field, field)
    rest = [line for line in lines[1:] if line.strip() and not line.startswith("%")]
    if not rest or "\0" in data.decode("ascii"):
        return None
    size = rest[0].split()
    if len(size) != 3 or not all(w.isdigit() for w in size):
        return None
    n, m, nnz = map(int, size)
    entries = [line.split() for line in rest[1:]]
    width = 2 if field == "pattern" else 3
    if n != m or n > 2**31 or len(entries) != nnz or any(len(e) != width for e in entries):
        return None
    out = []
    for e in entries:
        if not (e[0].isdigit() and e[1].isdigit()) or not (1 <= int(e[0]) <= n and 1 <= int(e[1]) <= n):
            return None
        try:
            value = float(e[2]) if width == 3 else 1.0
        except ValueError:
            return None
        if field == "integer" and not e[2].lstrip("-").isdigit() and not math.isfinite(value):
            return None
        out.append((int(e[0]) - 1, int(e[1]) - 1, value))
    return n, field, symmetry, out


def expected_graph(n, field, symmetry, entries):
    """Edges (sorted, self-loops dropped, merged) and whether the values are the weights (suitesparse's rules)."""
    usable = field == "integer" and symmetry in ("general", "symmetric") and len(entries)
    usable = usable and all(v == int(v) and 1 <= v <= 2**32 - 1 for *_, v in entries)
    best = {}
    for i, j, v in entries:
        for a, b in [(i, j)] + ([(j, i)] if symmetry != "general" else []):
            if a != b:
                best[(a, b)] = min(best.get((a, b), math.inf), v)
    return sorted(best), bool(usable), ({k: int(v) for k, v in best.items()} if usable else None)


def check_input(data: bytes) -> str:
    """'accepted', 'rejected' (a one-line DatasetError), 'lenient' (accepted, though the plain reading refuses it);
    raises AssertionError when the reader is wrong (a traceback-worthy exception propagates as a crash)."""
    try:
        matrix = read_matrix(io.BytesIO(data), "input", 1, None, len(data))
        graph, weights = suitesparse.build_graph(matrix, np.uint64, 1, lambda _: None)
    except DatasetError as e:
        assert "\n" not in str(e) and str(e).startswith("input"), str(e)
        return "rejected"
    check_offsets(graph.offsets, graph.num_edges, "built")  # the built graph is a valid one
    check_edge_ids(graph.edges, graph.num_vertices, "built", graph.offsets)
    ref = reference(data)
    if ref is None:
        return "lenient"
    n, field, symmetry, entries = ref
    edges, usable, weight_of = expected_graph(n, field, symmetry, entries)
    src = np.repeat(np.arange(graph.num_vertices), np.diff(graph.offsets.astype(np.int64)))
    assert graph.num_vertices == n and graph.directed == (symmetry == "general")
    assert list(zip(src.tolist(), graph.edges.tolist())) == edges, "edges differ from the plain reading"
    assert (weights["source"] == "dataset") == usable, (weights, usable)
    if usable:
        assert graph.weights.tolist() == [weight_of[e] for e in edges]
    return "accepted"


def run(seed: int, count: int, log=None) -> dict:
    tally, failures, slowest = Counter(), [], (0.0, -1)
    start = time.perf_counter()
    for i in range(count):
        slowest = timed_check(i, partial(check_input, input_bytes(seed, i)), tally, failures, slowest, start, log)
    return summary(seed, count, start, tally, slowest, failures, accepted_lenient=tally["lenient"])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.fuzz.matrix_market_fuzz", description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=10_000)
    p.add_argument("--json", help="write the summary here too")
    p.add_argument("--one", type=int, metavar="I", help="write input I to stdout and stop")
    p.add_argument("--read-block", type=int, help="bytes the parser is handed per read (default 4 MiB)")
    a = p.parse_args(argv)
    if a.read_block:  # small blocks put line ends, fields and numbers across the parser's reads
        matrix_market._READ_BLOCK = a.read_block
    if a.one is not None:
        sys.stdout.buffer.write(input_bytes(a.seed, a.one))
        return 0
    result = run(a.seed, a.count, log=lambda m: print(m, file=sys.stderr, flush=True))
    return report({**result, "read_block": matrix_market._READ_BLOCK}, a.json)


if __name__ == "__main__":
    sys.exit(main())
