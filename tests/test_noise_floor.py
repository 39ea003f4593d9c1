"""model.noise_floor on synthetic runs: the cell statistic, the between-call ratios and the resampled worst."""

import numpy as np
import pandas as pd

from model import noise_floor as nf


def _runs(call, times, graph="g", mode="device"):
    return pd.DataFrame({"call": call, "date": "d", "graph": graph, "checksum": "c", "algorithm": "cc",
                         "variant": "afforest", "mode": mode, "edge_bytes": 8, "root": -1,
                         "rep": range(len(times)), "time_ms": times})  # fmt: skip


def test_cells_min_spread_and_halves():
    c = nf.cells(_runs("a", [2.0, 1.0, 3.0, 1.5, 4.0]))
    row = c.iloc[0]
    assert row["min_ms"] == 1.0 and row["min2_ms"] == 1.5 and row["reps"] == 5
    assert row["spread"] == 3.0 and row["gap2"] == 0.5
    assert row["even_ms"] == 2.0 and row["odd_ms"] == 1.0  # reps 0, 2, 4 against 1, 3


def test_pairs_ratio_later_over_earlier_and_shift():
    runs = pd.concat([_runs("x", [1.0, 1.2]), _runs("y", [1.1, 1.3]), _runs("x", [2.0], "h"), _runs("y", [2.0], "h")])
    p = nf.pairs(nf.cells(runs), calls=("x", "y"))
    assert len(p) == 2 and set(p["call_a"]) == {"x"}
    assert np.isclose(p.set_index("graph").loc["g", "ratio"], 1.1)
    assert np.isclose(p["shift"].iloc[0], np.median(np.log([1.1, 1.0])))
    assert np.allclose(p["resid"], p["log"] - p["shift"])


def test_perfect_worst_exact_ratio_and_missing_group():
    p = pd.DataFrame({"algorithm": "cc", "variant": "afforest", "mode": "device", "log": [np.log(1.2)],
                      "resid": [0.0], "shift": [0.0], "call_a": "x", "call_b": "y"})  # fmt: skip
    comp = pd.DataFrame({"algorithm": ["cc", "cc"], "variant": ["afforest", "merged-aligned"],
                         "mode": ["device", "device"], "cells": [3, 2]})  # fmt: skip
    w = nf.perfect_worst(p, comp, sims=200).set_index("variant")
    # every draw is ±log 1.2: the worst is 1.2 − 1 as soon as one cell draws +, else 1 − 1/1.2
    assert 0.166 < w.loc["all", "worst_p50"] <= 0.2 + 1e-12
    assert w.loc["all", "missing"] == "merged-aligned/device" and w.loc["all", "cells"] == 3  # the drawn cells
    assert w.loc["all", "share_worst_over_15"] == 1.0 and w.loc["all", "share_median_over_5"] == 1.0
    half = nf.perfect_worst(p, comp, sims=200, scale=0.5).set_index("variant")
    assert half.loc["all", "worst_p90"] <= np.sqrt(1.2) - 1 + 1e-12
