"""The UVM simulator's costs fitted to measured runs: one machine-wide set, or a shape with a factor per session.

A cell's simulated counts (migrated bytes, fault batches, serviced 2 MiB regions) do not depend on the costs, so
its migration time is linear in them: m = GB x a + batches x tb + serviced x ts (ms). The predicted time is
UvmParams.total_ms(device, m): their sum less `overlap` x the shorter. Fits minimise the sum of absolute relative
errors of the predicted time (a linear program; least absolute deviation keeps a few noisy cells from steering).

`per_session`: a lent machine's fault handling may be slower or faster as a whole (the archived study sessions
of 01:21-03:36 ran identical cold-UVM cells 1.14-1.80x slower than later ones), so each session (archive directory)
gets one factor on all three costs, the median ratio of its own fit cells; the shape (a, tb, ts) is shared and
refitted with the factors, alternating a few rounds. Cells of a session without fit cells get factor 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from model.uvm_sim import UvmParams

GROUP = ["graph", "seed", "variant", "edge_bytes"]  # held out together in cross-validation


def session_of(cells: pd.DataFrame) -> pd.Series:
    """The archive directory of each cell's table: one lent machine, one session."""
    if "source" not in cells:
        return pd.Series("", index=cells.index)
    return cells["source"].str.split("/").str[0]


def features(cells: pd.DataFrame, batches_from: str = "pages") -> np.ndarray:
    """GB migrated, fault batches (of distinct cold pages, or of (warp, cold page) pairs: list_faults with the
    variant's lists per warp) and serviced regions."""
    if batches_from == "pages":
        batches = cells["batches"]
    elif batches_from == "warps":
        batches = np.ceil(cells["list_faults"] / 256)
    else:
        raise ValueError(f"batches_from must be pages or warps, got {batches_from!r}")
    return np.column_stack([cells["migrated_bytes"] / 1e9, batches, cells["serviced_chunks"]]).astype(float)


def _lad(x: np.ndarray, target: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Non-negative coefficients minimising sum |weight x (x @ coef - target)|."""
    n, p = x.shape
    xw, tw, eye = x * weight[:, None], target * weight, np.eye(n)
    res = linprog(
        np.r_[np.zeros(p), np.ones(n)],
        A_ub=np.block([[xw, -eye], [-xw, -eye]]),
        b_ub=np.concatenate([tw, -tw]),
        bounds=[(0, None)] * (p + n),
        method="highs",
    )
    if not res.success:
        raise RuntimeError(f"the fit failed: {res.message}")
    return res.x[:p]


def _migration_target(uvm: np.ndarray, device: np.ndarray, overlap: float) -> np.ndarray:
    """The migration time m for which device + m - overlap x min(device, m) equals the measured time."""
    below = (uvm - device) / (1 - overlap) if overlap < 1 else np.full_like(uvm, np.inf)
    return np.maximum(np.where(below <= device, below, uvm - device + overlap * device), 0.0)


@dataclass
class Calibration:
    coef: np.ndarray  # ms per GB, per batch, per serviced region
    overlap: float = 0.0
    batches_from: str = "pages"
    factors: dict = field(default_factory=dict)  # session -> factor on every cost (per_session fits)

    def params(self, session: str | None = None) -> UvmParams:
        a, tb, ts = self.coef
        base = UvmParams(
            throughput_gbps=1e3 / a if a > 0 else float("inf"),
            batch_us=tb * 1e3,
            service_us=ts * 1e3,
            overlap=self.overlap,
        )
        return base.scaled(self.factors.get(session, 1.0)) if session is not None else base

    def predict(self, cells: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        """(predicted total ms, predicted migration ms) per cell."""
        factor = session_of(cells).map(self.factors).fillna(1.0).to_numpy(float)
        migration = factor * (features(cells, self.batches_from) @ self.coef)
        device = cells["device_ms"].to_numpy(float)
        return device + migration - self.overlap * np.minimum(device, migration), migration


def fit(
    cells: pd.DataFrame, overlap: float = 0.0, per_session: bool = False, batches_from: str = "pages", rounds: int = 8
) -> Calibration:
    uvm, device = cells["uvm_ms"].to_numpy(float), cells["device_ms"].to_numpy(float)
    target = _migration_target(uvm, device, overlap)
    x, session = features(cells, batches_from), session_of(cells)
    factors = pd.Series(1.0, index=session.unique())
    coef = np.zeros(3)
    for _ in range(rounds if per_session else 1):
        f = session.map(factors).to_numpy(float)
        coef = _lad(x * f[:, None], target, 1 / uvm)
        if per_session:
            ratio = pd.Series(target / np.maximum(x @ coef, 1e-12), index=cells.index)
            factors = ratio.groupby(session).median()
            factors = factors / factors.median()  # the shape carries the scale; the median session is 1
    return Calibration(coef, overlap, batches_from, factors.to_dict() if per_session else {})


def cross_validate(
    cells: pd.DataFrame, overlaps=(0.0, 0.25, 0.5, 0.75), per_session=(False, True), batches_from=("pages", "warps")
) -> pd.DataFrame:
    """Leave one (graph, seed, variant, width) group of the fit set out at a time, fit on the rest, predict it:
    the error of each model choice on fit cells it did not see. Chooses among models without the validation set."""
    rows = []
    groups = cells[GROUP].astype(str).agg("|".join, axis=1)
    for source in batches_from:
        for session in per_session:
            for overlap in overlaps:
                errors = []
                for g in groups.unique():
                    held = groups == g
                    model = fit(cells[~held], overlap, session, source)
                    errors.append(np.abs(model.predict(cells[held])[0] / cells.loc[held, "uvm_ms"] - 1))
                e = pd.concat(errors)
                rows.append(
                    {
                        "batches_from": source,
                        "per_session": session,
                        "overlap": overlap,
                        "cv_median_abs_error": e.median(),
                        "cv_p90_abs_error": e.quantile(0.9),
                        "cv_worst_abs_error": e.max(),
                        "cv_share_within_10pct": (e <= 0.10).mean(),
                    }
                )
    return pd.DataFrame(rows)
