"""The datasets workflow for real, end to end through snakemake: every non-generated source in one run.

A copy of the repository gets a catalog (config/datasets_catalog.yaml) whose URLs point at a local HTTP server
(tests/local_http.py) with the real sha256 and size of each served file, and a config naming three graphs:
- FS_tiny (suitesparse): a SuiteSparse-layout Matrix Market archive written here, checked against scipy.sparse;
- SK_cnr (law): the real LAW graph cnr-2000 (tests/data/law-cnr-2000, three files served), checked against its
  .properties and, on sampled nodes, against the `webgraph` bindings; skipped, alone, without the WebGraph tools;
- BEL_small (bel): .bel files exported with emogi.datasets.bel into a temporary folder, checked against the graph
  exported.
Snakemake makes the 8- and 4-byte graphs, the metadata, the roots and Table 2; a second run has nothing to do.
A catalog entry with a wrong sha256 fails the workflow, naming the dataset and the URL, with no graph left.
"""

import hashlib
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from test_law import assert_matches_the_bindings
from test_suitesparse import assert_same_graph, lower_triangle, make_archive, mm_text, scipy_reference

from conftest import IGNORE
from emogi.csr import read_csr, write_csr
from emogi.datasets import bel, law
from emogi.datasets.weights import HIGH, LOW, csr_weights
from local_http import LocalHTTPServer
from test_workflow import snakemake

REPO = Path(__file__).resolve().parents[1]
LAW_DATA = REPO / "tests" / "data" / "law-cnr-2000"
LAW_FILES = ("cnr-2000.graph", "cnr-2000.properties", "cnr-2000.offsets")  # the .ef is rebuilt by the converter
LAW_NODES, LAW_ARCS = 325_557, 3_216_152  # cnr-2000.properties
SS_NAME, SS_N = "tiny-fs", 400  # catalog entry = <Name> of <Name>/<Name>.mtx in the archive
ROOTS = {"count": 4, "seed": 7}
SEEDS = {"FS_tiny": 5, "SK_cnr": 3, "BEL_small": 9}
TABLE2 = ["results/figures/table2_datasets.csv", "results/figures/table2_datasets.md"]


def _webgraph_missing() -> str:
    """Why the LAW graph cannot be converted here ('' when it can): the converter needs the CLI and bindings."""
    try:
        law.webgraph_cli()
        law._bindings()
    except law.LawError as err:
        return str(err)
    return ""


WEBGRAPH_MISSING = _webgraph_missing()
if WEBGRAPH_MISSING and os.environ.get("EMOGI_REQUIRE_WEBGRAPH"):  # as tests/test_law.py: CI installs the tools
    raise RuntimeError(f"EMOGI_REQUIRE_WEBGRAPH is set but {WEBGRAPH_MISSING}")
needs_webgraph = pytest.mark.skipif(bool(WEBGRAPH_MISSING), reason=f"LAW graph SK_cnr left out: {WEBGRAPH_MISSING}")


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def served(server: LocalHTTPServer, www: Path, name: str) -> dict:
    path = www / name
    return {"url": server.url(name), "sha256": sha256(path), "size": path.stat().st_size}


def repo_copy(tmp: Path) -> Path:
    """A copy of the repository, as a fresh clone would have it (test_workflow's `workdir`)."""
    return Path(shutil.copytree(REPO, tmp / "repo", ignore=IGNORE))


def targets(names) -> list[str]:
    out = []
    for name in names:
        out += [
            f"resources/graphs/{name}.w8.csr",
            f"resources/graphs/{name}.w8.json",
            f"resources/graphs/{name}.w4.csr",
            f"results/roots/{name}.txt",
        ]
    return out + TABLE2


def write_config(workdir: Path, name: str, graphs: dict) -> str:
    config = {"graphs": graphs, "measurements": "archive", "roots": ROOTS}
    (workdir / name).write_text(yaml.safe_dump(config))
    return name


# ------------------------------------------------------------------ the served files and their references


