"""The mode selector (model/select.py, issue 22) on small graphs with the archived parameters or synthetic ones
where the answer is known, its runner's plan (no GPU: the arguments it would pass), and the judge on a synthetic
table (labelled so: no number here is a measurement)."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from model import select
from model.graph_predict import load_graph
from model.presets import Preset
from model.streamed import LinkCurve
from tests.graphs import write_generated


@pytest.fixture(scope="module")
def kron(tmp_path_factory):
    return write_generated(tmp_path_factory.mktemp("select") / "kron12.w4.csr", "kron", 12, dtype=np.uint32)


def cli(capsys, *args):
    rc = select.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def inputs(path, algorithm, variant, params=None, link=None):
    from model.presets import MEASURED, get_preset

    params = params or get_preset(MEASURED, select.PARAMETERS)
    link = link or LinkCurve.from_table(pd.read_csv(select.LINK))
    return select.Inputs(load_graph(path), algorithm, variant, None, params, link, "kron12")


def chosen(table, budget):
    rows = table[(table["budget"] == budget) & table["chosen"]]
    assert len(rows) == 1
    return rows["mode"].iloc[0]


def test_a_graph_that_fits_runs_in_device_memory(kron):
    t = inputs(kron, "bfs", "merged-aligned").table(["fits"])
    assert chosen(t, "fits") == "device"
    assert t["feasible"].all() is not None and set(t["mode"]) == {"device", "zerocopy", "streamed", "auto"}
    auto = t[t["mode"] == "auto"].iloc[0]
    assert auto["served_fraction"] == 1 and auto["predicted_ms"] == t[t["mode"] == "device"]["predicted_ms"].iloc[0]
    assert t[t["mode"] == "streamed"]["why_not"].iloc[0].startswith("the streamed mode does not run bfs")


def test_no_room_for_lists_leaves_zero_copy(kron):
    ins = inputs(kron, "pagerank", "gauss-seidel")
    budget = str(ins.vertex)  # bytes: the vertex data and nothing for the lists
    t = ins.table([budget])
    assert chosen(t, budget) == "zerocopy"
    feasible = dict(zip(t["mode"], t["feasible"], strict=True))
    assert not feasible["device"] and not feasible["streamed"]
    auto = t[t["mode"] == "auto"].iloc[0]
    assert auto["served_fraction"] == 0  # auto keeps nothing: zero-copy's time, and the tie goes to zero-copy
    assert auto["predicted_ms"] == pytest.approx(t[t["mode"] == "zerocopy"]["predicted_ms"].iloc[0])


def test_a_sweep_with_a_slow_zero_copy_link_and_fast_copies_streams(kron):
    """Synthetic parameters: zero-copy reads at 0.1 GB/s, block copies at 1000 GB/s; half the lists fit."""
    slow = Preset(W_gbps=0.1, S_miops=math.inf, N_max=880, L_us=1.0, name="synthetic", source="test")
    fast = LinkCurve((1e3, 1e9), (1000.0, 1000.0))
    ins = inputs(kron, "pagerank", "merged-aligned", slow, fast)
    budget = str(ins.vertex + ins.list_bytes // 2)
    t = ins.table([budget, "fits"])
    assert chosen(t, budget) == "streamed"
    s = t[(t["budget"] == budget) & (t["mode"] == "streamed")].iloc[0]
    assert 2 * s["block_bytes"] <= ins.list_bytes // 2 and s["blocks"] >= 2
    assert chosen(t, "fits") == "device"


def test_more_budget_serves_more_of_auto(kron):
    ins = inputs(kron, "cc", "merged-aligned")
    t = ins.table(["0.75", "0.5"])
    c = t[t["mode"] == "auto"].set_index("budget")["served_fraction"]
    assert 0 < c["0.5"] < c["0.75"] < 1
    assert t.loc[t["mode"] == "auto", "gpu_memory_bytes"].max() <= 0.75 * ins.list_bytes


def test_cli_prints_json_and_writes_the_table(kron, tmp_path, capsys):
    out = tmp_path / "select.csv"
    rc, text, _ = cli(capsys, "--graph", kron, "--algorithm", "sssp", "--variant", "frontier", "--budget",
                      "fits,0.75", "--json", "--out", out)  # fmt: skip
    assert rc == 0
    rows = json.loads(text)
    assert {r["budget"] for r in rows} == {"fits", "0.75"} and sum(r["chosen"] for r in rows) == 2
    t = pd.read_csv(out, dtype={"budget": str})
    assert list(t.columns) == select.schema.SELECT_COLUMNS and t["selector"].eq("select").all()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--algorithm", "spmv"], "does not cover algorithm 'spmv'"),
        (["--algorithm", "bfs", "--variant", "bogus"], "does not cover bfs/bogus"),
        (["--algorithm", "bfs", "--budget", "0"], "below the vertex data"),
        (["--algorithm", "bfs", "--budget", "1.5"], "lies in (0, 1)"),
        (["--algorithm", "bfs", "--budget", "lots"], "give fits, a fraction"),
        (["--algorithm", "bfs", "--parameters", "/nonexistent.json"], "--parameters /nonexistent.json: no such"),
        (["--algorithm", "bfs", "--run"], "--run needs --runs-out"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(kron, tmp_path, capsys, args, message):
    out = tmp_path / "select.csv"
    rc, text, err = cli(capsys, "--graph", kron, *args, "--out", out)
    assert rc == 1 and message in err and len(err.strip().splitlines()) == 1
    assert not out.exists() and not text


def test_runner_plans_one_run_per_budget_with_the_modes_arguments(kron):
    from model.select_run import budget_args, plan

    ins = inputs(kron, "pagerank", "merged-aligned")
    half = str(ins.vertex + ins.list_bytes // 2)
    t = ins.table(["fits", half])
    assert [m for _, m in plan(t)] == [[chosen(t, "fits")], [chosen(t, half)]]
    everything = plan(t, "all", zerocopy_once=True)
    assert everything[0] == ("fits", ["device", "zerocopy", "streamed", "auto"])
    assert everything[1] == (half, ["streamed", "auto"])
    rows = t[t["budget"] == half]
    args = budget_args(rows, "g.csr", ["streamed", "auto"], ["--reps", "3"])
    block = int(rows.loc[rows["mode"] == "streamed", "block_bytes"].iloc[0])
    for flag, value in (("--gpu-memory-budget", str(int(rows["gpu_memory_bytes"].iloc[0]))),
                        ("--stream-block-bytes", str(block)), ("--auto-order", "prefix"), ("--auto-reserve", "0"),
                        ("--modes", "streamed,auto"), ("--name", "kron12")):  # fmt: skip
        assert args[args.index(flag) + 1] == value
    assert args[-2:] == ["--reps", "3"] and "--roots" not in args
    bfs = inputs(kron, "bfs", "merged-aligned").table(["fits"])
    assert "--roots" in budget_args(bfs, "g.csr", ["device"], [])
    assert "--roots" not in budget_args(bfs, "g.csr", ["device"], ["--roots-file", "r.txt"])


def synthetic_select(modes_ms: dict, budget="0.5", memory=1 << 20, chosen_mode="auto"):
    return pd.DataFrame(
        [{"graph": "g", "algorithm": "pagerank", "variant": "gauss-seidel", "edge_bytes": 4, "budget": budget,
          "budget_fraction": 0.5, "gpu_memory_bytes": memory, "mode": m, "predicted_ms": ms, "feasible": True,
          "chosen": m == chosen_mode} for m, ms in modes_ms.items()]
    )  # fmt: skip


def synthetic_runs(cells):
    """cells: (memory or None, mode, [times]) -> rows of the OOM schema's judged columns (synthetic times)."""
    rows = []
    for memory, mode, times in cells:
        for t in times:
            rows.append({"graph": "g", "algorithm": "pagerank", "variant": "gauss-seidel", "edge_bytes": 4,
                         "gpu_memory_bytes": np.nan if memory is None else memory, "mode": mode, "time_ms": t,
                         "verified": True})  # fmt: skip
    return pd.DataFrame(rows)


