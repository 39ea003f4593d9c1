# Streamed transfers (CF'17, issue 22): the `streamed` table of an archived session (emogi/streamed_runs.py), the
# link table and CPU SpMV of the same session beside it, and their source record; fig_streamed_spmv and
# fig_streamed_pagerank (figures.smk) draw from them without a GPU. STREAMED_PEER holds the same session's
# zero-copy and device PageRank (gpu_<graph>.csv); the archive's own cpu_spmv_<graph>.csv (its second session) win
# over the peer's. Its session-b/ subfolder is a record only: neither an input nor read.
STREAMED_ARCHIVE = "archive/streamed-h100-2026-11-26"
STREAMED_PEER = "archive/cpu-gpu-h100-2026-11-26"
STREAMED_DIR = "results/streamed"
STREAMED_SOURCE_FILE = f"{STREAMED_DIR}/source.json"
STREAMED_FILES = {name: f"{STREAMED_DIR}/{name}.csv" for name in ("streamed", "link", "cpu_spmv")}
# Streamed PageRank with sparse blocks read in place (--stream-direct-below), another session on another machine:
# the table its script printed, shown in the report beside that session's zero-copy runs only.
STREAMED_INPLACE_TABLE = "archive/streamed-inplace-h100-2026-11-27/machine-b/pr_table.csv"


rule streamed_tables:
    input:
        module=REPO / "emogi/streamed_runs.py",
        archive=sorted((REPO / STREAMED_ARCHIVE).glob("*.*")),
        peer=sorted((REPO / STREAMED_PEER).glob("*.csv")),
    output:
        *STREAMED_FILES.values(),
        STREAMED_SOURCE_FILE,
    params:
        archive=REPO / STREAMED_ARCHIVE,
        peer=REPO / STREAMED_PEER,
        out=lambda w, output: Path(output[0]).parent,
    log:
        "logs/streamed/tables.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.streamed_runs --archive {params.archive} --peer {params.peer} --out-dir {params.out}"
        " > {log} 2>&1"

# The mode selector (issue 22): its judged table regenerated from an archived session's fixed-mode runs and the
# selector's own tables (model/select_judge.py), with that session's source record; fig_select draws it.
SELECT_ARCHIVE = "archive/select-h100-2026-11-27"
SELECT_JUDGE_FILE = f"{STREAMED_DIR}/select_judge.csv"
SELECT_SOURCE_FILE = f"{STREAMED_DIR}/select_source.json"


rule select_judge:
    input:
        module=REPO / "model/select_judge.py",
        runs=sorted((REPO / SELECT_ARCHIVE).glob("runs_*.csv")),
        select=sorted((REPO / SELECT_ARCHIVE).glob("select_*.csv")),
        source=REPO / SELECT_ARCHIVE / "source.json",
    output:
        judge=SELECT_JUDGE_FILE,
        source=SELECT_SOURCE_FILE,
    params:
        archive=REPO / SELECT_ARCHIVE,
    log:
        "logs/streamed/select_judge.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m model.select_judge --runs {input.runs} --select {input.select} --out {output.judge}"
        " --archive {params.archive} --source-out {output.source} > {log} 2>&1"
