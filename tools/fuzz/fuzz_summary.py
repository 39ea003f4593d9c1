"""What every fuzzer of tools/fuzz reports: one JSON summary of a run, printed and optionally written, and the exit
status it implies (1 on any crash, hang or wrong answer); and how the checking fuzzers time and count one input."""

from __future__ import annotations

import json
import time

HANG_SECONDS = 1.0  # an input checked for longer is a hang
PROGRESS_EVERY = 100_000  # inputs between progress lines


def timed_check(i: int, check, tally, failures, slowest, start: float, log=None) -> tuple[float, int]:
    """Input `i` through `check()`, which returns its outcome (counted in `tally`): an AssertionError is a wrong
    answer, any other exception a crash (each listed in `failures`), over HANG_SECONDS a hang. Logs progress every
    PROGRESS_EVERY inputs; returns the slowest (seconds, input) so far."""
    t0 = time.perf_counter()
    try:
        tally[check()] += 1
    except AssertionError as e:
        tally["wrong"] += 1
        failures.append({"input": i, "wrong": str(e)[:300]})
    except Exception as e:  # noqa: BLE001 - anything the check does not turn into an outcome is a crash
        tally["crash"] += 1
        failures.append({"input": i, "crash": f"{type(e).__name__}: {str(e)[:300]}"})
    seconds = time.perf_counter() - t0
    tally["hang"] += seconds > HANG_SECONDS
    if log and (i + 1) % PROGRESS_EVERY == 0:
        log(f"{i + 1} inputs, {time.perf_counter() - start:.0f} s, {dict(tally)}")
    return max(slowest, (seconds, i))


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
