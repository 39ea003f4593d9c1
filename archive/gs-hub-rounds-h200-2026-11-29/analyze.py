"""The two calls of this folder: per graph, width and mode, Gauss-Seidel PageRank's time and rounds at each hub
length N, over N = 0 (off). A cell is per process the min of its timed runs, then the median over the processes;
rounds are the median over all its unlogged runs. Call 2's `old` is auto as 3a7ebf1 took it (2 E / resident warps)
and `auto` the length with its floor (dd66272: at least 4096). Call 1's pass logs: the share of list entries active
round by round, and the rounds with under 5% of them (the tail).

    python archive/gs-hub-rounds-h200-2026-11-29/analyze.py    -> cells.csv, tail.csv (seconds)
"""

import tarfile
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
TAIL = 0.05  # as archive/gs-pass-logs-h200-2026-11-28: a tail round activates under 5% of the list entries


def tables(call: str, prefix: str):
    with tarfile.open(HERE / call / "gsround.tgz") as tar:
        for m in tar.getmembers():
            if m.isfile() and m.name.startswith(f"gsround/{prefix}/") and m.name.endswith(".csv"):
                name, width, n, *rest = Path(m.name).name[: -len(".csv")].split(".")
                yield pd.read_csv(tar.extractfile(m)).assign(call=call, n=n[1:], process=(rest or ["log"])[0][1:])


def cells() -> pd.DataFrame:
    runs = pd.concat(t for call in ("call1", "call2") for t in tables(call, "runs"))
    assert runs.verified.all()
    runs = runs[(runs.process != "log") & (runs.variant == "gauss-seidel")]
    key = ["call", "graph", "edge_bytes", "mode", "n"]
    per = runs.groupby([*key, "process"]).agg(ms=("time_ms", "min")).reset_index()
    c = per.groupby(key).agg(ms=("ms", "median")).join(runs.groupby(key).agg(rounds=("iterations", "median")))
    c = c.reset_index()
    off = c[c.n == "0"].set_index(key[:-1])[["ms", "rounds"]].add_suffix("_off")
    c = c.join(off, on=key[:-1])
    c["over_off"] = c.ms / c.ms_off
    return c


def tail() -> pd.DataFrame:
    passes = pd.concat(tables("call1", "passes"))
    rows = []
    for (g, m, v, n, rep), r in passes.groupby(["graph", "mode", "variant", "n", "rep"]):
        share = r.active_entries / r.list_entries
        active = r.active_entries > 0
        rows.append(dict(graph=g, mode=m, variant=v, n=n, rep=rep, rounds=int(active.sum()),
                         tail_rounds=int(((share < TAIL) & active).sum()),
                         plateau=float(share[active & (share < 0.2)].median()), time_ms=r.span_ms.sum()))  # fmt: skip
    t = pd.DataFrame(rows)
    return t.groupby(["graph", "mode", "variant", "n"]).median(numeric_only=True).drop(columns="rep").reset_index()


def main() -> None:
    c, t = cells(), tail()
    c.to_csv(HERE / "cells.csv", index=False)
    t.to_csv(HERE / "tail.csv", index=False)
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        wide = c[c.call == "call2"].pivot_table(index=["graph", "edge_bytes", "mode"], columns="n",
                                               values=["over_off", "rounds"])  # fmt: skip
        print("call 2: time over off, and rounds (median)\n", wide.round(2).to_string())
        print(
            "\ncall 1 (4-byte): time over off\n",
            c[c.call == "call1"].pivot_table(index=["graph", "mode"], columns="n", values="over_off").round(2),
        )
        print(
            "\ncall 1 pass logs (device, medians over the logged runs)\n",
            t[t["mode"] == "device"].round(3).to_string(index=False),
        )
        new = c[(c.call == "call2") & (c.n == "auto")].set_index(["graph", "edge_bytes", "mode"])
        old = c[(c.call == "call2") & (c.n == "old")].set_index(["graph", "edge_bytes", "mode"])
        ratio = (new.ms / old.ms).rename("auto_over_old")
        print("\nauto over old, call 2:", ratio.describe().round(3).to_dict())
        print("auto over off, call 2:", new.over_off.describe().round(3).to_dict())
        print("cells where auto is slower than off:", int((new.over_off > 1).sum()), "of", len(new))


if __name__ == "__main__":
    main()
