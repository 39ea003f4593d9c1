# Datasets: synthetic graphs in the project's CSR format (docs/graph-format.md), their 4-byte copies, and the
# BFS roots every variant shares.


rule generate_graph:
    output:
        graph="resources/graphs/{graph}.w8.csr",
        meta="resources/graphs/{graph}.w8.json",
    params:
        spec=lambda w: config["graphs"][w.graph],
    log:
        "logs/datasets/generate_{graph}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.generators --kind {params.spec[generator]} --scale {params.spec[scale]}"
        " --edge-factor {params.spec[edge_factor]} --seed {params.spec[seed]}"
        " --out {output.graph} --meta {output.meta} > {log} 2>&1"


rule narrow_graph:
    input:
        "resources/graphs/{graph}.w8.csr",
    output:
        graph="resources/graphs/{graph}.w4.csr",
        meta="resources/graphs/{graph}.w4.json",
    log:
        "logs/datasets/narrow_{graph}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.csr narrow {input} --out {output.graph} --meta {output.meta} > {log} 2>&1"


rule pick_roots:
    input:
        "resources/graphs/{graph}.w8.csr",
    output:
        "results/roots/{graph}.txt",
    params:
        roots=config["roots"],
    log:
        "logs/datasets/roots_{graph}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.roots {input} --count {params.roots[count]} --seed {params.roots[seed]} --out {output} > {log} 2>&1"
