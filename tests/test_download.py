"""emogi.datasets.download against a local HTTP server: complete, interrupted and resumed, corrupt, missing, flaky."""

import hashlib
import shutil
import socket
import sys
from pathlib import Path

import pytest
import yaml

from emogi.datasets import download as dl
from tests.conftest import run
from tests.local_http import LocalHTTPServer

REPO = Path(__file__).resolve().parent.parent
LAW = REPO / "tests" / "data" / "law-cnr-2000"
FAST = {"backoff_s": 0.01, "timeout_s": 10.0}


def sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.fixture
def www(tmp_path):
    root = tmp_path / "www"
    shutil.copytree(LAW, root / "law")
    (root / "blob.bin").write_bytes(bytes(range(256)) * 4099 + b"tail")  # ~1 MiB, not a multiple of the chunk
    return root


@pytest.fixture
def server(www):
    with LocalHTTPServer(www) as s:
        yield s


def lines(capture):
    return capture.readouterr().err


def test_law_files_download_complete_and_verified(server, www, tmp_path, capsys):
    for name in ("cnr-2000.properties", "cnr-2000.graph"):
        src = www / "law" / name
        out = dl.download(
            server.url(f"law/{name}"),
            tmp_path / "dl" / name,
            sha(src),
            src.stat().st_size,
            dataset="law-cnr-2000",
            **FAST,
        )
        assert out.read_bytes() == src.read_bytes()
        assert not dl.part_path(out).exists()
    assert "[download law-cnr-2000]" in lines(capsys)  # progress and completion on stderr


def test_interrupted_midway_resumes_with_range(server, www, tmp_path):
    src = www / "blob.bin"
    half = src.stat().st_size // 2
    server.drop_after("blob.bin", half)
    out = dl.download(server.url("blob.bin"), tmp_path / "blob.bin", sha(src), src.stat().st_size, "blob", **FAST)
    assert out.read_bytes() == src.read_bytes()
    gets = server.gets("blob.bin")
    assert [g.range for g in gets] == [None, f"bytes={half}-"]  # the second request continued at the break
    assert gets[1].status == 206


def test_partial_file_from_a_killed_run_is_resumed(server, www, tmp_path):
    src = www / "law" / "cnr-2000.graph"
    out = tmp_path / "cnr-2000.graph"
    third = src.stat().st_size // 3
    dl.part_path(out).write_bytes(src.read_bytes()[:third])
    dl.download(server.url("law/cnr-2000.graph"), out, sha(src), src.stat().st_size, "law-cnr-2000", **FAST)
    assert out.read_bytes() == src.read_bytes()
    assert [g.range for g in server.gets("law/cnr-2000.graph")] == [f"bytes={third}-"]


def test_server_without_range_support_restarts_from_zero(server, www, tmp_path):
    src = www / "blob.bin"
    out = tmp_path / "blob.bin"
    dl.part_path(out).write_bytes(src.read_bytes()[:1000])
    server.ignore_range = True
    dl.download(server.url("blob.bin"), out, sha(src), src.stat().st_size, "blob", **FAST)
    assert out.read_bytes() == src.read_bytes()


def test_corrupt_file_is_rejected_by_checksum(server, www, tmp_path):
    src = www / "blob.bin"
    expected = sha(src)
    data = bytearray(src.read_bytes())
    data[12345] ^= 0xFF  # the server now holds a corrupt copy of the same size
    src.write_bytes(bytes(data))
    out = tmp_path / "blob.bin"
    with pytest.raises(dl.DownloadError) as err:
        dl.download(server.url("blob.bin"), out, expected, len(data), "GAP-kron", **FAST)
    msg = str(err.value)
    assert "checksum mismatch" in msg and "GAP-kron" in msg and server.url("blob.bin") in msg
    assert expected in msg and sha(src) in msg
    assert not out.exists() and not dl.part_path(out).exists()


def test_missing_file_reports_404_clearly_without_retrying(server, tmp_path):
    out = tmp_path / "GAP-nope.tar.gz"
    with pytest.raises(dl.DownloadError) as err:
        dl.download(server.url("GAP-nope.tar.gz"), out, "0" * 64, None, "GAP-nope", **FAST)
    msg = str(err.value)
    assert "HTTP 404" in msg and "GAP-nope" in msg and server.url("GAP-nope.tar.gz") in msg
    assert "datasets_catalog.yaml" in msg
    assert len(server.gets("GAP-nope.tar.gz")) == 1
    assert not out.exists()


def test_transient_errors_are_retried_with_backoff(server, www, tmp_path, capsys):
    src = www / "blob.bin"
    server.fail("blob.bin", 503, times=2)
    dl.download(server.url("blob.bin"), tmp_path / "b", sha(src), src.stat().st_size, "blob", **FAST)
    assert [g.status for g in server.gets("blob.bin")] == [503, 503, 200]
    assert lines(capsys).count("retrying in") == 2


def test_gives_up_after_retries_and_keeps_the_partial_file(server, www, tmp_path):
    src = www / "blob.bin"
    server.drop_after("blob.bin", 5000)
    server.fail("blob.bin", 503, times=10)  # answered before the drop: the first GET fails, never progresses
    out = tmp_path / "b"
    with pytest.raises(dl.DownloadError) as err:
        dl.download(server.url("blob.bin"), out, sha(src), src.stat().st_size, "blob", retries=2, **FAST)
    assert "gave up after 2 retries" in str(err.value) and "HTTP 503" in str(err.value)
    assert not out.exists()
    assert len(server.gets("blob.bin")) == 3


