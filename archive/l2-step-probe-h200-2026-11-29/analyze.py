"""The probe's table (README.md here): per graph and algorithm, the timed runs' median and the profiled run's DRAM
bytes, each per list entry read, and the DRAM bytes beyond the lists (8 bytes an entry). `launches`: the profiled
run's kernel launches (PageRank: an init, then an absorb and a push kernel a round); `rounds`: the runs' iterations
(BFS levels, PageRank rounds).

    python archive/l2-step-probe-h200-2026-11-29/analyze.py      (seconds; unpacks l2step.tgz into a temporary
    folder, writes step.csv here and prints it; its printout is analyze.txt)
"""

import tarfile
import tempfile
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ORDER = ["kron21", "kron22", "kron23", "urand22", "urand23"]


def table(session: Path) -> pd.DataFrame:
    rows = []
    for name in ORDER:
        for a in ("bfs", "pagerank"):
            runs = pd.read_csv(session / "runs" / f"{a}.{name}.csv")
            prof = pd.read_csv(session / "profile" / f"{a}.{name}.csv").iloc[0]
            assert runs["verified"].all() and len(runs) == 5
            entries = float(runs["edges_traversed"].median())
            vertices = 2 ** int(name[-2:])
            ms = float(runs["time_ms"].median())
            rows.append(dict(graph=name, algorithm=a, vertices=vertices, launches=int(prof["launches"]),
                             rounds=int(runs["iterations"].median()),
                             time_ms=ms, spread=float(runs["time_ms"].max() / runs["time_ms"].min()),
                             entries=entries, ns_per_entry=ms * 1e6 / entries,
                             dram_bytes_per_entry=float(prof["dram_read_bytes"]) / entries,
                             beyond_lists_per_entry=(float(prof["dram_read_bytes"]) - 8 * entries) / entries,
                             beyond_lists_per_vertex_launch=(float(prof["dram_read_bytes"]) - 8 * entries)
                             / (vertices * int(prof["launches"])),
                             profiled_ms=float(prof["gpu_time_ns"]) / 1e6))  # fmt: skip
    return pd.DataFrame(rows)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(HERE / "l2step.tgz") as tar:
            tar.extractall(tmp, filter="data")
        t = table(Path(tmp) / "l2step")
    t.to_csv(HERE / "step.csv", index=False, float_format="%.5g")
    print(t.round(3).to_string(index=False))


if __name__ == "__main__":
    main()