def test_judge_reports_how_far_the_choice_is_behind_the_best_fixed_mode():
    from model.select_judge import judge, summary

    sel = pd.concat([synthetic_select({"auto": 10, "streamed": 12, "zerocopy": 20}),
                     synthetic_select({"device": 5, "auto": 5}, "fits", np.nan, "device")])  # fmt: skip
    runs = synthetic_runs(
        [
            (1 << 20, "auto", [104, 100, 102]),
            (1 << 20, "streamed", [98, 99, 97]),
            (None, "zerocopy", [200]),
            (None, "device", [50, 51, 52]),
            (None, "auto", [49]),
        ]
    )
    runs.loc[len(runs)] = {**runs.iloc[0].to_dict(), "time_ms": 1.0, "verified": False}  # unverified: left out
    t = judge(runs, sel).set_index("budget")
    half = t.loc["0.5"]
    assert (half["chosen_ms"], half["best_mode"], half["best_ms"]) == (102, "streamed", 98)
    assert half["behind_pct"] == pytest.approx(100 * (102 / 98 - 1)) and half["within_target"]
    assert half["modes_measured"] == "auto,streamed,zerocopy (fits)"
    fits = t.loc["fits"]
    assert fits["best_mode"] == "auto" and fits["behind_pct"] == pytest.approx(100 * (51 / 49 - 1))
    assert summary(judge(runs, sel)).startswith("within 5% of the best fixed mode: 2 of 2 cells")


def test_judge_counts_an_unmeasured_choice_as_a_miss():
    from model.select_judge import judge

    t = judge(
        synthetic_runs([(1 << 20, "auto", [10])]), synthetic_select({"streamed": 1, "auto": 2}, chosen_mode="streamed")
    )
    assert math.isnan(t["chosen_ms"].iloc[0]) and not t["within_target"].iloc[0]


def test_the_selector_is_registered_apart_from_the_memory_modes():
    from emogi.registry import vocabulary

    v = vocabulary()
    s = v.mode_selectors[0]
    assert s.name == "select" and s.name not in v.names("modes") and "auto" in v.names("modes")
    assert set(s.candidates) == {"device", "zerocopy", "streamed", "auto"}


def test_figure_draws_the_judged_table(tmp_path):
    """fig_select from a synthetic judged table (made-up times, labelled so in the source record)."""
    from pathlib import Path

    from model.select_judge import judge
    from tests.synthetic_tables import run_figure

    sel = pd.concat([synthetic_select({"auto": 10, "streamed": 12}),
                     synthetic_select({"device": 5, "auto": 5}, "fits", np.nan, "device")])  # fmt: skip
    runs = synthetic_runs([(1 << 20, "auto", [110]), (1 << 20, "streamed", [100]), (None, "device", [50])])
    judged = tmp_path / "judge.csv"
    judge(runs, sel).to_csv(judged, index=False)
    source = tmp_path / "source.json"
    source.write_text(json.dumps({"source": "fresh", "gpu": "synthetic (test)", "date": "2026-11-27"}))
    script = Path(select.ROOT) / "figures" / "fig_select.py"
    done, png, csv_path = run_figure(script, {"select-judge": judged}, source, tmp_path)
    assert done.returncode == 0, done.stderr
    assert png.stat().st_size > 0
    plotted = pd.read_csv(csv_path)
    assert list(plotted["behind_pct"].round(1)) == [10.0, 0.0] and list(plotted["within_target"]) == [False, True]
