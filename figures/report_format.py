"""How the report writes numbers, shared by every section: paper/report.typ prints strings as they are, so all
rounding happens here. Missing or non-finite values print as "–"; the JSON gets None for them (NaN is not JSON).
"""

from __future__ import annotations

import math

import pandas as pd

from figures.style import fmt_size


def fx(v, digits=2) -> str:
    return "–" if v is None or not math.isfinite(v) else f"{v:.{digits}f}×"


def fgb(v, digits=1) -> str:
    return "–" if v is None or not math.isfinite(v) else f"{v:.{digits}f} GB/s"


def fpct(v) -> str:
    return "–" if v is None or not math.isfinite(v) else f"{100 * v:.0f}%"


def fpct1(v) -> str:
    return "–" if v is None or not math.isfinite(v) else f"{100 * v:.1f}%"


def fms(v) -> str:
    if v is None or not math.isfinite(v):
        return "–"
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def fus(v, digits=2) -> str:
    return "–" if v is None or not math.isfinite(v) else f"{v:.{digits}f} µs"


def fbytes(b: float) -> str:
    """A size (memory, footprint, edge list) in binary units: a whole number of its unit as it is (256 MiB, 8 GiB),
    any other to three digits (1.93 GiB, 2.00 GiB, 79.6 GiB). The report writes every size so, as the figures do
    (style.fmt_size); only rates are decimal (GB/s = 1e9 B/s)."""
    if b is None or not math.isfinite(float(b)):
        return "–"
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale:
            v = b / scale
            return f"{v:.0f} {unit}" if v == int(v) or v >= 99.95 else f"{v:#.3g} {unit}"
    return f"{b:.0f} B"


def fsize(b) -> str:
    return "–" if b is None or not math.isfinite(float(b)) else fmt_size(b)


def fnum(v):
    """A float for the JSON (NaN is not JSON): None when missing."""
    return None if v is None or not math.isfinite(float(v)) else float(v)


def frange(lo: float, hi: float, fmt) -> str:
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "–"
    return fmt(lo) if fmt(lo) == fmt(hi) else f"{fmt(lo)} to {fmt(hi)}"


def interval_text(entry: dict, fmt: str = ".3g", unit: str = "") -> str:
    """A fitted value with its interval, '55.3 GB/s [54.9, 55.6]'."""
    v, lo, hi = entry.get("value"), entry.get("lo"), entry.get("hi")
    text = format(float(v), fmt) + unit
    if lo is not None and hi is not None and math.isfinite(float(lo)) and math.isfinite(float(hi)):
        text += f" [{format(float(lo), fmt)}, {format(float(hi), fmt)}]"
    return text


def span(text: str, cols: int) -> dict:
    """A table cell spanning `cols` columns (the .typ turns it into table.cell(colspan: ...))."""
    return {"text": text, "colspan": cols}


# --- the papers' numbers (paper/paper_numbers.yaml) ----------------------------------------------------------
def paper_value(entry: dict, fmt) -> str:
    """The paper's value as printed; a range [lo, hi] prints as "lo–hi unit"; a statement (string) as it is."""
    v = entry["value"]
    if isinstance(v, str):
        text = v
    elif isinstance(v, list):
        lo, hi = fmt(v[0]), fmt(v[1])
        unit = next((u for u in (" GB/s", "%", "×") if lo.endswith(u) and hi.endswith(u)), "")
        text = f"{lo[: len(lo) - len(unit)]}–{hi}"
    else:
        text = fmt(v)
    return ("≈ " + text + " (derived)") if entry.get("derived") else text


def paper_entry(paper: dict, group: str, key: str) -> dict:
    """One number of paper_numbers.yaml; a placeholder ("–") where the file lacks it."""
    return paper.get(group, {}).get(key, {"value": "–", "section": "–"})


# --- our numbers --------------------------------------------------------------------------------------------
def summary_of(t: pd.DataFrame, column: str, how: str, **where) -> float:
    """`how` ("mean", "max") of `column` over the rows whose columns equal `where`'s values; NaN when none do."""
    for key, value in where.items():
        t = t[t[key] == value]
    return float(t[column].agg(how)) if len(t) else math.nan
