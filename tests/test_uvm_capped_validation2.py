"""uvm-capped predicted by the cold model plus emulation terms (model/uvm_capped.py) and capped validation 2
(model/uvm_capped_validation2.py) on SYNTHETIC inputs whose answer is known (no table here is a measurement), its
registered parameters and device script."""

import json
import re
import struct
import subprocess
import sys
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from emogi.csr import read_csr
from emogi.trace_derive import derive
from emogi.trace_recording import FORMAT, MAGIC
from model import (
    uvm_capped,
    uvm_capped_validation2,
    uvm_validation3,
    uvm_validation4,
    uvm_validation5,
    uvm_validation6,
    uvm_validation7,
)
from model.uvm_access_shape import load_shapes
from model.uvm_sim import lists_per_warp_of, simulate
from tests.test_uvm_validation4 import _link, _session
from tests.uvm_validation_checks import figure_with_report_table

ROOT = Path(__file__).resolve().parents[1]
V2 = uvm_capped_validation2
NAME = "kron16s30"  # SYNTHETIC: a small graph whose edge list holds a few 2 MiB chunks
HOW = {NAME: "--kind kron --scale 16 --edge-factor 16"}
E_MS = 0.01  # the SYNTHETIC cost per evicted chunk
F = 1.25  # the SYNTHETIC session factor


def _cells(n: int, rng) -> pd.DataFrame:
    """SYNTHETIC capped cells: counts of plausible size, both access patterns."""
    return pd.DataFrame(
        {
            "graph": "kron24",
            "variant": rng.choice(["naive", "merged-aligned"], n),
            "device_ms": rng.uniform(5, 50, n),
            "migrated_bytes": rng.uniform(1e9, 2e10, n),
            "cold_migrated_bytes": rng.uniform(5e8, 1e9, n),
            "batches": rng.integers(500, 20000, n),
            "serviced_chunks": rng.integers(500, 20000, n),
            "list_faults": rng.integers(0, 10**7, n),
            "evicted_chunks": rng.integers(100, 50000, n),
            "launches": rng.integers(5, 60, n),
            "sublaunches": rng.choice([1, 4], n),
        }
    ).pipe(uvm_capped.with_counts)


def test_fit_terms_recovers_a_cost_per_evicted_chunk_and_per_step():
    shapes = load_shapes(json.loads(V2.REGISTERED.read_text()))
    cells = _cells(60, np.random.default_rng(5))
    base = uvm_capped.base_ms(cells, shapes, 1.1)
    cells["capped_ms"] = base + 0.02 * cells["evicted_chunks"] + 3.0 * cells["steps"]
    coef = uvm_capped.fit_terms(cells, base, ("steps", "evicted"))
    assert coef["evicted"] == pytest.approx(0.02, rel=1e-6) and coef["steps"] == pytest.approx(3.0, rel=1e-6)
    p = uvm_capped.predict(cells, base, coef)
    assert uvm_capped.errors(p, cells["capped_ms"])["worst"] < 1e-9
    assert uvm_capped.fit_terms(cells, base, ()) == {}


def test_the_fit_refuses_held_out_graphs():
    shapes = load_shapes(json.loads(V2.REGISTERED.read_text()))
    cells = _cells(10, np.random.default_rng(1))
    cells["capped_ms"] = 100.0
    for held in (NAME, *V2.SET):
        with pytest.raises(uvm_capped.CappedError, match="only the archived capped runs"):
            V2.fit_rule(cells.assign(graph=np.where(np.arange(10) < 5, "kron24", held)), shapes, {})


def test_the_set_is_new_seed_30_and_complete():
    assert V2.SEED == 30 and all(name.endswith("s30") for name in V2.SET)
    earlier = set()
    for m in (uvm_validation3, uvm_validation4, uvm_validation5, uvm_validation6, uvm_validation7):
        earlier |= set(m.SET)
    assert not set(V2.SET) & (earlier | set(V2.FIT_GRAPHS))
    assert V2.ALGORITHMS == ("bfs", "sssp", "cc", "pagerank") and V2.VARIANTS[0] == "merged-aligned"
    assert V2.FRACTIONS == (0.25, 0.5) and V2.SUBLAUNCHES == (1, 4) and V2.REPS == 5
    assert V2.capacity_bytes(100 << 21, 0.25) == 25 << 21 and V2.capacity_bytes((100 << 21) + 5, 0.5) == 50 << 21


