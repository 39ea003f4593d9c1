"""Capped validation 3 (model/uvm_capped_validation3.py) and its tail term (model/uvm_capped.py) on SYNTHETIC inputs
whose answer is known (no table here is a measurement), its registered parameters and device script; capped
validation 2's tests (tests/test_uvm_capped_validation2.py) lend the synthetic call."""

import json
import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from model import uvm_capped, uvm_capped_validation2, uvm_capped_validation3, uvm_validation7
from tests.test_uvm_capped_validation2 import (
    E_MS,
    HOW,
    ROOT,
    F,
    _figure_and_report_block,
    _synthetic_call,
    script_text,
)

V3 = uvm_capped_validation3
E_T = 0.03  # the SYNTHETIC cost per evicted chunk of a naive cell


class _Trace(SimpleNamespace):
    def mask(self, i):
        return self.masks[i]


def test_sublaunch_tails_sum_the_longest_list_per_range():
    degree = np.array([1, 9, 2, 3, 7, 4, 5, 8])  # SYNTHETIC
    masks = [np.ones(8, bool), np.array([1, 0, 1, 0, 0, 0, 0, 0], bool)]
    t = _Trace(num_vertices=8, num_launches=2, masks=masks)
    assert uvm_capped.sublaunch_tails(t, degree, 1) == (9 + 2, 9 + 2)
    assert uvm_capped.sublaunch_tails(t, degree, 4) == (9 + 2, (9 + 3 + 7 + 8) + (1 + 2))  # ranges of 2


def test_the_tail_is_naive_at_k_above_one_only():
    cells = pd.DataFrame({"variant": ["naive", "naive", "merged-aligned", "naive"], "sublaunches": [4, 1, 4, 4],
                          "device_ms": 10.0, "tail_whole": [100, 100, 100, 0],
                          "tail_split": [250, 100, 250, 0]})  # fmt: skip
    cells["access"] = uvm_capped.access_of(cells["variant"])
    assert uvm_capped.tail_ms(cells).tolist() == [15.0, 0.0, 0.0, 0.0]


def test_the_fit_refuses_held_out_graphs_and_recovers_its_terms():
    rng = np.random.default_rng(3)
    cells = pd.DataFrame({"graph": "kron20s30", "base": rng.uniform(50, 500, 40), "tail_device": rng.uniform(0, 50, 40),
                          "evicted_chunks": rng.integers(100, 5000, 40), "naive": rng.random(40) < 0.5})  # fmt: skip
    cells["naive_evicted"] = np.where(cells["naive"], cells["evicted_chunks"], 0)
    cells["capped_ms"] = cells["base"] + cells["tail_device"] + 0.02 * cells["evicted_chunks"]
    cells["capped_ms"] += 0.01 * cells["naive_evicted"]
    coef = V3.fit_rule(cells)
    assert coef["evicted"] == pytest.approx(0.02, rel=1e-6) and coef["thread_evicted"] == pytest.approx(0.01, rel=1e-6)
    for held in V3.SET:
        with pytest.raises(uvm_capped.CappedError, match="only the archived capped runs"):
            V3.fit_rule(cells.assign(graph=np.where(np.arange(40) < 20, "kron24", held)))


def assert_a_new_set(v, seed: int, earlier: set, last_uvm: int) -> None:
    """Capped validation module `v`'s set: validation 2's graphs made with seed `seed`, none of them in `earlier`
    nor in UVM validations 3 to `last_uvm`'s sets."""
    assert v.SEED == seed and all(name.endswith(f"s{seed}") for name in v.SET)
    for n in range(3, last_uvm + 1):
        earlier |= set(__import__(f"model.uvm_validation{n}", fromlist=["SET"]).SET)
    assert not set(v.SET) & earlier
    assert list(v.SET.values()) == list(uvm_capped_validation2.SET.values())


def assert_validation_2s_design(v) -> None:
    v2 = uvm_capped_validation2
    assert (v.ALGORITHMS, v.VARIANTS, v.FRACTIONS, v.SUBLAUNCHES, v.REPS) == (
        v2.ALGORITHMS, v2.VARIANTS, v2.FRACTIONS, v2.SUBLAUNCHES, v2.REPS)  # fmt: skip


