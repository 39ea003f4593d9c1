"""Reading the study's tables: one place that says what is wrong with a table a figure, the model or the
report needs (missing, empty, lacking columns); callers add what they were trying to make. Also the row
selections and the reduction over reps that every reader of the tables applies the same way."""

from pathlib import Path

import pandas as pd

from emogi.schema import PROVENANCE_COLUMNS, check_columns


class TableError(ValueError):
    def __init__(self, message, state):
        super().__init__(message)
        self.state = state  # "missing", "empty", "columns" or (a JSON file of the model) "invalid"


def read_measured_csv(path, **options):
    """A measured table with its provenance columns read as text: a commit of digits alone (0628657) keeps its
    leading zero instead of becoming the number 628657."""
    return pd.read_csv(path, dtype={c: str for c in PROVENANCE_COLUMNS}, **options)


def read_table_or_exit(path, table, program, check_columns=True):
    """read_table for a command line: a bad table ends `program` with one line naming it."""
    try:
        return read_table(path, table if check_columns else None)
    except TableError as e:
        raise SystemExit(f"{program}: {e} (the '{table}' table)") from None


def read_table(path, table=None):
    """Read a CSV; raise TableError if it is missing or has no rows, or (with `table`, a schema.TABLES name)
    lacks any of that table's columns."""
    path = Path(path)
    if not path.is_file():
        raise TableError(f"{path} is missing", "missing")
    try:
        frame = pd.read_csv(path)
    except pd.errors.EmptyDataError:  # a zero-byte file
        frame = pd.DataFrame()
    if frame.empty:  # no rows (an archive lacking the table restores a header-only file)
        raise TableError(f"{path} is empty", "empty")
    if table:
        try:
            check_columns(frame, table)
        except ValueError as err:
            raise TableError(f"{path}: {err}", "columns") from None
    return frame


def default_launch(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows of a runs or profile table measured with the default launch (max_warps == 0: a warp or thread per
    vertex), i.e. not throttled. Figures, the model's time averages and the report use only these: a throttled
    run (max_warps > 0) is an emulation of a longer latency, not another measurement of the same configuration.
    A table without the column (written before throttled runs existed) holds only default launches; a blank cell
    counts as 0 for the same reason."""
    if "max_warps" not in frame.columns:
        return frame
    warps = pd.to_numeric(frame["max_warps"], errors="coerce").fillna(0)
    return frame[warps == 0]


def throttled(frame: pd.DataFrame) -> pd.DataFrame:
    """The complement of `default_launch`: rows with max_warps > 0."""
    if "max_warps" not in frame.columns:
        return frame.iloc[0:0]
    warps = pd.to_numeric(frame["max_warps"], errors="coerce").fillna(0)
    return frame[warps > 0]


def verified_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows whose `verified` flag is not false (rows are only written when verified; this guards hand-made ones)."""
    if "verified" not in frame.columns:
        return frame
    return frame[~frame["verified"].astype(str).str.strip().str.lower().isin(["false", "0", "no"])]


def summarise_reps(frame: pd.DataFrame, keys: list[str], value: str, prefix: str | None = None) -> pd.DataFrame:
    """Median and IQR over reps of `value` per `keys`: columns <prefix>, <prefix>_q25, <prefix>_q75, n_reps."""
    prefix = prefix or value
    g = frame.groupby(keys, sort=True)[value]
    out = g.median().rename(prefix).to_frame()
    out[f"{prefix}_q25"] = g.quantile(0.25)
    out[f"{prefix}_q75"] = g.quantile(0.75)
    out["n_reps"] = g.size()
    return out.reset_index()
