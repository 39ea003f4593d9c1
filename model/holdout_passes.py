"""Issue 24's held-out validation v13 (docs/holdout-v13.md): the registered statistic over separate processes. The
call measures every held-out cell in PASSES separate processes (tools/device/holdout_v13.sh: the session part run
once per pass); each pass, combined with the train session (model.holdout_combine), is judged alone by
`python -m model.holdout --split v13`, which takes a cell's MIN over its 5 timed runs within the pass. This module
reads the passes' judgements and gives every held-out cell the MEDIAN over the passes of those mins (the split's
PASS_STATISTIC over its STATISTIC), judged against the registered prediction. That prediction does not depend on the
pass (the costs are fitted on the train graphs only), so it must be equal in every pass (checked to 1e-12), and so
must the train cells (the train session's, one process's min each, as measured).

    python -m model.holdout_passes --split v13 --judged J1 J2 J3 [--own K1 K2 K3] --out-dir D

D/holdout_cells.csv: model.holdout's columns (the train rows pass 1's, unchanged; a held-out row's measured_ms the
median over its passes, error against it, slowest_ms the slowest run of any pass, spread against the median,
commit and reps over the passes) and m_p1, m_p2, ... (each pass's min), passes (how many measured it),
process_range (max / min over the passes − 1). D/holdout_summary.csv: model.holdout.summary of it, the registered
judgement. D/passes_summary.csv: the held-out cells judged per pass alone (one process's min, v12's rule) beside the
median, secondary. D/source.json: pass 1's, the statistic and the passes added. With --own (each pass judged with
its own `--parameters`), D/judged_call_link/ the same against the median of the passes' own predictions (secondary;
its train rows pass 1's, whose predictions use pass 1's link).
A cell some pass lacks takes the median of the passes that have it, none is dropped (`passes` says it). Refused,
one line, exit 2: a pass whose train cells or registered predictions differ from pass 1's, a judgement missing or
judged with another split.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from emogi.atomic import write_csv, write_text
from model.holdout import CELL, SPLITS, HoldoutError, summary

KEY = "_key"  # a cell's key with the root filled (CC's and PageRank's is empty), for grouping


class PassError(HoldoutError):
    """Judgements of passes that cannot be put together; one line."""


def read_judged(folder) -> pd.DataFrame:
    path = Path(folder) / "holdout_cells.csv"
    if not path.is_file():
        raise PassError(f"no {path} (a pass's `python -m model.holdout --split v13` judgement)")
    return pd.read_csv(path)


def _keyed(t: pd.DataFrame) -> pd.DataFrame:
    key = t[CELL].astype({"root": float}).fillna({"root": -1.0}).astype(str).agg("|".join, axis=1)
    return t.assign(**{KEY: key})


def _check_train(tables: list[pd.DataFrame], train: str, same_prediction: bool = True) -> None:
    """Every pass's train cells are pass 1's: the same train session (measured equal) and, with the registered
    link, the same fit (predicted equal too). With each pass's own link the train predictions differ by design."""
    columns = ["measured_ms", "predicted_ms"] if same_prediction else ["measured_ms"]
    first = tables[0][tables[0]["split"] == train].set_index(KEY)[columns].sort_index()
    for i, t in enumerate(tables[1:], 2):
        mine = t[t["split"] == train].set_index(KEY)[columns].sort_index()
        if not mine.index.equals(first.index) or not np.allclose(mine, first, rtol=1e-12, atol=0):
            raise PassError(f"pass {i}: its train cells differ from pass 1's (another train session or fit)")


def over_passes(m: pd.DataFrame) -> pd.DataFrame:
    """Per cell (a row of m: each pass's min, a column a pass) the median over the passes (a pass lacking the cell
    left out) and process_range (max / min − 1, the spread of the processes); model.process_repeat's too."""
    return pd.DataFrame({"median": m.median(axis=1), "process_range": m.max(axis=1) / m.min(axis=1) - 1})


