"""The graphs behind the archived cold-UVM runs, regenerated on the CPU and checked against recorded checksums.

The archives name graphs by kind and scale only (kron23), and two archives mean different graphs by the same name:
the study's kron23 was generated with seed 23, the bench's (large-matrix) with seed 24. A graph here is therefore
(kind, scale, seed, edge width), its file `<kind><scale>s<seed>.w<width>.csr`, made as the bench makes graphs
(as the bench made them: PairStream, edge factor 16, weights seeded like the pairs); 4-byte files are the 8-byte
ones narrowed (`emogi.csr narrow`, which writes the very file the generator writes). Where an archive's log
recorded a checksum, the file must match it.

    python -m model.uvm_graphs --graph-dir /tmp/oom-graphs kron:23:23:8,4 urand:24:24:8
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from emogi.cli import exit_status
from emogi.csr import GraphFormatError, narrow_edges, read_csr, read_header, write_csr
from emogi.datasets import external_build, generators

# Checksums printed by the archived bench logs ("E=...: written, checksum ...").
KNOWN_CHECKSUMS = {
    ("kron", 21, 24, 8): "dc9cba51e4ae8bfc",
    ("kron", 21, 24, 4): "1c66221c11dc304c",
    ("urand", 21, 24, 8): "4b453ffec9866891",
    ("urand", 21, 24, 4): "8673b3a74b74b1b2",
    ("kron", 23, 24, 8): "a4d72074e260b675",
    ("kron", 23, 24, 4): "b02e232f9ebb9c9c",
    ("kron", 24, 24, 8): "00169f259db30544",
    ("urand", 24, 24, 8): "6fbc07654af6fc2e",
    ("kron", 24, 24, 4): "f81b18e7d1a0abb4",
    ("urand", 24, 24, 4): "e8129fbfa43b6ad8",
    ("kron", 25, 24, 8): "70c279a8ccef7818",
    ("urand", 25, 24, 8): "7575833cae060b16",
}


@dataclass(frozen=True)
class GraphSpec:
    kind: str
    scale: int
    seed: int
    width: int = 8

    @property
    def file_name(self) -> str:
        return f"{self.kind}{self.scale}s{self.seed}.w{self.width}.csr"

    def path(self, graph_dir) -> Path:
        return Path(graph_dir) / self.file_name


def _check(spec: GraphSpec, path: Path) -> None:
    want = KNOWN_CHECKSUMS.get((spec.kind, spec.scale, spec.seed, spec.width))
    have = f"{read_header(path).checksum:016x}"
    if want and have != want:
        raise GraphFormatError(f"{path}: checksum {have}, but the archives recorded {want} for {spec}")


def make(spec: GraphSpec, graph_dir, memory_limit: int | None = None, log=print) -> Path:
    """The graph's file, generated (or narrowed from the 8-byte one) unless present; checked either way."""
    path = spec.path(graph_dir)
    if not path.exists():
        if spec.width == 4:
            wide = read_csr(make(GraphSpec(spec.kind, spec.scale, spec.seed, 8), graph_dir, memory_limit, log))
            narrow = narrow_edges(wide)
            write_csr(path, narrow.offsets, narrow.edges, narrow.weights, narrow.directed)
        else:
            log(f"generating {path.name}")
            stream = generators.PairStream(spec.kind, spec.scale, 16, spec.seed)
            external_build.build_csr_file(
                path,
                stream,
                num_vertices=stream.num_vertices,
                index_bytes=8,
                weights_seed=spec.seed,
                memory_limit=memory_limit,
                log=lambda m: None,
            )
    _check(spec, path)
    return path


def parse(text: str) -> list[GraphSpec]:
    """kind:scale:seed:widths, widths comma-separated (e.g. kron:23:23:8,4)."""
    kind, scale, seed, widths = text.split(":")
    return [GraphSpec(kind, int(scale), int(seed), int(w)) for w in widths.split(",")]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m model.uvm_graphs", description=__doc__.split("\n")[0])
    ap.add_argument("--graph-dir", required=True)
    ap.add_argument("--memory-limit", type=int, help="bytes the generator may use")
    ap.add_argument("graphs", nargs="+", help="kind:scale:seed:widths")
    a = ap.parse_args(argv)
    return exit_status(
        lambda: [print(make(s, a.graph_dir, a.memory_limit)) for g in a.graphs for s in parse(g)],
        (GraphFormatError, ValueError, OSError),
    )


if __name__ == "__main__":
    sys.exit(main())
