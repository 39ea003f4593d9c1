"""model/paper_predict.py and the v100-pcie3 preset: every value has a source, none from the figures it predicts
(EMOGI Figs. 8-13), the growth rule on made-up statistics, the quantities on hand-computed cases."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from model import paper_predict as pp
from model.littles_law import throughput_gbps
from model.presets import PRESETS_FILE, get_preset

PAPER_TEXT = Path("/work/shared/papers/emogi-pvldb2021.txt")
# Figs. 8-13 and the sections that hold them (§5.3.2 on): what the preset must predict, so must not use
FORBIDDEN = re.compile(r"Fig(ure)?s?\.?\s*(8|9|1[0-3])\b|§\s*5\.[3-6]")


def raw_v100() -> dict:
    return yaml.safe_load(PRESETS_FILE.read_text())["v100-pcie3"]


def test_v100_preset_has_the_documented_keys_and_a_source_for_each_value():
    raw = raw_v100()
    assert set(raw) == pp.PRESET_KEYS
    values = set(raw) - {"sources", "source", "gpu"}
    assert set(raw["sources"]) == values
    assert all(str(s).strip() for s in raw["sources"].values())
    p = get_preset("v100-pcie3")
    assert (p.W_gbps, p.N_max, p.L_us, math.isinf(p.S_miops)) == (12.23, 256, 1.3, True)
    assert pp.L_RANGE_US[0] < p.L_us < pp.L_RANGE_US[1]


def test_v100_preset_takes_nothing_from_figs_8_to_13():
    raw = raw_v100()
    for key, text in [*raw["sources"].items(), ("source", raw["source"])]:
        assert not FORBIDDEN.search(str(text)), (key, text)
        assert "§3.3" in text or "not stated" in text or key == "source", key
    # 12.3 GB/s (cudaMemcpy, §5.3.2 with Fig. 8) is not the W: the toy's 12.23 of §3.3 is
    assert raw["W_gbps"] == 12.23


@pytest.mark.skipif(not PAPER_TEXT.exists(), reason="the paper's text is not on this machine")
def test_v100_preset_quotes_are_in_the_paper():
    text = " ".join(PAPER_TEXT.read_text().split())
    for key, source in raw_v100()["sources"].items():
        for quote in re.findall(r"'([^']+)'", str(source)):
            assert " ".join(quote.split()) in text, (key, quote)


def test_gpus_have_a_source_per_value_and_the_v100_is_table_1s():
    gpus = pp.load_gpus()
    assert raw_v100()["gpu"] in gpus and pp.FITTED_ON in gpus
    for name, g in gpus.items():
        assert set(g["sources"]) == set(g) - {"sources"}, name
    v100 = gpus["v100-sxm2"]
    assert v100["sms"] * 64 == 5120 and v100["warps_per_sm"] == 64  # Table 1: 5120 CUDA cores, 64 per SM
    assert pp.floor_scale(v100, gpus["h100-sxm5"]) == pytest.approx(132 * 1980 / (80 * 1530))


def test_growth_rule_is_exact_on_geometric_statistics():
    scales = [18, 19, 20]
    assert pp.extrapolate(scales, [3 * 2**s for s in scales], 27) == pytest.approx(3 * 2**27)
    assert pp.extrapolate(scales, [5.0, 5.0, 5.0], 27) == pytest.approx(5.0)
    with pytest.raises(ValueError):
        pp.extrapolate([20], [1.0], 27)
    with pytest.raises(ValueError):
        pp.extrapolate([19, 20], [0.0, 1.0], 27)


def made_up_stats(scales=(18, 19, 20, 21, 22)) -> pd.DataFrame:
    """Per-level totals that double per scale, with a constant chain: two kinds, three variants."""
    rows = []
    for kind, chain in (("kron", 100.0), ("urand", 1.0)):
        for s in scales:
            k = 2.0 ** (s - 18)
            for variant, req, sec in (("naive", 40, 40), ("merged", 12, 42), ("merged-aligned", 10, 40)):
                rows.append(
                    {
                        "kind": kind,
                        "scale": s,
                        "variant": variant,
                        "requests": req * 1e5 * k,
                        "D_bytes": 32 * sec * 1e5 * k,
                        "floor_ms": 0.5 * k,
                        "chain_steps": chain,
                    }
                )
    return pd.DataFrame(rows)


def test_extrapolated_and_its_check_on_made_up_statistics():
    stats = made_up_stats()
    s27 = pp.extrapolated(stats, [20, 21, 22], 27)
    assert len(s27) == 6 and (s27["scale"] == 27).all()
    naive = s27[(s27["kind"] == "kron") & (s27["variant"] == "naive")].iloc[0]
    assert naive["requests"] == pytest.approx(40e5 * 2**9)
    assert naive["chain_steps"] == pytest.approx(100.0)
    c = pp.check(stats, [18, 19, 20], 22)
    assert c["rel_error"].abs().max() < 1e-9  # the rule is exact where the growth is geometric


def test_link_only_ratios_are_the_hand_computed_ones():
    stats = made_up_stats().query("scale == 22 and kind == 'urand'").assign(chain_steps=0.0)
    q = {name: value for name, _, value, *_ in pp.quantities(stats, floor=False)}
    p = get_preset("v100-pcie3")
    t = {}
    for v in pp.VARIANTS:
        r = stats[stats["variant"] == v].iloc[0]
        t[v] = r["D_bytes"] / throughput_gbps(r["D_bytes"] / r["requests"], p)
    assert q["fig9_aligned_over_merged"] == pytest.approx(t["merged"] / t["merged-aligned"])
    assert q["fig9_merged_over_naive"] == pytest.approx(t["naive"] / t["merged"])
    # naive (32-B requests): Little's law binds, 256 x 32 B / 1.3 us; merged variants: the link, 12.23 GB/s
    assert q["fig8_naive_gbps"] == pytest.approx(256 * 32 / 1.3e3)
    assert q["fig8_merged_aligned_gbps"] == pytest.approx(12.23)
    # PCIe 3 -> 4 presets with no floor and no chain: the W ratio (both above the knee at d = 128 B)
    assert q["fig13_emogi_pcie4_scaling"] == pytest.approx(24.0 / 12.0)


def test_paper_values_come_from_paper_numbers():
    v = pp.paper_values()
    assert v["fig9_merged_over_naive"] == pytest.approx(3.24 / 0.73)
    assert (v["fig9_aligned_over_merged"], v["fig13_emogi_pcie4_scaling"]) == (1.10, 1.88)
