"""The claims table (paper/claims/, figures/claims.py): every claim names a number the paper states and a regime of
the registry, ours is read from the figure's CSV, and the verdicts follow the rules paper/claims/README.md states."""

import math

import pandas as pd
import pytest
import yaml

from conftest import REPO
from figures import claims


def test_every_claim_names_a_paper_number_and_registry_regimes(tmp_path):
    table = claims.claims_table(tmp_path)  # no figure CSVs: every claim is there, with no data
    all_claims = claims.load_claims()
    ids = [c["id"] for c in all_claims]
    assert list(table["id"]) == ids and len(set(ids)) == len(ids)
    # no figure CSVs: every tested claim has no data; the others say they are not tested
    untested = {c["id"] for c in all_claims if "ours" not in c}
    assert set(table[~table["id"].isin(untested)]["verdict"]) == {"no data"}
    assert set(table[table["id"].isin(untested)]["verdict"]) <= {"not tested"}
    assert table["section"].str.match(r"§|Abstract").all()
    assert (table["reason"].str.len() > 0).all()  # every row says why (the tested ones how ours was read)


def test_every_paper_has_its_claims_in_its_own_file():
    """One file per paper, in the table's order; each claim's number comes from that paper (its `ref`, or EMOGI's
    groups, which have none), so a reader can trust the paper column."""
    numbers = yaml.safe_load(claims.PAPER_NUMBERS.read_text())
    refs = {"emogi": "emogi", "cxl": "cxl", "cf17": "cf2017", "graphit": "graphit"}
    sources = []
    for name in claims.PAPERS:
        doc = yaml.safe_load((claims.CLAIMS / f"{name}.yaml").read_text())
        assert doc["source"] and doc["claims"], name
        sources.append(doc["source"])
        for c in doc["claims"]:
            entry = claims.paper_entry(numbers, c["paper"])
            assert entry.get("ref", "emogi") == refs[name], (name, c["id"], c["paper"])
            assert entry.get("section") and entry.get("quote"), (name, c["id"])
            assert c.get("kind", "ratio") in claims.KINDS, c["id"]
            assert set(c) <= ALLOWED_KEYS, (c["id"], set(c) - ALLOWED_KEYS)
            if "ours" in c:
                assert set(c["ours"]) <= OURS_KEYS, (c["id"], set(c["ours"]) - OURS_KEYS)
        assert len((claims.CLAIMS / f"{name}.yaml").read_text().splitlines()) <= 500, name
    assert len(set(sources)) == len(sources)
    assert list(claims.claims_table(REPO / "no-such-folder")["source"].unique()) == sources


ALLOWED_KEYS = {"id", "claim", "paper", "paper_regime", "ours", "kind", "tolerance", "regime_independent",
                "comparable", "reason"}  # fmt: skip
OURS_KEYS = {"figure", "where", "column", "agg", "regime", "ratio_of", "match_on"}


def test_a_claim_every_paper_makes_is_in_the_table():
    """The table is complete in the sense the issue asks: the headline numbers of each paper are rows."""
    table = claims.claims_table(REPO / "no-such-folder").set_index("id")
    for claim_id in ("apps_over_uvm", "pcie4_emogi_scaling", "over_subway", "latency_allowance", "cxl_L_allowed_gen4",
                     "cf17_pinned_over_pageable", "cf17_average_over_cpu", "graphit_cache_blocking",
                     "graphit_over_frameworks", "graphit_random_over_sequential"):  # fmt: skip
        assert claim_id in table.index, claim_id
    by_source = table.groupby("source").size()
    assert (by_source >= 15).all(), by_source


def test_an_untested_claim_without_a_reason_is_refused(tmp_path):
    bad = tmp_path / "claims.yaml"
    bad.write_text(yaml.safe_dump({"claims": [{"id": "x", "claim": "x", "paper": "fig09.naive_over_uvm"}]}))
    with pytest.raises(claims.ClaimsError, match="no reason"):
        claims.claims_table(tmp_path, bad)


def test_ranges_and_units_as_the_table_prints_them():
    assert claims._fmt([0.93, 0.98], "fraction") == "93–98%"
    assert claims._fmt([1.0, 1.6], "us") == "1–1.6 µs"
    assert claims._fmt([10, 100], "x") == "10–100×"
    assert claims._fmt(57344.0, "MB/s") == "57,344 MB/s"
    assert claims._fmt(4194304.0, "bytes") == "4 MiB"
    assert claims._fmt(0.0625, "fraction") == "6.25%"
    assert claims._fmt(math.nan, "x") == "–"