def test_size_recorded_in_catalog_is_checked_against_the_server(server, www, tmp_path):
    src = www / "blob.bin"
    with pytest.raises(dl.DownloadError, match="the server reports"):
        dl.download(server.url("blob.bin"), tmp_path / "b", sha(src), src.stat().st_size + 1, "blob", **FAST)


def test_missing_checksum_refuses_unless_trusted_on_first_use(server, www, tmp_path):
    src = www / "blob.bin"
    out = tmp_path / "b.tar.gz"
    with pytest.raises(dl.DownloadError, match="--trust-on-first-use"):
        dl.download(server.url("blob.bin"), out, None, None, "MOLIERE_2016", **FAST)
    assert server.gets("blob.bin") == []  # refused before any network access
    dl.download(server.url("blob.bin"), out, None, None, "MOLIERE_2016", trust_on_first_use=True, **FAST)
    assert out.read_bytes() == src.read_bytes()
    assert (tmp_path / "b.tar.gz.sha256").read_text() == f"{sha(src)}  b.tar.gz\n"


def test_existing_file_is_verified_not_downloaded_again(server, www, tmp_path):
    src = www / "blob.bin"
    out = tmp_path / "b"
    shutil.copy(src, out)
    dl.download(server.url("blob.bin"), out, sha(src), src.stat().st_size, "blob", **FAST)
    assert server.gets("blob.bin") == []
    out.write_bytes(b"something else")
    with pytest.raises(dl.DownloadError, match="exists but does not match"):
        dl.download(server.url("blob.bin"), out, sha(src), src.stat().st_size, "blob", **FAST)
    assert out.read_bytes() == b"something else"  # never deleted: it is not ours


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_check_reachable(server, www):
    assert dl.check_reachable(server.url("blob.bin")) == (www / "blob.bin").stat().st_size
    with pytest.raises(dl.DownloadError, match="HTTP 404"):
        dl.check_reachable(server.url("missing.tar.gz"), "GAP-kron")
    with pytest.raises(dl.DownloadError, match="cannot reach .* offline"):
        dl.check_reachable(f"http://127.0.0.1:{_closed_port()}/GAP-kron.tar.gz", "GAP-kron", timeout_s=5)


def test_cli(server, www, tmp_path):
    src = www / "law" / "cnr-2000.properties"
    out = tmp_path / "p"
    ok = run(
        [
            sys.executable,
            "-m",
            "emogi.datasets.download",
            "--url",
            server.url("law/cnr-2000.properties"),
            "--sha256",
            sha(src),
            "--size",
            src.stat().st_size,
            "--out",
            out,
            "--dataset",
            "law-cnr-2000",
        ],
        cwd=REPO,
    )
    assert ok.returncode == 0, ok.stderr
    assert out.read_bytes() == src.read_bytes()
    missing = run(
        [
            sys.executable,
            "-m",
            "emogi.datasets.download",
            "--url",
            server.url("nope"),
            "--sha256",
            "0" * 64,
            "--out",
            tmp_path / "n",
            "--dataset",
            "GAP-urand",
        ],
        cwd=REPO,
    )
    assert missing.returncode == 1
    assert missing.stderr.startswith("error: dataset GAP-urand: HTTP 404")


def test_cli_reads_url_and_checksum_from_a_catalog(server, www, tmp_path):
    src = www / "blob.bin"
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(
        yaml.safe_dump(
            {"datasets": {"blob": {"url": server.url("blob.bin"), "sha256": sha(src), "size": src.stat().st_size}}}
        )
    )
    done = run(
        [
            sys.executable,
            "-m",
            "emogi.datasets.download",
            "--catalog",
            catalog,
            "--dataset",
            "blob",
            "--out",
            tmp_path / "b",
        ],
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "b").read_bytes() == src.read_bytes()
    unknown = run(
        [
            sys.executable,
            "-m",
            "emogi.datasets.download",
            "--catalog",
            catalog,
            "--dataset",
            "nope",
            "--out",
            tmp_path / "n",
        ],
        cwd=REPO,
    )
    assert unknown.returncode == 1 and "nope is not in" in unknown.stderr


def test_repository_catalog_entries_are_complete():
    datasets = yaml.safe_load((REPO / "config" / "datasets_catalog.yaml").read_text())["datasets"]
    law = {name: datasets.pop(name) for name in ("sk-2005", "uk-2007-05")}
    assert set(datasets) == {"GAP-kron", "GAP-urand", "com-Friendster", "MOLIERE_2016"}
    for name, entry in law.items():  # WebGraph BV files from LAW: graph, properties and offsets
        urls = [f["url"] for f in entry["files"]]
        assert urls == [
            f"http://data.law.di.unimi.it/webdata/{name}/{name}.{ext}" for ext in ("graph", "properties", "offsets")
        ]
        assert all(f["sha256"] is None or len(f["sha256"]) == 64 for f in entry["files"])
        assert entry["directed"] is True and entry["weights"] == "generated"
    for name, entry in datasets.items():
        group_name = entry["suitesparse"]
        assert entry["url"] == f"https://sparse.tamu.edu/MM/{group_name}.tar.gz"
        assert group_name.split("/")[1] == name
        assert "sha256" in entry and "size" in entry  # null means "not recorded": the download refuses
        assert entry["sha256"] is None or len(entry["sha256"]) == 64
        assert entry["weights"] in ("dataset", "generated")
        assert entry["directed"] is (not entry["symmetric"])
