"""figures/fig_streamed_crossover.py on a SYNTHETIC pass log (made-up passes in the format of `emogi run
--pass-log`; no number here was measured): it draws, its plotted table holds every counted pass with its active
fraction and the model's lines, and the predicted crossover is W over the link's copy rate."""

import json

import pandas as pd
import pytest
from synthetic_tables import run_figure

from conftest import REPO
from emogi import streamed_runs

HEAD = "graph,algorithm,variant,mode,source,rep,pass,active_entries,list_entries,entry_bytes,launch_ms,span_ms,"
HEAD += "blocks,in_place_blocks,copied_bytes\n"
E, BYTES = 1 << 20, 8  # 8 MiB of lists
W = 10.0  # GB/s, the synthetic parameters' zero-copy throughput; the synthetic link copies at 20 GB/s


def synthetic_inputs(folder):
    """SYNTHETIC: a pass log of PageRank (3 passes per mode) and CC (2, one without a count), a link table of
    pinned copies at 20 GB/s, a parameters.json with W = 10 GB/s, and its source record."""
    folder.mkdir()
    rows = []
    for mode, ms in (("zerocopy", (0.9, 0.1, 0.001)), ("streamed", (0.45, 0.3, 0.01))):
        stream = mode == "streamed"
        for i, (active, t) in enumerate(zip((E, E // 10, E // 1000), ms)):
            extra = f"{max(1, 16 * active // E)},0,{BYTES * active}" if stream else ",,"
            rows.append(f"toy,pagerank,gauss-seidel,{mode},,0,{i},{active},{E},{BYTES},{t},{t + 0.01},{extra}\n")
    rows.append(f"toy,cc,merged-aligned,zerocopy,,0,0,{E},{E},{BYTES},0.8,0.8,,,\n")
    rows.append(f"toy,cc,merged-aligned,zerocopy,,0,1,,{E},{BYTES},0.2,0.3,,,\n")  # no count: left out
    (folder / "passes.csv").write_text(HEAD + "".join(rows))
    (folder / "linkbw.csv").write_text(
        "direction,host_memory,size_bytes,rep,time_ms,gbps\nh2d,pinned,524288,0,0.1,20\nh2d,pinned,8388608,0,1,20\n"
    )
    (folder / "host.txt").write_text(
        "| NVIDIA-SMI 1.0     Driver Version: 1.2.3     CUDA Version: 9.9     |\n"
        "|   0  NVIDIA Synthetic GPU          On  |\nThu Nov 26 23:30:49 2026   \ncommit abc1234\n"
    )
    streamed_runs.link_table(folder).to_csv(folder / "link.csv", index=False)
    parameters = {"W_gbps": {"value": W}, "N_max": {"value": 100}, "latency": [], "request_rate": {}, "S": []}
    (folder / "parameters.json").write_text(json.dumps(parameters | {"method": "synthetic"}))
    (folder / "source.json").write_text(
        json.dumps({"source": "archive", "gpu": "NVIDIA Synthetic GPU", "date": "2026-11-27"})
    )
    return folder


def test_the_crossover_figure_draws_every_counted_pass_and_the_model(tmp_path):
    folder = synthetic_inputs(tmp_path / "in")
    inputs = {k: folder / f"{k}.csv" for k in ("passes", "link")} | {"parameters": folder / "parameters.json"}
    done, png, csv_path = run_figure(
        REPO / "figures" / "fig_streamed_crossover.py", inputs, folder / "source.json", tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert png.stat().st_size > 0
    t = pd.read_csv(csv_path)
    measured = t[t["kind"] == "measured"]
    assert len(measured) == 7  # 6 PageRank passes and CC's counted one
    pr = measured[(measured["algorithm"] == "pagerank") & (measured["mode"] == "zerocopy")]
    assert sorted(pr["active_fraction"]) == pytest.approx([0.001, 0.1, 1.0], rel=1e-2)
    assert pr["ms_per_gib"].max() == pytest.approx(0.9 / (E * BYTES / 2**30))
    cross = t[t["line"] == "crossover"].set_index("algorithm")["active_fraction"]
    assert cross["pagerank"] == pytest.approx(W / 20)  # W over the link's copy rate
    lines = set(t.loc[t["kind"] == "predicted", "line"])
    assert lines == {"full sweep", "active blocks", "active lists at W", "crossover"}


def test_a_file_that_is_not_a_pass_log_is_refused(tmp_path):
    folder = synthetic_inputs(tmp_path / "in")
    (folder / "passes.csv").write_text("graph,algorithm\ntoy,cc\n")
    inputs = {k: folder / f"{k}.csv" for k in ("passes", "link")} | {"parameters": folder / "parameters.json"}
    done, _, _ = run_figure(REPO / "figures" / "fig_streamed_crossover.py", inputs, folder / "source.json", tmp_path)
    assert done.returncode != 0 and "not an `emogi run --pass-log` CSV" in done.stderr
