# The paper's Table 2 (datasets, ours beside the paper's) and Fig. 6 (edges CDF by vertex degree), from the
# graphs themselves: a degree histogram per graph, made right after the graph, and the graphs' metadata JSONs.
# No GPU: these are always fresh, whatever the measurements' source.
import json

DATASET_REPORT = [
    "results/figures/table2_datasets.csv",
    "results/figures/table2_datasets.md",
    "results/figures/fig06_degree_cdf.png",
    "results/figures/fig06_degree_cdf.csv",
]


rule degree_histogram:
    input:
        graph="resources/graphs/{graph}.w8.csr",
        meta="resources/graphs/{graph}.w8.json",
    output:
        "results/datasets/{graph}.degrees.csv",
    log:
        "logs/datasets/degrees_{graph}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.datasets.degree_histogram {input.graph} --name {wildcards.graph} --out {output} > {log} 2>&1"


rule table2_datasets:
    input:
        meta=expand("resources/graphs/{graph}.w8.json", graph=GRAPHS),
        paper="paper/table2_datasets.yaml",
    output:
        csv="results/figures/table2_datasets.csv",
        md="results/figures/table2_datasets.md",
    params:
        specs=json.dumps(config["graphs"]),
    log:
        "logs/datasets/table2.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.datasets.table --specs {params.specs:q} --meta {input.meta} --paper {input.paper}"
        " --out {output.csv} --out-md {output.md} > {log} 2>&1"


rule fig06_degree_cdf:
    input:
        script=REPO / "figures/fig06_degree_cdf.py",
        degrees=expand("results/datasets/{graph}.degrees.csv", graph=GRAPHS),
    output:
        png=report("results/figures/fig06_degree_cdf.png", category="Datasets"),
        csv="results/figures/fig06_degree_cdf.csv",
    log:
        "logs/figures/fig06_degree_cdf.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m figures.fig06_degree_cdf --degrees {input.degrees} --out {output.png} --out-csv {output.csv} > {log} 2>&1"
