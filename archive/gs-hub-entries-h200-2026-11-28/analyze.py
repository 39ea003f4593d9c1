"""Gauss-Seidel PageRank with `--pr-hub-entries N` (this folder's four calls): each cell's time and rounds against
N = 0 (off) in the same call, on the same machine, for the three layouts of the hub queue the calls measured.

    python archive/gs-hub-entries-h200-2026-11-28/analyze.py    (seconds; writes cells.csv, hub_entries.png here)

A cell's time: per process the min of its timed runs, then the median over the processes (the held-out
validations' statistic); `spread` is the processes' max over min - 1 (the GAP-24 calls ran one process).
"""

import tarfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

HERE = Path(__file__).resolve().parent
# call -> the hub queue's layout at its commit (README: the three layouts)
LAYOUT = {
    "call1": "lists x longest",
    "call2": "lists x longest",
    "call3": "slices per list",
    "call4": "aligned slices",
    "call5": "aligned slices",
}
TICKS = [0.4, 0.5, 0.7, 1, 1.5, 2, 3]
KEYS = ["graph", "edge_bytes", "mode", "variant", "hub_entries"]


def runs_of(call: str) -> pd.DataFrame:
    frames = []
    for tgz in sorted((HERE / call).glob("*.tgz")):
        with tarfile.open(tgz) as tar:
            host = next(m for m in tar.getmembers() if m.name.endswith("/host.txt"))
            text = tar.extractfile(host).read().decode()
            gpu = next(line.split(", ")[1] for line in text.splitlines() if "GPU-" in line and ", " in line)
            commit = next(line.split()[-1] for line in text.splitlines() if line.startswith("commit:"))
            for m in tar.getmembers():
                if "/runs/" not in m.name or not m.name.endswith(".csv"):
                    continue
                parts = Path(m.name).name[: -len(".csv")].split(".")  # NAME.wW.nN[.pP]
                process = parts[3][1:] if len(parts) > 3 else "1"
                if process == "log":  # the pass-logged process: rounds only, its times carry the log
                    continue
                frames.append(pd.read_csv(tar.extractfile(m)).assign(
                    hub_entries=int(parts[2][1:]), process=process, call=call, gpu=gpu, commit=commit))  # fmt: skip
    return pd.concat(frames)


def cells(runs: pd.DataFrame) -> pd.DataFrame:
    assert runs.verified.all(), "a run failed verification"
    per = runs.groupby(["call", "gpu", "commit", *KEYS, "process"]).agg(
        ms=("time_ms", "min"), rounds=("iterations", "median"), reps=("time_ms", "size")).reset_index()  # fmt: skip
    c = per.groupby(["call", "gpu", "commit", *KEYS]).agg(
        ms=("ms", "median"), lo=("ms", "min"), hi=("ms", "max"), rounds=("rounds", "median"),
        rounds_lo=("rounds", "min"), rounds_hi=("rounds", "max"), processes=("ms", "size")).reset_index()  # fmt: skip
    c["spread"] = c.hi / c.lo - 1
    c["layout"] = c.call.map(LAYOUT)
    off = c[(c.variant == "gauss-seidel") & (c.hub_entries == 0)].set_index(["call", *KEYS[:3]])
    key = c.set_index(["call", *KEYS[:3]]).index
    c["over_off"] = c.ms.to_numpy() / off.ms.reindex(key).to_numpy()
    c["rounds_over_off"] = c.rounds.to_numpy() / off.rounds.reindex(key).to_numpy()
    return c


def figure(c: pd.DataFrame, path: Path) -> None:
    gs = c[(c.variant == "gauss-seidel") & (c.hub_entries > 0)].copy()
    gs["cell"] = gs.graph + " w" + gs.edge_bytes.astype(str)
    order = sorted(gs.cell.unique(), key=lambda s: (s.startswith("urand"), "24" in s, s))
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6), sharey=True)
    marks = {1024: "o", 4096: "s", 8192: "D", 16384: "^", 256: "v"}
    colors = {"lists x longest": "tab:gray", "slices per list": "tab:blue", "aligned slices": "tab:red"}
    for ax, mode in zip(axes, ["device", "zerocopy"]):
        for (layout, n), g in gs[gs["mode"] == mode].groupby(["layout", "hub_entries"]):
            x = [order.index(s) + 0.12 * (list(colors).index(layout) - 1) for s in g.cell]
            ax.scatter(x, g.over_off, marker=marks[n], color=colors[layout], s=28,
                       label=f"N = {n}, {layout}")  # fmt: skip
        ax.axhline(1, color="black", lw=0.8)
        ax.set_xticks(range(len(order)), order, rotation=60, ha="right", fontsize=8)
        ax.set_title(f"{mode} (measured, NVIDIA H200)")
        ax.set_yscale("log")
        ax.set_yticks(TICKS, [f"{t:g}" for t in TICKS])
        ax.minorticks_off()
    axes[0].set_ylabel("time with --pr-hub-entries N / time with N = 0\n(same call; below 1: faster)")
    handles, labels = axes[1].get_legend_handles_labels()
    uniq = dict(zip(labels, handles))
    fig.legend(uniq.values(), uniq.keys(), fontsize=7, loc="upper center", ncol=4)
    fig.tight_layout(rect=(0, 0, 1, 0.86))
    fig.savefig(path, dpi=110)


def main() -> None:
    c = cells(pd.concat(runs_of(call) for call in LAYOUT))
    c.round(4).to_csv(HERE / "cells.csv", index=False)
    figure(c, HERE / "hub_entries.png")
    show = (
        c[c.variant == "gauss-seidel"]
        .pivot_table(index=["graph", "edge_bytes", "mode"], columns=["call", "hub_entries"], values="over_off")
        .round(2)
    )
    print(show.to_string())


if __name__ == "__main__":
    main()
