"""model.process_repeat on synthetic judgements: the cell table, the process pairs, the judgements over passes, the
verdicts and the perfect predictor's worst."""

import numpy as np
import pandas as pd
import pytest

from model import process_repeat as pr
from model.holdout import CELL


def _cells(measured, predicted, split="held-out"):
    n = len(measured)
    return pd.DataFrame({"split": split, "graph": [f"g{i}" for i in range(n)], "algorithm": "cc",
                         "variant": "afforest", "mode": ["device", "zerocopy"] * (n // 2), "edge_bytes": 8,
                         "root": -1, "measured_ms": measured, "predicted_ms": predicted})  # fmt: skip


def _write(tmp_path, name, measured, predicted):
    d = tmp_path / name
    d.mkdir(parents=True)
    train = _cells([1.0, 1.0], [1.0, 1.0], "train").assign(graph=["t0", "t1"])
    pd.concat([_cells(measured, predicted), train]).to_csv(d / "holdout_cells.csv", index=False)
    return d


def _table(tmp_path, passes, pred=(1.0, 1.0, 1.0, 1.0)):
    v12 = _write(tmp_path, "v12", [1.0, 1.0, 1.0, 1.0], list(pred))
    own = _write(tmp_path, "v12own", [1.0, 1.0, 1.0, 1.0], [1.1] * 4)
    judged = [_write(tmp_path, f"j{i}", m, list(pred)) for i, m in enumerate(passes)]
    owns = [_write(tmp_path, f"k{i}", m, [1.0 + i / 10] * 4) for i, m in enumerate(passes)]
    return pr.cell_table(judged, owns, v12 / "holdout_cells.csv", own / "holdout_cells.csv")


PASSES3 = ([1.0, 2.0, 1.0, 1.0], [1.2, 2.0, 1.0, 1.0], [0.9, 2.2, 1.0, 1.0])


def test_cell_table_median_min_range_and_own_link(tmp_path):
    c = _table(tmp_path, PASSES3)
    assert len(c) == 4 and set(c["graph"]) == {"g0", "g1", "g2", "g3"}  # the held-out cells only
    row = c.set_index("graph").loc["g0"]
    assert row["m_median3"] == 1.0 and row["m_min3"] == 0.9
    assert np.isclose(row["process_range"], 1.2 / 0.9 - 1)
    assert np.isclose(row["q_median3"], 1.1)  # the median of the passes' own-link predictions (1.0, 1.1, 1.2)


def test_registered_prediction_must_not_depend_on_the_pass(tmp_path):
    v12 = _write(tmp_path, "v12", [1.0] * 4, [1.0] * 4)
    judged = [_write(tmp_path, f"j{i}", [1.0] * 4, [1.0 + (i == 2)] * 4) for i in range(3)]
    with pytest.raises(ValueError, match="registered prediction"):
        pr.cell_table(judged, judged, v12 / "holdout_cells.csv", v12 / "holdout_cells.csv")


def test_process_pairs_shift_and_judgements(tmp_path):
    c = _table(tmp_path, PASSES3, (1.0, 2.0, 1.0, 1.0))
    p = pr.process_pairs(c)
    assert len(p) == 3 * len(c)
    g0 = p[(p["graph"] == "g0") & (p["pair"] == "p1-p2")]
    assert np.isclose(g0["log"].iloc[0], np.log(1.2))
    assert np.allclose(p["resid"], p["log"] - p["shift"])
    s, errs = pr.judgements(c)
    j = s.set_index(["statistic", "link", "algorithm"])
    assert np.isclose(j.loc[("min3", "registered", "cc"), "worst"], 1 / 0.9 - 1)
    assert np.isclose(j.loc[("p2", "registered", "cc"), "worst"], 1 - 1 / 1.2)
    assert j.loc[("p2", "registered", "cc"), "past_15"] == 1  # 1/1.2 − 1 = −16.7%
    assert j.loc[("median3", "registered", "cc"), "worst"] == 0  # the medians equal the predictions
    assert list(errs.columns[: len(CELL)]) == CELL


def test_classify_model_error_edge_and_noise():
    e = pd.DataFrame({c: ["g"] * 3 for c in CELL})
    errors = {"v12 call": [0.3, 0.16, 0.2], "p1": [0.31, 0.12, -0.02], "p2": [0.2, 0.14, 0.1],
              "p3": [0.25, 0.11, 0.0], "median3": [0.25, 0.12, 0.0], "min3": [0.2, 0.14, 0.1]}  # fmt: skip
    for col, vals in errors.items():
        e[f"{col}|registered"] = vals
    v = pr.classify(e)["verdict"].tolist()
    assert v == ["model error", "model error near 15%, noise carries it past", "noise"]


def test_perfect_median3_shrinks_with_the_process_share():
    rng = np.random.default_rng(1)
    x = rng.normal(0, 0.08, 400)
    p = pd.DataFrame({"algorithm": "cc", "variant": "afforest", "mode": "zerocopy", "resid": x, "shift": 0.0,
                      "call_a": "a", "call_b": "b"})  # fmt: skip
    comp = pd.DataFrame({"algorithm": ["cc"], "variant": ["afforest"], "mode": ["zerocopy"], "cells": [8]})
    key = ("cc", "afforest", "zerocopy")
    one = pr.perfect_median3(p, comp, {key: 0.0}, 1, sims=2000).set_index("variant").loc["all", "worst_p50"]
    three = pr.perfect_median3(p, comp, {key: 1.0}, 3, sims=2000).set_index("variant").loc["all", "worst_p50"]
    assert three < one
