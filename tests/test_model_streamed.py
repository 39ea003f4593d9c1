"""model/streamed.py, CF'17's model of streamed blocks, on worked examples: the pipeline sum, the copy-bandwidth
curve, resident blocks across sweeps, one buffer, the best block size, skipped blocks and the column layout's row
index and x slices. No GPU needed."""

import math
import sys

import pandas as pd
import pytest

from conftest import REPO, run
from model.streamed import (
    LinkCurve,
    active_blocks,
    active_from_log,
    best_block,
    column_extra,
    device_rate,
    expected_nonempty_rows,
    predict_ms,
    row_index_bytes,
    sweep_ms,
    uniform_blocks,
)

FLAT = LinkCurve((1.0, 1e12), (50.0, 50.0))  # 50 GB/s at every size: 1 GB copies in 20 ms


def cli_args(tmp_path, algorithm, edges, time_ms):
    """`python -m model.streamed` over a flat 50 GB/s link table and one device run of `algorithm` (made up for the
    tests), for 1 GB of lists."""
    link, runs = tmp_path / "link.csv", tmp_path / "runs.csv"
    pd.DataFrame({"direction": ["h2d"], "host_memory": ["pinned"], "size_bytes": [1 << 30], "gbps": [50.0]}).to_csv(
        link, index=False
    )
    pd.DataFrame(
        {"algorithm": [algorithm], "variant": ["merged-aligned"], "mode": ["device"], "edges_traversed": [edges],
         "time_ms": [time_ms]}
    ).to_csv(runs, index=False)  # fmt: skip
    return [sys.executable, "-m", "model.streamed", "--link", link, "--device-runs", runs, "--lists-bytes", "1e9"]


def test_the_pipeline_is_fill_plus_the_slower_stage_of_each_step():
    # Copies of 20 ms, kernels of 10 ms: the fill, three steps at the copy's pace, the last kernel alone.
    assert sweep_ms([20, 20, 20, 20], [10, 10, 10, 10]) == 20 + 3 * 20 + 10
    # Kernels of 30 ms: compute-bound, the copies hidden but the first.
    assert sweep_ms([20, 20, 20, 20], [30, 30, 30, 30]) == 20 + 4 * 30
    assert sweep_ms([5], [7]) == 12  # one block: nothing overlaps
    assert sweep_ms([], []) == 0
    with pytest.raises(ValueError):
        sweep_ms([1, 2], [1])


def test_prediction_from_bytes_link_and_rate():
    blocks = uniform_blocks(4e9, 1e9)  # four 1 GB blocks: 20 ms copies
    rate = 1e9 / 12 / 10  # entries per ms such that a block of 12-byte entries computes in 10 ms
    assert predict_ms(blocks, 12, FLAT, rate) == pytest.approx(90)
    assert predict_ms(blocks, 12, FLAT, rate, buffers=1) == pytest.approx(4 * 20 + 4 * 10)  # no overlap
    assert predict_ms(blocks, 12, FLAT, rate, sweeps=3) == pytest.approx(3 * 90)  # a fill every sweep
    # Four blocks in four buffers: the first sweep copies, the other two only compute.
    assert predict_ms(blocks, 12, FLAT, rate, sweeps=3, buffers=4) == pytest.approx(90 + 2 * 40)
    assert uniform_blocks(10, 4) == [4, 4, 2] and uniform_blocks(3, 4) == [3]


def test_the_copy_bandwidth_follows_the_measured_curve():
    link = pd.DataFrame(
        {
            "direction": ["h2d"] * 4 + ["d2h"],
            "host_memory": ["pinned", "pinned", "pinned", "pageable", "pinned"],
            "size_bytes": [1 << 20, 1 << 20, 1 << 30, 1 << 30, 1 << 30],
            "gbps": [10.0, 12.0, 50.0, 5.0, 40.0],
        }
    )
    curve = LinkCurve.from_table(link)
    assert curve.gbps == (11.0, 50.0)  # medians of the pinned h2d rows only
    assert curve.bandwidth(1 << 10) == 11.0 and curve.bandwidth(1 << 40) == 50.0  # the ends beyond them
    assert curve.bandwidth(1 << 25) == pytest.approx(30.5)  # halfway in log size
    assert curve.copy_ms(1e9) == pytest.approx(1e9 / (curve.bandwidth(1e9) * 1e6))
    with pytest.raises(ValueError, match="no pinned h2d rows"):
        LinkCurve.from_table(link[link["host_memory"] == "pageable"])


def test_the_best_block_balances_the_fill_against_per_block_costs():
    # 1 GB of lists, copies and kernels at the same pace (20 ms in all), 0.2 ms more per kernel:
    # T(n) = 20 + 20/n + 0.2 n, least at n = 10 (24 ms) among 5, 10 and 20 blocks (25, 24, 25 ms).
    rate = 1e9 / 12 / 20
    best, table = best_block(1e9, [2e8, 1e8, 5e7], 12, FLAT, rate, per_block_ms=0.2)
    assert best == 1e8
    assert table["predicted_ms"].tolist() == pytest.approx([25, 24, 25])
    assert table["blocks"].tolist() == [5, 10, 20]


