# The report: paper/report.typ compiled with the typst package, with the figures, the environment of the
# measurements and the paper's numbers beside ours.


rule report:
    input:
        script=REPO / "workflow/scripts/build_report.py",
        typ=REPO / "paper/report.typ",
        numbers=REPO / "paper/paper_numbers.yaml",
        source="results/tables/source.json",
        runs="results/tables/runs.csv",
        link="results/tables/link.csv",
        link_bound="results/model/link_bound.csv",
        fig09="results/figures/fig09_speedup_over_uvm.png",
        fig09_csv="results/figures/fig09_speedup_over_uvm.csv",
        fig08="results/figures/fig08_pcie_bandwidth.png",
        fig08_csv="results/figures/fig08_pcie_bandwidth.csv",
    output:
        "results/report/report.pdf",
    log:
        "logs/paper/report.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 {input.script} --source {input.source} --fig09 {input.fig09} --fig09-csv {input.fig09_csv}"
        " --fig08 {input.fig08} --fig08-csv {input.fig08_csv} --link-bound {input.link_bound}"
        " --runs {input.runs} --link {input.link} --paper-numbers {input.numbers} --out {output} > {log} 2>&1"