def suitesparse_archive(www: Path):
    """An FS-like archive (pattern, symmetric: weights generated) with an auxiliary file before the matrix."""
    rows, cols = lower_triangle(SS_N, 1500, diagonal=4, seed=11)
    members = {
        f"{SS_NAME}/{SS_NAME}_nodeid.mtx": mm_text(
            "integer", "general", 3, [0, 1, 2], [0, 0, 0], np.array([5, 6, 7]), ncols=1
        ),
        f"{SS_NAME}/{SS_NAME}.mtx": mm_text("pattern", "symmetric", SS_N, rows, cols),
    }
    archive = make_archive(www / f"{SS_NAME}.tar.gz", members)
    return archive, scipy_reference(SS_N, rows, cols, np.ones(len(rows), dtype=np.int64), symmetric=True)


def bel_source(folder: Path):
    """A small directed weighted graph (isolated vertices, a self-loop) exported as PREFIX.bel.col/.dst/.val."""
    rng = np.random.default_rng(21)
    n = 200
    lists = [np.sort(rng.choice(n, size=d, replace=False)) for d in rng.integers(0, 9, size=n)]
    lists[3] = np.array([3])
    offsets = np.concatenate([[0], np.cumsum([len(x) for x in lists])]).astype(np.uint64)
    edges = np.concatenate(lists).astype(np.uint64)
    folder.mkdir()
    write_csr(folder / "small.csr", offsets, edges, csr_weights(offsets, edges, seed=17), directed=True)
    assert bel.main(["export", str(folder / "small.csr"), "--out", str(folder / "small")]) == 0
    return folder / "small", read_csr(folder / "small.csr")


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The repository copy, the served files and the graphs' specs and references, with the server running."""
    tmp = tmp_path_factory.mktemp("e2e")
    workdir = repo_copy(tmp)
    www = tmp / "www"
    www.mkdir()
    archive, ss_ref = suitesparse_archive(www)
    (www / "law").mkdir()
    for name in LAW_FILES:
        shutil.copy(LAW_DATA / name, www / "law" / name)
    (www / "bad.tar.gz").write_bytes(archive.read_bytes())  # served as is; the catalog records a wrong sha256
    prefix, bel_graph = bel_source(tmp / "bel")
    with LocalHTTPServer(www) as server:
        catalog = {
            "datasets": {
                SS_NAME: served(server, www, archive.name),
                "cnr-2000": {"files": [served(server, www, f"law/{name}") for name in LAW_FILES]},
                "bad": {**served(server, www, "bad.tar.gz"), "sha256": "0" * 64},
            }
        }
        (workdir / "config" / "datasets_catalog.yaml").write_text(yaml.safe_dump(catalog))
        graphs = {
            "FS_tiny": {"source": "suitesparse", "catalog": SS_NAME, "paper": "FS", "weights_seed": SEEDS["FS_tiny"]},
            "SK_cnr": {"source": "law", "catalog": "cnr-2000", "paper": "SK", "weights_seed": SEEDS["SK_cnr"]},
            "BEL_small": {"source": "bel", "prefix": str(prefix), "weights_seed": SEEDS["BEL_small"]},
        }
        if WEBGRAPH_MISSING:
            del graphs["SK_cnr"]
        yield {
            "workdir": workdir,
            "server": server,
            "catalog": catalog["datasets"],
            "graphs": graphs,
            "ss_ref": ss_ref,
            "bel_graph": bel_graph,
            "bel_prefix": prefix,
        }


@pytest.fixture(scope="module")
def runs(world):
    """The first snakemake run over every graph, then a second one."""
    workdir, graphs = world["workdir"], world["graphs"]
    config = write_config(workdir, "e2e.yaml", graphs)
    first = snakemake(workdir, "--configfile", config, "--replace-workflow-config", *targets(graphs))
    assert first.returncode == 0, (first.stdout + first.stderr)[-5000:]
    stamps = {p: p.stat().st_mtime_ns for p in (workdir / "resources").rglob("*") if p.is_file()}
    second = snakemake(workdir, "--configfile", config, "--replace-workflow-config", *targets(graphs))
    return {"first": first, "second": second, "stamps": stamps}


