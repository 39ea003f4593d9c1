"""The fuzzers' seeded few-seconds versions (the campaign: archive/fuzz-graph-readers-*/README.md), and the host
tests under AddressSanitizer and UndefinedBehaviorSanitizer. The C++ reader is built with g++ straight from
kernels/ (tools/fuzz/build.py: no CUDA needed); hypothesis drives the Python readers, Matrix Market and `.bel`."""

import json
import os
import random
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emogi import csr
from emogi.csr import GraphFormatError, graph_from_buffer
from tools.fuzz import bel_fuzz, build, csr_mutations, differential, matrix_market_fuzz

# $EMOGI_FUZZ_EXAMPLES: more examples per property for a campaign (CI: 300, a few seconds).
EXAMPLES = int(os.environ.get("EMOGI_FUZZ_EXAMPLES", "300"))
PROPERTY = settings(
    max_examples=EXAMPLES, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


@pytest.fixture(scope="session")
def fuzz_build(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed (CUDA builds need it as nvcc's host compiler)")
    return tmp_path_factory.mktemp("fuzz")


def built(target, folder):
    try:
        return build.build(target, folder)
    except build.BuildError as err:
        pytest.fail(str(err))


def test_host_tests_pass_under_sanitizers(fuzz_build):
    done = subprocess.run([built("host_tests", fuzz_build)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "FAILED" not in done.stdout and "runtime error" not in done.stderr, done
    assert done.stdout.strip().endswith("checks passed")


def test_cpp_reader_fuzz_driver_under_sanitizers(fuzz_build):
    """20,000 mutated files through MappedCsr: it accepts exactly what the oracle accepts, and ASan/UBSan see no
    bad read while every accepted list is walked."""
    done = subprocess.run([built("driver", fuzz_build), "7", "20000"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "runtime error" not in done.stderr, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    assert summary["inputs"] == 20000 and summary["accepted"] > 500
    for reason in ("neighbour id at edge", "header sizes overflow bits", "reserved header field at"):
        assert summary["reasons"].get(reason, 0) > 50, summary["reasons"]  # the mutations reach every check


def test_python_and_cpp_readers_agree(fuzz_build):
    summary = differential.run(7, 3000, built("capi", fuzz_build))
    assert summary["accepted"] > 200 and summary["rejected"] > 1000
    bad = {k: summary[k] for k in ("crashes", "hangs", "disagreements", "accepted_malformed")}
    assert bad == dict.fromkeys(bad, 0), summary["failures"]
    archived = json.loads((build.REPO / "archive" / "fuzz-graph-readers-2026-11-25" / "differential.json").read_text())
    assert list(summary) == list(archived)  # fuzz_summary.summary keeps the archived layout


def test_the_differential_notices_a_missing_check(fuzz_build, monkeypatch):
    monkeypatch.setattr(csr, "check_edge_ids", lambda *args, **kwargs: None)
    summary = differential.run(7, 1000, built("capi", fuzz_build))
    assert summary["accepted_malformed"] > 0 and summary["disagreements"] == summary["accepted_malformed"]


@PROPERTY
@given(st.randoms(use_true_random=False))
def test_python_reader_accepts_exactly_the_valid_files(rng):
    data = csr_mutations.mutated(rng)
    try:
        g = graph_from_buffer(data, "input")
    except GraphFormatError as e:
        assert not csr_mutations.valid_graph_file(data) and str(e).startswith("input: ") and "\n" not in str(e)
        return
    assert csr_mutations.valid_graph_file(data)
    assert (g.num_vertices, g.num_edges) == tuple(int.from_bytes(data[a : a + 8], "little") for a in (24, 32))


@PROPERTY
@given(st.randoms(use_true_random=False))
def test_matrix_market_inputs_end_in_one_line_or_the_right_graph(rng):
    assert matrix_market_fuzz.check_input(matrix_market_fuzz.random_input(rng)) in ("accepted", "rejected", "lenient")


@PROPERTY
@given(st.randoms(use_true_random=False))
def test_bel_inputs_are_read_exactly_when_valid(tmp_path_factory, rng):
    folder = tmp_path_factory.mktemp("bel", numbered=True)
    assert bel_fuzz.check_input(bel_fuzz.random_files(rng), folder) in ("accepted", "rejected", "accepted_8_only")


def test_seeded_campaigns_are_reproducible():
    assert differential.input_bytes(3, 17) == differential.input_bytes(3, 17)
    assert matrix_market_fuzz.input_bytes(3, 17) == matrix_market_fuzz.random_input(random.Random(3 * 1_000_003 + 17))
    summary = matrix_market_fuzz.run(5, 500)
    assert summary["crashes"] == summary["wrong"] == summary["hangs"] == 0, summary["failures"]
    summary = bel_fuzz.run(5, 300)
    assert summary["crashes"] == summary["wrong"] == summary["hangs"] == 0, summary["failures"]
