# The kernel benchmark: `snakemake --cores all bench` (config `bench:`, emogi/bench.py). Its graphs are the study's
# kind (datasets.smk makes resources/graphs/<kind><scale>.w8.csr and .w4.csr from bench.graphs); here, W, the
# roots, one GPU job per algorithm x graph x width (every variant x mode, each run verified), optionally their
# Nsight Compute profiles, and rule `bench`, which gathers them into results/bench/{runs,summary}.csv and prints
# the table. Not part of the default target.
from emogi import bench as bench_plan  # noqa: E402

BENCH = config["bench"]
BENCH_ALGORITHMS = "|".join(BENCH["algorithms"])
try:
    BENCH_VARIANTS = bench_plan.variants_by_algorithm(BENCH["algorithms"], comma(BENCH["variants"]))
except ValueError as err:
    raise WorkflowError(f"config bench: {err}")

# Refused at start-up, before the kernels are built, where no GPU would time them (a dry run may preview the plan).
_bench_refusal = setup.bench_refusal(setup.requested_targets(), setup.is_dry_run())
if _bench_refusal:
    raise WorkflowError(_bench_refusal)


rule bench:
    # The summary: gathers every cell, writes runs.csv, summary.csv and link_limit_gbps.txt, prints the table.
    input:
        runs=bench_plan.run_parts(BENCH),
        profiles=bench_plan.profile_parts(BENCH),
        link="results/bench/link.csv",
        provenance="results/bench/provenance.json",
    output:
        runs="results/bench/runs.csv",
        summary="results/bench/summary.csv",
        w="results/bench/link_limit_gbps.txt",
    params:
        profiles=lambda w, input: f"--profiles {' '.join(input.profiles)}" if input.profiles else "",
    log:
        "logs/bench/summary.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.bench summary --runs {input.runs} --link {input.link} --provenance {input.provenance}"
        " {params.profiles} --out-dir results/bench 2> {log}"


rule bench_link:
    # W: the pinned cudaMemcpy host-to-device peak over 256 MiB and 1 GiB copies.
    input:
        binary=BENCH["binary"],
    output:
        "results/bench/link.csv",
    params:
        device=DEVICE,
    threads: workflow.cores  # alone on the host: no CPU job beside it while it times
    resources:
        gpu=1,
    log:
        "logs/bench/link.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.measure linkbw --binary {input.binary} --out {output} --device {params.device}"
        " -- --sizes 256M,1G --reps 5 > {log} 2>&1"


rule bench_provenance:
    input:
        binary=BENCH["binary"],
    output:
        "results/bench/provenance.json",
    params:
        device=DEVICE,
    log:
        "logs/bench/provenance.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.provenance --binary {input.binary} --device {params.device} --out {output} > {log} 2>&1"


rule bench_roots:
    # bench.roots vertices with out-edges, drawn with bench.seed (the study's roots are drawn with its own).
    input:
        "resources/graphs/{graph}.w8.csr",
    output:
        "results/bench/roots/{graph}.txt",
    params:
        n=BENCH["roots"],
        seed=BENCH["seed"],
    log:
        "logs/bench/roots_{graph}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.datasets.roots {input} --count {params.n} --seed {params.seed} --out {output} > {log} 2>&1"


rule bench_run:
    # One algorithm on one graph and width: every bench variant x mode, each run verified before its row is written.
    input:
        binary=BENCH["binary"],
        graph="resources/graphs/{graph}.w{width}.csr",
        roots=lambda w: bench_plan.roots_file(w.algorithm, w.graph),
    output:
        "results/bench/runs/{algorithm}.{graph}.w{width}.csv",
    params:
        device=DEVICE,
        args=lambda w, input: bench_plan.run_args(BENCH_VARIANTS, w.algorithm, input.graph, w.graph, input.roots),
        modes=comma(BENCH["modes"]),
        reps=BENCH["reps"],
        warmup=BENCH["warmup"],
    wildcard_constraints:
        algorithm=BENCH_ALGORITHMS,
    threads: workflow.cores  # alone on the host: no CPU job beside it while it times
    resources:
        gpu=1,
    log:
        "logs/bench/{algorithm}.{graph}.w{width}.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.measure run --binary {input.binary} --out {output} --device {params.device}"
        " -- {params.args} --modes {params.modes} --reps {params.reps} --warmup {params.warmup} > {log} 2>&1"


rule bench_profile:
    # bench.profile: the same runs, once each in the modes that read host memory, under Nsight Compute.
    input:
        binary=BENCH["binary"],
        graph="resources/graphs/{graph}.w{width}.csr",
        roots=lambda w: bench_plan.roots_file(w.algorithm, w.graph),
    output:
        table="results/bench/profiles/{algorithm}.{graph}.w{width}.csv",
        report="results/bench/profiles/{algorithm}.{graph}.w{width}.ncu-rep",
    params:
        device=DEVICE,
        ncu=config["profile"]["ncu"],
        args=lambda w, input: bench_plan.run_args(BENCH_VARIANTS, w.algorithm, input.graph, w.graph, input.roots),
        modes=comma(bench_plan.host_modes(BENCH["modes"])),
    wildcard_constraints:
        algorithm=BENCH_ALGORITHMS,
    threads: workflow.cores  # alone on the host: no CPU job beside it while it times
    resources:
        gpu=1,
    log:
        "logs/bench/profile_{algorithm}.{graph}.w{width}.log",
    conda:
        "../../envs/measure.yaml"
    shell:
        "python3 -m emogi.profile run --ncu {params.ncu} --binary {input.binary} --report {output.report}"
        " --out {output.table} --device {params.device} -- {params.args} --modes {params.modes} > {log} 2>&1"
