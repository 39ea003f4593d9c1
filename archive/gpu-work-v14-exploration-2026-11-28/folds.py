# Exploratory (in sample, archived files only, CPU): term v12's predictions of every cell of the v12 combined session
# (archive/holdout-v12-h100-2026-11-28/session, 25 graphs) under two kinds of folds, cached for corrections.py:
#  LOGO   each graph in turn held out, the other 24 train (25 fits);
#  call   train on earlier calls, judge a later call's graphs: the v10 session's 17 -> the v11 call's 4, and
#         those 21 -> the v12 call's 4 (the registered v12 judgement, reproduced).
# Each fold keeps every cell's prediction: the train cells' (in-sample residuals, what a correction may be fitted on)
# and the held-out cells' (what it is judged on). Usage (repository root, ~10 min on 2 cores):
#   python archive/gpu-work-v14-exploration-2026-11-28/folds.py /tmp/v14folds.pkl
import importlib.util
import sys

import pandas as pd

sys.path[:0] = ["."]
from model import holdout_split_v12 as hs12  # noqa: E402

spec = importlib.util.spec_from_file_location("explore13", "archive/gpu-work-v13-exploration-2026-11-28/explore.py")
ex = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ex)

V11_CALL = ("kron19ef6", "kron20ef3", "urand19ef6", "urand19ef14")  # v11's held-out graphs (seed 33)
V12_CALL = ("kron19ef7", "kron19ef11", "urand19ef7", "urand19ef11")  # v12's (seed 34)


def fold(x, held, graphs):
    """Judge with `held` held out and the rest of `graphs` train (cells of other graphs dropped)."""
    y = {**x, "cells": x["cells"][x["cells"]["graph"].isin(graphs)]}
    t, _ = ex.judged(y, lambda n, source=None: hs12.HELD_OUT if n in held else hs12.TRAIN)
    return t


def main(out):
    x = ex.session()
    graphs = sorted(x["vertices"])
    frames = []
    for g in graphs:
        frames.append(fold(x, {g}, graphs).assign(kind="logo", fold=g))
        print("logo", g, file=sys.stderr)
    early = [g for g in graphs if g not in V11_CALL + V12_CALL]
    frames.append(fold(x, set(V11_CALL), early + list(V11_CALL)).assign(kind="call", fold="v11-call"))
    frames.append(fold(x, set(V12_CALL), graphs).assign(kind="call", fold="v12-call"))
    pd.concat(frames, ignore_index=True).to_pickle(out)


if __name__ == "__main__":
    main(sys.argv[1])
