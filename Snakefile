# EMOGI reproduction: from synthetic graphs to BFS measurements, Nsight counters, the link-bound model,
# the paper's figures and a report PDF.   snakemake --cores all   (config/config.yaml, checked by its schema)
from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config/config.yaml"


try:
    validate(config, "config/schema.yaml", set_default=True)
except WorkflowError as _error:  # one line naming the key, not the validator's dump of schema and config
    from emogi.config_errors import one_line

    raise SystemExit(one_line(_error)) from None


include: "workflow/rules/common.smk"
include: "workflow/rules/datasets.smk"
include: "workflow/rules/dataset_report.smk"
include: "workflow/rules/build.smk"
include: "workflow/rules/measure.smk"
include: "workflow/rules/profile.smk"
include: "workflow/rules/microbench.smk"
include: "workflow/rules/tables.smk"
include: "workflow/rules/oom.smk"
include: "workflow/rules/streamed.smk"
include: "workflow/rules/model.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/cpu.smk"
include: "workflow/rules/paper.smk"
include: "workflow/rules/bench.smk"


rule all:
    input:
        TABLES,
        "results/model/link_bound.csv",
        "results/model/parameters.json",
        "results/model/predictions.csv",
        expand("results/figures/{figure}.{ext}", figure=list(FIGURE_INPUTS), ext=["png", "csv"]),
        "results/report/report.pdf",
        "results/report/claims.csv",
        OOM_TABLE_FILES,
        DATASET_REPORT,
        CPU_FIGURE_FILES,
    default_target: True


rule oom:
    # Out of GPU memory (config oom; config/oom.yaml measures it): its tables and figures.
    input:
        OOM_TABLE_FILES,
        expand("results/figures/{figure}.{ext}", figure=OOM_FIGURES, ext=["png", "csv"]),
