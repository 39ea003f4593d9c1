"""figures/fig_streamed_crossover.py and model/streamed_crossover.py on SYNTHETIC passes (made-up passes in the format
of `emogi run --pass-log`, as `model.streamed_crossover tables` extends it; no number here was measured): the oracle
bound's arithmetic on a hand-built table, the figure from a small fixture, the model's crossover, and a file that is
not a pass table refused in one line."""

import json
import math

import pandas as pd
import pytest
from synthetic_tables import run_figure

from conftest import REPO
from emogi import streamed_runs
from model import streamed_crossover as xo
from model import streamed_uvm as su

HEAD = "graph,algorithm,variant,mode,source,rep,pass,active_entries,list_entries,entry_bytes,launch_ms,span_ms,"
HEAD += "blocks,in_place_blocks,copied_bytes,vertices,plan_blocks,edge_bytes\n"
E, BYTES, V = 1 << 20, 4, 1 << 16  # 4 MiB of lists in 4 blocks of 1 MiB
W = 10.0  # GB/s, the synthetic parameters' zero-copy throughput; the synthetic link copies at 20 GB/s
UVM_GBPS = 5.0  # the synthetic UVM migrations' throughput, no cost per batch, chunk or eviction


def synthetic_inputs(folder):
    """SYNTHETIC: a pass table of PageRank (4 passes per mode: zero-copy slower at full activity, faster below) and
    CC (2, one without a count), pinned copies at 20 GB/s, parameters with W = 10 GB/s, a request shape without
    amplification, GPU-work costs of 1e-6 ms per entry, and a source record."""
    folder.mkdir()
    rows = []
    for mode, ms in (("zerocopy", (0.5, 0.25, 0.02, 0.01)), ("streamed", (0.3, 0.3, 0.3, 0.3))):
        stream = mode == "streamed"
        for i, (active, t) in enumerate(zip((E, E // 2, E // 20, E // 1000), ms)):
            extra = f"4,0,{BYTES * E}" if stream else ",,"
            rows.append(f"toy,pagerank,merged-aligned,{mode},,0,{i},{active},{E},{BYTES},{t},{t},{extra},{V},4,4\n")
    rows.append(f"toy,cc,merged-aligned,zerocopy,,0,0,{E},{E},{BYTES},0.8,0.8,,,,{V},4,4\n")
    rows.append(f"toy,cc,merged-aligned,zerocopy,,0,1,,{E},{BYTES},0.2,0.3,,,,{V},4,4\n")  # no count: left out
    rows.append(f"toy,cc,merged-aligned,streamed,,0,0,{E},{E},{BYTES},0.4,0.4,4,0,{BYTES * E},{V},4,4\n")
    (folder / "passes.csv").write_text(HEAD + "".join(rows))
    (folder / "linkbw.csv").write_text(
        "direction,host_memory,size_bytes,rep,time_ms,gbps\nh2d,pinned,524288,0,0.1,20\nh2d,pinned,8388608,0,1,20\n"
    )
    (folder / "host.txt").write_text("|   0  NVIDIA Synthetic GPU          On  |\nThu Nov 26 23:30:49 2026   \n")
    streamed_runs.link_table(folder).to_csv(folder / "link.csv", index=False)
    latency = [{"mode": "zerocopy", "footprint_bytes": 1 << 22, "L_us": 1.0, "lo": 1.0, "hi": 1.0}]
    parameters = {"W_gbps": {"value": W}, "N_max": {"value": 1e6}, "latency": latency, "request_rate": [], "S": []}
    (folder / "parameters.json").write_text(json.dumps(parameters | {"method": "synthetic"}))
    (folder / "request_shape.csv").write_text(
        ",".join(xo.SHAPE_COLUMNS) + f"\ntoy,toy.csr,4,{V},{E * 4},{E // 8},{E // 32},1.0,128.0\n"
    )
    (folder / "gpu_work.csv").write_text(
        "algorithm,variant,edge_bytes,form,a_ms,b_ms,c_ms,s_ms\n"
        "pagerank,merged-aligned,4,max,0,0,1e-6,0\ncc,merged-aligned,4,max,0,0,1e-6,0\n"
    )
    curve = [  # SYNTHETIC counts: 2 chunks of lists; a full pass migrates both, a pass at 1e-6 next to nothing
        f"toy,toy.csr,4,0.5,{x},{x},{x},{x},14,12,22,{m},{m / 4096},{m / 4096 / 256},{k},{k}\n"
        for x, m, k in ((1e-6, 1e-6, 0.0), (1e-3, 0.5, 1.0), (1.0, 1.0, 1.0))
    ]
    (folder / "uvm_curve.csv").write_text(",".join(su.CURVE_COLUMNS) + "\n" + "".join(curve))
    uvm = {"throughput_gbps": UVM_GBPS, "batch_us": 0.0, "service_us": 0.0, "batch_entries": 256}
    (folder / "uvm_params.json").write_text(json.dumps({"registered": uvm}))
    (folder / "oom_calibration.json").write_text(json.dumps({"e_ms_per_evicted_chunk": 0.0}))
    (folder / "source.json").write_text(
        json.dumps({"source": "archive", "gpu": "NVIDIA Synthetic GPU", "date": "2026-11-27"})
    )
    return folder


def inputs_of(folder):
    return {
        "passes": folder / "passes.csv",
        "link": folder / "link.csv",
        "parameters": folder / "parameters.json",
        "request-shape": folder / "request_shape.csv",
        "gpu-work": folder / "gpu_work.csv",
        "uvm-curve": folder / "uvm_curve.csv",
        "uvm-params": folder / "uvm_params.json",
        "uvm-calibration": folder / "oom_calibration.json",
    }


def test_the_bound_sums_the_faster_span_of_each_paired_pass():
    """Hand-built: zero-copy 3 passes (10, 2, 1 ms), streamed 2 (4 ms, 4 ms; 2e8 bytes each): paired passes 0-1."""
    cols = ["graph", "algorithm", "variant", "mode", "source", "rep", "pass", "span_ms", "copied_bytes"]
    rows = [["g", "pagerank", "gauss-seidel", "zerocopy", None, 0, i, ms, None] for i, ms in enumerate((10, 2, 1))]
    rows += [["g", "pagerank", "gauss-seidel", "streamed", None, 0, i, 4.0, 2e8] for i in range(2)]
    t = pd.DataFrame(rows, columns=cols)
    for c in set(xo.PASS_COLUMNS) - set(cols):
        t[c] = 1
    b = xo.bound_table(t, w_copy_gbps=100.0).iloc[0]  # 2e8 bytes at 100 GB/s: 2 ms
    assert (b["passes_zerocopy"], b["passes_streamed"], b["passes_paired"]) == (3, 2, 2)
    assert b["zerocopy_ms"] == 13 and b["streamed_ms"] == 8
    assert b["oracle_ms"] == pytest.approx(4 + 2)  # min(10, 4) + min(2, 4)
    assert b["ideal_ms"] == pytest.approx(2 + 2)  # min(10, 2) + min(2, 2)
    assert b["oracle_all_ms"] == pytest.approx(4 + 2 + 1)  # the unpaired third pass at zero-copy's span
    assert b["streamed_faster_passes"] == 1


def test_the_crossover_is_where_the_binned_medians_and_the_lines_cross():
    pts = pd.DataFrame(
        {"active_fraction": [0.01, 0.01, 1.0, 1.0], "mode": ["zerocopy", "streamed"] * 2, "ms_per_gib": [1, 5, 9, 5]}
    )
    x = xo.measured_crossover(pts)
    assert 0.01 < x < 1.0
    assert math.isnan(xo.measured_crossover(pts.assign(ms_per_gib=[1, 5, 4, 5])))  # zero-copy faster throughout
    f = [0.1, 1.0]
    assert xo.predicted_crossover(f, [1.0, 10.0], [5.0, 5.0]) == pytest.approx(10 ** (4 / 9 - 1))  # log-linear
    assert math.isnan(xo.predicted_crossover(f, [1.0, 4.0], [5.0, 5.0]))


def test_the_crossover_figure_draws_every_counted_pass_and_the_model(tmp_path):
    folder = synthetic_inputs(tmp_path / "in")
    script = REPO / "figures" / "fig_streamed_crossover.py"
    done, png, csv_path = run_figure(script, inputs_of(folder), folder / "source.json", tmp_path)
    assert done.returncode == 0, done.stderr
    assert png.stat().st_size > 0
    t = pd.read_csv(csv_path)
    measured = t[t["kind"] == "measured"]
    assert len(measured) == 10  # 8 PageRank passes and CC's two counted ones
    pr = measured[(measured["algorithm"] == "pagerank") & (measured["mode"] == "zerocopy")]
    assert sorted(pr["active_fraction"]) == pytest.approx([0.001, 0.05, 0.5, 1.0], rel=1e-2)
    assert pr["ms_per_gib"].max() == pytest.approx(0.5 / (E * BYTES / 2**30))
    lines = set(t.loc[t["kind"] == "predicted", "line"])
    uvm, fit = "UVM at ½ of the lists, simulated", "UVM, lists fit, after pass 1 (device floor)"
    assert lines == {"zero-copy D/T(d)+floor", "streamed, every block", "streamed, clustered", uvm, fit}
    assert set(t.loc[t["line"] == uvm, "regime"]) == {"simulated"} and set(t.loc[t["line"] == fit, "regime"]) == {
        "model"
    }
    assert set(t.loc[t["kind"] == "measured", "regime"]) == {"fits"}
    # UVM's full pass: both chunks (4 MiB) at UVM_GBPS + the GPU work of every entry
    full_uvm = t[(t["line"] == uvm) & (t["algorithm"] == "pagerank")].iloc[-1]
    assert full_uvm["span_ms"] == pytest.approx(E * BYTES / (UVM_GBPS * 1e6) + E * 1e-6, rel=1e-5)
    # zero-copy at full activity: 4 MiB at W = 10 GB/s (d = 128 B, S and N_max not binding) + 1e-6 ms per entry
    full = t[(t["line"] == "zero-copy D/T(d)+floor") & (t["algorithm"] == "pagerank")].iloc[-1]
    assert full["span_ms"] == pytest.approx(E * BYTES / 10e6 + E * 1e-6, rel=1e-4)
    cross = t[(t["kind"] == "crossover") & (t["algorithm"] == "pagerank")].set_index("line")["active_fraction"]
    assert 0.05 < cross["measured"] < 1.0 and 0.05 < cross["predicted"] < 1.0
    # UVM meets the every-block sweep (compute-bound, about 1.2 ms) between x = 1e-3 (half the bytes: 0.42 ms) and 1
    assert 1e-3 < cross["UVM at ½ of the lists × streamed"] < 1.0
    assert math.isnan(cross["UVM at ½ of the lists × zero-copy"])  # never: UVM is the slower throughout


def test_a_file_that_is_not_a_pass_table_is_refused_in_one_line(tmp_path):
    folder = synthetic_inputs(tmp_path / "in")
    (folder / "passes.csv").write_text("graph,algorithm\ntoy,cc\n")
    script = REPO / "figures" / "fig_streamed_crossover.py"
    done, _, _ = run_figure(script, inputs_of(folder), folder / "source.json", tmp_path)
    assert done.returncode != 0
    assert "not a pass table" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    with pytest.raises(xo.CrossoverError, match="not an `emogi run --pass-log` CSV"):
        xo.bound_table(pd.DataFrame({"graph": ["g"]}), 50.0)