def test_registered_params_are_committed_and_reproduced():
    reg = json.loads(V2.REGISTERED.read_text())
    assert set(reg["capped_terms"]) == set(V2.TERMS) and reg["capped_terms"]["evicted"] > 0
    assert reg["capped_fit"]["graphs"] == list(V2.FIT_GRAPHS)
    assert {"v3", "v4", "v5", "v6", "v7"} <= set(reg["pageable_rule"]["sessions"])
    fit = json.loads((V2.HERE / "shape_fit.json").read_text())
    again = V2.register(
        pd.read_csv(V2.HERE / "cells.csv"), fit, V2.session_mids(), reg["capped_fit"]["oom_session_factor"]
    )
    assert again["shapes"] == reg["shapes"]
    assert again["capped_terms"]["evicted"] == pytest.approx(reg["capped_terms"]["evicted"], rel=1e-6)
    for key in ("c", "k"):
        assert again["pageable_rule"][key] == pytest.approx(reg["pageable_rule"][key], rel=1e-9)


def _write_recorded(trace, path: Path):
    """A SYNTHETIC recorded trace file (emogi.trace_recording's format) holding a CPU-derived trace's launches."""
    words = -(-trace.num_vertices // 32)
    body = b""
    for i in range(trace.num_launches):
        packed = np.packbits(trace.mask(i), bitorder="little")
        body += np.pad(packed, (0, words * 4 - len(packed))).tobytes()
    launches = [{"label": f"launch {i}", "first": 0, "count": None, "partial": ""} for i in range(trace.num_launches)]
    meta = {"format": FORMAT, "version": 1, "graph": trace.graph, "checksum": trace.checksum, "mode": "device",
            "num_vertices": trace.num_vertices, "num_edges": trace.num_edges, "algorithm": trace.algorithm,
            "variant": trace.variant, "edge_bytes": trace.edge_bytes, "weight_bytes": trace.weight_bytes,
            "root": trace.root, "sub_launches": 1, "launches": launches}  # fmt: skip
    text = json.dumps(meta).encode()
    path.write_bytes(body + text + struct.pack("<Q8s", len(text), MAGIC))


def _synthetic_call(tmp_path: Path, folder="uvmc2", registered_file=V2.REGISTERED, terms=None, price=None):
    """A tiny SYNTHETIC capped call: a generated graph, device-mode traces, capped times at factor F of the
    registered shapes plus E_MS per evicted chunk (or `price`(counts, trace, graph, variant, K) with `terms`
    registered), cold times at F, pageable copies at 10 GB/s, a device time of 5 ms; one capped cell (naive BFS at
    1/2, K = 4) is left unmeasured. Returns the tarball (`folder`.tgz), the graphs' folder and the registered file."""
    gdir, sess = tmp_path / "graphs", tmp_path / folder
    for d in ("runs", "graphs", "traces"):
        (sess / d).mkdir(parents=True)
    gdir.mkdir()
    path = gdir / f"{NAME}.w8.csr"
    cmd = [sys.executable, "-m", "emogi.datasets.generators", *HOW[NAME].split(), "--seed", "30"]
    cmd += ["--weights-seed", "30", "--out", str(path), "--meta", str(sess / f"graphs/{NAME}.w8.json")]
    subprocess.run(cmd, check=True, capture_output=True)
    g = read_csr(path)
    meta = json.loads((sess / f"graphs/{NAME}.w8.json").read_text())
    root = int(np.argmax(np.diff(g.offsets)))
    (sess / f"graphs/{NAME}.roots.txt").write_text(f"{root}\n")
    registered = tmp_path / "registered.json"
    reg = json.loads(Path(registered_file).read_text())
    reg["pageable_rule"] = {"c": float(np.log(F)), "k": 0.0, "p_ref_gbps": 10.0}
    reg["capped_terms"] = terms or {"evicted": E_MS}
    registered.write_text(json.dumps(reg))
    shapes = load_shapes(reg)
    stamp = {"gpu": "SYNTHETIC", "date": "2026-11-27", "commit": "synthetic", "graph": NAME, "edge_bytes": 8}
    rows, capped = [], {}
    for a, r in (("bfs", root), ("pagerank", -1)):
        for v in V2.VARIANTS:
            t = derive(g, a, v, None if r < 0 else r, NAME)
            _write_recorded(t, sess / f"traces/{NAME}.{a}.{v}.device.w8{'' if r < 0 else f'.r{r}'}.trace")
            pw = lists_per_warp_of(t)
            for f in V2.FRACTIONS:
                for k in V2.SUBLAUNCHES:
                    if (a, v, f, k) == ("bfs", "naive", 0.5, 4):
                        continue
                    cap = V2.capacity_bytes(meta["edge_list_bytes"], f)
                    c = simulate(t, g, "capped", cap, sub_launches=k, lists_per_warp=pw).totals()
                    cell = pd.DataFrame([{**c, "variant": v}])
                    e = price(c, t, g, v, k) if price else E_MS * c["evicted_chunks"]
                    ms = 5.0 + F * uvm_capped.migration_ms(cell, shapes)[0] + e
                    capped.setdefault((a, f, k), []).append({**stamp, "algorithm": a, "variant": v, "root": r,
                                                             "mode": "uvm-capped", "time_ms": ms})  # fmt: skip
            c0 = pd.DataFrame([{**simulate(t, g, lists_per_warp=pw).totals(), "variant": v}])
            cold = 5.0 + F * uvm_capped.migration_ms(c0, shapes)[0]
            rows += [{**stamp, "algorithm": a, "variant": v, "root": r, "mode": m, "time_ms": x}
                     for m, x in (("device", 5.0), ("uvm", cold))]  # fmt: skip
    pd.DataFrame(rows).to_csv(sess / "runs/all.csv", index=False)
    for (a, f, k), part in capped.items():
        pd.DataFrame(part).to_csv(sess / f"runs/capped.{a}.{NAME}.f{f}.k{k}.csv", index=False)
    _session(sess, {"start": 1.0, "end": 1.0}, gbps=10.0)
    _link(10.0).to_csv(sess / "micro/link_end.csv", index=False)
    with tarfile.open(tmp_path / f"{folder}.tgz", "w:gz") as tar:
        tar.add(sess, arcname=folder, filter=lambda m: None if "/traces" in m.name else m)
    pack_traces(sess / "traces", tmp_path, folder)
    return tmp_path / f"{folder}.tgz", gdir, registered


def pack_traces(traces: Path, where: Path, folder: str, gzip_parts=False):
    """The traces beside the tarball as the session script packs them (xz, split in two parts as its `split` does),
    or with `gzip_parts` as the calls before xz packing did."""
    suffix, mode = ("tgz", "w:gz") if gzip_parts else ("tar.xz", "w:xz")
    with tarfile.open(where / f"traces.{suffix}", mode) as tar:
        tar.add(traces, arcname=f"{folder}/traces")
    packed = (where / f"traces.{suffix}").read_bytes()
    (where / f"{folder}_traces.{suffix}.part00").write_bytes(packed[: len(packed) // 2])
    (where / f"{folder}_traces.{suffix}.part01").write_bytes(packed[len(packed) // 2 :])


def test_the_traces_unpack_from_xz_parts_or_the_older_gzip_parts(tmp_path):
    """Calls before 2026-11-27's xz packing brought gzip parts back (archived capped validations 2 and 3 were
    repacked): either form unpacks to the same traces."""
    traces = tmp_path / "made" / "traces"
    traces.mkdir(parents=True)
    (traces / "g.bfs.naive.device.w8.trace").write_bytes(bytes(range(256)) * 64)
    for gzip_parts in (False, True):
        where = tmp_path / ("gz" if gzip_parts else "xz")
        where.mkdir()
        pack_traces(traces, where, "uvmc9", gzip_parts)
        assert V2.unpack_traces(where / "uvmc9.tgz", where / "out") == 2
        got = where / "out/session/uvmc9/traces/g.bfs.naive.device.w8.trace"
        assert got.read_bytes() == bytes(range(256)) * 64


def test_judge_a_synthetic_capped_call(tmp_path):
    tarball, gdir, registered = _synthetic_call(tmp_path)
    out = tmp_path / "out"
    summary = V2.judge(tarball, gdir, out, 1, registered, HOW)
    every = summary[summary["group"] == "all"].set_index("rule")
    assert set(every.index) == {"pageable", "none", "floor", "no_eviction_cost"}
    assert every.loc["pageable", "factor"] == pytest.approx(F) and every.loc["pageable", "worst"] < 1e-9
    assert every.loc["pageable", "meets_targets"] and every.loc["floor", "factor"] == pytest.approx(F)
    assert every.loc["pageable", "n"] == 15  # 2 algorithms x 2 variants x 2 capacities x 2 K, one left out
    cells = pd.read_csv(out / "capped_validation2_cells.csv")
    assert (cells["evicted_chunks"] > 0).all() and (cells["eviction_cost_ms"] == E_MS * cells["evicted_chunks"]).all()
    missing = pd.read_csv(out / "capped_validation2_missing.csv")
    made = missing[missing["algorithm"].isin(["bfs", "pagerank"])]
    assert made[["algorithm", "variant", "budget_fraction", "sublaunches"]].values.tolist() == [
        ["bfs", "naive", 0.5, 4]
    ]
    assert missing["algorithm"].value_counts().to_dict() == {"sssp": 8, "cc": 8, "bfs": 1}  # not in the fixture
    cold = pd.read_csv(out / "capped_validation2_cold.csv")
    assert len(cold) == 4 and cold["error_pageable"].abs().max() < 1e-9
    factors = json.loads((out / "capped_validation2_factors.json").read_text())
    assert factors["pageable_from"] == "start and end" and factors["capped_terms"] == {"evicted": E_MS}
    assert "capped validation 2" in json.loads((out / "source.json").read_text())["note"]
    _figure_and_report_block(out, tmp_path)


def capped_figure_and_report(out: Path, tmp_path: Path, n: int) -> tuple[dict, dict]:
    """Capped validation `n`'s figure and report blocks from the judged cells in `out`, their captions checked;
    each rule's verdict and the table block."""
    name = f"capped_validation{n}"
    image, table, verdicts = figure_with_report_table(out, tmp_path, f"fig_uvm_{name}", f"{name}_cells.csv")
    assert "uvm-capped measured" in image["caption"] and f"capped validation {n}" in table["caption"]
    return verdicts, table


def _figure_and_report_block(out: Path, tmp_path: Path, n: int = 2):
    verdicts, _ = capped_figure_and_report(out, tmp_path, n)
    assert verdicts["pageable"] == "met" and verdicts["floor"] == "not a prediction"


def test_the_figure_is_drawn_from_its_archive():
    text = (ROOT / "workflow/rules/oom.smk").read_text()
    assert "UVM_CAPPED_VALIDATIONS = (2, 3, 4, 5, 6, 7, 8)" in text and '[f"capped_validation{n}" for n in' in text
    assert "glob(f\"uvm-{_name.replace('_', '-')}-*\")" in text and '(p / f"{_name}_cells.csv")' in text
    assert (ROOT / "archive/uvm-capped-validation2-h100-2026-11-27/capped_validation2_cells.csv").is_file()


def script_text(n: int) -> str:
    """Capped validation n's device script with the session steps it sources (uvm_capped_session.sh)."""
    own = (ROOT / f"tools/device/uvm_capped_validation{n}.sh").read_text()
    assert ". tools/device/uvm_capped_session.sh" in own and own.rstrip().endswith("capped_session")
    return own + (ROOT / "tools/device/uvm_capped_session.sh").read_text()


def test_the_device_script_measures_the_registered_set_within_the_guard():
    text = script_text(2)
    how = dict(re.findall(r'\[(\w+)\]="(--kind [^"]+)"', text))
    assert how == V2.SET and f"SEED={V2.SEED};" in text
    assert f"VARIANTS={','.join(V2.VARIANTS)};" in text and f'ALGORITHMS="{" ".join(V2.ALGORITHMS)}"' in text
    assert f'FRACTIONS="{" ".join(map(str, V2.FRACTIONS))}"' in text
    assert f'SUBLAUNCHES="{" ".join(map(str, V2.SUBLAUNCHES))}"' in text
    for setting in (f"REPS=${{REPS:-{V2.REPS}}}", "BUDGET_S=${BUDGET_S:-400}", "HARD_S=${HARD_S:-430}"):
        assert setting in text
    assert "--warmup 0" in text and "--trace-out" in text and ">>21<<21" in text  # capacity_bytes' rounding
    assert "--run-order" not in text  # refused with uvm-capped
    assert "allow-managed-oversubscription" not in text and "timeout" in text and "DEFERRED" in text
    assert "EMOGI_COMMIT=" in text and ". tools/device/uvm_session.sh" in text and "uvmc2.tgz" in text
    assert 'NAMES="kron20s30 urand20s30"' in text and "N=2;" in text and '"$OUT/uvmc$N.tgz"' in text
    assert 'split -b 15M -d "$W/traces.tar.xz" "$OUT/uvmc${N}_traces.tar.xz.part"' in text  # a file back: <= 16 MiB
    assert V2.CAPPED_FILE.fullmatch("capped.bfs.kron20s30.f0.25.k4.csv")
    assert "capped.$a.$name.f$f.k$k.csv" in text


def test_the_device_script_parses():
    for name in ("uvm_capped_validation2.sh", "uvm_capped_session.sh"):
        assert subprocess.run(["bash", "-n", str(ROOT / "tools/device" / name)]).returncode == 0
