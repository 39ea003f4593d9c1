"""Capped validation 5 (model/uvm_capped_validation5.py) on SYNTHETIC inputs whose answer is known (no table here is
a measurement): its design (three processes a cell), its unchanged rule and its device script; capped validation
2's tests lend the synthetic call."""

import json
import subprocess
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model import uvm_capped_validation2, uvm_capped_validation3, uvm_capped_validation4, uvm_capped_validation5
from tests.test_uvm_capped_validation2 import HOW, ROOT, F, script_text
from tests.test_uvm_capped_validation3 import archived_call, assert_a_new_set, assert_script_tables
from tests.test_uvm_capped_validation4 import _synthetic as v4_synthetic
from tests.test_uvm_capped_validation4 import unit_primary_block

V5, V4 = uvm_capped_validation5, uvm_capped_validation4
E_MS = 0.01  # the SYNTHETIC cost per evicted chunk (as capped validation 2's tests)
SLOW = 1.5  # the SYNTHETIC pass 1: a whole process this much slower than the other two


def test_the_set_is_new_seed_35_and_the_rule_is_validation_4s():
    earlier = set(uvm_capped_validation2.SET) | set(uvm_capped_validation3.SET) | set(V4.SET) | set(V4.FIT_GRAPHS)
    assert_a_new_set(V5, 35, earlier, 9)
    assert (V5.ALGORITHMS, V5.VARIANTS, V5.FRACTIONS, V5.SUBLAUNCHES) == (
        V4.ALGORITHMS, V4.VARIANTS, V4.FRACTIONS, V4.SUBLAUNCHES)  # fmt: skip
    assert V5.REGISTERED == V4.REGISTERED and V5.RULES == V4.RULES == ("unit", "pooled")
    assert (V5.PASSES, V5.REPS) == (3, 2) and len(V5.ORDERS) == V5.PASSES


def test_every_pass_runs_every_capacity_and_k_once_pass_1_in_validation_4s_order():
    cells = {(f, k) for f in V5.FRACTIONS for k in V5.SUBLAUNCHES}
    for order in V5.ORDERS:
        assert sorted(order) == sorted(cells) and len(order) == len(cells)
    assert list(V5.ORDERS[0]) == [(f, k) for f in V5.FRACTIONS for k in V5.SUBLAUNCHES]
    assert list(V5.ORDERS[1]) == list(reversed(V5.ORDERS[0]))
    assert len({tuple(o) for o in V5.ORDERS}) == V5.PASSES


def test_a_cell_is_the_median_of_its_passes_medians():
    base = {"graph": "g", "algorithm": "bfs", "variant": "naive", "edge_bytes": 8, "root": 1,
            "budget_fraction": 0.25, "sublaunches": 4, "mode": "uvm-capped"}  # fmt: skip
    times = {1: [100.0, 110.0], 2: [50.0, 52.0], 3: [60.0, 58.0]}  # pass medians 105, 51, 59
    runs = pd.DataFrame([{**base, "process": p, "time_ms": t} for p, ts in times.items() for t in ts])
    device = pd.DataFrame([{**base, "mode": "device", "budget_fraction": np.nan, "sublaunches": 1, "time_ms": 5.0}])
    one, wide = V5.judged_runs(pd.concat([runs, device.assign(process=0)], ignore_index=True))
    capped = one[one["mode"] == "uvm-capped"]
    assert len(capped) == 1 and capped["time_ms"].iloc[0] == 59.0
    assert (one["mode"] == "device").sum() == 1 and "process" not in one
    row = wide.iloc[0]
    assert (row["capped_ms_pass1"], row["capped_ms_pass2"], row["capped_ms_pass3"]) == (105.0, 51.0, 59.0)
    assert row["capped_passes"] == 3 and row["runs"] == 6


def _synthetic(tmp_path, name: str = "uvmc5"):
    """Capped validation 2's SYNTHETIC call (session folder `name`) priced at F plus E_MS, E_T and the tail, its
    capped tables split into 3 passes of 2 runs (pass 1 SLOW times the price, passes 2 and 3 at it, +-1% a run); the
    registered pooled rule is that price (so it is exact on the median of the passes), unit's terms the same at f = 1
    (so it is not)."""
    tarball, gdir, registered = v4_synthetic(tmp_path, name, V5.REGISTERED)

    def split_into_passes(session: Path) -> None:
        for f in sorted((session / "runs").glob("capped.*.csv")):
            t = pd.read_csv(f)
            for p in range(1, V5.PASSES + 1):
                slow = SLOW if p == 1 else 1.0
                two = [t.assign(time_ms=t["time_ms"] * slow * s, rep=r) for r, s in enumerate((0.99, 1.01))]
                pd.concat(two).to_csv(f.with_name(f.name.replace(".csv", f".p{p}.csv")), index=False)
            f.unlink()

    repack(tarball, name, tmp_path / "repack", split_into_passes)
    return tarball, gdir, registered


def repack(tarball: Path, name: str, work: Path, edit) -> None:
    """Unpack a synthetic call's tarball into WORK, let EDIT change its session folder NAME, and pack it back in
    place (the tests that build one call on another's)."""
    with tarfile.open(tarball) as tar:
        tar.extractall(work, filter="data")
    edit(work / name)
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(work / name, arcname=name)


