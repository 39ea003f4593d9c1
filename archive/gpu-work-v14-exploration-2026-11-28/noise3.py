# Exploratory (archived runs only, CPU): a perfect predictor's worst |error| over a v12-sized held-out set if each
# cell were measured in 3 separate `emogi run` processes of one call and judged on the MEDIAN over processes of each
# process's min of 5 (a design not yet run). model/noise_floor.py's machinery and pools (rounds-order calls, scale >= 19
# graphs, 864 cell pairs): its primary scenario draws each cell's error as resid/sqrt2 (the cell's deviation from its
# expected value, less the call pair's zero-copy/device shift) plus one call shift/sqrt2 common to the set. The archives
# hold no cell measured by two processes of ONE call, so how much of the per-cell residual is process-level (and so
# shrinks under a median of 3) is unknown: share s of its variance is drawn 3 times and the median taken, 1 - s once.
# s = 0 is today's design (noise_floor.py's primary, reproduced), s = 1 the most a median of 3 could give. The call's
# shift is common to the 3 processes (one call, one session) and does not shrink.
# Usage (repository root, ~1 min): python archive/gpu-work-v14-exploration-2026-11-28/noise3.py
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path[:0] = ["."]
from model import noise_floor as nf  # noqa: E402

HERE = Path(__file__).resolve().parent
COMP = "archive/holdout-v12-h100-2026-11-28/holdout_cells.csv"


def worst_median3(p, comp, share, sims=10000, seed=0):
    rng = np.random.default_rng(seed)
    pools = {k: t["resid"].to_numpy() / np.sqrt(2) for k, t in p.groupby(nf.GROUP)}
    shifts = p.groupby(["call_a", "call_b", "mode"])["shift"].first().unstack("mode")
    common = shifts.iloc[rng.integers(0, len(shifts), sims)].to_numpy() / np.sqrt(2)
    signs = rng.choice([-1, 1], sims)
    rows = []
    for alg, c_alg in comp.groupby("algorithm"):
        errs = []
        for _, c in c_alg.iterrows():
            pool, n = pools[(c["algorithm"], c["variant"], c["mode"])], int(c["cells"])

            def draw(k):
                return pool[rng.integers(0, len(pool), (sims, n, k))] * rng.choice([-1, 1], (sims, n, k))

            x = np.sqrt(1 - share) * draw(1)[..., 0] + np.sqrt(share) * np.median(draw(3), axis=2)
            x = x + (signs * common[:, list(shifts.columns).index(c["mode"])])[:, None]
            errs.append(np.abs(np.expm1(x)))
            rows.append(nf._row(alg, c["variant"], c["mode"], errs[-1], 2**-0.5, "resid", True, ""))
        rows.append(nf._row(alg, "all", "all", np.hstack(errs), 2**-0.5, "resid", True, ""))
    return pd.DataFrame(rows).assign(process_share=share)


def main():
    table = nf.cells(nf.read_runs("archive"))
    same = table[table["call"].isin(nf.ROUNDS_CALLS)]
    p = nf.pairs(same[~same["graph"].str.endswith("17")], nf.ROUNDS_CALLS)
    comp = nf.composition_of(COMP)
    out = pd.concat([worst_median3(p, comp, s) for s in (0.0, 0.5, 1.0)], ignore_index=True)
    # the call level known as well (no common shift): what a median of 3 could give at most
    p0 = p.assign(shift=0.0)
    out = pd.concat([out, worst_median3(p0, comp, 1.0).assign(process_share="1.0, no call shift")])
    out.to_csv(HERE / "noise_median3.csv", index=False, float_format="%.4f")
    a = out[out["variant"] == "all"]
    print(a.pivot_table(index="algorithm", columns="process_share",
                        values=["worst_p50", "worst_p90", "share_worst_over_15"]).round(3).to_string())  # fmt: skip
    z = out[(out["algorithm"] == "cc") & (out["variant"] != "all")]
    print(z.pivot_table(index=["variant", "mode"], columns="process_share",
                        values=["worst_p50", "worst_p90", "share_worst_over_15"]).round(3).to_string())  # fmt: skip


if __name__ == "__main__":
    main()