@pytest.mark.parametrize(
    "claim,paper,ours,expected",
    [
        ({"kind": "ratio", "tolerance": 0.1}, 3.24, 3.0, "reproduced"),
        ({"kind": "ratio", "tolerance": 0.1}, 3.24, 1.8, "direction holds"),
        ({"kind": "ratio", "tolerance": 0.1}, 3.24, 0.9, "not reproduced"),
        ({"kind": "up_to", "tolerance": 0.1}, 0.833, 0.86, "reproduced"),
        ({"kind": "up_to", "tolerance": 0.1}, 0.288, 0.209, "not reproduced"),
        ({"kind": "at_most", "tolerance": 0.0}, 1.31, 1.16, "reproduced"),
        ({"kind": "at_most", "tolerance": 0.0}, 1.31, 1.4, "not reproduced"),
        ({"kind": "ratio", "regime": "fits"}, 2.6, 0.98, "not comparable"),
        ({"kind": "ratio", "regime": "fits", "regime_independent": True}, 1.57, 1.66, "reproduced"),
        ({"kind": "ratio"}, 2.6, math.nan, "no data"),
        # a quantity has no side of 1 to hold
        ({"kind": "value", "tolerance": 0.15}, 768, 880, "reproduced"),
        ({"kind": "value", "tolerance": 0.1}, 89.6, 120, "not reproduced"),
        # a [lo, hi] range, widened by the tolerance at both ends
        ({"kind": "value", "tolerance": 0.1}, [1.0, 1.6], 1.12, "reproduced"),
        ({"kind": "value", "tolerance": 0.1}, [1.0, 1.6], 1.9, "not reproduced"),
        ({"kind": "ratio", "tolerance": 0.0}, [10, 100], 25.6, "reproduced"),
        ({"kind": "ratio", "tolerance": 0.0}, [10, 100], 5.0, "direction holds"),
        ({"kind": "at_most", "tolerance": 0.0}, [0.39, 0.62], 0.07, "reproduced"),
        ({"kind": "up_to", "tolerance": 0.1}, [1.34, 3.19], 1.3, "reproduced"),
        # the paper's number belongs to other hardware: ours shown, not judged (even where it would agree)
        ({"kind": "value", "comparable": False}, 12.3, 12.3, "not comparable"),
        ({"kind": "value", "comparable": False}, 12.3, math.nan, "no data"),
    ],
)
def test_verdicts(claim, paper, ours, expected):
    full = {"paper_regime": "budget", "ours": {"regime": claim.pop("regime", "budget")}, **claim}
    assert claims.verdict(full, paper, ours) == expected


def test_ours_from_a_figure_csv(tmp_path):
    pd.DataFrame(
        {
            "graph": ["a", "a", "b", "b"],
            "edge_bytes": 8,
            "mode": "zerocopy",
            "variant": ["merged", "merged-aligned", "merged", "merged-aligned"],
            "speedup": [2.0, 2.2, 3.0, 3.0],
        }
    ).to_csv(tmp_path / "fig09_speedup_over_uvm.csv", index=False)
    table = claims.claims_table(tmp_path).set_index("id")
    assert table.loc["merged_over_uvm", "ours"] == "2.50×"  # mean over the graphs
    assert table.loc["aligned_over_merged", "ours"] == "1.05×"  # mean of 2.2 / 2.0 and 3.0 / 3.0
    assert table.loc["aligned_over_merged", "verdict"] == "reproduced"  # regime-independent, 1.10 ± 10 %
    assert table.loc["merged_over_uvm", "verdict"] == "not comparable"
    assert table.loc["merged_over_uvm", "regime"] == "fits in GPU memory"


def test_a_claim_naming_what_the_paper_lacks_is_refused(tmp_path):
    bad = tmp_path / "claims.yaml"
    bad.write_text(
        yaml.safe_dump(
            {
                "claims": [
                    {
                        "id": "x",
                        "claim": "x",
                        "paper": "fig09.no_such_number",
                        "paper_regime": "budget",
                        "ours": {"figure": "fig09_speedup_over_uvm", "column": "speedup", "regime": "fits"},
                    }
                ]
            }
        )
    )
    with pytest.raises(claims.ClaimsError, match="fig09.no_such_number"):
        claims.claims_table(tmp_path, bad)


