"""Issue 24's held-out validation v11 (docs/holdout-v11.md): one judged session assembled from two device sessions,
the train graphs' from an archived session (the split's TRAIN_SESSION) and the held-out graphs' from the new call,
so that `python -m model.holdout --split v11 --runs OUT` judges it as any other; and the drift between the two
sessions on the train graphs the call measured again (the split's REMEASURED), never fitted nor judged. Split v12
(docs/holdout-v12.md) is assembled the same way, its train session the v11 archive's combined one, nothing re-measured.

    python -m model.holdout_combine --split v11 --call H --out OUT [--train-session ARCHIVE/session]

OUT/runs: each train graph's runs tables copied unchanged from the train session, each held-out graph's from the
call (H/runs); OUT/graphs: their metadata and roots from the same place; OUT/parameters.json and OUT/micro/ from the
train session (the fit's link and L2 capacity: the call's own are in H, for the secondary judgement with
`--parameters H/parameters.json`). OUT/drift.csv: per cell of a re-measured train graph, the min of the call's runs
(`call_ms`), the train session's (`train_ms`) and `drift` = call / train − 1; OUT/combined.json: where each graph
came from and both sessions' link parameters. Refused with one line on stderr, exit 2, nothing written: a held-out
graph with runs in the train session, a registered graph lacking a runs table where it must come from, a graph in
the call the split does not list. With --same-gpu (v13 on the lent machine, docs/holdout-v13.md: the train session
measured again on the held-out call's machine), also a train session measured on another GPU than the call: the
runs tables' `gpu` must be one and the same name, and host.txt's `nvidia-smi -L` one and the same UUID.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from pathlib import Path

import pandas as pd

from emogi.atomic import write_csv, write_text
from model.holdout import CELL, SPLITS, HoldoutError, cells_of, read_runs

ALGORITHMS = ("bfs", "sssp", "cc", "pagerank")
LINK_KEYS = ("W_gbps", "N_max")  # model.fit's parameters.json: {"value": ...} each


def tables(runs_dir: Path, graph: str, widths) -> list[Path]:
    """The runs tables of `graph` the split's matrix needs, `ALGORITHM.GRAPH.wW.csv` (each must exist)."""
    return [runs_dir / f"{a}.{graph}.w{w}.csv" for w in widths for a in ALGORITHMS]


def graphs_in(runs_dir: Path) -> set[str]:
    return {p.name.split(".")[1] for p in runs_dir.glob("*.csv")}


def plan(sp, train_session: Path, call: Path) -> dict[str, Path]:
    """graph -> the session folder its runs come from; refuses what the module docstring says."""
    train = {g for g, e in sp.GRAPHS.items() if e["split"] == sp.TRAIN}
    held = {g for g, e in sp.GRAPHS.items() if e["split"] == sp.HELD_OUT}
    if leaked := sorted(held & graphs_in(train_session / "runs")):
        raise HoldoutError(f"held-out graph(s) {', '.join(leaked)} have runs in the train session {train_session}")
    if stray := sorted(graphs_in(call / "runs") - train - held):
        raise HoldoutError(f"graph(s) {', '.join(stray)} in {call / 'runs'} are not in split {sp.NAME}")
    source = {g: train_session for g in sorted(train)} | {g: call for g in sorted(held)}
    for g, s in source.items():
        missing = [p.name for p in tables(s / "runs", g, sp.WIDTHS) if not p.is_file()]
        if missing:
            raise HoldoutError(
                f"{g}: no {', '.join(missing)} in {s / 'runs'} (a held-out graph is measured by the call)"
            )
        if not (s / "graphs" / f"{g}.w8.json").is_file():
            raise HoldoutError(f"{g}: no metadata {s / 'graphs' / f'{g}.w8.json'}")
    for name in ("parameters.json", "micro/l2.csv"):
        if not (train_session / name).is_file():
            raise HoldoutError(f"no {name} in the train session {train_session}")
    return source


def drift(sp, train_session: Path, call: Path, log=print) -> pd.DataFrame:
    """Per cell of a train graph the call measured again: the min of the call's runs and of the train session's."""
    again = sorted(graphs_in(call / "runs") & set(getattr(sp, "REMEASURED", ())))
    cols = [*CELL, "call_ms", "train_ms", "drift"]
    if not again:
        return pd.DataFrame(columns=cols)
    quiet = lambda *_: None  # noqa: E731
    new = cells_of(read_runs(call), quiet, sp)
    old = cells_of(read_runs(train_session), quiet, sp)
    new, old = new[new["graph"].isin(again)], old[old["graph"].isin(again)]
    t = new[CELL + ["measured_ms"]].merge(old[CELL + ["measured_ms"]], on=CELL, suffixes=("_call", "_train"))
    t = t.rename(columns={"measured_ms_call": "call_ms", "measured_ms_train": "train_ms"})
    t["drift"] = t["call_ms"] / t["train_ms"] - 1
    log(f"drift over {len(t)} re-measured cells ({', '.join(again)}): median |drift| {t['drift'].abs().median():.3f}")
    return t[cols].sort_values(CELL).reset_index(drop=True)


