"""The streamed mode's --stream-skip, --stream-layout, --stream-direct-below and --stream-pack, without a GPU: a value
other than on or off (rows or columns), a fraction outside 0..1, reading in place without skipping or with the column
layout, packing with the column layout, the options without the mode, and the column layout for an algorithm other
than SpMV each stop `emogi run` with one line before it needs the GPU, and write nothing; on and off (rows, and
columns for SpMV) are taken."""

import pytest

from conftest import run
from graphs import write_generated


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    return write_generated(tmp_path_factory.mktemp("streamed_args") / "kron8.csr", "kron", 8)


def run_cc(binary, graph, tmp_path, *options):
    args = [binary, "run", "--algorithm", "cc", "--graph", graph, "--variants", "merged-aligned"]
    return run([*args, "--out", tmp_path / "x.csv", *options])


@pytest.mark.parametrize(
    "options,message",
    [
        (("--modes", "streamed", "--stream-block-bytes", "1M", "--stream-skip", "maybe"), "on or off, not 'maybe'"),
        (("--modes", "zerocopy", "--stream-skip", "off"), "--stream-skip, --stream-layout, --stream-direct-below"),
        (("--modes", "zerocopy", "--stream-pack", "on"), "--stream-pack apply to the streamed mode only"),
        (("--modes", "streamed", "--stream-block-bytes", "1M", "--stream-pack", "yes"), "on or off, not 'yes'"),
        (("--modes", "streamed", "--stream-block-bytes", "1M", "--stream-layout", "diagonal"), "rows or columns"),
        (("--modes", "zerocopy", "--stream-layout", "columns"), "apply to the streamed mode only"),
        (("--modes", "streamed", "--stream-block-bytes", "1M", "--stream-layout", "columns"), "for SpMV only"),
        (("--modes", "zerocopy", "--stream-direct-below", "0.5"), "apply to the streamed mode only"),
        (("--modes", "streamed", "--stream-block-bytes", "1M", "--stream-direct-below", "1.5"), "in 0..1, not '1.5'"),
        (("--modes", "streamed", "--stream-block-bytes", "1M", "--stream-direct-below", "half"), "in 0..1, not 'half'"),
        (
            ("--modes", "streamed", "--stream-block-bytes", "1M", "--stream-direct-below", "0.5")
            + ("--stream-skip", "off"),
            "--stream-direct-below needs --stream-skip on",
        ),
    ],
)
def test_bad_stream_skip_is_refused_in_one_line(emogi_binary, graph, tmp_path, options, message):
    done = run_cc(emogi_binary, graph, tmp_path, *options)
    assert done.returncode == 1 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize("option", ["--stream-skip", "--stream-pack"])
@pytest.mark.parametrize("value", ["on", "off"])
def test_on_and_off_are_taken(emogi_binary, graph, tmp_path, option, value):
    done = run_cc(emogi_binary, graph, tmp_path, "--modes", "streamed", "--stream-block-bytes", "1M",
                  option, value, "--reps", "1")  # fmt: skip
    assert option not in done.stderr, done.stderr  # accepted (then it runs, or finds no GPU)


@pytest.mark.parametrize("layout", ["rows", "columns"])
def test_spmv_takes_either_layout(emogi_binary, graph, tmp_path, layout):
    args = [emogi_binary, "run", "--algorithm", "spmv", "--graph", graph, "--variants", "merged-aligned"]
    args += ["--modes", "streamed", "--stream-block-bytes", "1M", "--stream-layout", layout, "--reps", "1"]
    done = run([*args, "--out", tmp_path / "x.csv"])
    assert "--stream-layout" not in done.stderr and "SpMV only" not in done.stderr, done.stderr


@pytest.mark.parametrize(
    "option,message",
    [
        (("--stream-direct-below", "0.5"), "--stream-direct-below reads row blocks in place"),
        (("--stream-pack", "on"), "--stream-pack packs row blocks"),
    ],
)
def test_row_block_options_are_refused_with_column_blocks(emogi_binary, graph, tmp_path, option, message):
    args = [emogi_binary, "run", "--algorithm", "spmv", "--graph", graph, "--variants", "merged-aligned"]
    args += ["--modes", "streamed", "--stream-block-bytes", "1M", "--stream-layout", "columns"]
    done = run([*args, *option, "--reps", "1", "--out", tmp_path / "x.csv"])
    assert done.returncode == 1 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.csv").exists()
