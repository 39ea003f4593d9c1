# Microbenchmarks (GPU): the zero-copy toy (EMOGI §3.3), the pointer chase (latency) and the concurrency sweep
# (throughput vs reads in flight) that the model's parameters are fitted from, and Nsight counters of the toy.

MICRO = config["micro"]


rule micro_toy:
    input:
        binary="build/emogi",
    output:
        "results/fresh/micro/toy.csv",
    params:
        device=DEVICE,
        modes=comma(MICRO["modes"]),
        toy=MICRO["toy"],
    resources:
        gpu=1,
    log:
        "logs/micro/toy.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.measure toy --binary {input.binary} --out {output} --device {params.device} --"
        " --bytes {params.toy[bytes]} --modes {params.modes} --reps {params.toy[reps]} > {log} 2>&1"


rule micro_chase:
    input:
        binary="build/emogi",
    output:
        "results/fresh/micro/latency.csv",
    params:
        device=DEVICE,
        modes=comma(MICRO["modes"]),
        footprints=comma(MICRO["chase"]["footprints"]),
        chase=MICRO["chase"],
    resources:
        gpu=1,
    log:
        "logs/micro/chase.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.measure chase --binary {input.binary} --out {output} --device {params.device} --"
        " --modes {params.modes} --footprints {params.footprints} --steps {params.chase[steps]}"
        " --reps {params.chase[reps]} > {log} 2>&1"


rule micro_concurrency:
    # The full sweep (warps x reads per warp x request size) at a few footprints, and the footprint sweep at
    # the highest concurrency; both go to the concurrency table.
    input:
        binary="build/emogi",
    output:
        "results/fresh/micro/concurrency_{sweep}.csv",
    params:
        device=DEVICE,
        modes=comma(MICRO["modes"]),
        c=MICRO["concurrency"],
        footprints=lambda w: comma(
            MICRO["concurrency"]["footprints"] if w.sweep == "warps" else MICRO["footprint_sweep"]
        ),
        warps=lambda w: comma(MICRO["concurrency"]["warps"] if w.sweep == "warps" else MICRO["concurrency"]["warps"][-1:]),
        per_warp=lambda w: comma(
            MICRO["concurrency"]["reads_per_warp"] if w.sweep == "warps" else MICRO["concurrency"]["reads_per_warp"][-1:]
        ),
    wildcard_constraints:
        sweep="warps|footprints",
    resources:
        gpu=1,
    log:
        "logs/micro/concurrency_{sweep}.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.measure concurrency --binary {input.binary} --out {output} --device {params.device} --"
        " --modes {params.modes} --footprints {params.footprints} --warps {params.warps}"
        " --reads-per-warp {params.per_warp} --iterations {params.c[iterations]} --reps {params.c[reps]} > {log} 2>&1"


rule profile_toy:
    input:
        binary="build/emogi",
    output:
        table="results/fresh/micro/toy_profile.csv",
        report="results/fresh/ncu/toy.ncu-rep",
    params:
        device=DEVICE,
        ncu=config["profile"]["ncu"],
        modes=comma(MICRO["modes"]),
        toy=MICRO["toy"],
    resources:
        gpu=1,
    log:
        "logs/profile/toy.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.profile toy --ncu {params.ncu} --binary {input.binary} --report {output.report}"
        " --out {output.table} --device {params.device} -- --bytes {params.toy[bytes]} --modes {params.modes}"
        " > {log} 2>&1"


rule profile_concurrency:
    # What a random d-byte read is on the link: one setting per request size at the most concurrency.
    input:
        binary="build/emogi",
    output:
        table="results/fresh/micro/concurrency_profile.csv",
        report="results/fresh/ncu/concurrency.ncu-rep",
    params:
        device=DEVICE,
        ncu=config["profile"]["ncu"],
        modes=comma([m for m in MICRO["modes"] if m != "device"] or MICRO["modes"]),
        footprints=comma(MICRO["concurrency"]["footprints"]),
        warps=MICRO["concurrency"]["warps"][-1],
        per_warp=MICRO["concurrency"]["reads_per_warp"][-1],
    resources:
        gpu=1,
    log:
        "logs/profile/concurrency.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.profile concurrency --ncu {params.ncu} --binary {input.binary} --report {output.report}"
        " --out {output.table} --device {params.device} -- --modes {params.modes} --footprints {params.footprints}"
        " --warps {params.warps} --reads-per-warp {params.per_warp} > {log} 2>&1"
