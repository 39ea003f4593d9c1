"""What the figures and the report read, and what they say when they cannot: the source record (source.json),
the measurement tables and the model's files.

A figure that cannot be drawn raises FigureDataError naming the figure; the report raises ReportError naming the
input. Both say which file is missing, empty or malformed (emogi.tables and model.outputs find out which).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from emogi.tables import TableError, read_table
from model.outputs import ModelParameters, read_parameters, read_predictions, read_summary

REQUIRED_SOURCE_KEYS = ("source", "gpu", "date")


class FigureDataError(ValueError):
    """A figure cannot be drawn because its input table is missing, empty or malformed."""


class ReportError(ValueError):
    """An input of the report is missing or unusable."""


# --- the data source --------------------------------------------------------------------------------------
def load_source(path) -> dict:
    """Read source.json and check the keys every figure needs (`source`, `gpu`, `date`)."""
    path = Path(path)
    try:
        source = json.loads(path.read_text())
    except FileNotFoundError:
        raise FigureDataError(f"{path} is missing: no record of where the measurements came from") from None
    except json.JSONDecodeError as e:
        raise FigureDataError(f"{path} is not valid JSON: {e}") from None
    source_label(source)  # validates
    return source


def source_label(source: dict) -> str:
    """The one sentence that says where a figure's numbers come from.

    "fresh measurements on <GPU>, <date>" or "archived measurements from <GPU> on <date>".
    """
    missing = [k for k in REQUIRED_SOURCE_KEYS if not source.get(k)]
    if missing:
        raise FigureDataError(f"source record lacks {missing}; it needs {list(REQUIRED_SOURCE_KEYS)}")
    kind, gpu, date = source["source"], source["gpu"], str(source["date"])[:10]  # the day; times are in the tables
    if kind == "fresh":
        return f"fresh measurements on {gpu}, {date}"
    if kind == "archive":
        return f"archived measurements from {gpu} on {date}"
    raise FigureDataError(f"source must be 'fresh' or 'archive', not {kind!r}")


# --- a figure's inputs ------------------------------------------------------------------------------------
def load_table(path, table_name: str, figure_name: str) -> pd.DataFrame:
    """Read one measurement table (CSV) for a figure; raise FigureDataError if it is missing, empty or lacks
    columns of `emogi.schema.TABLES[table_name]`."""
    try:
        return read_table(path, table_name)
    except TableError as e:
        if e.state == "columns":
            raise FigureDataError(f"figure {figure_name}: {e}") from None
        raise FigureDataError(
            f"figure {figure_name} has no data: {path} is {e.state}; archived measurements lack the "
            f"'{table_name}' table — run on a GPU (measurements: fresh) or choose an archive that has it"
        ) from None


# what each of the model's files is called in messages, and what writes it
_MODEL_FILES = {
    read_parameters: ("parameters", "python -m model.fit writes it from the microbenchmark tables"),
    read_predictions: ("predictions", "python -m model.predict writes it from the runs, profile and parameters"),
    read_summary: ("prediction_summary", "written with predictions.csv"),
}


def _model_file(read, path, figure_name: str):
    what, hint = _MODEL_FILES[read]
    try:
        return read(path)
    except TableError as e:
        if e.state in ("missing", "empty"):
            raise FigureDataError(
                f"figure {figure_name} has no data: {path} is {e.state}; it needs the model's '{what}' ({hint})"
            ) from None
        raise FigureDataError(f"figure {figure_name}: {e} (the model's '{what}')") from None


def load_parameters(path, figure_name: str) -> ModelParameters:
    """The model's parameters.json (model.outputs.read_parameters)."""
    return _model_file(read_parameters, path, figure_name)


def load_predictions(path, figure_name: str) -> pd.DataFrame:
    """The model's predictions.csv (one row per measured configuration, model.outputs.PREDICTION_COLUMNS)."""
    return _model_file(read_predictions, path, figure_name)


def load_summary(path, figure_name: str) -> dict:
    """The model's prediction_summary.json."""
    return _model_file(read_summary, path, figure_name)


# --- the report's inputs ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReportFigure:
    """A figure as the report shows it: its image (absolute from the typst root, as the .typ wants it) and the
    CSV of its plotted numbers, which the figure script wrote beside the image."""

    image: str
    csv: Path


def report_csv(path, what: str, table: str | None = None) -> pd.DataFrame:
    """A CSV the report shows (a figure's numbers, a table); ReportError naming `what` if unusable."""
    try:
        return read_table(path, table)
    except TableError as e:
        raise ReportError(f"report: {e} ({what})") from None


def report_model_file(read, path, what: str):
    """One of the model's files (a model.outputs reader) for the report; None when there is none."""
    if path is None or not Path(path).is_file():
        return None
    try:
        return read(path)
    except TableError as e:
        raise ReportError(f"report: {e} ({what})") from None
