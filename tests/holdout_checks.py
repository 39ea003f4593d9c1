"""What the held-out validations' tests (tests/test_holdout*.py) share: the tiny synthetic session's graphs, cells
and runs tables (made-up times, never archived), and an archived session judged again as its commands.sh judges it.
Each version's registered values (split, seeds, targets, numbers) stay in its own test file."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model import holdout
from model import holdout_split as hs
from tests.same_tables import HOLDOUT, assert_same_tables

ROOT = Path(__file__).resolve().parents[1]
PARAMETERS = ROOT / "archive" / "graph-predict-zerocopy-2026-11-25" / "parameters.json"  # a real H100 link fit


def _kind_scale(name: str) -> tuple[str, str]:
    return name.rstrip("0123456789"), name.lstrip("kronuad")


def tiny_registry(tiny: dict[str, tuple[str, int]]) -> dict:
    """A split's GRAPHS table for `tiny` ({name: (split, seed)}): generator graphs of edge factor 8."""
    out = {}
    for name, (split, seed) in tiny.items():
        kind, scale = _kind_scale(name)
        spec = {"type": "generator", "kind": kind, "scale": int(scale), "edge_factor": 8, "seed": seed}
        out[name] = {"split": split, "source": spec | ({"initiator": hs.GRAPH500} if kind == "kron" else {})}
    return out


def make_tiny_graphs(gdir: Path, tiny: dict[str, tuple[str, int]]) -> dict[str, list[int]]:
    """Each graph of `tiny` generated at 8 and narrowed to 4 bytes in `gdir`; its two highest-degree vertices."""
    from emogi import csr
    from emogi.csr import read_csr
    from emogi.datasets import generators

    gdir.mkdir()
    roots = {}
    for name, (_, seed) in tiny.items():
        kind, scale = _kind_scale(name)
        w8 = gdir / f"{name}.w8.csr"
        argv = ["--kind", kind, "--scale", scale, "--edge-factor", "8", "--seed", str(seed), "--weights-seed",
                str(seed)]  # fmt: skip
        assert generators.main([*argv, "--out", str(w8), "--meta", str(w8.with_suffix(".json"))]) == 0
        w4 = gdir / f"{name}.w4.csr"
        assert csr.main(["narrow", str(w8), "--out", str(w4), "--meta", str(w4.with_suffix(".json"))]) == 0
        deg = np.diff(read_csr(w8).offsets.astype(np.int64))
        roots[name] = [int(v) for v in np.argsort(-deg, kind="stable")[:2]]
    return roots


def tiny_cells(graphs, roots: dict[str, list[int]], sp) -> pd.DataFrame:
    """Every cell split module `sp` measures on `graphs`: BFS and SSSP from each root, CC and PageRank once."""
    return pd.DataFrame([dict(graph=g, algorithm=a, variant=v, mode=m, edge_bytes=w, root=r)
                         for g in graphs for a, vs in sp.VARIANTS.items() for v in vs
                         for r in (roots[g] if a in ("bfs", "sssp") else [-1]) for m in sp.MODES
                         for w in sp.WIDTHS])  # fmt: skip


def make_tiny_cells(gdir: Path, tiny: dict[str, tuple[str, int]], sp) -> pd.DataFrame:
    """`tiny`'s graphs made in `gdir` (make_tiny_graphs) and every cell split module `sp` measures on them."""
    return tiny_cells(tiny, make_tiny_graphs(gdir, tiny), sp)


def run_row(c, rep: int, time_ms: float, truth_ms: float, **extra) -> dict:
    """One row of a synthetic runs table for cell `c` (a named tuple with the cell's columns)."""
    return {"gpu": "synthetic (test)", "driver": "-", "cuda": "-", "commit": "test", "date": "2026-11-27",
            "graph": c.graph, "algorithm": c.algorithm, "variant": c.variant, "mode": c.mode,
            "edge_bytes": c.edge_bytes, "max_warps": 0, "root": c.root if c.root >= 0 else np.nan,
            "rep": rep, "time_ms": time_ms, "edges_traversed": 0, "levels": 0,
            "iterations": 0, "components": 0, "verified": True, "truth_ms": truth_ms} | extra  # fmt: skip


def write_session(runs: pd.DataFrame, sdir: Path, hidden=("truth_ms",)) -> pd.DataFrame:
    """`runs` written as a session's runs/ tables (one per algorithm, graph and width, without the `hidden`
    columns) beside the link parameters; `runs` back."""
    (sdir / "runs").mkdir(parents=True)
    for (a, g, w), part in runs.groupby(["algorithm", "graph", "edge_bytes"]):
        part.drop(columns=list(hidden)).to_csv(sdir / "runs" / f"{a}.{g}.w{w}.csv", index=False)
    (sdir / "parameters.json").write_text(PARAMETERS.read_text())
    return runs


def judge_archived_session(archive: Path, split: str, out: Path, monkeypatch) -> pd.DataFrame:
    """A split's archived session judged with --split `split` as its commands.sh judges it (from the archive
    folder, relative paths); the judged cells."""
    monkeypatch.chdir(archive)
    wdirs = sorted(str(p) for p in Path("workloads").glob("*"))
    assert holdout.main(["--split", split, "--runs", "session", "--graphs", "session/graphs",
                         "--l2", "session/micro/l2.csv", "--workloads", *wdirs,
                         "--archive-id", archive.name, "--out-dir", str(out)]) == 0  # fmt: skip
    return pd.read_csv(out / "holdout_cells.csv")


def assert_archived_judgement(archive: Path, split: str, out: Path, monkeypatch, names=HOLDOUT) -> None:
    """A split's archived session judged again as its commands.sh judges it: the archived tables `names`."""
    judge_archived_session(archive, split, out, monkeypatch)
    assert_same_tables(out, archive, names)


def judge_tiny_session(session, split: str, l2_bytes: float) -> tuple[Path, pd.DataFrame]:
    """The tiny synthetic session judged with --split `split`: the output folder, and every judged cell beside its
    noiseless truth (train and held-out cells, none lost in the merge)."""
    base, runs = session
    out = base / "judged"
    args = ["--split", split, "--runs", str(base / "session"), "--graphs", str(base / "graphs")]
    assert holdout.main([*args, "--l2-bytes", str(l2_bytes), "--out-dir", str(out)]) == 0
    table = pd.read_csv(out / "holdout_cells.csv")
    truth = runs.groupby(holdout.CELL[:-1] + ["root"], dropna=False)["truth_ms"].first().reset_index()
    truth["root"] = truth["root"].fillna(-1).astype(int)
    both = table.merge(truth, on=holdout.CELL)
    assert len(both) == len(table) == len(truth)
    assert set(table["split"]) == {"train", "held-out"}
    return out, both


def assert_fit_set_and_provenance(sp, train, beside: str, refused, name: str, made: dict, wrong: dict, previous, moved):
    """Split module `sp`: its fit set `train` passes and `beside` with any graph of `refused` is refused; `name` made
    as `made` is held out, and made otherwise (`made | wrong`) refused; `moved`, held out by split module
    `previous`, is one of `sp`'s train graphs. Each version's test names its own registered values."""
    sp.check_fit_set(train)
    for bad in refused:
        with pytest.raises(sp.SplitError, match="fit set"):
            sp.check_fit_set([beside, bad])
    assert sp.split_of(name, made) == sp.HELD_OUT
    (field,) = wrong
    with pytest.raises(sp.SplitError, match=field):
        sp.split_of(name, made | wrong)
    assert previous.split_of(moved) == previous.HELD_OUT and sp.split_of(moved) == sp.TRAIN
