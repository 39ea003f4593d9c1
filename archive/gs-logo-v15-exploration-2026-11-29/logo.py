"""Issue 24, in sample (train graphs only): does the floored hub deferral (dd66272) make Gauss-Seidel PageRank's
device cells predictable at the train range's edges, left one train graph out? The same leave-one-graph-out as
archive/pr-floor-class-exploration-2026-11-28/explore.py (term v12 refitted on 24 train graphs as model.holdout fits
it, the 25th predicted), on v14's train session (old rule) and on v15's (new rule, its packed pass 1 unpacked to a
temporary folder). No held-out cell is read.

    python archive/gs-logo-v15-exploration-2026-11-29/logo.py    (~2 min on 2 cores) -> summary.txt, pagerank.csv
"""

import sys
import tarfile
import tempfile
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "archive" / "pr-floor-class-exploration-2026-11-28"))

from explore import logo  # noqa: E402

from model import graph_predict_v12 as gp12  # noqa: E402

V14 = ROOT / "archive" / "holdout-v14-h200-2026-11-28"
V15 = ROOT / "archive" / "holdout-v15-h200-2026-11-29"


def logo_of(session: Path, archive: Path) -> pd.DataFrame:
    gp12.SESSION, gp12.TERM_ARCHIVE = session, archive  # _train reads the train cells of this session
    return logo(*gp12._train())


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(V15 / "passes.tgz") as t:
            t.extractall(tmp, filter="data")
        v14 = logo_of(V14 / "passes/p1/session", V14).assign(session="v14 (old auto)")
        v15 = logo_of(Path(tmp) / "passes/p1/session", V15).assign(session="v15 (floor 4096)")
    both = pd.concat([v14, v15])
    pr = both[both["algorithm"] == "pagerank"].copy()
    pr["abs"] = pr["error"].abs()
    keep = ["session", "graph", "variant", "mode", "edge_bytes", "measured_ms", "predicted_ms", "error"]
    pr[keep].round(4).to_csv(HERE / "pagerank.csv", index=False)
    lines = ["left-one-graph-out, PageRank's cells (in sample: the train graphs of split v13)", ""]
    t = pr.groupby(["session", "variant", "mode"])["abs"].agg(
        median="median", worst="max", past_15=lambda a: int((a > 0.15).sum()), cells="size"
    )
    lines += [t.round(3).to_string(), ""]
    gs = pr[(pr["variant"] == "gauss-seidel") & (pr["mode"] == "device")]
    worst = gs.groupby(["session", "graph"])["error"].agg(lambda e: e.loc[e.abs().idxmax()]).unstack("session")
    lines += ["Gauss-Seidel, device: each graph's worst signed error", worst.round(3).to_string()]
    everything = both.assign(abs=both["error"].abs()).groupby(["session", "algorithm"])["abs"].agg(["median", "max"])
    lines += ["", "every algorithm", everything.round(3).to_string()]
    (HERE / "summary.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
