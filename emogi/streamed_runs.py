"""The streamed-transfer table (CF'17, issue 22) from an archive folder of the binary's own files: each streamed
run's CSV row joined with its `streamed run:` log line, beside the zero-copy and device rows of the same graphs.

An archive holds, per graph G (names as archive/streamed-h100-2026-11-26/README.md writes them):
  linkbw.csv                                  `emogi linkbw` (W: emogi.schema.STREAMED_COLUMNS, w_gbps)
  streamed_<alg>_<G>_w<width>_b<block>[_skip<on|off>][_in<F>][_<rows|columns>].csv/.log  a streamed run of one
                                              block size (64M, 256M, 1G: binary units), with --stream-skip on or off,
                                              --stream-direct-below F and --stream-layout rows or columns where the
                                              name says
  streamed_<alg>_<G>_w<width>_zerocopy.csv    its zero-copy and device rows
  host.txt                                    nvidia-smi, lscpu and `commit <hash>` of the session
and, optionally, in the same folder or the `--peer` folder: gpu_<G>.csv (zero-copy and device rows of other
algorithms: PageRank's) and cpu_spmv_<G>.csv (`python -m emogi.cpu_peer --algorithms spmv`).

    python -m emogi.streamed_runs --archive archive/streamed-h100-2026-11-26 \\
        [--peer archive/cpu-gpu-h100-2026-11-26] --out-dir results/streamed

Subfolders (session-b/: a later session's repeat of some runs, kept as its record) are not read.

`skip` of a streamed row is what its log's placement line says: "on" where it ends "blocks without an active
vertex skipped", else "off"; a `_skip<on|off>` name must agree. Runs from before --stream-skip existed (session A
of archive/streamed-h100-2026-11-26, commit bc14b39) copied and launched every block every sweep: "off". Their
`streamed run:` lines lack the blocks launched, left out and per sweep, which stay empty. `direct_below` is the
placement line's "fewer than F of their entries active read in place" (0 without it), and the blocks read in place
come from the run line's "; read in place:" suffix (0 without it).

`layout` of a streamed row is "columns" where its placement line says "column blocks" (--stream-layout columns:
CF'17's column blocks, SpMV only), else "rows" (the default, and every run from before the option); a
`_<rows|columns>` name must agree.

writes streamed.csv (the `streamed` table), link.csv (the `link` table), cpu_spmv.csv (header only when no CPU
SpMV was measured) and source.json (source: archive, with the GPU and date of host.txt).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import pandas as pd

from emogi.atomic import write_bytes, write_csv
from emogi.schema import LINK_COLUMNS, STREAMED_COLUMNS, WEIGHT_BYTES

ALGORITHMS = ("spmv", "pagerank", "cc", "sssp")
CPU_COLUMNS = ["graph", "library", "version", "threads", "algorithm", "root", "median_ms", "min_ms", "max_ms", "reps"]
CPU_COLUMNS += ["edges", "edges_per_s", "convert_s", "check", "detail"]  # emogi.cpu_peer.COLUMNS
FILE = re.compile(
    r"streamed_(?P<alg>[a-z]+)_(?P<graph>.+)_w(?P<width>\d+)_(?P<what>b\d+[KMG]|zerocopy)(?:_skip(?P<skip>on|off))?"
    r"(?:_in(?P<below>[\d.]+))?(?:_pack(?P<pack>on|off))?(?:_(?P<layout>rows|columns))?\.csv$"
)
HEADER = re.compile(r"^graph \S+: V = (?P<v>\d+), E = (?P<e>\d+), (?P<w>\d+)-byte edges")
PLACED = re.compile(
    r"placed streamed: (?P<blocks>\d+) blocks of at most \d+ entries, (?P<buffers>\d+) buffers of "
    r"(?P<buffer_bytes>\d+) bytes(?P<rest>.*)$"
)
SKIPPING = "blocks without an active vertex skipped"  # the placement line's ending under --stream-skip on
IN_PLACE = re.compile(r"blocks with fewer than (?P<below>[\d.e+-]+) of their entries active read in place")
COLUMNS = "column blocks"  # in the placement line under --stream-layout columns
RUN = re.compile(
    r"^streamed run: (?P<alg>\S+) (?P<variant>\S+): (?P<sweeps>\d+) sweeps, "
    r"(?:(?P<launched>\d+) blocks, (?P<inactive>\d+) inactive, )?(?P<copies>\d+) copies, \d+ skipped, "
    r"(?P<bytes>\d+) bytes copied in (?P<copy_ms>[\d.]+) ms of copies \([\d.]+ GB/s\), run (?P<run_ms>[\d.]+) ms"
    r"(?:.*, blocks per sweep (?P<per_sweep>[\d,]*))?"
    r"(?:; read in place: (?P<in_place>\d+) blocks, (?P<in_place_entries>\d+) active entries, per sweep "
    r"(?P<in_place_per_sweep>[\d,]*))?"
)
RUN_FIELDS = ("sweeps", "copies", "bytes_copied", "copy_ms", "blocks_launched", "blocks_inactive", "blocks_per_sweep")
RUN_FIELDS += ("blocks_in_place", "in_place_entries", "in_place_per_sweep")
GRAPH_FILE = r"\.w\d+\.csr$"  # cpu_peer names a graph by its file (kron24.w8.csr); the table by its name
UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


class StreamedArchiveError(ValueError):
    """An archive whose files do not make the table: a log line missing for a row, an unreadable name."""


def block_bytes(text: str) -> int:
    """'b64M' -> 64 MiB."""
    return int(text[1:-1]) * UNITS[text[-1]]


def parse_log(text: str) -> dict:
    """The log's edge count, placement and `streamed run:` lines (in order, per variant)."""
    out = {"edges": None, "blocks": None, "buffers": None, "buffer_bytes": None, "skip": None, "direct_below": 0.0}
    out["layout"] = None
    out["runs"] = {}
    for line in text.splitlines():
        if m := HEADER.match(line):
            out["edges"] = int(m["e"])
        elif m := PLACED.search(line):
            out.update({k: int(m[k]) for k in ("blocks", "buffers", "buffer_bytes")})
            out["skip"] = "on" if SKIPPING in m["rest"] else "off"
            out["direct_below"] = float(b["below"]) if (b := IN_PLACE.search(m["rest"])) else 0.0
            out["layout"] = "columns" if COLUMNS in m["rest"] else "rows"
        elif m := RUN.match(line):
            run = {"sweeps": int(m["sweeps"]), "copies": int(m["copies"]), "bytes_copied": int(m["bytes"]),
                   "copy_ms": float(m["copy_ms"]), "run_ms": float(m["run_ms"]),
                   "blocks_launched": int(m["launched"]) if m["launched"] else None,
                   "blocks_inactive": int(m["inactive"]) if m["inactive"] else None,
                   "blocks_per_sweep": m["per_sweep"],
                   "blocks_in_place": int(m["in_place"] or 0), "in_place_entries": int(m["in_place_entries"] or 0),
                   "in_place_per_sweep": m["in_place_per_sweep"] or ""}  # fmt: skip
            out["runs"].setdefault(m["variant"], []).append(run)
    return out


