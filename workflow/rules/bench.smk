# The kernel benchmark: `snakemake --cores all bench`. One GPU job builds nothing itself (build/emogi is an
# input), generates its graphs if absent, verifies and times the matrix, and prints the summary table.


rule bench:
    input:
        binary="build/emogi",
    output:
        runs="results/bench/runs.csv",
        summary="results/bench/summary.csv",
    params:
        b=config["bench"],
        graphs=comma(config["bench"]["graphs"]),
        widths=comma(config["bench"]["widths"]),
        algorithms=comma(config["bench"]["algorithms"]),
        modes=comma(config["bench"]["modes"]),
        variants=comma(config["bench"]["variants"]),
        profile="--profile" if config["bench"]["profile"] else "",
        device=DEVICE,
    resources:
        gpu=1,
    log:
        "logs/bench/bench.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.bench --binary {input.binary} --graphs {params.graphs} --seed {params.b[seed]}"
        " --widths {params.widths} --algorithms {params.algorithms} --modes {params.modes}"
        " --variants '{params.variants}' --roots {params.b[roots]} --reps {params.b[reps]}"
        " --warmup {params.b[warmup]} {params.profile} --device {params.device} --out-dir results/bench 2> {log}"
