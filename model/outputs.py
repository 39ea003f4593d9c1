"""The model's files read back: parameters.json (model.fit), predictions.csv and prediction_summary.json
(model.predict), for the figures and the report that show them.

A file that cannot be used raises emogi.tables.TableError, whose state says why ("missing", "empty", "columns"
or "invalid"): each reader then says what it was making.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from emogi.tables import TableError, read_table
from model.fit import load_parameters, params_for

# The columns of predictions.csv (model.predict's OUT_COLUMNS) that its readers rely on.
PREDICTION_COLUMNS = [
    "graph",
    "algorithm",
    "variant",
    "mode",
    "edge_bytes",
    "max_warps",
    "footprint_bytes",
    "measured_ms",
    "D_bytes",
    "d_bytes",
    "T_gbps",
    "bound",
    "transfer_ms",
    "floor_ms",
    "predicted_ms",
    "rel_error",
]


@dataclass
class ModelParameters:
    """parameters.json as read (`raw`) and where it lies (`path`)."""

    path: Path
    raw: dict

    @property
    def W(self) -> dict:
        return self.raw["W_gbps"]

    @property
    def N_max(self) -> dict:
        return self.raw["N_max"]

    def link_params(self, mode: str, footprint_bytes: float):
        """model.fit.params_for: the LinkParams the model uses for `mode` at `footprint_bytes`."""
        return params_for(self.raw, mode, footprint_bytes)

    def footprints(self, mode: str) -> list[int]:
        """Footprints with a fitted latency for `mode`."""
        return sorted({int(e["footprint_bytes"]) for e in self.raw.get("latency", []) if e.get("mode") == mode})


def read_parameters(path) -> ModelParameters:
    """parameters.json (model.fit.load_parameters checks its keys)."""
    path = Path(path)
    if not path.is_file():
        raise TableError(f"{path} is missing", "missing")
    try:
        return ModelParameters(path, load_parameters(path))
    except ValueError as e:
        raise TableError(str(e), "invalid") from None


def read_predictions(path) -> pd.DataFrame:
    """predictions.csv, one row per predicted configuration, with PREDICTION_COLUMNS."""
    frame = read_table(path)
    missing = [c for c in PREDICTION_COLUMNS if c not in frame.columns]
    if missing:
        raise TableError(f"{path} lacks columns {missing}", "columns")
    return frame


def read_summary(path) -> dict:
    """prediction_summary.json (errors, the rule and what was excluded)."""
    path = Path(path)
    if not path.is_file():
        raise TableError(f"{path} is missing", "missing")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise TableError(f"{path} is not valid JSON: {e}", "invalid") from None