def host_record(path: Path) -> dict:
    """GPU, driver, CUDA, commit and date of a session's host.txt (nvidia-smi, `date`, `commit <hash>`)."""
    text = path.read_text() if path.is_file() else ""
    rec = {"gpu": "", "driver": "", "cuda": "", "commit": "", "date": ""}
    if m := re.search(r"\|\s+\d+\s+(NVIDIA [^|]*?)\s{2,}(?:On|Off)\s", text):
        rec["gpu"] = m[1].strip()
    if m := re.search(r"Driver Version: (\S+)\s+CUDA Version: (\S+)", text):
        rec["driver"], rec["cuda"] = m[1], m[2]
    if m := re.search(r"^commit (\S+)", text, re.M):
        rec["commit"] = m[1]
    if m := re.search(r"^\w{3} (\w{3}) +(\d+) [\d:]+ (\d{4})\s*$", text, re.M):  # nvidia-smi's own date line
        rec["date"] = pd.Timestamp(f"{m[1]} {m[2]} {m[3]}").strftime("%Y-%m-%d")
    return rec


def link_w(link: pd.DataFrame) -> float:
    """W: the largest per-size median of the pinned host-to-device copies (as model.littles_law.fit_link_bandwidth,
    which this layer may not import)."""
    rows = link[(link["direction"] == "h2d") & (link["host_memory"] == "pinned")]
    if rows.empty:
        raise StreamedArchiveError("linkbw.csv has no pinned h2d rows: no W")
    return float(rows.groupby("size_bytes")["gbps"].median().max())


