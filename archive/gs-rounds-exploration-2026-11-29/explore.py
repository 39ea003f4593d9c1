"""Gauss-Seidel PageRank's rounds on the GPU against the expected launches term v16 prices (CPU only, in sample, from
archive/holdout-v16-h200-2026-11-29's cells and workloads; no new measurement).

    python archive/gs-rounds-exploration-2026-11-29/explore.py      (seconds; writes rounds.csv, rounds.png here;
    its printout is explore.txt)

Per graph and width: G, the CPU-derived Gauss-Seidel trace's launches; J, the Jacobi (merged-aligned) trace's;
the expected launches model.gpu_work_v4.expected mixes from them, (1 - phi) G + phi J; and the GPU's rounds, the
`iterations` of the cells (each cell's min and max over its runs; the median of the mid-points over the modes).
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

HERE = Path(__file__).resolve().parent
V16 = HERE.parent / "holdout-v16-h200-2026-11-29"


def rounds() -> pd.DataFrame:
    w = pd.concat(pd.read_csv(p) for p in sorted(V16.glob("workloads/*/workloads.csv")))
    w = w[w["algorithm"] == "pagerank"]
    traces = w.pivot_table(index=["graph", "edge_bytes"], columns="variant", values="launches")
    traces = traces.rename(columns={"gauss-seidel": "G", "merged-aligned": "J"})[["G", "J"]]
    c = pd.read_csv(V16 / "holdout_cells.csv")
    c = c[(c["algorithm"] == "pagerank") & (c["variant"] == "gauss-seidel")].copy()
    c["gpu_rounds"] = (c["iterations_min"] + c["iterations_max"]) / 2
    by = c.groupby(["graph", "edge_bytes"])
    cells = by.agg(split=("split", "first"), expected=("launches", "first"), gpu_rounds=("gpu_rounds", "median"),
                   gpu_min=("iterations_min", "min"), gpu_max=("iterations_max", "max"))  # fmt: skip
    dev = c[c["mode"] == "device"].set_index(["graph", "edge_bytes"])["error"].rename("device_error")
    t = traces.join(cells, how="inner").join(dev)
    t["family"] = ["kron" if g.startswith("kron") else "urand" for g, _ in t.index]
    t["gpu_over_G"] = t["gpu_rounds"] / t["G"]
    t["gpu_over_expected"] = t["gpu_rounds"] / t["expected"]
    return t.reset_index()


def figure(t: pd.DataFrame, out: Path):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for family, marker in (("kron", "o"), ("urand", "s")):
        f = t[t["family"] == family]
        for split, fill in (("train", True), ("held-out", False)):
            g = f[f["split"] == split]
            kw = dict(marker=marker, s=22, edgecolors="k" if family == "kron" else "C1", linewidths=0.7)
            kw["facecolors"] = ("C0" if family == "kron" else "C1") if fill else "none"
            axes[0].scatter(g["expected"], g["gpu_rounds"], label=f"{family} {split}", **kw)
            axes[1].scatter(g["gpu_over_expected"], g["device_error"] * 100, **kw)
    lim = [25, 125]
    axes[0].plot(lim, lim, "k:", lw=0.8)
    axes[0].set(xlabel="expected launches, (1 - phi) G + phi J (term v16)", ylabel="GPU rounds (cells' iterations)",
                title="Gauss-Seidel PageRank: rounds, H200 v16 cells", xlim=lim, ylim=lim)  # fmt: skip
    axes[0].legend(fontsize=8)
    axes[1].axhline(0, color="k", lw=0.6)
    axes[1].set(xlabel="GPU rounds / expected launches", ylabel="device-cell error of term v16 (%)",
                title="error against the rounds' mismatch (4 and 8 B)")  # fmt: skip
    fig.text(0.01, 0.01, "archive/gs-rounds-exploration-2026-11-29 (CPU only, in sample; measured H200 cells of "
             "archive/holdout-v16-h200-2026-11-29, commit 0724f05)", fontsize=7)  # fmt: skip
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(out, dpi=120)


def main():
    t = rounds()
    t.to_csv(HERE / "rounds.csv", index=False, float_format="%.4f")
    figure(t, HERE / "rounds.png")
    for family, f in t.groupby("family"):
        print(f"{family}: GPU rounds / G {f['gpu_over_G'].min():.2f}-{f['gpu_over_G'].max():.2f} "
              f"(median {f['gpu_over_G'].median():.2f}); / expected {f['gpu_over_expected'].min():.2f}-"
              f"{f['gpu_over_expected'].max():.2f} (median {f['gpu_over_expected'].median():.2f}); "
              f"below G in {int((f['gpu_rounds'] < f['G']).sum())} of {len(f)}, above J in "
              f"{int((f['gpu_rounds'] > f['J']).sum())} of {len(f)}")  # fmt: skip
    for name, f in [*t.groupby("family"), ("pooled", t)]:
        r = f["device_error"].corr(f["gpu_over_expected"])
        print(f"device error vs GPU rounds / expected, {name}: Pearson r = {r:.2f} over {len(f)} graph-widths")


if __name__ == "__main__":
    main()
