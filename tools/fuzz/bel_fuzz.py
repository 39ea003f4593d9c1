"""Fuzzing the `.bel` import (emogi.datasets.bel.read_bel and the symmetry check import runs on what it reads).

Inputs are valid `.bel` triples (PREFIX.bel.col/.dst and sometimes .val) of random graphs, then mutated: header
counts (V instead of V + 1, 0, 2^32, 2^64 - 1), offsets, ids (V, V + 1, 2^64 - 1), file sizes, the .val count, a
file removed. Every input must end in either a GraphFormatError of one line naming an input file, or graph arrays
equal to the files' and valid, exactly when the oracle (`valid_bel`, written apart from the reader) says the
files are valid. Each input is read with 8-byte and with 4-byte ids. Input I of seed S is reproducible.

    python -m tools.fuzz.bel_fuzz --seed 1 --count 1000000 [--json summary.json]
"""

from __future__ import annotations

import argparse
import os
import random
import struct
import sys
import tempfile
import time
from collections import Counter
from functools import partial
from pathlib import Path

import numpy as np

from emogi.csr_checks import GraphFormatError
from emogi.datasets import bel
from tools.fuzz.fuzz_summary import report, summary, timed_check

U64 = 2**64 - 1
COUNTS = [0, 1, 2, 2**32 - 1, 2**32, 2**32 + 1, 2**61, U64, U64 // 8]


def bel_files(rng: random.Random) -> dict[str, bytes]:
    v = rng.randrange(0, 40)
    offsets, edges = [0], []
    for _ in range(v):
        edges += [rng.randrange(v) for _ in range(rng.randrange(4))]
        offsets.append(len(edges))
    files = {
        "col": struct.pack(f"<QQ{v + 1}Q", v + 1, 0, *offsets),
        "dst": struct.pack(f"<QQ{len(edges)}Q", len(edges), 0, *edges),
    }
    if rng.random() < 0.5:
        files["val"] = struct.pack(f"<QQ{len(edges)}I", len(edges), 0, *[rng.getrandbits(32) for _ in edges])
    return files


def mutate(files: dict[str, bytes], rng: random.Random) -> None:
    part = rng.choice(sorted(files))
    data = bytearray(files[part])
    width = 4 if part == "val" else 8
    count = int.from_bytes(data[:8], "little")
    kind = rng.randrange(6)
    if kind == 0:  # the count
        new = rng.choice([count - 1, count + 1, rng.choice(COUNTS), rng.getrandbits(64)]) % 2**64
        data[:8] = new.to_bytes(8, "little")
    elif kind == 1:  # the word the artifact ignores
        data[8:16] = rng.getrandbits(64).to_bytes(8, "little")
    elif kind in (2, 3) and len(data) >= 16 + width:  # an element
        at = 16 + width * rng.randrange((len(data) - 16) // width)
        v = int.from_bytes(files["col"][:8], "little") - 1
        value = rng.choice([v, v + 1, max(v - 1, 0), 2 ** (8 * width) - 1, rng.getrandbits(8 * width), 0])
        data[at : at + width] = (value % 2 ** (8 * width)).to_bytes(width, "little")
    elif kind == 4:  # the size
        data = data[: max(0, len(data) - rng.randrange(1, 9))] if rng.random() < 0.5 else data + bytes(width)
    elif part != "col" and rng.random() < 0.5:
        del files[part]
        return
    files[part] = bytes(data)


def input_files(seed: int, i: int) -> dict[str, bytes]:
    return random_files(random.Random(seed * 1_000_003 + i))


def random_files(rng: random.Random) -> dict[str, bytes]:
    """A valid `.bel` triple, mutated 1-3 times in 95% of cases."""
    files = bel_files(rng)
    if rng.random() < 0.95:
        for _ in range(rng.randrange(1, 4)):
            mutate(files, rng)
    return files


def valid_bel(files: dict[str, bytes], index_bytes: int):
    """The oracle: (offsets, edges, weights) when the files are a valid `.bel` graph, else None."""
    if "col" not in files or "dst" not in files:
        return None
    arrays = {}
    for part, width, dtype in (("col", 8, "<u8"), ("dst", 8, "<u8"), ("val", 4, "<u4")):
        if part not in files:
            continue
        data = files[part]
        if len(data) < 16:
            return None
        count = int.from_bytes(data[:8], "little")
        if len(data) != 16 + width * count:
            return None
        arrays[part] = np.frombuffer(data, dtype, count, 16)
    offsets, edges = arrays["col"], arrays["dst"]
    v = len(offsets) - 1
    if v < 0 or (index_bytes == 4 and v > 2**32 - 1) or ("val" in arrays and len(arrays["val"]) != len(edges)):
        return None
    if offsets[0] != 0 or offsets[-1] != len(edges) or np.any(offsets[1:] < offsets[:-1]):
        return None
    if len(edges) and edges.max() >= v:
        return None
    return offsets, edges, arrays.get("val")


def check_input(files: dict[str, bytes], folder: Path) -> str:
    """'accepted' or 'rejected'; AssertionError when the reader and the oracle disagree or a message is wrong."""
    for part in ("col", "dst", "val"):
        path = folder / f"g.bel.{part}"
        path.unlink(missing_ok=True)
        if part in files:
            path.write_bytes(files[part])
    verdicts = set()
    for index_bytes in (8, 4):
        expected = valid_bel(files, index_bytes)
        try:
            graph = bel.read_bel(folder / "g", index_bytes)
            bel.is_symmetric(graph.offsets, graph.edges)  # what import runs next, directedness left automatic
        except GraphFormatError as e:
            message = str(e)
            assert expected is None, f"rejected a valid .bel: {message}"
            assert "\n" not in message and f"{folder}/g.bel." in message, message
            verdicts.add("rejected")
            continue
        assert expected is not None, "accepted an invalid .bel"
        offsets, edges, weights = expected
        assert np.array_equal(graph.offsets, offsets) and np.array_equal(graph.edges, edges)
        assert graph.edges.dtype == (np.uint32 if index_bytes == 4 else np.uint64)
        assert (graph.weights is None) == (weights is None)
        assert weights is None or np.array_equal(graph.weights, weights)
        verdicts.add("accepted")
    return verdicts.pop() if len(verdicts) == 1 else "accepted_8_only"


def run(seed: int, count: int, log=None) -> dict:
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    folder = Path(tempfile.mkdtemp(prefix="emogi-bel-fuzz-", dir=shm))
    tally, failures, slowest = Counter(), [], (0.0, -1)
    start = time.perf_counter()
    try:
        for i in range(count):
            check = partial(check_input, input_files(seed, i), folder)
            slowest = timed_check(i, check, tally, failures, slowest, start, log)
    finally:
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()
    result = summary(
        seed, count, start, tally, slowest, failures, accepted_with_8_byte_ids_only=tally["accepted_8_only"]
    )
    return {"seed": seed, "inputs": count, "reads": 2 * count, **result}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.fuzz.bel_fuzz", description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=10_000)
    p.add_argument("--json", help="write the summary here too")
    a = p.parse_args(argv)
    return report(run(a.seed, a.count, log=lambda m: print(m, file=sys.stderr, flush=True)), a.json)


if __name__ == "__main__":
    sys.exit(main())
