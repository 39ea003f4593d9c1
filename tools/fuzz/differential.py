"""The graph readers against each other and against the oracle, on structure-aware mutations (csr_mutations):
for every input, emogi.csr.read_csr and the C++ MappedCsr (kernels/fuzz/csr_capi.cpp, through ctypes) must both
accept exactly the files the oracle accepts, and agree on V, E, the flags, the width and every list. Any other
exception is a crash; an input over a second is a hang. Input I of seed S is reproducible (--one I).

    python -m tools.fuzz.build capi
    python -m tools.fuzz.differential --seed 1 --count 1000000 [--json summary.json]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from emogi.csr import GraphFormatError, read_csr
from tools.fuzz.build import REPO
from tools.fuzz.csr_mutations import lists_digest, mutated, valid_graph_file
from tools.fuzz.fuzz_summary import HANG_SECONDS, report, summary


def input_bytes(seed: int, i: int) -> bytes:
    return mutated(random.Random(seed * 1_000_003 + i))


def load(lib: Path):
    so = ctypes.CDLL(str(lib))
    so.emogi_csr_read.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_char_p, ctypes.c_uint64]
    out, message = (ctypes.c_uint64 * 5)(), ctypes.create_string_buffer(4096)

    def read(path: Path):
        if so.emogi_csr_read(str(path).encode(), out, message, len(message)):
            return tuple(out)
        return message.value.decode(errors="replace")

    return read


def python_read(path: Path):
    try:
        g = read_csr(path)
    except GraphFormatError as e:
        return str(e)
    h = g.header
    return (h.num_vertices, h.num_edges, h.flags, h.index_bytes, lists_digest(g.offsets, g.edges, g.weights))


def run(seed: int, count: int, lib: Path, log=None) -> dict:
    cpp_read = load(lib)
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None  # memory-backed: no disk writes per input
    folder = Path(tempfile.mkdtemp(prefix="emogi-differential-", dir=shm))
    path = folder / "input.csr"
    tally, failures, slowest = Counter(), [], (0.0, -1)
    start = time.perf_counter()
    try:
        for i in range(count):
            data = input_bytes(seed, i)
            path.unlink(missing_ok=True)  # a fresh inode: no mapping of the last input sees this one
            path.write_bytes(data)
            t0 = time.perf_counter()
            try:
                py, cpp, valid = python_read(path), cpp_read(path), valid_graph_file(data)
            except Exception as e:  # anything but a GraphFormatError is a crash
                tally["crash"] += 1
                failures.append({"input": i, "crash": f"{type(e).__name__}: {e}"})
                continue
            seconds = time.perf_counter() - t0
            slowest = max(slowest, (seconds, i))
            tally["hang"] += seconds > HANG_SECONDS
            py_ok, cpp_ok = isinstance(py, tuple), isinstance(cpp, tuple)
            tally["accepted" if valid else "rejected"] += 1
            if py_ok != valid or cpp_ok != valid or (valid and py != cpp):
                tally["disagreement"] += 1
                tally["accepted_malformed"] += (py_ok or cpp_ok) and not valid
                failures.append({"input": i, "oracle": valid, "python": py, "cpp": cpp})
            if log and (i + 1) % 100_000 == 0:
                log(f"{i + 1} inputs, {time.perf_counter() - start:.0f} s, {dict(tally)}")
    finally:
        path.unlink(missing_ok=True)
        folder.rmdir()
    outcomes = {"disagreements": tally["disagreement"], "accepted_malformed": tally["accepted_malformed"]}
    return summary(seed, count, start, tally, slowest, failures, outcomes)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.fuzz.differential", description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=10_000)
    p.add_argument("--lib", type=Path, default=REPO / "build" / "fuzz" / "libemogi_csr.so")
    p.add_argument("--json", type=Path, help="write the summary here too")
    p.add_argument("--one", type=int, metavar="I", help="write input I's bytes to stdout and stop")
    a = p.parse_args(argv)
    if a.one is not None:
        sys.stdout.buffer.write(input_bytes(a.seed, a.one))
        return 0
    summary = run(a.seed, a.count, a.lib, log=lambda m: print(m, file=sys.stderr, flush=True))
    return report(summary, a.json, failing=("crashes", "hangs", "disagreements"))


if __name__ == "__main__":
    sys.exit(main())