def test_device_rate_is_the_median_device_run():
    runs = pd.DataFrame(
        {
            "algorithm": ["spmv"] * 4,
            "variant": ["merged-aligned"] * 3 + ["naive"],
            "mode": ["device", "device", "zerocopy", "device"],
            "edges_traversed": [1000, 1000, 1000, 1000],
            "time_ms": [1.0, 4.0, 100.0, 9.0],
        }
    )
    assert device_rate(runs, "spmv", "merged-aligned") == pytest.approx((1000 + 250) / 2)
    with pytest.raises(ValueError, match="no device-mode runs"):
        device_rate(runs, "pagerank", "merged-aligned")
    assert math.isfinite(device_rate(runs, "spmv", "naive"))


def test_cli_prints_the_table_and_the_best_block(tmp_path):
    args = cli_args(tmp_path, "spmv", edges=1e9 / 12, time_ms=20.0)
    done = run([*args, "--entry-bytes", "12", "--blocks", "200000000,100000000,50000000", "--per-block-ms", "0.2"],
               cwd=REPO)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "best block: 100000000 bytes" in done.stdout
    bad = run([*args, "--entry-bytes", "12", "--blocks", "1M", "--algorithm", "bfs"], cwd=REPO)
    assert bad.returncode == 2 and "no device-mode runs of bfs" in bad.stderr


def test_skipping_charges_each_sweep_its_active_blocks():
    # Ten 100 MB blocks (2 ms copies at 50 GB/s), kernels of 1 ms, 2 buffers; three sweeps with all, 40 % and
    # 5 % of the blocks active, 0.05 ms of marking per sweep:
    #   all:  fill 2 + 9 steps of max(1, 2) + the last kernel 1 = 21 ms
    #   40 %: four blocks: 2 + 3 x 2 + 1 = 9 ms
    #   5 %:  ceil(0.5) = one block: 2 + 1 = 3 ms
    # total 33 ms + 3 x 0.05 = 33.15 ms, against 63 ms for three full sweeps without skipping.
    blocks = uniform_blocks(1e9, 1e8)
    rate = 1e8 / 12 / 1
    assert predict_ms(blocks, 12, FLAT, rate, sweeps=3) == pytest.approx(63)
    got = predict_ms(blocks, 12, FLAT, rate, active=[1.0, 0.4, 0.05], per_sweep_ms=0.05)
    assert got == pytest.approx(33.15)
    assert predict_ms(blocks, 12, FLAT, rate, active=[1.0, 1.0, 1.0]) == pytest.approx(63)  # nothing to skip
    assert predict_ms(blocks, 12, FLAT, rate, active=[0.0], per_sweep_ms=0.05) == pytest.approx(0.05)
    assert active_blocks(10, 0.05) == 1 and active_blocks(10, 0.4) == 4 and active_blocks(10, 0) == 0
    with pytest.raises(ValueError, match="active fraction"):
        active_blocks(10, 1.5)
    # Resident (10 blocks in 10 buffers): the most active blocks (all ten) copied once, 2 + 9 x 2 + 1 = 21 ms;
    # the other sweeps only their kernels: 4 + 1 ms.
    assert predict_ms(blocks, 12, FLAT, rate, buffers=10, active=[1.0, 0.4, 0.05]) == pytest.approx(21 + 4 + 1)