GPU_UUID = re.compile(r"^GPU \d+: (.+) \(UUID: (GPU-[0-9a-fA-F-]+)\)\s*$", re.M)  # `nvidia-smi -L`


def gpu_of(session: Path) -> dict:
    """The GPU names a session's runs tables record and the UUIDs its host.txt records (holdout_session.sh's
    provenance: every call's `nvidia-smi -L`)."""
    names = set(read_runs(session)["gpu"].dropna().astype(str))
    host = session / "host.txt"
    uuids = {m.group(2) for m in GPU_UUID.finditer(host.read_text())} if host.is_file() else set()
    return {"names": sorted(names), "uuids": sorted(uuids)}


def same_gpu(train_session: Path, call: Path) -> dict:
    """The one GPU both sessions were measured on (name and UUID); HoldoutError where they differ or say none."""
    train, mine = gpu_of(train_session), gpu_of(call)
    for what, key in (("GPU", "names"), ("GPU UUID (host.txt, nvidia-smi -L)", "uuids")):
        if len(train[key]) != 1 or train[key] != mine[key]:
            raise HoldoutError(f"not the same {what}: the train session {train_session} has {train[key] or 'none'}, "
                               f"the call {call} {mine[key] or 'none'}")  # fmt: skip
    return {"name": train["names"][0], "uuid": train["uuids"][0]}


def link(path: Path) -> dict:
    """W and N_max of a session's parameters.json (for the record; the judge reads the whole file)."""
    p = json.loads(path.read_text())
    return {k: p[k]["value"] for k in LINK_KEYS if isinstance(p.get(k), dict) and "value" in p[k]}


def combine(sp, train_session: Path, call: Path, out: Path, log=print, gpu: bool = False) -> dict:
    """gpu: refuse a train session measured on another GPU than the call (--same-gpu)."""
    source = plan(sp, train_session, call)
    machine = same_gpu(train_session, call) if gpu else None
    d = drift(sp, train_session, call, log)
    if out.exists():
        shutil.rmtree(out)
    (out / "runs").mkdir(parents=True)
    (out / "graphs").mkdir()
    for g, s in source.items():
        for p in tables(s / "runs", g, sp.WIDTHS):
            shutil.copy2(p, out / "runs" / p.name)
        for p in sorted((s / "graphs").glob(f"{g}.*")):
            if p.name.split(".")[0] == g and p.suffix in (".json", ".txt"):
                shutil.copy2(p, out / "graphs" / p.name)
    shutil.copy2(train_session / "parameters.json", out / "parameters.json")
    shutil.copytree(train_session / "micro", out / "micro")
    write_csv(d, out / "drift.csv")
    record = {"split": sp.NAME, "train_session": str(train_session), "call": str(call),
              "graphs": {g: ("train session" if s == train_session else "call") for g, s in source.items()},
              "remeasured": sorted(set(d["graph"])),
              "link": {"train session": link(train_session / "parameters.json"),
                       "call": link(call / "parameters.json") if (call / "parameters.json").is_file() else None},
              } | ({"gpu": machine} if machine else {})  # fmt: skip
    write_text(json.dumps(record, indent=2) + "\n", out / "combined.json")
    log(f"{out}: {len(source)} graphs ({sum(s == call for s in source.values())} from the call)")
    return record


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.holdout_combine", description=__doc__.split("\n\n")[0])
    p.add_argument("--split", default="v11", choices=[s for s, m in SPLITS.items() if hasattr(m, "TRAIN_SESSION")])
    p.add_argument("--call", required=True, type=Path, help="the new call's session folder (runs/, graphs/)")
    p.add_argument("--out", required=True, type=Path)
    p.add_argument("--train-session", type=Path, help="default: the split's TRAIN_SESSION/session")
    p.add_argument("--same-gpu", action="store_true", help="refuse a train session measured on another GPU")
    a = p.parse_args(argv)
    sp = SPLITS[a.split]
    train = a.train_session or Path(sp.TRAIN_SESSION) / "session"
    try:
        combine(sp, train, a.call, a.out, gpu=a.same_gpu)
    except (HoldoutError, OSError, ValueError) as e:
        print(f"model.holdout_combine: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