def test_judge_a_synthetic_capped_call(tmp_path):
    tarball, gdir, registered = _synthetic(tmp_path)
    out = tmp_path / "out"
    summary = V5.judge(tarball, gdir, out, 1, registered, HOW)
    every = summary[summary["group"] == "all"].set_index("rule")
    assert set(every.index) == {"unit", "pooled", "floor", "validation3", "pass1"}
    assert every.loc["unit", "factor"] == 1.0 and every.loc["unit", "worst"] > 1e-3
    assert every.loc["pooled", "factor"] == pytest.approx(F) and every.loc["pooled", "worst"] < 1e-9
    assert every.loc["pooled", "meets_targets"] and every.loc["pooled", "n"] == 15
    cells = pd.read_csv(out / "capped_validation5_cells.csv")
    assert (cells["capped_passes"] == 3).all() and (cells["capped_runs"] == 6).all()
    assert np.allclose(cells["capped_ms_pass1"], SLOW * cells["capped_ms"])
    assert np.allclose(cells["capped_ms_pass2"], cells["capped_ms"])
    assert np.allclose(cells["error_pass1"], (1 + cells["error_unit"]) / SLOW - 1)
    missing = pd.read_csv(out / "capped_validation5_missing.csv")
    assert missing["algorithm"].value_counts().to_dict() == {"sssp": 8, "cc": 8, "bfs": 1}
    assert len(pd.read_csv(out / "capped_validation5_cold.csv")) == 4
    factors = json.loads((out / "capped_validation5_factors.json").read_text())
    assert factors["unit"] == 1.0 and factors["pooled"]["factor"] == pytest.approx(F)
    assert "capped validation 5" in json.loads((out / "source.json").read_text())["note"]
    unit_primary_block(out, tmp_path, 5)


def test_the_judge_refuses_a_graph_outside_the_set_and_a_capped_table_outside_the_passes(tmp_path):
    tarball, gdir, registered = _synthetic(tmp_path)
    with pytest.raises(ValueError, match="not in the registered set"):
        V5.judge(tarball, gdir, tmp_path / "out", 1, registered)  # the synthetic graph is not in V5.SET
    runs = tmp_path / "s" / "runs"
    runs.mkdir(parents=True)
    pd.DataFrame({"root": [1], "time_ms": [1.0]}).to_csv(runs / "capped.bfs.g.f0.25.k1.csv", index=False)
    with pytest.raises(ValueError, match="outside the registered passes"):
        V5.load_runs(tmp_path / "s")


def test_the_workflow_draws_the_archived_call():
    """The workflow draws capped validation 5 from its archive: the judge's tables and the call's tarball beside
    them; its trace part, and its repeat's, live in git history, and each README names the commit that restores it."""
    archive = archived_call(5)
    for folder in (archive, ROOT / "archive/uvm-capped-repeat5-h100-2026-11-28"):
        assert (folder / "uvmc5.tgz").exists()
        readme = (folder / "README.md").read_text()
        assert f"git show b06ef9e:archive/{folder.name}/uvmc5_traces.tar.xz.part00" in readme, folder.name


def test_the_pass1_panel_is_judged_against_pass_1_alone():
    from figures import fig_uvm_capped_validation5 as fig
    from figures import fig_uvm_validation3 as v3

    cells = pd.DataFrame({c: ["x"] for c in v3.COLUMNS})
    cells = cells.assign(capped_ms=[10.0], capped_ms_pass1=[8.0], **{f"predicted_ms_{r}": [12.0] for r in fig.RULES})
    table = v3.compute(cells, rules=fig.RULES, measured="capped_ms").set_index("rule")
    assert table.loc["unit", "error"] == pytest.approx(0.2) and table.loc["pass1", "error"] == pytest.approx(0.5)


def test_the_device_script_measures_the_registered_set_and_passes_within_the_guard():
    text = script_text(5)
    assert_script_tables(text, V5, 5, fractions=False)
    orders = "|".join(" ".join(f"{f}:{k}" for f, k in order) for order in V5.ORDERS)
    assert f'PASS_ORDERS="{orders}"' in text and f"CAPPED_REPS={V5.REPS}\n" in text
    own = (ROOT / "tools/device/uvm_capped_validation5.sh").read_text()
    assert "BUDGET_S=${BUDGET_S:-540}; HARD_S=${HARD_S:-570}" in own
    # the guard's settings come before the session's defaults; the passes after them, before the call
    i = own.index(". tools/device/uvm_capped_session.sh")
    assert own.index("BUDGET_S=") < i < own.index("PASS_ORDERS=") < own.index("capped_session\n")
    assert "--warmup 0" in text and "--trace-out" in text and ">>21<<21" in text and "--run-order" not in text
    assert "capped.$tag.csv" in text and 'tag="$a.$name.f$f.k$k.p$p"' in text
    assert V5.PASS_FILE.fullmatch("capped.bfs.kron20s35.f0.25.k4.p3.csv")
    assert "uvmc5.tgz" in text and "python -m model.uvm_capped_validation5 judge" in text
    assert subprocess.run(["bash", "-n", str(ROOT / "tools/device/uvm_capped_validation5.sh")]).returncode == 0
