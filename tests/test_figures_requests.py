"""Figs. 7 (PCIe requests per variant) and 10 (I/O read amplification) on SYNTHETIC tables (tests/synthetic_tables.py):
the plotted numbers against an independent computation from the same tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.synthetic_tables import run_figure, write_synthetic_tables

REPO = Path(__file__).resolve().parents[1]
FIG07 = REPO / "figures" / "fig07_pcie_requests.py"
FIG10 = REPO / "figures" / "fig10_read_amplification.py"


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return write_synthetic_tables(tmp_path_factory.mktemp("requests"), micro=False)


def test_fig07_requests_and_the_papers_two_reductions(tables, tmp_path):
    done, png, csv_path = run_figure(FIG07, {"profile": tables["profile"]}, tables["source"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert png.stat().st_size > 10_000
    out = pd.read_csv(csv_path)
    assert set(out["mode"]) == {"zerocopy", "zerocopy-pinned"}  # the modes that send read requests
    prof = pd.read_csv(tables["profile"])
    prof = prof[(prof["max_warps"] == 0) & (prof["mode"] == "zerocopy")]
    for (graph, width), g in prof.groupby(["graph", "edge_bytes"]):
        req = g.set_index("variant")["sysmem_read_requests"]
        rows = out[(out["graph"] == graph) & (out["edge_bytes"] == width) & (out["mode"] == "zerocopy")]
        rows = rows.set_index("variant")
        assert rows.loc["merged", "fewer_than_naive"] == pytest.approx(1 - req["merged"] / req["naive"], rel=1e-5)
        assert rows.loc["merged-aligned", "fewer_than_merged"] == pytest.approx(
            1 - req["merged-aligned"] / req["merged"], rel=1e-5
        )
        assert np.isnan(rows.loc["naive", "fewer_than_naive"]) and np.isnan(rows.loc["merged", "fewer_than_merged"])
        assert rows.loc["merged-aligned", "avg_request_bytes"] == pytest.approx(110.0, rel=1e-5)  # made-up size


def test_fig10_amplification_is_bytes_read_over_the_reached_lists(tables, tmp_path):
    done, png, csv_path = run_figure(
        FIG10, {"profile": tables["profile"], "runs": tables["runs"]}, tables["source"], tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert png.stat().st_size > 10_000
    out = pd.read_csv(csv_path)
    assert set(out["mode"]) == {"zerocopy", "zerocopy-pinned", "uvm"}
    prof = pd.read_csv(tables["profile"])
    runs = pd.read_csv(tables["runs"])
    for row in out.itertuples():
        p = prof[
            (prof["graph"] == row.graph)
            & (prof["edge_bytes"] == row.edge_bytes)
            & (prof["mode"] == row.mode)
            & (prof["variant"] == "merged-aligned")
            & (prof["max_warps"] == 0)
        ]
        needed = (
            runs[(runs["graph"] == row.graph) & (runs["edge_bytes"] == row.edge_bytes) & (runs["root"] == row.root)][
                "edges_traversed"
            ].max()
            * row.edge_bytes
        )
        assert row.amplification == pytest.approx(p["pcie_read_bytes"].iloc[0] / needed, rel=1e-5)
        if row.mode == "uvm":  # pages move by DMA: no sector payload to show
            assert np.isnan(row.payload_amplification)
        else:
            assert row.payload_amplification == pytest.approx(32 * p["sysmem_read_sectors"].iloc[0] / needed, rel=1e-5)


def test_fig10_without_the_profiled_root_in_the_runs_says_so(tables, tmp_path):
    runs = pd.read_csv(tables["runs"])
    runs["root"] += 1_000_000
    path = tmp_path / "runs.csv"
    runs.to_csv(path, index=False)
    done, png, _ = run_figure(FIG10, {"profile": tables["profile"], "runs": path}, tables["source"], tmp_path)
    assert done.returncode != 0 and "no profiled root" in done.stderr and not png.exists()
