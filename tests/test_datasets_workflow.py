"""Datasets in the workflow: config sources and their schema, the catalog's downloads, the early failure without
network, Table 2 and Fig. 6 from tiny graphs, the kron-vs-urand degree statistics, and the paper config's plan."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

from emogi.datasets import sources
from emogi.datasets.degree_histogram import degree_histogram, edges_cdf
from emogi.datasets.generators import generate
from emogi.datasets.table import table2
from test_workflow import paper_dry_run, snakemake

REPO = Path(__file__).resolve().parents[1]
SCHEMA = str(REPO / "config" / "schema.yaml")
REFUSED_URL = "http://127.0.0.1:9/FS.tar.gz"  # the discard port: connection refused at once, no network needed
CATALOG = {
    "datasets": {
        "com-Friendster": {"url": REFUSED_URL, "sha256": "ab" * 32, "size": 10},
        "unrecorded": {"url": "http://127.0.0.1:9/u.tar.gz", "sha256": None, "size": None},
        "sk-2005": {
            "files": [
                {"url": "http://127.0.0.1:9/sk-2005.graph", "sha256": "cd" * 32, "size": 5},
                {"url": "http://127.0.0.1:9/sk-2005.properties", "sha256": "ef" * 32, "size": 1},
            ]
        },
    }
}
TINY = {
    "kron8": {
        "source": "generator",
        "generator": "kron",
        "scale": 8,
        "edge_factor": 16,
        "seed": 1,
        "weights_seed": 2,
        "paper": "GK",
    },
    "urand8": {
        "source": "generator",
        "generator": "urand",
        "scale": 8,
        "edge_factor": 16,
        "seed": 3,
        "weights_seed": 4,
        "paper": "GU",
    },
}


@pytest.fixture
def catalog(tmp_path):
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(CATALOG))
    return path


# ------------------------------------------------------------------ config: sources and schema


def checked(graphs):
    config = {"graphs": graphs}
    validate(config, SCHEMA, set_default=True)
    return config["graphs"]


def test_schema_accepts_every_source_and_defaults_to_generator():
    graphs = checked(
        {
            "g": {"generator": "kron", "scale": 10, "seed": 1},
            "s": {"source": "suitesparse", "catalog": "com-Friendster", "paper": "FS"},
            "l": {"source": "law", "catalog": "sk-2005"},
            "b": {"source": "bel", "prefix": "data/kron24.bel", "directed": False},
        }
    )
    assert graphs["g"]["source"] == "generator" and graphs["g"]["weights_seed"] == 1
    assert sources.name_pattern(graphs, "generator") == "g"
    assert sources.name_pattern(graphs, *sources.DOWNLOADED) == "s|l"
    assert sources.names_from(graphs, "bel") == ["b"]


@pytest.mark.parametrize(
    "spec",
    [
        {"source": "suitesparse"},  # no catalog entry
        {"source": "generator", "generator": "kron", "scale": 10},  # no seed
        {"source": "bel"},  # no prefix
        {"source": "ftp", "catalog": "x"},  # unknown source
        {"generator": "kron", "scale": 10, "seed": 1, "paper": "XX"},  # not a dataset of the paper
    ],
)
def test_schema_rejects_incomplete_specs(spec):
    with pytest.raises(WorkflowError):
        checked({"g": spec})


def test_command_lines():
    assert sources.generator_args(TINY["kron8"]) == "--kind kron --scale 8 --edge-factor 16 --seed 1 --weights-seed 2"
    assert (
        sources.converter_args("FS", {"source": "suitesparse", "catalog": "com-Friendster", "weights_seed": 3})
        == "--weights-seed 3 --name com-Friendster"
    )
    assert (
        sources.converter_args("B", {"source": "bel", "prefix": "x", "directed": True}) == "--weights-seed 1 --directed"
    )


def test_downloads_from_the_catalog(catalog):
    entries = sources.load_catalog(catalog)
    fs = {"source": "suitesparse", "catalog": "com-Friendster"}
    sk = {"source": "law", "catalog": "sk-2005"}
    assert sources.download_paths("FS", fs, entries) == ["resources/downloads/FS/FS.tar.gz"]
    assert (
        sources.download_args("FS", "FS.tar.gz", fs, entries)
        == f"--url {REFUSED_URL} --dataset FS --sha256 {'ab' * 32} --size 10"
    )
    assert sources.download_paths("SK", sk, entries) == [
        "resources/downloads/SK/sk-2005.graph",
        "resources/downloads/SK/sk-2005.properties",
    ]
    assert sources.law_basename("SK", sk, entries) == "resources/downloads/SK/sk-2005"
    with pytest.raises(sources.DatasetError, match="dataset XX: catalog entry 'nope'"):
        sources.download_paths("XX", {"source": "law", "catalog": "nope"}, entries)


# ------------------------------------------------------------------ failing early without network


def test_preflight_names_dataset_and_url_when_offline(catalog, tmp_path):
    graphs = {"FS": {"source": "suitesparse", "catalog": "com-Friendster"}, **TINY}
    with pytest.raises(sources.DatasetError) as err:
        sources.preflight(graphs, catalog, dry_run=False, root=tmp_path)
    assert "dataset FS" in str(err.value) and REFUSED_URL in str(err.value)
    assert sources.preflight(graphs, catalog, dry_run=True, root=tmp_path) == []  # a dry run plans anywhere


def test_preflight_skips_what_is_on_disk(catalog, tmp_path):
    graphs = {"FS": {"source": "suitesparse", "catalog": "com-Friendster"}}
    (tmp_path / "resources/downloads/FS").mkdir(parents=True)
    (tmp_path / "resources/downloads/FS/FS.tar.gz").write_bytes(b"x")  # downloaded already
    assert sources.preflight(graphs, catalog, dry_run=False, root=tmp_path) == []
    graphs = {"SK": {"source": "law", "catalog": "sk-2005"}}
    (tmp_path / "resources/graphs").mkdir(parents=True)
    (tmp_path / "resources/graphs/SK.w8.csr").write_bytes(b"x")  # converted already: no download needed
    assert sources.preflight(graphs, tmp_path / "no-catalog.yaml", dry_run=False, root=tmp_path) == []


def test_preflight_refuses_a_download_without_checksum(catalog, tmp_path):
    graphs = {"U": {"source": "suitesparse", "catalog": "unrecorded"}}
    with pytest.raises(sources.DatasetError, match="dataset U: no sha256 is recorded for http://127.0.0.1:9/u"):
        sources.preflight(graphs, catalog, dry_run=False, root=tmp_path, check_reachable=lambda *a: None)


def test_workflow_stops_at_start_up_without_network(workdir):
    (workdir / "config" / "datasets_catalog.yaml").write_text(yaml.safe_dump(CATALOG))
    config = {
        "graphs": {"FS": {"source": "suitesparse", "catalog": "com-Friendster", "paper": "FS"}},
        "measurements": "archive",
    }
    (workdir / "offline.yaml").write_text(yaml.safe_dump(config))
    done = snakemake(workdir, "--configfile", "offline.yaml", "--replace-workflow-config")
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert "dataset FS" in output and REFUSED_URL in output, output[-3000:]
    assert not (workdir / "resources").exists() and not (workdir / "results").exists()  # before any job


# ------------------------------------------------------------------ Table 2 and Fig. 6


@pytest.fixture(scope="module")
def tiny_graphs():
    return {name: generate(spec["generator"], spec["scale"], 16, spec["seed"]) for name, spec in TINY.items()}


def test_kron_has_a_heavy_tail_and_urand_a_narrow_one():
    """Fig. 6's point: in kron a few hubs hold most edges; in urand every list is about 2 x edge factor long."""
    for kind, heavy in (("kron", True), ("urand", False)):
        g = generate(kind, 14, 16, seed=5)
        deg = np.sort(g.degrees())[::-1]
        top1 = deg[: len(deg) // 100].sum() / g.num_edges
        ratio = deg[0] / deg[deg > 0].mean()
        cdf = edges_cdf(degree_histogram(g.offsets), [16, 48, 96])
        if heavy:
            assert ratio > 50 and top1 > 0.2 and cdf[-1] < 0.5, (ratio, top1, cdf)
        else:
            assert ratio < 2.5 and top1 < 0.02 and cdf[0] < 0.01 and cdf[1] > 0.99, (ratio, top1, cdf)


def test_degree_histogram_counts_every_vertex_and_edge(tiny_graphs):
    g = tiny_graphs["kron8"]
    h = degree_histogram(g.offsets)
    assert h["vertices"].sum() == g.num_vertices and (h["degree"] * h["vertices"]).sum() == g.num_edges
    np.testing.assert_array_equal(h.set_index("degree")["vertices"], pd.Series(g.degrees()).value_counts().sort_index())


def test_table2_sets_ours_beside_the_paper(tmp_path):
    metas = {
        "kron8": {
            "num_vertices": 256,
            "num_edges": 1000,
            "index_bytes": 8,
            "edge_list_bytes": 8000,
            "weights_bytes": 4000,
            "avg_degree_nonisolated": 5.0,
            "max_degree": 90,
            "isolated_vertices": 56,
            "directed": False,
            "file_bytes": 20480,
            "checksum": "00",
        }
    }
    paper = yaml.safe_load((REPO / "paper" / "table2_datasets.yaml").read_text())
    t = table2({"kron8": TINY["kron8"]}, metas, paper)
    assert list(t["symbol"]) == ["GK", "GU", "FS", "ML", "SK", "UK5"]  # stand-in first, then the rest
    gk = t.iloc[0]
    assert gk["graph"] == "kron8" and gk["paper_vertices"] == 134_200_000 and gk["vertices"] == 256
    assert gk["paper_edge_list_gib"] == 31.5 and gk["edge_list_gib"] == 8000 / 2**30
    assert t.set_index("symbol").loc["SK", "paper_directed"] and pd.isna(t.set_index("symbol").loc["SK", "graph"])
    with pytest.raises(ValueError, match="no metadata"):
        table2(TINY, metas, paper)


def test_dataset_report_rules_from_tiny_graphs(workdir):
    """The real rules end to end on two tiny generated graphs: graph -> histogram -> Table 2 and Fig. 6."""
    (workdir / "tiny.yaml").write_text(yaml.safe_dump({"graphs": TINY, "measurements": "archive"}))
    targets = [
        "results/figures/table2_datasets.csv",
        "results/figures/table2_datasets.md",
        "results/figures/fig06_degree_cdf.png",
        "results/figures/fig06_degree_cdf.csv",
    ]
    done = snakemake(workdir, "--configfile", "tiny.yaml", "--replace-workflow-config", *targets)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    table = pd.read_csv(workdir / targets[0])
    ours = table.dropna(subset=["graph"]).set_index("graph")
    assert ours.loc["kron8", "symbol"] == "GK" and ours.loc["urand8", "symbol"] == "GU"
    meta = json.loads((workdir / "resources/graphs/kron8.w8.json").read_text())
    assert ours.loc["kron8", "edges"] == meta["num_edges"] and ours.loc["kron8", "checksum"] == meta["checksum"]
    assert meta["has_weights"] and meta["weights"]["seed"] == 2
    md = (workdir / targets[1]).read_text()
    assert "| GK | GAP-kron | kron8 | 134.2M / 256 |" in md
    cdf = pd.read_csv(workdir / targets[3])
    assert sorted(cdf["graph"].unique()) == ["kron8", "urand8"]
    for _, rows in cdf.groupby("graph"):
        assert rows["degree"].tolist() == list(range(97)) and rows["edges_cdf"].is_monotonic_increasing
    assert (workdir / targets[2]).stat().st_size > 10_000


# ------------------------------------------------------------------ the paper's configuration


def test_paper_config_plans_every_source(workdir):
    """A dry run of config/paper.yaml: GK and GU generated, FS and ML downloaded from SuiteSparse, SK and UK5
    from LAW. Catalog entries the catalog does not have yet get stand-ins (only their names matter here)."""
    paper = yaml.safe_load((workdir / "config" / "paper.yaml").read_text())
    assert [g["paper"] for g in paper["graphs"].values()] == ["GK", "GU", "FS", "ML", "SK", "UK5"]
    catalog_path = workdir / "config" / "datasets_catalog.yaml"
    catalog = yaml.safe_load(catalog_path.read_text()) if catalog_path.exists() else {"datasets": {}}
    for spec in paper["graphs"].values():
        if "catalog" in spec and spec["catalog"] not in catalog["datasets"]:
            suffixes = [".graph", ".properties"] if spec["source"] == "law" else [".tar.gz"]
            catalog["datasets"][spec["catalog"]] = {
                "files": [
                    {"url": f"https://example.invalid/{spec['catalog']}{s}", "sha256": None, "size": None}
                    for s in suffixes
                ]
            }
    catalog_path.write_text(yaml.safe_dump(catalog))
    done = paper_dry_run(workdir, "archive")
    for rule in (
        "generate_graph",
        "download_dataset",
        "convert_suitesparse",
        "convert_law",
        "degree_histogram",
        "table2_datasets",
        "fig06_degree_cdf",
    ):
        assert rule in done.stdout, rule
    assert "resources/graphs/GK.w8.csr" in done.stdout and "resources/graphs/UK5.w8.csr" in done.stdout
    # the default config's graphs are replaced, not merged (archived studies' file names may still say kron23)
    assert "resources/graphs/kron23" not in done.stdout
