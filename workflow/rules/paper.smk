# The report: paper/report.typ compiled with the typst package, with every figure, the environment of the
# measurements, the datasets (Table 2 and Fig. 6 of dataset_report.smk), the fitted model and the paper's
# numbers beside ours.

MICRO_FIGURES = [f for f in FIGURE_INPUTS if f.startswith("fig_")]


rule report:
    input:
        script=REPO / "workflow/scripts/build_report.py",
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
    output:
        "results/report/report.pdf",
    params:
        micro=" ".join(
            f"--{f.replace('_', '-')} results/figures/{f}.png --{f.replace('_', '-')}-csv results/figures/{f}.csv"
            for f in MICRO_FIGURES
        ),
    log:
        "logs/paper/report.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 {input.script} --source {input.source} --runs {input.runs} --link {input.link}"
        " --fig09 results/figures/fig09_speedup_over_uvm.png --fig09-csv results/figures/fig09_speedup_over_uvm.csv"
        " --fig08 results/figures/fig08_pcie_bandwidth.png --fig08-csv results/figures/fig08_pcie_bandwidth.csv"
        " --link-bound {input.link_bound} --parameters {input.parameters} --predictions {input.predictions}"
        " --prediction-summary {input.summary} {params.micro}"
        " --table2 {input.table2} --fig06 {input.fig06} --fig06-csv {input.fig06_csv}"
        " --fig07 results/figures/fig07_pcie_requests.png --fig07-csv results/figures/fig07_pcie_requests.csv"
        " --fig10 results/figures/fig10_read_amplification.png --fig10-csv results/figures/fig10_read_amplification.csv"
        " --fig11 results/figures/fig11_applications.png --fig11-csv results/figures/fig11_applications.csv"
        " --fig12 results/figures/fig12_edge_width.png --fig12-csv results/figures/fig12_edge_width.csv"
        " --concurrency-profile {input.concurrency_profile} --paper-numbers {input.numbers} --out {output} > {log} 2>&1"
