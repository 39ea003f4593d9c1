# The report: paper/report.typ compiled with the typst package, with every figure, the environment of the
# measurements, the datasets (Table 2 and Fig. 6 of dataset_report.smk), the fitted model and the paper's
# numbers beside ours.

rule report:
    input:
        script=REPO / "workflow/scripts/build_report.py",
        # the report's own modules; each figure's section is in its script, which its figure's rule reads
        sections=[REPO / f"figures/{m}.py" for m in ("inputs", "report_format", "report_setup", "table2_datasets",
                                                     "micro_report", "claims", "oom_report", "cpu_data",
                                                     "cpu_report", "streamed_report", "uvm_validation_report")],
        claims=[REPO / f"paper/claims/{p}.yaml" for p in ("emogi", "cxl", "cf17", "graphit")],
        typ=REPO / "paper/report.typ",
        numbers=REPO / "paper/paper_numbers.yaml",
        source="results/tables/source.json",
        runs="results/tables/runs.csv",
        link="results/tables/link.csv",
        link_bound="results/model/link_bound.csv",
        parameters="results/model/parameters.json",
        predictions="results/model/predictions.csv",
        summary="results/model/prediction_summary.json",
        concurrency_profile="results/tables/concurrency_profile.csv",
        figures=expand("results/figures/{figure}.{ext}", figure=list(FIGURE_INPUTS), ext=["png", "csv"]),
        table2="results/figures/table2_datasets.csv",
        fig06="results/figures/fig06_degree_cdf.png",
        fig06_csv="results/figures/fig06_degree_cdf.csv",
        oom_source=OOM_SOURCE_FILE,
        cpu=CPU_FIGURE_FILES,
        streamed_source=STREAMED_SOURCE_FILE,
        streamed_spmv_source=STREAMED_SPMV_SOURCE_FILE,
        select_source=SELECT_SOURCE_FILE,
        crossover=[CROSSOVER_SOURCE_FILE, CROSSOVER_FILES["bound"]],
        streamed_inplace=REPO / STREAMED_INPLACE_TABLE,
        streamed_w8=REPO / STREAMED_W8_TABLE,
        streamed_packed=REPO / STREAMED_PACK_TABLE,
        pr_accuracy=REPO / PR_ACCURACY_TABLE,
        artifact=REPO / "paper/artifact_h100.yaml",
        gap=REPO / "paper/gap_reference_h100.yaml",  # read by figures/streamed_targets_report.py
    output:
        report("results/report/report.pdf", category="Report"),
    params:
        cpu=f"--cpu-archive {CPU_ARCHIVE}" if CPU_ARCHIVE else "",
    log:
        "logs/paper/report.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        # every file above is in one of three folders; build_report.py finds each there by name
        "python3 {input.script} --tables results/tables --figures results/figures --model results/model"
        " --paper-numbers {input.numbers} --oom-tables results/oom/tables --streamed-tables results/streamed"
        " --streamed-inplace {input.streamed_inplace} --streamed-w8 {input.streamed_w8} --artifact {input.artifact}"
        " --streamed-packed {input.streamed_packed} --pr-accuracy {input.pr_accuracy}"
        " {params.cpu} --out {output} > {log} 2>&1"


rule claims:
    # The claims table on its own (the report shows the same rows): paper/claims/*.yaml against the figures' CSVs.
    input:
        claims=[REPO / f"paper/claims/{p}.yaml" for p in ("emogi", "cxl", "cf17", "graphit")],
        module=REPO / "figures/claims.py",
        numbers=REPO / "paper/paper_numbers.yaml",
        figures=expand("results/figures/{figure}.csv", figure=list(FIGURE_INPUTS)),
        cpu=CPU_FIGURE_FILES,
    output:
        report("results/report/claims.csv", category="Claims"),
    log:
        "logs/paper/claims.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m figures.claims --figures results/figures --out {output} > {log} 2>&1"
