"""An archived judgement recomputed today: the same tables, not the same bytes. Numbers may differ in their last
digits between numpy, scipy or pandas releases (a fresh machine installs the newest): the fits' iterative solvers
stop a little elsewhere (fitted costs moved by up to 2e-6 relative). So numbers are compared to a relative 1e-5 or an
absolute 1e-8, far below any reported digit (errors are reported to 0.1%); everything else exactly: columns, order,
strings, integers, booleans, keys."""

import json
import math
from pathlib import Path

import pandas as pd

RTOL, ATOL = 1e-5, 1e-8
HOLDOUT = ("holdout_cells.csv", "holdout_costs.csv", "holdout_summary.csv", "source.json")  # a held-out judgement


def _same(a, b) -> bool:
    """JSON values equal, numbers (not booleans) to the tolerance."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_same, a, b))
    numbers = all(isinstance(x, float | int) and not isinstance(x, bool) for x in (a, b))
    return math.isclose(a, b, rel_tol=RTOL, abs_tol=ATOL) if numbers else a == b


def assert_same_file(got: Path, archived: Path) -> None:
    if got.suffix == ".csv":
        pd.testing.assert_frame_equal(pd.read_csv(got), pd.read_csv(archived), check_exact=False, rtol=RTOL, atol=ATOL)
    elif got.suffix == ".json":
        assert _same(json.loads(got.read_text()), json.loads(archived.read_text())), got.name
    else:
        assert got.read_bytes() == archived.read_bytes(), got.name


def assert_same_tables(out: Path, archive: Path, names=HOLDOUT) -> None:
    """Each of `names` in `out` equals the archived one in `archive` (as assert_same_file says)."""
    for name in names:
        assert_same_file(Path(out) / name, Path(archive) / name)
