"""Capped validation 8: capped validation 7's rule (micro_end) unchanged, each cell measured in three separate device
calls and judged by the median over the calls of its error, registered before the session
(docs/uvm-capped-validation8.md; tools/device/uvm_capped_validation8.sh makes each call).

    python -m model.uvm_capped_validation8 judge --tarballs uvmc8a.tgz uvmc8b.tgz uvmc8c.tgz --graph-dir /tmp/ucap8g \
        --out D [--jobs 2]

Why: the worst-cell target lies at the noise floor of one call (archive/uvm-capped-noise-floor-analysis-2026-11-28:
the spread is between calls, the processes within a call agree). Each call is judged as capped validation 7 judges its
one call (model.uvm_capped_validation7.judge: the call's own device-mode medians, its own uvmfault at its end, its
own recorded traces), into calls/<call>/. A cell's judged error is then the median over the calls that measured it of
predicted / measured - 1; a cell measured in fewer than MIN_CALLS calls is not judged and is listed as missing.
Reported beside, not judged: capped validation 6's rule (`h200`) by the same median, each call alone (per_call.csv)
and the calls' cold `uvm` cells by the median of their errors (cold.csv).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

from emogi.atomic import write_text
from model import uvm_capped_validation2 as v2
from model import uvm_capped_validation7 as v7
from model.over_calls import across_calls, calls_of, judge_main, source_over_calls, write_judgement

SEED = 38
SET = {
    "kron20s38": "--kind kron --scale 20 --edge-factor 16",
    "urand20s38": "--kind urand --scale 20 --edge-factor 16",
}
ALGORITHMS, VARIANTS, FRACTIONS, SUBLAUNCHES = v7.ALGORITHMS, v7.VARIANTS, v7.FRACTIONS, v7.SUBLAUNCHES
PASSES, REPS, ORDERS = v7.PASSES, v7.REPS, v7.ORDERS  # capped validation 5's design in each call, unchanged
CALLS = ("uvmc8a", "uvmc8b", "uvmc8c")  # three device calls, each on a fresh lease
MIN_CALLS = 2  # a cell judged from fewer calls is missing
RULES, REPORTED = v7.RULES, ("h200",)
REGISTERED = v7.REGISTERED  # capped validation 7's registered input, unchanged
NAME = "capped_validation8"
COLD_RULES = ("h200", "pageable")


def judge(tarballs: list, graph_dir: Path, out: Path, jobs: int = 1, registered=REGISTERED, how: dict = SET):
    calls = calls_of(tarballs, {c: f"{c}.tgz" for c in CALLS}, MIN_CALLS, "capped validation 8")
    cells, cold, summaries, factors, sources, first = {}, {}, {}, {}, {}, None
    for call, tarball in calls.items():
        where = out / "calls" / call
        name = f"{NAME}_{call}"
        summaries[call] = v7.judge(tarball, graph_dir, where, jobs, registered, how, (call, SEED, 8, name))
        cells[call] = pd.read_csv(where / f"{name}_cells.csv")
        cold[call] = pd.read_csv(where / f"{name}_cold.csv")
        factors[call] = json.loads((where / f"{name}_factors.json").read_text())
        sources[call] = json.loads((where / "source.json").read_text())
        first = first or where / "session" / call
    write_text(json.dumps({"calls": factors}, indent=2) + "\n", out / f"{NAME}_factors.json")  # each call's own
    note = "issue 21 uvm-capped, capped validation 8 (model.uvm_capped_validation8): the median over 3 calls"
    source = source_over_calls(out, sources, note)
    cold_keys = ["graph", "algorithm", "variant", "edge_bytes", "root"]
    more = {"cold": across_calls(cold, cold_keys, COLD_RULES, "uvm_ms")}
    by = (v2.CELL, (*RULES, *REPORTED), "capped_ms", MIN_CALLS, lambda judged: v2.missing_cells(judged, first, how))
    return write_judgement(out, NAME, cells, summaries, by, more, source)


def main(argv=None) -> int:
    return judge_main(argv, "model.uvm_capped_validation8", __doc__.split("\n\n")[0], judge,
                      tuple(f"{c}.tgz" for c in CALLS), REGISTERED, f"{NAME}_missing.csv")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
