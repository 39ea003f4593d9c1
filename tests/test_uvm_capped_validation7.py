"""Capped validation 7 (model/uvm_capped_validation7.py, tools/device/uvm_capped_validation7.sh) on SYNTHETIC inputs
whose answer is known (no table here is a measurement): its set, its fit on the seven archived calls, its judge with the
call's uvmfault at its end, and its device script; capped validations 5 and 6's tests lend the synthetic call and the
dry run."""

import io
import json
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from model import (
    uvm_capped_graph_check,
    uvm_capped_validation4,
    uvm_capped_validation5,
    uvm_capped_validation6,
    uvm_capped_validation7,
)
from tests.test_uvm_capped_validation2 import HOW, ROOT, script_text
from tests.test_uvm_capped_validation3 import assert_a_new_set, assert_script_tables
from tests.test_uvm_capped_validation5 import E_MS, repack
from tests.test_uvm_capped_validation5 import _synthetic as v5_synthetic
from tests.test_uvm_validation3 import SHAPE, _micro_table
from tests.uvm_validation_checks import dry_run_capped_script

V7, V6, V5, V4, GC = (uvm_capped_validation7, uvm_capped_validation6, uvm_capped_validation5, uvm_capped_validation4,
                      uvm_capped_graph_check)  # fmt: skip
SCRIPT = ROOT / "tools/device/uvm_capped_validation7.sh"
U_END = 3.0  # the synthetic call's uvmfault at its end (microseconds per touched block)


def test_the_set_is_new_seed_37_with_validation_5s_design():
    earlier = set(V6.SET) | set(V5.SET) | set(V4.SET) | set(V4.FIT_GRAPHS) | set(GC.SET)
    assert_a_new_set(V7, 37, earlier, 12)
    assert (V7.ALGORITHMS, V7.VARIANTS, V7.FRACTIONS, V7.SUBLAUNCHES) == (
        V5.ALGORITHMS, V5.VARIANTS, V5.FRACTIONS, V5.SUBLAUNCHES)  # fmt: skip
    assert (V7.PASSES, V7.REPS, V7.ORDERS) == (V5.PASSES, V5.REPS, V5.ORDERS)
    assert V7.RULES == ("micro_end",) and len(V7.FIT_CALLS) == 7


def test_the_fit_recovers_a_synthetic_rule_and_takes_only_the_registered_calls():
    rng = np.random.default_rng(7)
    n = 70
    calls = list(V7.FIT_CALLS)
    cells = pd.DataFrame({"call": [calls[i % 7] for i in range(n)], "device_ms": rng.uniform(1, 30, n),
                          "simulated_migration_ms": rng.uniform(20, 900, n), "tail_ms": rng.uniform(0, 40, n),
                          "evicted_chunks": rng.integers(100, 6000, n).astype(float)})  # fmt: skip
    cells["u_end"] = cells["call"].map({c: 2.0 + 0.5 * i for i, c in enumerate(calls)})
    coef = {"migration": 0.6, "evicted": 0.02, "beta": 0.4}
    cells["capped_ms"] = V7.predict_ms(cells, cells["u_end"], coef)
    reg = V7.register(cells, json.loads(V6.REGISTERED.read_text()))
    assert reg["micro_end"] == pytest.approx(coef, abs=1e-6)
    assert reg["h200_terms"] == json.loads(V6.REGISTERED.read_text())["capped_terms"]
    assert reg["micro_fit"]["cells"] == n and reg["micro_fit"]["calls"] == sorted(calls)
    with pytest.raises(ValueError, match="the 7 registered calls"):
        V7.register(cells[cells["call"] != calls[0]], json.loads(V6.REGISTERED.read_text()))


