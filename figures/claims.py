"""The report's claims table: each claim of the four papers (paper/claims/, one file per paper) with the paper's
number and section, ours (read from a figure's CSV), how ours was obtained (a regime of emogi/registry.yaml), a
verdict and the reason.

    python -m figures.claims --figures results/figures --out results/figures/claims.csv

paper/claims/README.md says what the keys and verdicts mean. The report shows the same rows (report_section),
grouped by paper.
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
CLAIMS = REPO / "paper" / "claims"
# the papers in the order the table shows them: file name in paper/claims/ (its `source:` names the paper)
PAPERS = ("emogi", "cxl", "cf17", "graphit")
PAPER_NUMBERS = REPO / "paper" / "paper_numbers.yaml"
COLUMNS = ["id", "source", "claim", "paper", "section", "ours", "regime", "verdict", "reason"]
VERDICTS = (
    "reproduced",
    "direction holds",
    "not reproduced",
    "not comparable",
    "no data",
    "not tested",
)
KINDS = ("ratio", "value", "up_to", "at_most")
AGGREGATES = {"mean": np.mean, "max": np.max, "min": np.min, "geomean": lambda x: float(np.exp(np.mean(np.log(x))))}


class ClaimsError(ValueError):
    """A malformed claims file, or a claim naming what the paper's numbers or the figure's CSV lack."""


def paper_entry(numbers: dict, path: str) -> dict:
    entry = numbers
    for key in path.split("."):
        if not isinstance(entry, dict) or key not in entry:
            raise ClaimsError(f"paper/claims: '{path}' is not in paper/paper_numbers.yaml")
        entry = entry[key]
    return entry


def load_claims(path: Path = CLAIMS) -> list[dict]:
    """Every claim, each with its paper's label as `source`: from the folder's files in PAPERS order, or one file."""
    path = Path(path)
    files = [path / f"{name}.yaml" for name in PAPERS] if path.is_dir() else [path]
    if path.is_dir() and sorted(f.name for f in path.glob("*.yaml")) != sorted(f.name for f in files):
        raise ClaimsError(f"{path}: the claims files must be {', '.join(f.name for f in files)}")
    claims = []
    for f in files:
        doc = yaml.safe_load(f.read_text())
        for c in doc["claims"]:
            if c.get("kind", "ratio") not in KINDS:
                raise ClaimsError(f"{f.name}: claim {c['id']}: kind '{c['kind']}' is not one of {', '.join(KINDS)}")
            if "ours" not in c and not c.get("reason"):
                raise ClaimsError(f"{f.name}: claim {c['id']} is not tested and says no reason why")
            claims.append({**c, "source": doc.get("source", f.stem)})
    return claims


def _select(frame: pd.DataFrame, where: dict, figure: str) -> pd.DataFrame:
    for column, value in where.items():
        if column not in frame.columns:
            raise ClaimsError(f"paper/claims: {figure}.csv has no column '{column}'")
        frame = frame[frame[column] == value]
    return frame


def ours_value(spec: dict, frame: pd.DataFrame) -> float:
    """Our number: `agg` of `column` over the rows `where` selects (for `ratio_of`, of the per-row ratio of the two
    named values of one column, matched on the CSV's other key columns)."""
    figure, column = spec["figure"], spec["column"]
    if column not in frame.columns:
        raise ClaimsError(f"paper/claims: {figure}.csv has no column '{column}' (redraw the figure)")
    rows = _select(frame, spec.get("where", {}), figure)
    if "ratio_of" in spec:
        ((key, (a, b)),) = spec["ratio_of"].items()
        keys = spec.get("match_on") or [c for c in ("graph", "edge_bytes", "mode", "algorithm") if c in rows.columns]
        keys = [c for c in keys if c != key]
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


def verdict(claim: dict, paper: float | list, ours: float) -> str:
    """The verdict of paper/claims/README.md. `paper` is a number or a [lo, hi] range (the paper's "1.0 to 1.6")."""
    if math.isnan(ours):
        return "no data"
    if claim.get("comparable", True) is False:
        return "not comparable"  # the paper's number belongs to other hardware (its link, its GPU): `reason`
    if regime_class(claim["paper_regime"]) != regime_class(claim["ours"]["regime"]) and not claim.get(
        "regime_independent"
    ):
        return "not comparable"
    tol, kind = claim.get("tolerance", 0.1), claim.get("kind", "ratio")
    lo, hi = (float(paper[0]), float(paper[1])) if isinstance(paper, list) else (float(paper), float(paper))
    if kind == "up_to":
        return "reproduced" if ours >= lo * (1 - tol) else "not reproduced"
    if kind == "at_most":
        return "reproduced" if ours <= hi * (1 + tol) else "not reproduced"
    if lo * (1 - tol) <= ours <= hi * (1 + tol):
        return "reproduced"
    if kind == "value":  # a quantity (bytes, µs), not a speedup: no side of 1 to hold
        return "not reproduced"
    return "direction holds" if (ours > 1) == (lo > 1) else "not reproduced"


UNITS = {"GB/s": " GB/s", "MB/s": " MB/s", "us": " µs", "MIOPS": " MIOPS", "bytes": " B", "GF/s": " GF/s"}


def _fmt(value: float | list, unit: str | None) -> str:
    """A number as the table prints it; a [lo, hi] range as "lo–hi" with one unit."""
    if isinstance(value, list):
        lo, hi = (_fmt(float(v), unit) for v in value)
        for suffix in ("%", "×", *UNITS.values()):
            if suffix and lo.endswith(suffix):
                lo = lo[: -len(suffix)]
                break
        return f"{lo}–{hi}"
    if math.isnan(value):
        return "–"
    if unit == "fraction":
        return f"{100 * value:.3g}%"
    if unit == "x":
        return f"{value:.2f}×" if value < 10 else f"{value:.3g}×"
    if unit == "bytes" and value >= 2**20:
        return f"{value / 2**20:.3g} MiB"
    number = f"{value:,.0f}" if value >= 1000 else f"{value:.3g}"
    return number + UNITS.get(unit, "")


def paper_value(entry: dict) -> float | list:
    value = entry["value"]
    if isinstance(value, list):
        return [float(v) for v in value]
    if not isinstance(value, (int, float)):
        raise ClaimsError(f"paper/claims: the paper's number '{value}' is not a number or a [lo, hi] range")
    return float(value)


def untested_row(claim: dict, entry: dict) -> dict:
    return {
        "id": claim["id"],
        "source": claim["source"],
        "claim": claim["claim"],
        "paper": _fmt(paper_value(entry), entry.get("unit")) + (" (derived)" if entry.get("derived") else ""),
        "section": entry["section"],
        "ours": "–",
        "regime": "–",
        "verdict": "not tested",
        "reason": " ".join(claim.get("reason", "").split()),
    }


def claims_table(figures_dir: Path, claims_path: Path = CLAIMS, numbers_path: Path = PAPER_NUMBERS) -> pd.DataFrame:
    """One row per claim (COLUMNS), the numbers as the report prints them."""
    claims = load_claims(claims_path)
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
                raise ClaimsError(f"paper/claims: claim {c['id']}: regime '{r}' is not in emogi/registry.yaml")
        csv = Path(figures_dir) / f"{c['ours']['figure']}.csv"
        ours = ours_value(c["ours"], pd.read_csv(csv)) if csv.is_file() else math.nan
        paper = paper_value(entry)
        rows.append(
            {
                "id": c["id"],
                "source": c["source"],
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


def verdict_counts(table: pd.DataFrame) -> dict:
    """How many claims got each verdict, in VERDICTS order (those with none left out)."""
    counts = table["verdict"].value_counts()
    return {v: int(counts[v]) for v in VERDICTS if v in counts}


def report_section(figures_dir: Path) -> dict:
    """The claims table as the report's typst template takes a table: columns, alignment, rows; a row spanning
    the table names each paper before its claims. `counts`: the verdicts, overall and per paper."""
    table = claims_table(figures_dir)
    shown = ["claim", "paper", "section", "ours", "regime", "verdict", "reason"]
    rows = []
    for source, group in table.groupby("source", sort=False):
        rows.append([{"colspan": len(shown), "text": f"{source}: {len(group)} claims", "strong": True}])
        rows += group[shown].values.tolist()
    return {
        "columns": ["claim", "paper", "§", "ours", "how ours was obtained", "verdict", "why"],
        "align": "lllllll",
        "widths": [20, 8, 10, 7, 10, 8, 37],  # the reasons get the room
        "rows": rows,
        "n_claims": len(table),
        "counts": [{"verdict": v, "n": n} for v, n in verdict_counts(table).items()],
        "papers": [
            {"source": s, "n": len(g), "counts": [{"verdict": v, "n": n} for v, n in verdict_counts(g).items()]}
            for s, g in table.groupby("source", sort=False)
        ],
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
    print(", ".join(f"{n} {v}" for v, n in verdict_counts(table).items()), f"({len(table)} claims)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