def streamed_table(archive: Path, peer: Path | None = None) -> pd.DataFrame:
    """The `streamed` table of an archive (STREAMED_COLUMNS), rows ordered as found."""
    archive = Path(archive)
    w_gbps = link_w(pd.read_csv(archive / "linkbw.csv"))
    frames, edges, others = [], {}, []
    for csv in sorted(archive.glob("streamed_*.csv")):
        m = FILE.match(csv.name)
        if not m:
            raise StreamedArchiveError(f"{csv}: not streamed_<alg>_<graph>_w<width>_<b<size>|zerocopy>[...].csv")
        log = parse_log(csv.with_suffix(".log").read_text()) if csv.with_suffix(".log").is_file() else None
        if log and log["edges"]:
            edges[m["graph"]] = log["edges"]
        if m["what"] == "zerocopy":
            others.append(csv)
            continue
        rows = pd.read_csv(csv)
        rows = rows[rows["mode"] == "streamed"].copy()
        if log is None:
            raise StreamedArchiveError(f"{csv}: no {csv.with_suffix('.log').name} beside it")
        for variant, group in rows.groupby("variant", sort=False):
            runs = log["runs"].get(variant, [])
            if len(runs) != len(group):
                raise StreamedArchiveError(f"{csv}: {len(group)} {variant} rows, {len(runs)} `streamed run:` lines")
            for column in RUN_FIELDS:
                rows.loc[group.index, column] = [r[column] for r in runs]
        if m["skip"] and m["skip"] != log["skip"]:
            raise StreamedArchiveError(f"{csv}: named skip{m['skip']}, its log's placement says skip {log['skip']}")
        rows["skip"] = log["skip"]
        if m["below"] and float(m["below"]) != log["direct_below"]:
            below = log["direct_below"]
            raise StreamedArchiveError(f"{csv}: named in{m['below']}, its log reads in place below {below}")
        rows["direct_below"] = log["direct_below"]
        if m["layout"] and m["layout"] != log["layout"]:
            raise StreamedArchiveError(f"{csv}: named {m['layout']}, its log's placement says {log['layout']}")
        rows["layout"] = log["layout"]
        rows["block_bytes"] = block_bytes(m["what"])
        rows[["blocks", "buffers", "buffer_bytes"]] = [log["blocks"], log["buffers"], log["buffer_bytes"]]
        frames.append(rows)
    for name in [*others, *_peer_files(archive, peer, "gpu_*.csv")]:
        rows = pd.read_csv(name)
        frames.append(rows[rows["mode"].isin(["zerocopy", "device"]) & rows["algorithm"].isin(ALGORITHMS)])
    if not frames:
        raise StreamedArchiveError(f"{archive}: no streamed_*.csv")
    table = pd.concat(frames, ignore_index=True)
    streamed = table[table["mode"] == "streamed"]
    measured = set(zip(streamed["graph"], streamed["algorithm"], streamed["edge_bytes"]))
    keep = [k in measured for k in zip(table["graph"], table["algorithm"], table["edge_bytes"])]
    table = table[keep]  # the graphs, algorithms and widths of the streamed runs only
    key = ["graph", "algorithm", "variant", "mode", "edge_bytes", "block_bytes", "skip", "direct_below", "layout"]
    key += ["rep"]
    table = table.reindex(columns=list(dict.fromkeys([*table.columns, *key])))  # zero-copy rows: neither column
    table = table.drop_duplicates(key)
    entry = table["edge_bytes"] + table["algorithm"].map(WEIGHT_BYTES).fillna(0)
    table["list_bytes"] = table["graph"].map(edges) * entry
    table["copy_gbps"] = table["bytes_copied"] / table["copy_ms"] / 1e6
    table["run_gbps"] = table["bytes_copied"] / table["time_ms"] / 1e6
    table["w_gbps"] = w_gbps
    table["of_w"] = table["run_gbps"] / w_gbps
    for key, value in host_record(archive / "host.txt").items():
        table[key] = value
    return table.reindex(columns=STREAMED_COLUMNS)