def test_the_committed_registration_is_the_fit_on_the_archived_calls():
    reg = json.loads(V7.REGISTERED.read_text())
    assert reg["micro_end"]["beta"] == pytest.approx(0.35)
    assert reg["micro_fit"]["cells"] == 768 and reg["shapes"] == json.loads(V6.REGISTERED.read_text())["shapes"]
    if all((V7.ARCHIVE / c).is_dir() for c in V7.FIT_CALLS):
        again = V7.register(V7.fit_cells(), json.loads(V6.REGISTERED.read_text()))
        assert again["micro_end"] == pytest.approx(reg["micro_end"])
        assert again["micro_fit"]["uvmfault_end_us"] == pytest.approx(reg["micro_fit"]["uvmfault_end_us"])


def _synthetic(tmp_path, u_end: float | None = U_END, name: str = "uvmc7"):
    """Capped validation 5's SYNTHETIC call (folder `name`) with a closing uvmfault of U_END for a thread per 256-byte
    list (none where u_end is None); registered: micro_end pays E_MS per evicted chunk and the migration once at
    g = 1 (beta 0), h200 E_MS alone."""
    tarball, gdir, registered = v5_synthetic(tmp_path, name)

    def closing_uvmfault(session: Path) -> None:
        end = session / "micro" / "uvmfault_end.csv"
        end.parent.mkdir(exist_ok=True)
        if u_end is None:
            end.unlink(missing_ok=True)
            return
        micro = _micro_table(SHAPE, 1.0)  # validation 3's four patterns; the thread, 256-byte one at u_end
        thread_256 = (micro["access"] == "thread") & (micro["list_bytes"] == 256)
        micro.assign(us_per_touched_block=np.where(thread_256, u_end, 9.0)).to_csv(end, index=False)

    repack(tarball, name, tmp_path / "repack7", closing_uvmfault)
    reg = json.loads(registered.read_text())
    reg |= {"micro_end": {"migration": 1.0, "evicted": E_MS, "beta": 0.0}, "h200_terms": {"evicted": E_MS}}
    registered.write_text(json.dumps(reg))
    return tarball, gdir, registered


def test_judge_a_synthetic_call(tmp_path):
    tarball, gdir, registered = _synthetic(tmp_path)
    out = tmp_path / "out"
    summary = V7.judge(tarball, gdir, out, 1, registered, HOW)
    every = summary[summary["group"] == "all"].set_index("rule")
    assert list(every.index) == ["micro_end", "h200", "pass1"] and every.loc["micro_end", "n"] == 15
    cells = pd.read_csv(out / "capped_validation7_cells.csv")
    assert (cells["uvmfault_end_us"] == U_END).all() and (cells["factor_micro_end"] == 1.0).all()  # beta 0: g = 1
    # with beta 0, a = 1 and b = E_MS, micro_end is h200's rule exactly
    assert np.allclose(cells["predicted_ms_micro_end"], cells["predicted_ms_h200"])
    factors = json.loads((out / "capped_validation7_factors.json").read_text())
    assert factors["uvmfault_end_us"] == U_END and factors["micro_end"]["evicted"] == E_MS
    assert "capped validation 7" in json.loads((out / "source.json").read_text())["note"]


def test_the_call_factor_scales_the_migration_and_eviction_by_uvmfault_to_beta(tmp_path):
    tarball, gdir, registered = _synthetic(tmp_path)
    reg = json.loads(registered.read_text())
    reg["micro_end"] = {"migration": 0.5, "evicted": 0.01, "beta": 0.5}
    registered.write_text(json.dumps(reg))
    out = tmp_path / "out"
    V7.judge(tarball, gdir, out, 1, registered, HOW)
    c = pd.read_csv(out / "capped_validation7_cells.csv")
    g = U_END**0.5
    want = c["device_ms"] + c["tail_ms"] + g * (0.5 * c["simulated_migration_ms"] + 0.01 * c["evicted_chunks"])
    assert np.allclose(c["predicted_ms_micro_end"], want) and np.allclose(c["factor_micro_end"], g)


