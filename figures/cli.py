"""The command line every figure script shares: one flag per file it reads, --source, --out and --out-csv.

A script declares its inputs (measurement tables by schema name, or Inputs such as the model's files) and its
Options; figure_main parses them, loads each file (figures.inputs), computes the plotted table, draws and saves.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from figures.inputs import FigureDataError, load_parameters, load_predictions, load_source, load_summary, load_table
from figures.style import save, write_csv


@dataclass(frozen=True)
class Input:
    """One file a figure reads (--<flag> PATH): `load(path, figure)` returns what `compute` receives; an optional
    input that is not given reaches `compute` as None."""

    name: str
    load: Callable[[Path, str], Any]
    help: str
    required: bool = True

    @property
    def flag(self) -> str:
        return self.name.replace("_", "-")


@dataclass(frozen=True)
class Option:
    """A plain option (--<flag> VALUE) handed to `compute` as a keyword argument."""

    name: str
    type: Callable = str
    default: Any = None
    help: str = ""
    nargs: Any = None

    @property
    def flag(self) -> str:
        return self.name.replace("_", "-")


def table_input(name: str, required: bool = True) -> Input:
    """A measurement table (schema name) as an Input: --<name with dashes> PATH."""
    return Input(
        name,
        lambda path, figure: load_table(path, name, figure),
        f"{name}.csv (schema table '{name}')" + ("" if required else "; optional"),
        required,
    )


PARAMETERS_INPUT = Input("parameters", load_parameters, "parameters.json of the model (model.fit)")
PREDICTIONS_INPUT = Input("predictions", load_predictions, "predictions.csv of the model (model.predict)")
SUMMARY_INPUT = Input("summary", load_summary, "prediction_summary.json of the model (model.predict)")


def figure_main(argv, *, figure: str, description: str, tables: list, compute, draw, inputs=(), options=()) -> int:
    """One --<table> CSV per table the figure reads (schema names; a table may be given as an Input to make it
    optional), then `inputs` (other files, e.g. the model's parameters), --source, --out (.png/.pdf) and
    --out-csv for the plotted numbers. `compute(*tables, *inputs, **options)` turns them (in the order given)
    into the plotted table; `draw(table, source)` makes the figure."""
    ap = argparse.ArgumentParser(description=description)
    specs = [t if isinstance(t, Input) else table_input(t) for t in tables] + list(inputs)
    for spec in specs:
        ap.add_argument(f"--{spec.flag}", dest=spec.name, type=Path, required=spec.required, help=spec.help)
    for opt in options:
        ap.add_argument(
            f"--{opt.flag}",
            dest=opt.name,
            type=opt.type,
            default=opt.default,
            nargs=opt.nargs,
            help=f"{opt.help} (default: {opt.default})",
        )
    ap.add_argument("--source", type=Path, required=True, help="source.json (where the tables came from)")
    ap.add_argument("--out", type=Path, required=True, nargs="+", help=".png and/or .pdf")
    ap.add_argument("--out-csv", type=Path, help="the plotted numbers")
    a = ap.parse_args(argv)
    try:
        source = load_source(a.source)
        loaded = [None if getattr(a, s.name) is None else s.load(getattr(a, s.name), figure) for s in specs]
        table = compute(*loaded, **{o.name: getattr(a, o.name) for o in options})
    except FigureDataError as e:
        raise SystemExit(f"error: {e}") from None
    save(draw(table, source), a.out)
    if a.out_csv:
        write_csv(table, a.out_csv)
    return 0
