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
# Streamed PageRank at 8-byte ids (the EMOGI artifact's width) beside zero-copy, for the verdict against the artifact
# (paper/artifact_h100.yaml): the table its script printed.
STREAMED_W8_TABLE = "archive/streamed-pack-h100-2026-11-27/pr_table_w8.csv"
# Issue 22's PageRank targets at 4-byte ids: streamed with packed copies beside zero-copy, one call.
STREAMED_PACK_TABLE = "archive/streamed-pack-h100-2026-11-27/pr_table_w4.csv"
# PageRank's L1 distance to a converged reference, GPU (zero-copy, streamed) and CPU (both stopping rules), one call:
# emogi.pr_accuracy's table of that archive.
PR_ACCURACY_TABLE = "archive/pr-reference-h100-2026-11-27/pr_accuracy.csv"


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

# SpMV's figure, which issue 22 asks for in CF'17's column layout: row and column blocks side by side from one later
# call, with its zero-copy, device and link rows; the CPU SpMV from STREAMED_ARCHIVE's cpu_spmv files (timed in a
# session of its own there).
STREAMED_SPMV_ARCHIVE = "archive/streamed-columns-h100-2026-11-27"
STREAMED_SPMV_DIR = f"{STREAMED_DIR}/spmv"
STREAMED_SPMV_FILES = {name: f"{STREAMED_SPMV_DIR}/{name}.csv" for name in ("streamed", "link", "cpu_spmv")}
STREAMED_SPMV_SOURCE_FILE = f"{STREAMED_SPMV_DIR}/source.json"


rule streamed_spmv_tables:
    input:
        module=REPO / "emogi/streamed_runs.py",
        archive=sorted((REPO / STREAMED_SPMV_ARCHIVE).glob("*.*")),
        cpu=sorted((REPO / STREAMED_ARCHIVE).glob("cpu_spmv_*.csv")),
    output:
        *STREAMED_SPMV_FILES.values(),
        STREAMED_SPMV_SOURCE_FILE,
    params:
        archive=REPO / STREAMED_SPMV_ARCHIVE,
        peer=REPO / STREAMED_ARCHIVE,
        out=lambda w, output: Path(output[0]).parent,
    log:
        "logs/streamed/spmv_tables.log",
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

# Issue 22's crossover: per-pass logs of PageRank, CC and SSSP, streamed and zero-copy (model/streamed_crossover.py):
# the pass table, the same call's link table, the per-pass oracle bound and their source record; fig_streamed_crossover
# (figures.smk) draws the passes with the model (the zero-copy parameters and GPU-work costs named below, and the
# archive's request_shape.csv).
CROSSOVER_ARCHIVE = "archive/streamed-crossover-h100-2026-11-27"
CROSSOVER_LINK_ARCHIVE = "archive/streamed-columns-h100-2026-11-27"
CROSSOVER_FILES = {name: f"{STREAMED_DIR}/crossover_{name}.csv" for name in ("passes", "link", "bound")}
CROSSOVER_SOURCE_FILE = f"{STREAMED_DIR}/crossover_source.json"
CROSSOVER_PARAMETERS = "archive/graph-predict-zerocopy-2026-11-25/parameters.json"
CROSSOVER_GPU_WORK = "archive/gpu-work-term-2026-11-25-v2/gpu_work_params.csv"
# UVM in the crossover, simulated (model/streamed_uvm.py): the archive's uvm_curve.csv (per-pass counts of the UVM
# simulator at a capacity of 1/2 and 1/4 of the lists), timed with the registered UVM costs and the emulation's
# fitted cost per evicted chunk of the OOM study.
CROSSOVER_UVM_PARAMS = "archive/uvm-sim-validation-2026-11-25/params.json"
CROSSOVER_UVM_CALIBRATION = "archive/oom-h100-80gb-hbm3-2026-11-25-1207/oom_calibration.json"


rule streamed_crossover:
    input:
        module=REPO / "model/streamed_crossover.py",
        passes=sorted((REPO / CROSSOVER_ARCHIVE).glob("crossover_*")),
        host=REPO / CROSSOVER_ARCHIVE / "host.txt",
        link=[REPO / CROSSOVER_LINK_ARCHIVE / f for f in ("linkbw.csv", "host.txt")],
    output:
        *CROSSOVER_FILES.values(),
        CROSSOVER_SOURCE_FILE,
    params:
        archive=REPO / CROSSOVER_ARCHIVE,
        link=REPO / CROSSOVER_LINK_ARCHIVE,
        out=lambda w, output: Path(output[0]).parent,
    log:
        "logs/streamed/crossover.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m model.streamed_crossover tables --archive {params.archive} --link-archive {params.link}"
        " --out-dir {params.out} > {log} 2>&1"
