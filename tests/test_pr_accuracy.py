"""emogi.pr_accuracy and the report's accuracy block on hand-made archives (synthetic files in the shapes `emogi run
--pr-reference` and `emogi_cpu pagerank --reference` write): one row per run and variant with the L1 range of its
logged results; a run without its L1 lines, a misnamed run and an empty archive are refused in one line with
nothing written; the block reads the GPU's and GAP's L1 side by side; and the archived call's table is what the
module derives from that archive's files."""

from pathlib import Path

import pandas as pd
import pytest

from conftest import REPO
from emogi import pr_accuracy
from figures import pr_accuracy_report

GPU_HEADER = "graph,algorithm,variant,mode,edge_bytes,max_warps,root,rep,time_ms,edges_traversed,levels,iterations,"
GPU_HEADER += "components,verified\n"
CPU_HEADER = "graph,vertices,edges,index_bytes,form,kernel,threads,iterations,verified,stop,l1_to_reference,median_ms,"
CPU_HEADER += "min_ms,max_ms\n"


def gpu_run(folder: Path, name: str, mode: str, times, l1s, variant="gauss-seidel"):
    rows = "".join(f"g,pagerank,{variant},{mode},4,0,,{i},{t},1,0,50,0,true\n" for i, t in enumerate(times))
    (folder / f"{name}.csv").write_text(GPU_HEADER + rows)
    lines = [f"pagerank l1_to_reference: {x} (g pagerank {variant}|{mode})" for x in l1s]
    (folder / f"{name}.log").write_text("graph g: V = 8, E = 16, 4-byte edges\n" + "\n".join(lines) + "\n")


@pytest.fixture
def archive(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "cpu").mkdir()
    gpu_run(tmp_path / "runs", "streamed_pagerank_g_w4_zerocopy", "zerocopy", [10, 12, 11], [2e-3, 2.1e-3])
    gpu_run(tmp_path / "runs", "streamed_pagerank_g_w4_b64M_skipon_in0.5_packon", "streamed", [8, 9, 7], [1e-3])
    (tmp_path / "cpu" / "cpu_pr_g_total-change.csv").write_text(
        CPU_HEADER + "/x/g.w4.csr,8,16,4,gauss-seidel,blocked,16,25,yes,total-change,2e-4,40,39,41\n"
    )
    (tmp_path / "host.txt").write_text("commit abc1234\n")
    return tmp_path


def test_one_row_per_run_with_the_range_of_its_results(archive):
    t = pr_accuracy.accuracy_table(archive).set_index("run")
    zc, st, cpu = t.loc["zero-copy"], t.loc["b64M, F 0.5, packed"], t.loc["blocked, 16 threads"]
    assert (zc["median_ms"], zc["results"], zc["l1_min"], zc["l1_max"]) == (11, 2, 2e-3, 2.1e-3)
    assert (st["mode"], st["median_ms"], st["l1_median"], st["stop"]) == ("streamed", 8, 1e-3, "residual")
    assert (cpu["device"], cpu["stop"], cpu["l1_median"], bool(cpu["verified"])) == ("cpu", "total-change", 2e-4, True)


@pytest.mark.parametrize("case", ["no_l1", "misnamed", "empty"])
def test_a_bad_archive_is_refused_in_one_line(archive, tmp_path_factory, capsys, case):
    folder = archive
    if case == "no_l1":
        (archive / "runs" / "streamed_pagerank_g_w4_zerocopy.log").write_text("nothing\n")
    elif case == "misnamed":
        (archive / "runs" / "streamed_pagerank_g_zerocopy.csv").write_text(GPU_HEADER)
    else:
        folder = tmp_path_factory.mktemp("empty")
    out = archive / "t.csv"
    assert pr_accuracy.main(["--archive", str(folder), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pr_accuracy: ") and len(err.strip().splitlines()) == 1 and not out.exists()


def test_the_block_reads_the_gpu_beside_gaps_rule(archive):
    text, table = pr_accuracy_report.accuracy_blocks(pr_accuracy.accuracy_table(archive), "archive/x")
    assert "g 1.0e-03–2.0e-03 on the GPU against 2.0e-04 under GAP's rule" in text["text"]
    rows = {r[2]: r for r in table["table"]["rows"]}
    assert rows["zero-copy"][-1] == "2.0e-03–2.1e-03" and rows["streamed (b64M, F 0.5, packed)"][-1] == "1.0e-03"
    assert pr_accuracy_report.accuracy_blocks(None, "x") == []


def test_the_archived_table_is_derived_from_its_files():
    folder = REPO / "archive/pr-reference-h100-2026-11-27"
    archived = pd.read_csv(folder / "pr_accuracy.csv")
    derived = pr_accuracy.accuracy_table(folder).reset_index(drop=True)
    pd.testing.assert_frame_equal(archived, derived, check_dtype=False)