def graph(workdir: Path, name: str, width: int = 8):
    return read_csr(workdir / f"resources/graphs/{name}.w{width}.csr")


def meta(workdir: Path, name: str, width: int = 8) -> dict:
    return json.loads((workdir / f"resources/graphs/{name}.w{width}.json").read_text())


# ------------------------------------------------------------------ the run


def test_every_target_is_made_and_a_second_run_has_nothing_to_do(world, runs):
    workdir = world["workdir"]
    for target in targets(world["graphs"]):
        assert (workdir / target).is_file(), target
    second = runs["second"]
    assert second.returncode == 0, (second.stdout + second.stderr)[-3000:]
    assert "Nothing to be done" in second.stdout + second.stderr, (second.stdout + second.stderr)[-3000:]
    for path, stamp in runs["stamps"].items():
        assert path.stat().st_mtime_ns == stamp, path


def test_downloads_are_verified_and_complete(world, runs):
    workdir, server = world["workdir"], world["server"]
    downloads = workdir / "resources" / "downloads"
    assert not list(downloads.rglob("*.part"))
    assert sha256(downloads / "FS_tiny" / f"{SS_NAME}.tar.gz") == world["catalog"][SS_NAME]["sha256"]
    assert len(server.gets(f"{SS_NAME}.tar.gz")) == 1  # downloaded once, not again by the second run
    if "SK_cnr" in world["graphs"]:
        for record, name in zip(world["catalog"]["cnr-2000"]["files"], LAW_FILES):
            assert sha256(downloads / "SK_cnr" / name) == record["sha256"], name
            assert len(server.gets(f"law/{name}")) == 1, name
    assert not server.gets("bad.tar.gz")


def test_narrow_copies_and_roots(world, runs):
    workdir = world["workdir"]
    for name in world["graphs"]:
        wide, narrow = graph(workdir, name), graph(workdir, name, 4)
        assert wide.index_bytes == 8 and narrow.index_bytes == 4 and narrow.directed == wide.directed
        np.testing.assert_array_equal(narrow.offsets, wide.offsets)
        np.testing.assert_array_equal(narrow.edges, wide.edges)
        np.testing.assert_array_equal(narrow.weights, wide.weights)
        roots = [int(x) for x in (workdir / f"results/roots/{name}.txt").read_text().split()]
        assert len(roots) == ROOTS["count"] == len(set(roots)), name
        degrees = wide.degrees()
        assert all(0 <= r < wide.num_vertices and degrees[r] > 0 for r in roots), (name, roots)


# ------------------------------------------------------------------ each source against its reference


def test_suitesparse_graph_matches_scipy(world, runs):
    workdir, ref = world["workdir"], world["ss_ref"]
    g = graph(workdir, "FS_tiny")
    assert not g.directed and g.has_weights
    assert_same_graph(g, ref, with_weights=False)
    np.testing.assert_array_equal(g.weights, csr_weights(ref.indptr, ref.indices, SEEDS["FS_tiny"]))
    info = meta(workdir, "FS_tiny")
    assert info["num_vertices"] == SS_N and info["num_edges"] == ref.nnz and info["directed"] is False
    assert info["source"]["archive"] == f"{SS_NAME}.tar.gz"
    assert info["source"]["matrix_market"]["member"] == f"{SS_NAME}/{SS_NAME}.mtx"
    assert info["source"]["archive_sha256"] == world["catalog"][SS_NAME]["sha256"]
    assert info["weights"]["source"] == "generated" and info["weights"]["seed"] == SEEDS["FS_tiny"]
    assert info["conversion"]["self_loops_removed"] == 4


