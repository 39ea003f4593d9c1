# Datasets: every configured graph as resources/graphs/{graph}.w8.csr + .w8.json (docs/graph-format.md),
# whatever its source (config `graphs.<name>.source`, docs/datasets.md): generated here, downloaded from
# SuiteSparse or LAW (config/datasets_catalog.yaml) and converted, or imported from the EMOGI artifact's .bel
# files. Then the 4-byte copies, the transposes of directed graphs and the BFS roots every variant shares.
#
# The long steps (generating, downloading, converting: half a minute to hours per graph) print their progress
# lines both to the terminal and to their log (`... 2>&1 | tee {log} >&2`; snakemake's bash runs with pipefail,
# so the step's own exit status is the job's); the short ones write their log only.
import functools  # noqa: E402

from emogi.datasets import sources  # noqa: E402
from emogi.bench import graph_name as bench_graph_name, graph_specs as bench_graph_specs  # noqa: E402
from emogi.registry import vocabulary  # noqa: E402

# The kernel benchmark's GAP graphs (config bench.graphs, kind:scale; bench.smk) are made here too, by the same
# rules and under the same names (kron:21 -> resources/graphs/kron21.w8.csr); the study measures only its own.
# The link ladder's graphs (config model.link_ladder.graphs; model.smk) are made the same way: kind:scale as the
# bench's (seed bench.seed), a plain name one of the study's graphs.
LADDER_GRAPHS = [bench_graph_name(g) if ":" in g else g for g in config["model"]["link_ladder"]["graphs"]]
_ladder_unknown = [g for g in config["model"]["link_ladder"]["graphs"] if ":" not in g and g not in config["graphs"]]
if _ladder_unknown:
    raise WorkflowError(f"config: model.link_ladder.graphs names {_ladder_unknown}, not under graphs: (or give kind:scale)")
try:
    _ladder_specs = {"graphs": [g for g in config["model"]["link_ladder"]["graphs"] if ":" in g], "seed": config["bench"]["seed"]}
    GRAPH_SPECS = {
        **config["graphs"],
        **bench_graph_specs(config["bench"], config["graphs"]),
        **bench_graph_specs(_ladder_specs, config["graphs"]),
    }
    sources.check_generator_specs(GRAPH_SPECS)  # R-MAT initiators: valid, and not under a kron<scale> name
except ValueError as err:
    raise WorkflowError(f"config: {err}")
CATALOG = REPO / "config" / "datasets_catalog.yaml"

# Fail early: a download this run needs but cannot make (offline, unreachable, no checksum recorded) stops the
# workflow here, before any job runs.
try:
    sources.preflight(GRAPH_SPECS, CATALOG, setup.is_dry_run())
except sources.DatasetError as err:
    raise WorkflowError(str(err))


rule generate_graph:
    output:
        graph="resources/graphs/{graph}.w8.csr",
        meta="resources/graphs/{graph}.w8.json",
    params:
        args=lambda w: sources.generator_args(GRAPH_SPECS[w.graph]),
    wildcard_constraints:
        graph=sources.name_pattern(GRAPH_SPECS, "generator"),
    threads: workflow.cores
    log:
        "logs/datasets/generate_{graph}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.datasets.generators {params.args} --workers {threads}"
        " --out {output.graph} --meta {output.meta} 2>&1 | tee {log} >&2"


rule download_dataset:
    output:
        "resources/downloads/{graph}/{file}",
    params:
        args=lambda w: sources.download_args(w.graph, w.file, GRAPH_SPECS[w.graph], sources.load_catalog(CATALOG)),
    wildcard_constraints:
        graph=sources.name_pattern(GRAPH_SPECS, *sources.DOWNLOADED),
        file="[^/]+",
    log:
        "logs/datasets/download_{graph}_{file}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.datasets.download {params.args} --out {output} 2>&1 | tee {log} >&2"


rule convert_suitesparse:
    input:
        archive=lambda w: sources.download_paths(w.graph, GRAPH_SPECS[w.graph], sources.load_catalog(CATALOG))[0],
    output:
        graph="resources/graphs/{graph}.w8.csr",
        meta="resources/graphs/{graph}.w8.json",
    params:
        args=lambda w: sources.converter_args(w.graph, GRAPH_SPECS[w.graph]),
    wildcard_constraints:
        graph=sources.name_pattern(GRAPH_SPECS, "suitesparse"),
    threads: workflow.cores
    log:
        "logs/datasets/convert_{graph}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.datasets.suitesparse --archive {input.archive} --out {output.graph} --meta {output.meta}"
        " --threads {threads} {params.args} 2>&1 | tee {log} >&2"


rule convert_law:
    input:
        lambda w: sources.download_paths(w.graph, GRAPH_SPECS[w.graph], sources.load_catalog(CATALOG)),
    output:
        graph="resources/graphs/{graph}.w8.csr",
        meta="resources/graphs/{graph}.w8.json",
    params:
        basename=lambda w: sources.law_basename(w.graph, GRAPH_SPECS[w.graph], sources.load_catalog(CATALOG)),
        args=lambda w: sources.converter_args(w.graph, GRAPH_SPECS[w.graph]),
    wildcard_constraints:
        graph=sources.name_pattern(GRAPH_SPECS, "law"),
    log:
        "logs/datasets/convert_{graph}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.datasets.law --basename {params.basename} --out {output.graph} --meta {output.meta}"
        " {params.args} 2>&1 | tee {log} >&2"


rule import_bel:
    input:
        lambda w: sources.bel_inputs(GRAPH_SPECS[w.graph]),
    output:
        graph="resources/graphs/{graph}.w8.csr",
        meta="resources/graphs/{graph}.w8.json",
    params:
        prefix=lambda w: GRAPH_SPECS[w.graph]["prefix"],
        args=lambda w: sources.converter_args(w.graph, GRAPH_SPECS[w.graph]),
    wildcard_constraints:
        graph=sources.name_pattern(GRAPH_SPECS, "bel"),
    log:
        "logs/datasets/import_{graph}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.datasets.bel import {params.prefix} --out {output.graph} --meta {output.meta}"
        " {params.args} 2>&1 | tee {log} >&2"


# A directed graph's transpose (its in-lists, docs/graph-format.md "Transpose"), beside it by the naming rule
# G.csr -> G.t.csr, for the variants that read in-lists (the registry's in_lists: direction-optimizing BFS). Made
# only where a run needs it (transpose_input: measure.smk, profile.smk), as each graph's 4-byte copy is.
rule transpose_graph:
    input:
        "resources/graphs/{graph}.w{width}.csr",
    output:
        "resources/graphs/{graph}.w{width}.t.csr",
    log:
        "logs/datasets/transpose_{graph}.w{width}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m emogi.csr transpose {input} --out {output} 2>&1 | tee {log} >&2"


# transpose_input(variants): the input function of a rule whose runs of `variants` may read a transpose.
transpose_input = functools.partial(
    sources.transpose_input, GRAPH_SPECS, CATALOG, [v.name for v in vocabulary().variants if v.in_lists]
)


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
        "python3 -m emogi.datasets.roots {input} --count {params.roots[count]} --seed {params.roots[seed]} --out {output} > {log} 2>&1"


rule first_roots:
    # The applications study (measure_app) starts BFS and SSSP from the first {n} of these roots.
    input:
        "results/roots/{graph}.txt",
    output:
        "results/roots/{graph}.first{n}.txt",
    wildcard_constraints:
        n=r"\d+",
    log:
        "logs/datasets/roots_{graph}.first{n}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "head -n {wildcards.n} {input} > {output} 2> {log}"
