"""What every fuzzer of tools/fuzz reports: one JSON summary of a run, printed and optionally written, and the exit
status it implies (1 on any crash, hang or wrong answer)."""

from __future__ import annotations

import json
import time


def summary(seed: int, count: int, start: float, tally, slowest, failures, outcomes=None, **counts) -> dict:
    """The run's summary: `counts` (outcomes of the fuzzer's own) go between `accepted` and `rejected`; `outcomes`,
    the failure counts after `hangs`, are `wrong` unless the fuzzer names its own (the differential: disagreements
    and malformed files accepted)."""
    outcomes = {"wrong": tally["wrong"]} if outcomes is None else outcomes
    return {
        "seed": seed,
        "inputs": count,
        "seconds": round(time.perf_counter() - start, 3),
        "accepted": tally["accepted"],
        **counts,
        "rejected": tally["rejected"],
        "crashes": tally["crash"],
        "hangs": tally["hang"],
        **outcomes,
        "slowest_ms": round(1000 * slowest[0], 3),
        "slowest_input": slowest[1],
        "failures": failures[:20],
    }


def report(result: dict, json_path, failing=("crashes", "hangs", "wrong")) -> int:
    """Print the summary (and write it to `json_path`); 1 if any of its `failing` counts is not zero."""
    text = json.dumps(result, indent=2)
    print(text)
    if json_path:
        with open(json_path, "w") as handle:
            handle.write(text + "\n")
    return 1 if any(result[key] for key in failing) else 0
