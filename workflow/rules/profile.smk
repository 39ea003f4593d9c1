# Profile (GPU): Nsight Compute's system-memory and PCIe counters for one traversal (the first root) per
# variant x mode, standing in for the paper's FPGA PCIe monitor. Separate from the timed runs.


rule profile_bfs:
    input:
        binary="build/emogi",
        graph="resources/graphs/{graph}.w{width}.csr",
        transpose=transpose_input(config["measure"]["variants"]),
        roots="results/roots/{graph}.txt",
    output:
        table="results/fresh/profile/{graph}.w{width}.csv",
        report="results/fresh/ncu/{graph}.w{width}.ncu-rep",
    params:
        device=DEVICE,
        ncu=config["profile"]["ncu"],
        variants=comma(config["measure"]["variants"]),
        modes=comma(config["measure"]["modes"]),
        oversubscribe=OVERSUBSCRIBE,
    resources:
        gpu=1,
    log:
        "logs/profile/bfs_{graph}.w{width}.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.profile bfs --ncu {params.ncu} --binary {input.binary} --report {output.report}"
        " --out {output.table} --device {params.device} --"
        " --graph {input.graph} --name {wildcards.graph} --roots $(head -n 1 {input.roots})"
        " --variants {params.variants} --modes {params.modes} {params.oversubscribe} > {log} 2>&1"