def test_ratio_of_rows_matched_on_named_columns(tmp_path):
    """CF'17's pinned over pageable copy bandwidth: a ratio of two rows of one CSV, matched on `match_on`."""
    pd.DataFrame(
        {
            "direction": ["h2d", "h2d", "d2h", "d2h"],
            "host_memory": ["pinned", "pageable", "pinned", "pageable"],
            "size_bytes": 1073741824,
            "line_max_gbps": [55.0, 16.5, 55.0, 17.8],
            "near_peak_size_bytes": [16777216, 16777216, 4194304, 16777216],
            "W_gbps": 55.0,
        }
    ).to_csv(tmp_path / "fig_copy_bandwidth.csv", index=False)
    table = claims.claims_table(tmp_path).set_index("id")
    assert table.loc["cf17_pinned_over_pageable", "ours"] == "3.33×"  # h2d only: 55 / 16.5
    assert table.loc["cf17_pinned_over_pageable", "verdict"] == "reproduced"  # ≈ 3× ± 15 %
    assert table.loc["cf17_peak_size", "verdict"] == "not reproduced"  # 16 MiB > "from 4 MB"
    assert table.loc["cf17_pinned", "verdict"] == "not comparable"  # NVLink 1.0 against PCIe 5.0
    assert table.loc["cxl_W", "ours"] == "55 GB/s"


def test_report_section_groups_the_rows_by_paper(tmp_path):
    section = claims.report_section(tmp_path)
    table = claims.claims_table(tmp_path)
    headers = [r[0]["text"] for r in section["rows"] if isinstance(r[0], dict)]
    assert len(headers) == len(claims.PAPERS) and headers[0].startswith("EMOGI")
    assert len(section["rows"]) == len(table) + len(headers) == section["n_claims"] + len(headers)
    assert all(len(r) == len(section["columns"]) for r in section["rows"] if not isinstance(r[0], dict))
    assert sum(c["n"] for c in section["counts"]) == len(table)
    assert [p["n"] for p in section["papers"]] == list(table.groupby("source", sort=False).size())


def test_cli_writes_the_table(tmp_path):
    out = tmp_path / "claims.csv"
    assert claims.main(["--figures", str(tmp_path), "--out", str(out)]) == 0
    assert list(pd.read_csv(out).columns) == claims.COLUMNS
    assert (REPO / "paper" / "claims" / "README.md").is_file()


def test_latency_allowance_reads_the_flat_limit_of_the_delayed_runs(tmp_path):
    """CXL §4.2.3: BFS stays flat up to about the allowance N_max d / W (2 us against 1.91, derived 1.05); ours is
    fig_added_latency's flat rows (measured latency where the delayed BFS leaves flat, over our N_max d / W)."""
    rows = pd.DataFrame(
        {
            "kind": ["model", "delayed", "flat", "flat"],
            "flat_over_allowance": [math.nan, math.nan, 1.0, 1.2],
            "flat_limit_us": [math.nan, math.nan, 2.0, 2.4],
            "allowance_us": [math.nan, math.nan, 2.0, 2.0],
        }
    )
    rows.to_csv(tmp_path / "fig_added_latency.csv", index=False)
    row = claims.claims_table(tmp_path).set_index("id").loc["latency_allowance"]
    assert row["ours"] == "1.10×" and row["paper"] == "1.05× (derived)"
    assert row["verdict"] == "reproduced" and row["regime"] == "emulated" and row["section"].startswith("§4.2.3")
    rows.loc[rows.kind == "flat", "flat_over_allowance"] = [2.0, 2.2]  # flat far beyond the allowance
    rows.to_csv(tmp_path / "fig_added_latency.csv", index=False)
    assert claims.claims_table(tmp_path).set_index("id").loc["latency_allowance", "verdict"] == "direction holds"
    rows[rows.kind != "flat"].to_csv(tmp_path / "fig_added_latency.csv", index=False)  # no delayed runs (archive)
    assert claims.claims_table(tmp_path).set_index("id").loc["latency_allowance", "verdict"] == "no data"
