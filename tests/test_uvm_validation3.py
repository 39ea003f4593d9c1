"""The session-calibrated UVM simulator (model/uvm_micro_sim.py, model/uvm_session_fit.py,
model/uvm_validation3.py) on SYNTHETIC inputs whose answer is known; no table here is a measurement."""

import json
import re
import subprocess
import sys
import tarfile
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from emogi.csr import read_csr
from figures import fig_uvm_validation3, uvm_validation_report
from figures.inputs import ReportFigure
from graphs import write_generated
from model import uvm_micro_sim, uvm_session_fit, uvm_validation3
from model.uvm_sim import UvmParams
from model.uvm_warp_faults import _count_one

GIB = 1 << 30
SHAPE = UvmParams(throughput_gbps=40.0, batch_us=30.0, service_us=10.0, warp_fault_us=0.01)


def test_micro_counts_of_a_back_to_back_sweep():
    # 1 GiB read whole: every byte moves once, 262144 pages in 1024 batches, 512 regions serviced
    t = uvm_micro_sim.counts(GIB, 256, 0, "thread")
    assert t == {
        "migrated_bytes": GIB,
        "fault_entries": GIB // 4096,
        "list_faults": GIB // 4096,  # 32 lists of 256 B per warp: 8 KiB, each page in one warp
        "batches": GIB // 4096 // 256,
        "serviced_chunks": GIB >> 21,
    }
    # a warp per 256-byte list: the 16 warps of a page fault on it each
    assert uvm_micro_sim.counts(GIB, 256, 0, "warp")["list_faults"] == 16 * (GIB // 4096)
    # 8 KiB lists: a page lies in one list, so in one warp either way
    assert uvm_micro_sim.counts(GIB, 8192, 0, "warp")["list_faults"] == GIB // 4096


def test_micro_counts_of_a_line_per_block():
    # one 128-byte list per 64 KiB: every block touched, so every region is dense and moves whole (prefetch)
    t = uvm_micro_sim.counts(64 << 20, 128, 65536, "thread")
    assert t["migrated_bytes"] == 64 << 20 and t["fault_entries"] == 1024 and t["serviced_chunks"] == 32
    # one per 2 MiB: each region moves its one 64 KiB block
    t = uvm_micro_sim.counts(64 << 20, 128, 2 << 20, "warp")
    assert t["migrated_bytes"] == 32 * (64 << 10) and t["fault_entries"] == 32


@pytest.mark.parametrize(
    "args, message",
    [
        ((GIB, 12, 0, "thread"), "multiples of 8"),
        ((GIB, 256, 128, "thread"), "stride >= list bytes"),
        ((GIB, 256, 3004, "thread"), "multiples of 8"),
        ((GIB, 256, 768, "thread"), "must divide"),
        ((GIB, 256, 0, "block"), "thread or warp"),
    ],
)
def test_micro_counts_refuse_bad_patterns(args, message):
    with pytest.raises(ValueError, match=message):
        uvm_micro_sim.counts(*args)


def test_pageable_rule_recovers_a_power_law():
    gbps = {"s1": 5.0, "s2": 8.0, "s3": 10.0, "s4": 12.0}  # SYNTHETIC sessions
    factors = {s: float(np.exp(0.1 + 0.8 * np.log(10.0 / g))) for s, g in gbps.items()}
    rule = uvm_session_fit.fit_pageable_rule(factors, gbps)
    assert rule["k"] == pytest.approx(0.8) and rule["c"] == pytest.approx(0.1)
    assert uvm_session_fit.pageable_factor(rule, 5.0) == pytest.approx(factors["s1"])
    with pytest.raises(ValueError, match="3 or more sessions"):
        uvm_session_fit.fit_pageable_rule(factors, {"s1": 5.0, "s2": 8.0})


def _link(pageable):
    rows = [("h2d", "pinned", 1 << 30, 55.0), ("d2h", "pageable", 1 << 30, 3.0), ("h2d", "pageable", 1 << 20, 99.0)]
    rows += [("h2d", "pageable", s, g) for s, g in pageable]
    return pd.DataFrame(rows, columns=["direction", "host_memory", "size_bytes", "gbps"])


def test_pageable_bandwidth_is_the_large_h2d_copies():
    assert uvm_session_fit.pageable_gbps(_link([(256 << 20, 8.0), (1 << 30, 10.0), (1 << 30, 12.0)])) == 10.0
    with pytest.raises(ValueError, match="no pageable h2d"):
        uvm_session_fit.pageable_gbps(_link([]))


def test_shape_fit_recovers_costs_and_session_factors():
    rng = np.random.default_rng(7)
    n = 120
    cells = pd.DataFrame(  # SYNTHETIC counts in three sessions, one 1.5x slower
        {
            "migrated_bytes": rng.uniform(0.2e9, 5e9, n),
            "batches": rng.integers(100, 5000, n),
            "serviced_chunks": rng.integers(100, 3000, n),
            "list_faults": rng.integers(1e5, 2e7, n),
            "device_ms": rng.uniform(2, 50, n),
            "session": np.repeat(["a", "b", "c"], n // 3),
        }
    )
    factor = cells["session"].map({"a": 1.0, "b": 1.5, "c": 1.0})
    mig = SHAPE.migration_ms(cells["migrated_bytes"], cells["batches"], cells["serviced_chunks"], cells["list_faults"])
    cells["uvm_ms"] = cells["device_ms"] + factor * mig
    params, factors = uvm_session_fit.fit_shape(cells)
    assert factors == pytest.approx({"a": 1.0, "b": 1.5, "c": 1.0}, rel=1e-4)
    assert params.throughput_gbps == pytest.approx(40.0, rel=1e-4)
    assert params.warp_fault_us == pytest.approx(0.01, rel=1e-4)


def _micro_table(shape, factor, buffer=GIB):
    rows = []
    for access, size in uvm_validation3.MICRO_PATTERNS:
        c = uvm_micro_sim.counts(buffer, size, 0, access)
        ms = factor * shape.migration_ms(c["migrated_bytes"], c["batches"], c["serviced_chunks"], c["list_faults"])
        rows += [(access, size, size, buffer, rep, ms) for rep in range(3)]
    return pd.DataFrame(rows, columns=["access", "list_bytes", "stride_bytes", "buffer_bytes", "rep", "time_ms"])


def test_micro_factor_is_measured_over_simulated():
    f, table = uvm_validation3.micro_factor(_micro_table(SHAPE, 1.7), SHAPE)
    assert f == pytest.approx(1.7) and len(table) == 4
    with pytest.raises(ValueError, match="no warp pattern of 8192-byte lists"):
        uvm_validation3.micro_factor(_micro_table(SHAPE, 1.7).query("list_bytes != 8192 or access != 'warp'"), SHAPE)


def test_judge_a_synthetic_session(tmp_path):
    """A whole judgement on a tiny SYNTHETIC session: a generated kron graph, cold times made from the simulated
    counts at a factor of 1.5, a microbenchmark at that factor (the micro rule is exact) and pageable copies at
    the rule's 1.0."""
    how = {"kron10s25": "--kind kron --scale 10 --edge-factor 8"}
    gdir, sess = tmp_path / "graphs", tmp_path / "uvm3"
    for d in ("runs", "micro", "graphs"):
        (sess / d).mkdir(parents=True)
    gdir.mkdir()
    path = gdir / "kron10s25.w8.csr"
    cmd = [sys.executable, "-m", "emogi.datasets.generators", *how["kron10s25"].split(), "--seed", "25"]
    cmd += ["--weights-seed", "25", "--out", str(path), "--meta", str(sess / "graphs/kron10s25.w8.json")]
    subprocess.run(cmd, check=True, capture_output=True)
    g = read_csr(path)
    root = int(np.argmax(np.diff(g.offsets)))
    cells = [("bfs", v, root) for v in uvm_validation3.VARIANTS] + [("cc", v, -1) for v in uvm_validation3.VARIANTS]
    runs = pd.DataFrame(
        [("kron10s25", a, v, 8, r, m, 5.0) for a, v, r in cells for m in ("device", "uvm")],
        columns=["graph", "algorithm", "variant", "edge_bytes", "root", "mode", "time_ms"],
    )
    counted = uvm_validation3.trace_counts(str(path), "kron10s25", runs)
    mig = SHAPE.migration_ms(
        counted["migrated_bytes"], counted["batches"], counted["serviced_chunks"], counted["list_faults"]
    )
    uvm_ms = dict(zip(zip(counted["algorithm"], counted["variant"], counted["root"]), 5.0 + 1.5 * mig))
    cold = runs["mode"] == "uvm"
    runs.loc[cold, "time_ms"] = [
        uvm_ms[k] for k in zip(runs[cold]["algorithm"], runs[cold]["variant"], runs[cold]["root"])
    ]
    runs["root"] = runs["root"].astype(object).where(runs["root"] >= 0, None)
    runs.to_csv(sess / "runs/all.kron10s25.csv", index=False)
    _micro_table(SHAPE, 1.5).to_csv(sess / "micro/uvmfault_start.csv", index=False)
    _link([(256 << 20, 10.0), (1 << 30, 10.0)]).to_csv(sess / "micro/link.csv", index=False)
    registered = tmp_path / "registered.json"
    registered.write_text(json.dumps({"shape": asdict(SHAPE), "pageable_rule": {"c": 0.0, "k": 0.8, "p_ref_gbps": 10}}))
    with tarfile.open(tmp_path / "uvm3.tgz", "w:gz") as tar:
        tar.add(sess, arcname="uvm3")
    summary = uvm_validation3.judge(tmp_path / "uvm3.tgz", gdir, tmp_path / "out", 1, registered, how)
    every = summary[summary["group"] == "all"].set_index("rule")
    assert every.loc["micro", "factor"] == pytest.approx(1.5) and every.loc["micro", "worst"] < 1e-9
    assert every.loc["micro", "meets_targets"] and every.loc["pageable", "factor"] == pytest.approx(1.0)
    assert every.loc["floor", "factor"] == pytest.approx(1.5) and every.loc["micro", "n"] == 4
    assert (tmp_path / "out/validation3_cells.csv").exists() and (tmp_path / "out/validation3_factors.json").exists()
    missing = pd.read_csv(tmp_path / "out/validation3_missing.csv")  # no roots file: BFS/SSSP cells unknown, "?"
    assert set(missing["algorithm"]) == {"sssp", "pagerank", "bfs"} and "cc" not in set(missing["algorithm"])
    # the figure draws from the judgement (its source.json: no GPU named in these synthetic rows, so one is added)
    src = json.loads((tmp_path / "out/source.json").read_text()) | {"gpu": "SYNTHETIC", "date": "2026-11-27"}
    (tmp_path / "out/source.json").write_text(json.dumps(src))
    png, csv = tmp_path / "fig.png", tmp_path / "fig.csv"
    args = ["--cells", str(tmp_path / "out/validation3_cells.csv"), "--source", str(tmp_path / "out/source.json")]
    assert fig_uvm_validation3.main([*args, "--out", str(png), "--out-csv", str(csv)]) == 0
    plotted = pd.read_csv(csv)
    assert (
        png.stat().st_size > 0 and len(plotted) == 4 * 4 and set(plotted["rule"]) == {*uvm_validation3.RULES, "floor"}
    )
    # the report's blocks from the figure's CSV: the image, then a row per rule with its verdict
    image, table = uvm_validation_report.blocks(fig_uvm_validation3.FIGURE, ReportFigure("/fig.png", csv))
    assert image["image"] == "/fig.png" and [r[-1] for r in table["table"]["rows"]] == [
        "met", "met", "met", "not a prediction"]  # fmt: skip
    assert uvm_validation_report.blocks(fig_uvm_validation3.FIGURE, None) == []


def test_judge_refuses_a_graph_outside_the_set(tmp_path):
    with pytest.raises(ValueError, match="not in the registered set"):
        uvm_validation3.regenerate("kron99", tmp_path, {"checksum": "0"})


def test_registered_params_are_committed():
    shape, rule = uvm_validation3.load_registered()
    assert shape.throughput_gbps > 0 and shape.warp_fault_us > 0 and rule["p_ref_gbps"] == 10.0


def test_shared_scan_trace_counts_as_each_variant_alone(tmp_path):
    """Deriving once for both scan variants gives the counts model.uvm_warp_faults derives per variant."""
    path = write_generated(tmp_path / "k.csr", "kron", 9, seed=4)  # SYNTHETIC graph
    root = int(np.argmax(np.diff(read_csr(path).offsets)))
    for algorithm, r in (("bfs", root), ("pagerank", -1)):
        rows = uvm_validation3._count_group(str(path), "k", algorithm, r, uvm_validation3.VARIANTS)
        for row in rows:
            alone = _count_one(str(path), "k", algorithm, row["variant"], r)
            assert {k: row[k] for k in alone} == alone


def test_the_device_script_measures_the_registered_set():
    """tools/device/uvm_validation3.sh's graphs, seed, variants, algorithms and micro patterns are the model's."""
    text = (Path(__file__).resolve().parents[1] / "tools/device/uvm_validation3.sh").read_text()
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', text))
    assert how == uvm_validation3.SET
    assert f"SEED={uvm_validation3.SEED};" in text
    assert f"VARIANTS={','.join(uvm_validation3.VARIANTS)};" in text
    assert f'ALGORITHMS="{" ".join(uvm_validation3.ALGORITHMS)}"' in text
    assert "--access thread,warp --list-bytes 256,8192 --strides 0" in text
    lib = (Path(__file__).resolve().parents[1] / "tools/device/uvm_session.sh").read_text()  # its shared functions
    assert ". tools/device/uvm_session.sh" in text
    assert "--modes device,uvm" in lib and "allow-managed-oversubscription" not in text + lib
