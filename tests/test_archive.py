"""Fresh and archived tables take the same path: collect -> pack -> restore gives back the same tables."""

import json

import pandas as pd
import pytest

from emogi import archive, schema

PROV = {
    "gpu": "NVIDIA Test GPU 80GB",
    "driver": "1.2.3",
    "cuda": "13.0",
    "commit": "abc",
    "date": "2026-01-02T03:04:05Z",
    "link": "PCIe Gen5 x16",
    "command": "snakemake --cores all",
}


def synthetic_table(name, rows=3):
    """Rows with every column of `name` filled with placeholder values (this is test data, not a measurement)."""
    return pd.DataFrame(
        {c: [f"{c}{i}" if c in ("graph", "variant", "mode") else i for i in range(rows)] for c in schema.TABLES[name]}
    )


@pytest.fixture
def fresh_tables(tmp_path):
    parts = tmp_path / "parts"
    parts.mkdir()
    paths = {}
    for name in schema.TABLES:
        paths[name] = parts / f"{name}.csv"
        synthetic_table(name).to_csv(paths[name], index=False)
    (parts / "prov.json").write_text(json.dumps(PROV))
    tables = tmp_path / "tables"
    archive.collect({name: [path] for name, path in paths.items()}, parts / "prov.json", tables)
    return tables


def test_collect_marks_fresh(fresh_tables):
    source = json.loads((fresh_tables / "source.json").read_text())
    assert source["source"] == "fresh" and source["gpu"] == PROV["gpu"]


def test_pack_then_restore_round_trip(fresh_tables, tmp_path):
    root = tmp_path / "archive"
    packed = archive.pack(fresh_tables, root, config={"graphs": {}})
    assert packed.name == "test-gpu-80gb-2026-01-02-0304"
    restored = tmp_path / "restored"
    archive.restore("latest", restored, root)
    for name in schema.TABLES:
        pd.testing.assert_frame_equal(pd.read_csv(restored / f"{name}.csv"), pd.read_csv(fresh_tables / f"{name}.csv"))
    source = json.loads((restored / "source.json").read_text())
    assert source["source"] == "archive" and source["archive_id"] == packed.name and source["missing_tables"] == []
    with pytest.raises(archive.ArchiveError, match="exists already"):
        archive.pack(fresh_tables, root)


def test_restore_detects_corruption_and_missing_tables(fresh_tables, tmp_path):
    root = tmp_path / "archive"
    packed = archive.pack(fresh_tables, root)
    (packed / "profile.csv.gz").unlink()
    out = tmp_path / "restored"
    archive.restore(packed.name, out, root)
    assert pd.read_csv(out / "profile.csv").empty
    assert json.loads((out / "source.json").read_text())["missing_tables"] == ["profile"]
    runs = packed / "runs.csv.gz"
    data = bytearray(runs.read_bytes())
    data[len(data) // 2] ^= 0xFF
    runs.write_bytes(bytes(data))
    with pytest.raises(archive.ArchiveError, match="SHA-256"):
        archive.restore(packed.name, out, root)


def test_resolve_errors_name_what_exists(fresh_tables, tmp_path):
    with pytest.raises(archive.ArchiveError, match="no archived measurements"):
        archive.resolve("latest", tmp_path / "empty")
    root = tmp_path / "archive"
    archive.pack(fresh_tables, root)
    with pytest.raises(archive.ArchiveError, match="available: test-gpu-80gb-2026-01-02-0304"):
        archive.resolve("h100-1999-01-01", root)


def test_archived_data_are_not_re_archived(fresh_tables, tmp_path):
    root = tmp_path / "archive"
    archive.pack(fresh_tables, root)
    restored = tmp_path / "restored"
    archive.restore("latest", restored, root)
    with pytest.raises(archive.ArchiveError, match="only fresh ones are archived"):
        archive.pack(restored, tmp_path / "other")


def test_committed_archives_are_complete():
    """Every archive in the repository has real provenance and the tables it records, with their row counts. A
    table added to the schema after an archive was made (apps) is absent there and restores header-only."""
    for path in archive.available():
        prov = json.loads((path / "provenance.json").read_text())
        for key in ("gpu", "driver", "cuda", "commit", "date", "link", "command"):
            assert prov.get(key) not in (None, "", "unknown"), f"{path.name}: provenance lacks {key}"
        assert {"runs", "link"} <= set(prov["tables"]), path.name
        assert {p.name.removesuffix(".csv.gz") for p in path.glob("*.csv.gz")} == set(prov["tables"]), path.name
        for name in prov["tables"]:
            frame = pd.read_csv(path / f"{name}.csv.gz")
            schema.check_columns(frame, name)
            assert len(frame) == prov["tables"][name]["rows"]
            if "gpu" in schema.TABLES[name]:  # measured tables; amplification is computed from the graphs
                assert (frame["gpu"] == prov["gpu"]).all()


def test_a_column_added_later_may_be_absent_but_no_other():
    """Archived apps tables predate pr_hub_entries (LATER_COLUMNS): they still pass; a table lacking another fails."""
    old = pd.DataFrame(columns=[c for c in schema.APP_COLUMNS if c != "pr_hub_entries"])
    assert schema.check_columns(old, "apps") is old and schema.LATER_COLUMNS <= set(schema.APP_COLUMNS)
    with pytest.raises(ValueError, match=r"apps table lacks columns \['components'\]"):
        schema.check_columns(old.drop(columns="components"), "apps")


def test_commit_comes_from_the_environment_where_set(monkeypatch):
    """A GPU machine gets a copy whose .git may be stale: $EMOGI_COMMIT names the real commit."""
    from emogi import provenance

    monkeypatch.delenv("EMOGI_COMMIT", raising=False)
    here = provenance.git_commit()
    if here == "unknown":
        pytest.skip("not a git checkout")
    assert len(here.split("-")[0]) == 12
    monkeypatch.setenv("EMOGI_COMMIT", "abc123def456")
    assert provenance.git_commit() == "abc123def456"