def assert_registered_and_reproduced(v, previous, kept: str, cells: int) -> tuple[dict, dict]:
    """`v`'s committed registration: `previous`'s shapes and pageable rule, its capped terms kept as `kept`, new
    terms fitted on `cells` cells of `v`'s fit graphs, and the fit again from the committed cells gives them.
    Returns (the registration, the fit again)."""
    reg = json.loads(v.REGISTERED.read_text())
    prev = json.loads(previous.REGISTERED.read_text())
    assert reg["shapes"] == prev["shapes"] and reg["pageable_rule"] == prev["pageable_rule"]
    assert reg[kept] == prev["capped_terms"] and set(reg["capped_terms"]) == set(v.TERMS)
    assert reg["capped_fit"]["cells"] == cells and set(reg["capped_fit"]["graphs"]) == set(v.FIT_GRAPHS)
    again = v.register(pd.read_csv(v.HERE / "cells.csv"), prev)
    for term in v.TERMS:
        assert again["capped_terms"][term] == pytest.approx(reg["capped_terms"][term], rel=1e-6)
    return reg, again


def test_the_set_is_new_seed_31_and_the_design_is_validation_2s():
    assert_a_new_set(V3, 31, set(uvm_capped_validation2.SET) | set(V3.FIT_GRAPHS), 8)
    assert_validation_2s_design(V3)


def test_registered_params_are_committed_and_reproduced():
    assert_registered_and_reproduced(V3, uvm_capped_validation2, "validation2_terms", 156)


def _price(c, t, g, v, k):
    """SYNTHETIC capped extra: E_MS per evicted chunk, E_T more for naive's, naive's tail on its 5 ms device time."""
    naive = v == "naive"
    whole, split = uvm_capped.sublaunch_tails(t, np.diff(np.asarray(g.offsets, dtype=np.int64)), k)
    tail = 5.0 * (split / whole - 1) if naive and k > 1 and whole else 0.0
    return (E_MS + (E_T if naive else 0)) * c["evicted_chunks"] + tail


def test_judge_a_synthetic_capped_call(tmp_path):
    terms = {"evicted": E_MS, "thread_evicted": E_T}
    tarball, gdir, registered = _synthetic_call(tmp_path, "uvmc3", V3.REGISTERED, terms, _price)
    out = tmp_path / "out"
    summary = V3.judge(tarball, gdir, out, 1, registered, HOW)
    every = summary[summary["group"] == "all"].set_index("rule")
    assert set(every.index) == {"pageable", "none", "floor", "validation2"}
    assert every.loc["pageable", "factor"] == pytest.approx(F) and every.loc["pageable", "worst"] < 1e-9
    assert every.loc["pageable", "meets_targets"] and every.loc["floor", "factor"] == pytest.approx(F)
    assert every.loc["pageable", "n"] == 15 and every.loc["validation2", "worst"] > 1e-3
    cells = pd.read_csv(out / "capped_validation3_cells.csv")
    naive4 = (cells["variant"] == "naive") & (cells["sublaunches"] == 4)
    assert (cells.loc[naive4, "tail_ms"] > 0).all() and (cells.loc[~naive4, "tail_ms"] == 0).all()
    assert (cells.loc[naive4, "tail_split"] > cells.loc[naive4, "tail_whole"]).all()
    missing = pd.read_csv(out / "capped_validation3_missing.csv")
    assert missing["algorithm"].value_counts().to_dict() == {"sssp": 8, "cc": 8, "bfs": 1}
    assert len(pd.read_csv(out / "capped_validation3_cold.csv")) == 4
    factors = json.loads((out / "capped_validation3_factors.json").read_text())
    assert factors["capped_terms"] == terms and "validation2_terms" in factors
    assert "capped validation 3" in json.loads((out / "source.json").read_text())["note"]
    _figure_and_report_block(out, tmp_path, 3)