def _peer_files(archive: Path, peer: Path | None, pattern: str) -> list[Path]:
    """Files of `pattern` in the archive, else in the peer folder."""
    found = sorted(archive.glob(pattern))
    return found or (sorted(Path(peer).glob(pattern)) if peer else [])


def cpu_spmv(archive: Path, peer: Path | None = None) -> pd.DataFrame:
    """Every cpu_spmv_<graph>.csv's SpMV rows (emogi.cpu_peer's columns, the graph by its name, not its file); no
    rows when none was measured."""
    frames = [pd.read_csv(f) for f in _peer_files(Path(archive), peer, "cpu_spmv_*.csv")]
    frames = [f[f["algorithm"] == "spmv"] for f in frames if not f.empty]
    frames = [f.assign(graph=f["graph"].astype(str).str.replace(GRAPH_FILE, "", regex=True)) for f in frames]
    return (
        pd.concat(frames, ignore_index=True).reindex(columns=CPU_COLUMNS)
        if frames
        else pd.DataFrame(columns=CPU_COLUMNS)
    )


def link_table(archive: Path) -> pd.DataFrame:
    link = pd.read_csv(Path(archive) / "linkbw.csv")
    for key, value in host_record(Path(archive) / "host.txt").items():
        link[key] = value
    return link.reindex(columns=LINK_COLUMNS)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m emogi.streamed_runs", description=__doc__.split("\n\n")[0])
    ap.add_argument("--archive", type=Path, required=True, help="the streamed runs' archive folder")
    ap.add_argument("--peer", type=Path, help="a folder of the same session with gpu_<graph>.csv, cpu_spmv_*.csv")
    ap.add_argument("--out-dir", type=Path, required=True)
    a = ap.parse_args(argv)
    try:
        table = streamed_table(a.archive, a.peer)
    except (OSError, StreamedArchiveError, KeyError, ValueError) as e:
        print(f"emogi.streamed_runs: {e}", file=sys.stderr)
        return 2
    host = host_record(a.archive / "host.txt")
    write_csv(table, a.out_dir / "streamed.csv")
    write_csv(link_table(a.archive), a.out_dir / "link.csv")
    cpu = cpu_spmv(a.archive, a.peer)
    write_csv(cpu, a.out_dir / "cpu_spmv.csv")
    source = {"source": "archive", "archive_id": a.archive.name, "gpu": host["gpu"], "date": host["date"],
              "driver": host["driver"], "cuda": host["cuda"], "commit": host["commit"]}  # fmt: skip
    write_bytes(json.dumps(source, indent=1).encode(), a.out_dir / "source.json")
    print(f"{len(table)} rows ({(table['mode'] == 'streamed').sum()} streamed), {len(cpu)} CPU SpMV rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
