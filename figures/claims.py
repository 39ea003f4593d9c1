"""The report's claims table: each claim of paper/claims.yaml with the paper's number and section, ours (read from a
figure's CSV), how ours was obtained (a regime of emogi/registry.yaml), a verdict and the reason.

    python -m figures.claims --figures results/figures --out results/figures/claims.csv

paper/claims.yaml says what the verdicts mean. The report shows the same rows (report_section).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from emogi.atomic import write_csv
from emogi.registry import vocabulary

REPO = Path(__file__).resolve().parents[1]
CLAIMS = REPO / "paper" / "claims.yaml"
PAPER_NUMBERS = REPO / "paper" / "paper_numbers.yaml"
COLUMNS = ["id", "claim", "paper", "section", "ours", "regime", "verdict", "reason"]
AGGREGATES = {"mean": np.mean, "max": np.max, "min": np.min, "geomean": lambda x: float(np.exp(np.mean(np.log(x))))}


class ClaimsError(ValueError):
    """A malformed claims file, or a claim naming what the paper's numbers or the figure's CSV lack."""


def paper_entry(numbers: dict, path: str) -> dict:
    entry = numbers
    for key in path.split("."):
        if not isinstance(entry, dict) or key not in entry:
            raise ClaimsError(f"paper/claims.yaml: '{path}' is not in paper/paper_numbers.yaml")
        entry = entry[key]
    return entry


def _select(frame: pd.DataFrame, where: dict, figure: str) -> pd.DataFrame:
    for column, value in where.items():
        if column not in frame.columns:
            raise ClaimsError(f"paper/claims.yaml: {figure}.csv has no column '{column}'")
        frame = frame[frame[column] == value]
    return frame


def ours_value(spec: dict, frame: pd.DataFrame) -> float:
    """Our number: `agg` of `column` over the rows `where` selects (for `ratio_of`, of the per-row ratio of the two
    named values of one column, matched on the CSV's other key columns)."""
    figure, column = spec["figure"], spec["column"]
    if column not in frame.columns:
        raise ClaimsError(f"paper/claims.yaml: {figure}.csv has no column '{column}' (redraw the figure)")
    rows = _select(frame, spec.get("where", {}), figure)
    if "ratio_of" in spec:
        ((key, (a, b)),) = spec["ratio_of"].items()
        keys = [c for c in ("graph", "edge_bytes", "mode", "algorithm") if c in rows.columns]
        pair = rows[rows[key] == a].merge(rows[rows[key] == b], on=keys, suffixes=("_a", "_b"))
        values = pair[f"{column}_a"] / pair[f"{column}_b"]
    else:
        values = rows[column]
    values = pd.to_numeric(values, errors="coerce").dropna()
    return float(AGGREGATES[spec.get("agg", "mean")](values)) if len(values) else math.nan


# Ways of reaching the paper's regime (edge lists larger than GPU memory): each can confirm or refute its claims.
OUT_OF_MEMORY = ("budget", "emulated", "simulated")


def regime_class(regime: str) -> str:
    return "out of GPU memory" if regime in OUT_OF_MEMORY else regime


def verdict(claim: dict, paper: float, ours: float) -> str:
    if math.isnan(ours):
        return "no data"
    if regime_class(claim["paper_regime"]) != regime_class(claim["ours"]["regime"]) and not claim.get(
        "regime_independent"
    ):
        return "not comparable"
    tol, kind = claim.get("tolerance", 0.1), claim.get("kind", "ratio")
    if kind == "up_to":
        return "reproduced" if ours >= paper * (1 - tol) else "not reproduced"
    if kind == "at_most":
        return "reproduced" if ours <= paper * (1 + tol) else "not reproduced"
    if abs(ours / paper - 1) <= tol:
        return "reproduced"
    return "direction holds" if (ours > 1) == (paper > 1) else "not reproduced"


def _fmt(value: float, unit: str | None) -> str:
    if math.isnan(value):
        return "–"
    if unit == "fraction":
        return f"{100 * value:.1f}%"
    return f"{value:.2f}×" if unit == "x" else f"{value:.3g}"


def untested_row(claim: dict, entry: dict) -> dict:
    return {
        "id": claim["id"],
        "claim": claim["claim"],
        "paper": _fmt(float(entry["value"]), entry.get("unit")),
        "section": entry["section"],
        "ours": "–",
        "regime": "–",
        "verdict": "not tested",
        "reason": " ".join(claim.get("reason", "").split()),
    }


def claims_table(figures_dir: Path, claims_path: Path = CLAIMS, numbers_path: Path = PAPER_NUMBERS) -> pd.DataFrame:
    """One row per claim (COLUMNS), the numbers as the report prints them."""
    claims = yaml.safe_load(Path(claims_path).read_text())["claims"]
    numbers = yaml.safe_load(Path(numbers_path).read_text())
    regimes = {r.name: r.label for r in vocabulary().regimes}
    rows = []
    for c in claims:
        entry = paper_entry(numbers, c["paper"])
        if "ours" not in c:  # a claim this study does not test (yet): the reason says why
            rows.append(untested_row(c, entry))
            continue
        for r in (c["paper_regime"], c["ours"]["regime"]):
            if r not in regimes:
                raise ClaimsError(f"paper/claims.yaml: claim {c['id']}: regime '{r}' is not in emogi/registry.yaml")
        csv = Path(figures_dir) / f"{c['ours']['figure']}.csv"
        ours = ours_value(c["ours"], pd.read_csv(csv)) if csv.is_file() else math.nan
        paper = float(entry["value"])
        rows.append(
            {
                "id": c["id"],
                "claim": c["claim"],
                "paper": _fmt(paper, entry.get("unit")) + (" (derived)" if entry.get("derived") else ""),
                "section": entry["section"],
                "ours": _fmt(ours, entry.get("unit")),
                "regime": regimes[c["ours"]["regime"]],
                "verdict": verdict(c, paper, ours),
                "reason": " ".join(c.get("reason", "").split()),
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def report_section(figures_dir: Path) -> dict:
    """The claims table as the report's typst template takes a table: columns, alignment, rows."""
    table = claims_table(figures_dir)
    shown = ["claim", "paper", "section", "ours", "regime", "verdict", "reason"]
    return {
        "columns": ["claim", "paper", "§", "ours", "how ours was obtained", "verdict", "why"],
        "align": "lllllll",
        "rows": table[shown].values.tolist(),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m figures.claims", description=__doc__.split("\n\n")[0])
    ap.add_argument("--figures", type=Path, required=True, help="the folder of the figures' CSVs")
    ap.add_argument("--out", type=Path, required=True, help="the claims table (CSV)")
    a = ap.parse_args(argv)
    try:
        table = claims_table(a.figures)
    except ClaimsError as e:
        print(e, file=sys.stderr)
        return 2
    write_csv(table, a.out)
    print(table[["id", "paper", "ours", "verdict"]].to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