def combine(tables: list[pd.DataFrame], train: str, statistic: str = "median", same_prediction: bool = True):
    """The judged table over the passes (the module docstring's holdout_cells.csv). same_prediction: the registered
    link (each held-out cell's prediction equal in every pass, checked); else each pass's own link, the prediction
    the median of the passes' (as the measured)."""
    if statistic != "median":
        raise PassError(f"statistic {statistic}: only the median over passes is registered")
    tables = [_keyed(t) for t in tables]
    _check_train(tables, train, same_prediction)
    held = pd.concat([t[t["split"] != train].assign(_pass=i) for i, t in enumerate(tables, 1)], ignore_index=True)
    g = held.groupby(KEY, sort=False)
    pred = g["predicted_ms"]
    if same_prediction and ((pred.max() - pred.min()) > 1e-12 * pred.min().abs()).any():
        bad = (pred.max() - pred.min() > 1e-12 * pred.min().abs()).idxmax()
        raise PassError(f"{bad}: the registered prediction differs between passes (it must not depend on them)")
    m = held.pivot(index=KEY, columns="_pass", values="measured_ms")
    m.columns = [f"m_p{c}" for c in m.columns]
    stat = over_passes(m)
    out = held.drop_duplicates(KEY).set_index(KEY).drop(columns="_pass")
    out["measured_ms"] = stat["median"]
    out["predicted_ms"] = pred.median()
    out["error"] = out["predicted_ms"] / out["measured_ms"] - 1
    out["reps"] = g["reps"].sum()
    out["slowest_ms"] = g["slowest_ms"].max()
    out["spread"] = out["slowest_ms"] / out["measured_ms"] - 1
    out["date"] = g["date"].min()
    out["commit"] = g["commit"].agg(lambda c: ",".join(sorted(set(map(str, c)))))
    out = out.join(m)
    out["passes"] = m.notna().sum(axis=1)
    out["process_range"] = stat["process_range"]
    trained = tables[0][tables[0]["split"] == train].set_index(KEY)
    return pd.concat([trained, out]).reset_index(drop=True)


def per_pass(tables: list[pd.DataFrame], train: str, combined: pd.DataFrame) -> pd.DataFrame:
    """Each pass's held-out cells judged alone (one process's min) and the median over passes: per algorithm."""
    rows = [summary(t[t["split"] != train]).assign(statistic=f"p{i}") for i, t in enumerate(tables, 1)]
    rows.append(summary(combined[combined["split"] != train]).assign(statistic="median over passes"))
    s = pd.concat(rows, ignore_index=True)
    return s[s["mode"] == "all"].drop(columns=["mode"]).reset_index(drop=True)


def write(out: Path, tables: list[pd.DataFrame], train: str, same_prediction: bool) -> pd.DataFrame:
    out.mkdir(parents=True, exist_ok=True)
    table = combine(tables, train, same_prediction=same_prediction)
    write_csv(table, out / "holdout_cells.csv")
    s = summary(table)
    write_csv(s, out / "holdout_summary.csv")
    write_csv(per_pass(tables, train, table), out / "passes_summary.csv")
    return s


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.holdout_passes", description=__doc__.split("\n\n")[0])
    p.add_argument("--split", default="v13", choices=[s for s, m in SPLITS.items() if hasattr(m, "PASSES")])
    p.add_argument("--judged", nargs="+", required=True, type=Path, help="each pass's judgement (registered link)")
    p.add_argument("--own", nargs="+", type=Path, help="each pass's judgement with its own link (secondary)")
    p.add_argument("--out-dir", required=True, type=Path)
    a = p.parse_args(argv)
    sp = SPLITS[a.split]
    try:
        if len(a.judged) != sp.PASSES:
            print(f"note: {len(a.judged)} judgements, split {a.split} registers {sp.PASSES} passes", file=sys.stderr)
        s = write(a.out_dir, [read_judged(j) for j in a.judged], sp.TRAIN, True)
        if a.own:
            write(a.out_dir / "judged_call_link", [read_judged(k) for k in a.own], sp.TRAIN, False)
        src = json.loads((a.judged[0] / "source.json").read_text())
        if src.get("split") != a.split:  # each pass judged with this split's term and train table
            raise PassError(f"{a.judged[0]} was judged with split {src.get('split')}, not {a.split}")
        commits = {c for j in a.judged for c in json.loads((j / "source.json").read_text())["commit"].split(",")}
        stat = f"held out: the {sp.PASS_STATISTIC} over the passes of each pass's {sp.STATISTIC}"
        src |= {"commit": ",".join(sorted(commits)), "passes": [str(j) for j in a.judged], "statistic": stat}
        write_text(json.dumps(src, indent=2) + "\n", a.out_dir / "source.json")
    except (HoldoutError, OSError, ValueError, KeyError) as e:
        print(f"model.holdout_passes: {e}", file=sys.stderr)
        return 2
    held = s[(s["split"] != sp.TRAIN) & (s["mode"] == "all")]
    for r in held.itertuples():
        print(f"held out {r.algorithm:9s} {r.cells:4d} cells: median {100 * r.median:5.1f}%  worst "
              f"{100 * r.worst:5.1f}%  {'met' if r.met else 'not met'}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