@needs_webgraph
def test_law_graph_matches_properties_and_bindings(world, runs):
    workdir = world["workdir"]
    g = graph(workdir, "SK_cnr")
    info = meta(workdir, "SK_cnr")
    assert g.directed and info["directed"] is True
    assert g.num_vertices == LAW_NODES
    assert g.num_edges + info["conversion"]["self_loops_removed"] == LAW_ARCS
    assert info["source"]["format"] == "webgraph-bv" and info["source"]["basename"] == "cnr-2000"
    assert info["source"]["nodes"] == LAW_NODES and info["source"]["arcs"] == LAW_ARCS
    records = world["catalog"]["cnr-2000"]["files"]
    assert info["source"]["sha256"] == {name: r["sha256"] for name, r in zip(LAW_FILES, records)}
    assert info["weights"]["seed"] == SEEDS["SK_cnr"]
    assert g.weights.min() >= LOW and g.weights.max() <= HIGH
    np.testing.assert_array_equal(g.weights, csr_weights(g.offsets, g.edges, SEEDS["SK_cnr"]))
    # its .ef was rebuilt by the run
    assert_matches_the_bindings(g, workdir / "resources/downloads/SK_cnr/cnr-2000", 200, seed=1)


def test_bel_graph_is_the_exported_one(world, runs):
    workdir, source = world["workdir"], world["bel_graph"]
    g = graph(workdir, "BEL_small")
    np.testing.assert_array_equal(g.offsets, source.offsets)
    np.testing.assert_array_equal(g.edges, source.edges)
    np.testing.assert_array_equal(g.weights, source.weights)  # the .val file's, not generated
    assert g.directed  # detected: the lists are not symmetric
    info = meta(workdir, "BEL_small")
    assert info["source"]["format"] == "emogi-bel"
    assert info["source"]["directedness"] == "detected: edge list symmetry"
    assert sorted(Path(f).name for f in info["source"]["files"]) == ["small.bel.col", "small.bel.dst", "small.bel.val"]
    assert info["weights"]["source"] == "dataset"
    assert info["checksum"] == f"{source.header.checksum:016x}"  # same payload, byte for byte


def test_table2_sets_each_graph_beside_its_paper_dataset(world, runs):
    workdir = world["workdir"]
    table = pd.read_csv(workdir / TABLE2[0])
    ours = table.dropna(subset=["graph"]).set_index("graph")
    assert sorted(ours.index) == sorted(world["graphs"])
    assert ours.loc["FS_tiny", "symbol"] == "FS" and ours.loc["FS_tiny", "source"] == f"SuiteSparse {SS_NAME}"
    assert pd.isna(ours.loc["BEL_small", "symbol"])
    assert ours.loc["BEL_small", "source"] == f"EMOGI .bel files {world['bel_prefix']}"
    for name in world["graphs"]:
        info = meta(workdir, name)
        assert ours.loc[name, "edges"] == info["num_edges"] and ours.loc[name, "checksum"] == info["checksum"]
    if "SK_cnr" in world["graphs"]:
        assert ours.loc["SK_cnr", "symbol"] == "SK" and ours.loc["SK_cnr", "source"] == "LAW cnr-2000"
    md = (workdir / TABLE2[1]).read_text()
    assert f"| FS | Friendster | FS_tiny | 65.6M / {SS_N} |" in md


# ------------------------------------------------------------------ a wrong checksum


def test_wrong_checksum_fails_naming_dataset_and_url(world, runs):
    workdir, record = world["workdir"], world["catalog"]["bad"]
    config = write_config(workdir, "bad.yaml", {"BAD": {"source": "suitesparse", "catalog": "bad"}})
    done = snakemake(workdir, "--configfile", config, "--replace-workflow-config", "resources/graphs/BAD.w8.csr")
    output = done.stdout + done.stderr
    assert done.returncode != 0, output[-3000:]
    # snakemake names the failed job (its wildcards and command line); the download's own message is in its log
    assert "download_dataset" in output and "--dataset BAD" in output and record["url"] in output, output[-3000:]
    log = (workdir / "logs/datasets/download_BAD_bad.tar.gz.log").read_text()
    assert "dataset BAD: checksum mismatch" in log and record["url"] in log, log
    assert len(world["server"].gets("bad.tar.gz")) == 1  # it was downloaded, then refused
    assert not list((workdir / "resources/graphs").glob("BAD.*"))
    assert not list((workdir / "resources/downloads").glob("BAD/*"))  # neither the archive nor its .part