def test_cli_takes_active_fractions(tmp_path):
    args = cli_args(tmp_path, "sssp", edges=1e8 / 12, time_ms=1.0)
    args += ["--algorithm", "sssp", "--entry-bytes", "12", "--blocks", "100000000", "--active", "1,0.4,0.05"]
    done = run([*args, "--per-sweep-ms", "0.05"], cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert "33.15" in done.stdout


# A synthetic log (made up for the test, not a measurement): two timed runs of SSSP over a plan of 10 blocks.
LOG = """sssp: placed streamed: 10 blocks of at most 8388608 entries, 2 buffers of 100663296 bytes in GPU memory
streamed run: sssp merged-aligned: 3 sweeps, 15 blocks, 15 inactive, 15 copies, 0 skipped, 1500000000 bytes copied \
in 30.000 ms of copies (50.00 GB/s), run 33.150 ms (45.25 GB/s), blocks per sweep 10,4,1
streamed run: sssp merged-aligned: 2 sweeps, 11 blocks, 9 inactive, 11 copies, 0 skipped, 1100000000 bytes copied \
in 22.000 ms of copies (50.00 GB/s), run 25.000 ms (44.00 GB/s), blocks per sweep 10,1
streamed run: sssp chunked: 1 sweeps, 10 blocks, 0 inactive, 10 copies, 0 skipped, 1000000000 bytes copied \
in 20.000 ms of copies (50.00 GB/s), run 21.000 ms (47.62 GB/s), blocks per sweep 10
"""


def test_active_fractions_come_from_the_runs_log_line(tmp_path):
    assert active_from_log(LOG, "sssp", "merged-aligned") == [[1.0, 0.4, 0.1], [1.0, 0.1]]
    assert active_from_log(LOG, variant="chunked") == [[1.0]]
    assert active_from_log(LOG, "cc") == []
    with pytest.raises(ValueError, match="2 counts for 3 sweeps"):
        active_from_log(LOG.replace("blocks per sweep 10,4,1", "blocks per sweep 10,4"))
    # The first run's fractions, through the CLI: ceil(0.1 x 10) = 1 block in the last sweep, 21 + 9 + 3 = 33 ms.
    (tmp_path / "run.log").write_text(LOG)
    args = cli_args(tmp_path, "sssp", edges=1e8 / 12, time_ms=1.0)
    args += [
        "--algorithm",
        "sssp",
        "--entry-bytes",
        "12",
        "--blocks",
        "100000000",
        "--active-log",
        tmp_path / "run.log",
    ]
    done = run(args, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert "33.0" in done.stdout.splitlines()[1], done.stdout  # the table's one row


def test_column_blocks_count_their_row_index_and_x_slices():
    # V = 1000 rows of degree 2 (E = 2000) over n column blocks, columns uniform: a row is non-empty in a block with
    # probability 1 - (1 - 1/n)^2, so n = 1 keeps the 1000 rows, n = 2 makes 2 x 1000 x 3/4 = 1500, and many blocks
    # approach one row per entry (E).
    assert expected_nonempty_rows(1000, 2000, 1) == pytest.approx(1000)
    assert expected_nonempty_rows(1000, 2000, 2) == pytest.approx(1500)
    assert expected_nonempty_rows(1000, 2000, 10**6) == pytest.approx(2000, rel=1e-3)
    assert expected_nonempty_rows(0, 0, 4) == 0
    # A row id (8 bytes) and a start (8) per non-empty row, one more start per block.
    assert row_index_bytes(1500, 2, 8) == 1500 * 16 + 2 * 8
    assert row_index_bytes(1500, 2, 4) == 1500 * 12 + 2 * 8
    # 2000 entries of 12 bytes in blocks of 12000 bytes: two blocks; index 24016 bytes and x 4000, half each.
    assert column_extra(24000, 12000, 12, 1000, 8) == [14008.0, 14008.0]
    assert column_extra(24000, 12000, 12, 1000, 8, nonempty_rows=1600) == [(1600 * 16 + 16 + 4000) / 2] * 2
    # More blocks, more index: CF'17's cost of many blocks.
    assert sum(column_extra(24000, 1200, 12, 1000, 8)) > sum(column_extra(24000, 12000, 12, 1000, 8))
    with pytest.raises(ValueError):
        expected_nonempty_rows(10, 10, 0)


def test_column_blocks_copy_their_extra_bytes_and_compute_only_entries():
    blocks = uniform_blocks(4e9, 1e9)  # four 1 GB blocks of entries: 20 ms copies at 50 GB/s, 10 ms kernels
    rate = 1e9 / 12 / 10
    # Half a GB of index and x with each block: copies of 30 ms, kernels still 10 ms.
    assert predict_ms(blocks, 12, FLAT, rate, extra=[5e8] * 4) == pytest.approx(30 + 3 * 30 + 10)
    assert predict_ms(blocks, 12, FLAT, rate, extra=[0.0] * 4) == predict_ms(blocks, 12, FLAT, rate)
    with pytest.raises(ValueError):
        predict_ms(blocks, 12, FLAT, rate, extra=[1.0])
    # The best block with the column layout's index (V = 1e8 rows, 8-byte ids): its extra bytes in the table.
    _, table = best_block(4e9, [1e8, 1e9], 12, FLAT, rate, columns=(1e8, 8))
    assert list(table["extra_bytes"] > 0) == [True, True]
    assert table["extra_bytes"].iloc[0] > table["extra_bytes"].iloc[1]


def test_cli_models_the_column_layout(tmp_path):
    args = cli_args(tmp_path, "spmv", 1e9 / 12, 10.0)
    done = run([*args, "--entry-bytes", "12", "--blocks", "64M,1G", "--layout", "columns", "--vertices", "1e6"])
    assert done.returncode == 0, done.stderr
    assert "extra_bytes" in done.stdout and "best block" in done.stdout
    done = run([*args, "--entry-bytes", "12", "--blocks", "64M", "--layout", "columns"])
    assert done.returncode == 2 and "--vertices" in done.stderr