def test_the_judge_refuses_a_graph_outside_the_set(tmp_path):
    tarball, gdir, registered = _synthetic_call(tmp_path, "uvmc3", V3.REGISTERED, {"evicted": E_MS})
    with pytest.raises(ValueError, match="not in the registered set"):
        V3.judge(tarball, gdir, tmp_path / "out", 1, registered)  # the synthetic graph is not in V3.SET


def archived_call(n: int) -> Path:
    """Capped validation `n`'s archive folder as the workflow draws it: the one holding the call's tarball, with
    the judge's tables beside it."""
    text = (ROOT / "workflow/rules/oom.smk").read_text()
    listed = re.search(r"^UVM_CAPPED_VALIDATIONS = \(([^)]*)\)", text, re.M).group(1)
    assert str(n) in re.findall(r"\d+", listed)
    (archive,) = [p for p in (ROOT / "archive").glob(f"uvm-capped-validation{n}-*") if (p / f"uvmc{n}.tgz").exists()]
    for name in ("cells", "summary", "cold", "missing"):
        assert (archive / f"capped_validation{n}_{name}.csv").exists(), name
    return archive


def assert_script_tables(text: str, v, n: int, fractions: bool = True) -> None:
    """Capped validation `n`'s device script (`text`, with the session library) measures `v`'s registered set,
    seed, variants and algorithms (and, where `fractions`, its fractions and sub-launch counts)."""
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', text))
    assert how == v.SET and f"SEED={v.SEED};" in text and f'NAMES="{" ".join(v.SET)}"' in text and f"N={n};" in text
    assert f"VARIANTS={','.join(v.VARIANTS)};" in text and f'ALGORITHMS="{" ".join(v.ALGORITHMS)}"' in text
    if fractions:
        assert f'FRACTIONS="{" ".join(map(str, v.FRACTIONS))}"' in text
        assert f'SUBLAUNCHES="{" ".join(map(str, v.SUBLAUNCHES))}"' in text


def test_the_workflow_draws_the_archived_call():
    """The workflow draws capped validation 3 from its archive: the judge's tables and the call's tarball (its trace
    part is in git history, the README says where), source.json naming the folder."""
    archive = archived_call(3)
    # its trace part left the tree for git history (tests/test_tree_size.py); the README says how to put it back
    assert (archive / "uvmc3.tgz").exists() and not list(archive.glob("uvmc3_traces.tar.xz.part*"))
    assert f"git show 8ab1ac8:archive/{archive.name}/uvmc3_traces.tar.xz.part00" in (archive / "README.md").read_text()
    source = json.loads((archive / "source.json").read_text())
    assert source["archive_id"] == archive.name and source["commit"] == "ce2198e"
    summary = pd.read_csv(archive / "capped_validation3_summary.csv")
    primary = summary[(summary["group"] == "all") & (summary["rule"] == "pageable")]
    assert len(primary) == 1 and not primary["meets_targets"].item()  # as its README says: both missed


def test_the_device_script_measures_the_registered_set_within_the_guard():
    text = script_text(3)
    assert_script_tables(text, V3, 3)
    for setting in (f"REPS=${{REPS:-{V3.REPS}}}", "BUDGET_S=${BUDGET_S:-400}", "HARD_S=${HARD_S:-430}"):
        assert setting in text
    assert "--warmup 0" in text and "--trace-out" in text and ">>21<<21" in text and "--run-order" not in text
    assert "allow-managed-oversubscription" not in text and "timeout" in text and "DEFERRED" in text
    assert "uvmc3.tgz" in text and "python -m model.uvm_capped_validation3 judge" in text
    assert subprocess.run(["bash", "-n", str(ROOT / "tools/device/uvm_capped_validation3.sh")]).returncode == 0


def test_session_factors_come_from_validation_7():
    # through the capped judges' shared start (capped validation 2's open_call)
    assert V3.judge.__globals__["v2"].open_call is uvm_capped_validation2.open_call
    assert uvm_capped_validation2.open_call.__globals__["uvm_validation7"] is uvm_validation7