def test_a_call_without_its_closing_uvmfault_is_refused_in_one_line(tmp_path, capsys):
    tarball, gdir, registered = _synthetic(tmp_path, u_end=None)
    args = ["judge", "--tarball", str(tarball), "--graph-dir", str(gdir), "--out", str(tmp_path / "cli")]
    assert V7.main([*args, "--registered", str(registered)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "uvmfault at its end is missing" in err[0]


def test_uvmfault_us_reads_the_thread_256_pattern():
    table = pd.read_csv(io.StringIO("access,list_bytes,us_per_touched_block\nthread,256,2\nthread,256,4\nwarp,256,9\n"))
    assert V7.uvmfault_us(table) == 3.0
    with pytest.raises(ValueError, match="no uvmfault row"):
        V7.uvmfault_us(table[table["access"] == "warp"])
    with pytest.raises(ValueError, match="no us_per_touched_block column"):
        V7.uvmfault_us(table.drop(columns="us_per_touched_block"))


def test_the_device_script_is_validation_6s_with_the_seed_37_set():
    text = script_text(7)
    assert_script_tables(text, V7, 7, fractions=False)
    orders = "|".join(" ".join(f"{f}:{k}" for f, k in order) for order in V7.ORDERS)
    assert f'PASS_ORDERS="{orders}"' in text and f"CAPPED_REPS={V7.REPS}\n" in text
    own, six = SCRIPT.read_text(), (ROOT / "tools/device/uvm_capped_validation6.sh").read_text()
    body = [line for line in own.splitlines() if not line.startswith("#")]
    assert body == [line.replace("36", "37").replace("N=6", "N=7") for line in six.splitlines()
                    if not line.startswith("#")]  # fmt: skip
    assert "uvmc7.tgz" in text and "python -m model.uvm_capped_validation7 judge" in own
    assert subprocess.run(["bash", "-n", str(SCRIPT)]).returncode == 0


def test_a_dry_run_runs_every_cell_in_three_passes(tmp_path):
    own = SCRIPT.read_text()
    middle = own[own.index("N=7;") : own.rstrip().rindex("capped_session")]
    stubs = """graph() { echo "graph $1 $SEED"; return 0; }
capacity() { echo 2097152; }
one_run() { echo "run $(basename "$1")"; }"""
    steps, _ = dry_run_capped_script(tmp_path, middle, stubs, ("graph", "run"))
    assert [s for s in steps if s.startswith("graph")] == ["graph kron20s37 37", "graph urand20s37 37"]
    runs = [s.split()[1] for s in steps if s.startswith("run")]
    assert len(runs) == 2 * 4 * (1 + 12) and all(V5.PASS_FILE.fullmatch(r) for r in runs if r.startswith("capped."))


def test_the_workflow_draws_the_archived_call():
    """Capped validation 7's H200 call is archived as judged (median met, worst missed) and the workflow draws it; its
    trace part lives in git history, named in the archive's README, not in the tree."""
    from tests.test_uvm_capped_validation3 import archived_call

    archive = archived_call(7)
    source = json.loads((archive / "source.json").read_text())
    assert (source["gpu"], source["commit"], source["archive_id"]) == ("NVIDIA H200", "90f7711", archive.name)
    summary = pd.read_csv(archive / "capped_validation7_summary.csv")
    (row,) = summary[(summary["group"] == "all") & (summary["rule"] == "micro_end")].itertuples()
    assert row.n == 96 and not row.meets_targets and row.factor == pytest.approx(3.35866**0.35)
    assert row.median == pytest.approx(0.059, abs=5e-4) and row.worst == pytest.approx(0.324, abs=5e-4)
    factors = json.loads((archive / "capped_validation7_factors.json").read_text())
    assert factors["uvmfault_end_us"] == pytest.approx(3.35866)
    assert "uvmc7_traces.tar.xz.part00" in (archive / "README.md").read_text()
