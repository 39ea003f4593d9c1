# Measure (GPU): BFS, every variant x mode from every root, verified against the CPU reference; the other
# applications (SSSP, CC, PageRank, and BFS again at both widths) for Figs. 11 and 12; the cudaMemcpy link probe.
# `resources: gpu=1` with the workflow profile's gpu=1 limit keeps GPU jobs from overlapping.


rule measure_bfs:
    input:
        binary="build/emogi",
        graph="resources/graphs/{graph}.w{width}.csr",
        transpose=transpose_input(config["measure"]["variants"]),  # found beside the graph by the binary
        roots="results/roots/{graph}.txt",
    output:
        "results/fresh/runs/{graph}.w{width}.csv",
    params:
        device=DEVICE,
        m=config["measure"],
        variants=comma(config["measure"]["variants"]),
        modes=comma(config["measure"]["modes"]),
        oversubscribe=OVERSUBSCRIBE,
    resources:
        gpu=1,
    log:
        "logs/measure/bfs_{graph}.w{width}.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.measure bfs --binary {input.binary} --out {output} --device {params.device}"
        " -- --graph {input.graph} --name {wildcards.graph} --roots-file {input.roots}"
        " --variants {params.variants} --modes {params.modes} --reps {params.m[reps]} --warmup {params.m[warmup]}"
        " {params.oversubscribe} > {log} 2>&1"


rule measure_app:
    # EMOGI §5.4 (Figs. 11, 12): one algorithm on one graph and edge width, every apps variant x mode, verified.
    input:
        binary="build/emogi",
        graph="resources/graphs/{graph}.w{width}.csr",
        transpose=transpose_input(lambda w: config["apps"]["variants"][w.algorithm]),
        roots=lambda w: f"results/roots/{w.graph}.first{config['apps']['roots']}.txt",
    output:
        "results/fresh/apps/{graph}.{algorithm}.w{width}.csv",
    params:
        device=DEVICE,
        a=config["apps"],
        variants=lambda w: comma(config["apps"]["variants"][w.algorithm]),
        modes=comma(config["apps"]["modes"]),
        oversubscribe=OVERSUBSCRIBE,
    wildcard_constraints:
        algorithm="bfs|sssp|cc|pagerank",
    resources:
        gpu=1,
    log:
        "logs/measure/{algorithm}_{graph}.w{width}.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.measure run --binary {input.binary} --out {output} --device {params.device}"
        " -- --algorithm {wildcards.algorithm} --graph {input.graph} --name {wildcards.graph}"
        " --roots-file {input.roots} --variants {params.variants} --modes {params.modes} --reps {params.a[reps]}"
        " --warmup {params.a[warmup]} {params.oversubscribe} > {log} 2>&1"


rule link_probe:
    input:
        binary="build/emogi",
    output:
        "results/fresh/link.csv",
    params:
        device=DEVICE,
        sizes=comma(config["link_probe"]["sizes"]),
        reps=config["link_probe"]["reps"],
    resources:
        gpu=1,
    log:
        "logs/measure/link_probe.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.measure linkbw --binary {input.binary} --out {output} --device {params.device}"
        " -- --sizes {params.sizes} --reps {params.reps} > {log} 2>&1"


rule record_provenance:
    input:
        binary="build/emogi",
    output:
        "results/fresh/provenance.json",
    params:
        device=DEVICE,
    log:
        "logs/measure/provenance.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.provenance --binary {input.binary} --device {params.device} --out {output} > {log} 2>&1"
