"""After the probe, on the CPU: term v16's device-mode prediction of the probe's cells beside their measured median
(`python -m model.whatif --term v16 --graph-file G --algorithm A [--root R] --json`, the graph regenerated with the
call's command; its checksum must equal the call's). Not registered; term v16 as held-out validation v16 fitted it.
`launches_predicted` is term v16's launch count (BFS levels, PageRank rounds); `launches_measured` is step.csv's
`launches`, the profiled run's kernel launches (PageRank: an init, then two kernels a round): compare the prediction
with step.csv's `rounds` instead.

    PYTHONPATH=. python archive/l2-step-probe-h200-2026-11-29/floor.py [--graph-dir /tmp/l2g]
        (minutes; writes floor.csv here and prints it; its printout is floor.txt)
"""

import argparse
import json
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pandas as pd

from emogi.csr_header import read_header

HERE = Path(__file__).resolve().parent
ROOTS = {"kron21": 1891565, "kron22": 145343, "kron23": 838099, "urand22": 3392562, "urand23": 5009732}


def call_checksums() -> dict:
    """Each graph's checksum as the call's generation logged it (logs/gen_<graph>.log in the tarball)."""
    sums = {}
    with tarfile.open(HERE / "l2step.tgz") as tar:
        for name in ROOTS:
            text = tar.extractfile(f"l2step/logs/gen_{name}.log").read().decode()
            sums[name] = re.search(r"checksum ([0-9a-f]{16})", text).group(1)
    return sums


def graph(name: str, graph_dir: Path) -> Path:
    path = graph_dir / f"{name}.w8.csr"
    if not path.exists():
        kind, scale = name.rstrip("0123456789"), name[-2:]
        subprocess.run([sys.executable, "-m", "emogi.datasets.generators", "--kind", kind, "--scale", scale,
                        "--edge-factor", "16", "--seed", "23", "--out", str(path)], check=True,
                       capture_output=True)  # fmt: skip
    return path


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graph-dir", type=Path, default=Path("/tmp/l2g"))
    a = p.parse_args(argv)
    a.graph_dir.mkdir(parents=True, exist_ok=True)
    measured, sums = pd.read_csv(HERE / "step.csv"), call_checksums()
    rows = []
    for name, root in ROOTS.items():
        path = graph(name, a.graph_dir)
        if f"{read_header(path).checksum:016x}" != sums[name]:
            sys.exit(f"{path}: checksum differs from the call's {sums[name]}: not the graph the call measured")
        for algorithm in ("bfs", "pagerank"):
            cmd = [sys.executable, "-m", "model.whatif", "--term", "v16", "--graph-file", str(path), "--algorithm",
                   algorithm, "--json", *(["--root", str(root)] if algorithm == "bfs" else [])]  # fmt: skip
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            (pred,) = [r for r in json.loads(out) if r["variant"] == "merged-aligned" and r["mode"] == "device"]
            m = measured[(measured["graph"] == name) & (measured["algorithm"] == algorithm)].iloc[0]
            rows.append(dict(graph=name, algorithm=algorithm, checksum=sums[name],
                             measured_ms=m["time_ms"], predicted_ms=pred["predicted_ms"],
                             error=pred["predicted_ms"] / m["time_ms"] - 1, launches_predicted=pred["launches"],
                             launches_measured=m["launches"]))  # fmt: skip
            print(f"{name} {algorithm}: {rows[-1]['error']:+.1%}", file=sys.stderr, flush=True)
    t = pd.DataFrame(rows)
    t.to_csv(HERE / "floor.csv", index=False, float_format="%.5g")
    print(t.round(4).to_string(index=False))


if __name__ == "__main__":
    main()
