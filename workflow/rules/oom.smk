# Out of GPU memory (issue 21; EMOGI §5.3-5.4 in the paper's regime): config `oom`. Fresh (config/oom.yaml, a GPU):
# one GPU job per graph x algorithm (emogi.oom_measure: device and cold uvm, zerocopy with traces, auto and
# uvm-capped at each budget; each part fits a 10-minute GPU command on an H100), then the simulator on each part's
# traces (model.oom_simulate, CPU), gathered into results/oom/tables/. Archived (the default): the tables of
# archive/oom-*/. Figs. 9-11 of this regime and the report's "Out of GPU memory" section read only those tables.
from emogi.schema import OOM_TABLES  # noqa: E402

OOM = config["oom"]
OOM_TABLE_FILES = expand("results/oom/tables/{table}.csv", table=list(OOM_TABLES))
OOM_SOURCE_FILE = "results/oom/tables/source.json"
OOM_PARTS = [(g, a) for g in OOM["graphs"] for a in OOM["algorithms"]]
OOM_WIDTH = OOM["edge_bytes"]
OOM_PART_FILES = {
    kind: [f"results/oom/fresh/{g}.{a}.{kind}.csv" for g, a in OOM_PARTS] for kind in ("runs", "simulated", "placement")
}

if OOM["measurements"] == "fresh":
    _unknown = [g for g in OOM["graphs"] if g not in config["graphs"]]
    if _unknown:
        raise WorkflowError(f"config oom.graphs: {', '.join(_unknown)} not under graphs (config/oom.yaml has them)")

    rule oom_measure:
        input:
            binary="build/emogi",
            graph=f"resources/graphs/{{graph}}.w{OOM_WIDTH}.csr",
            roots="results/roots/{graph}.txt",
        output:
            runs="results/oom/fresh/{graph}.{algorithm}.runs.csv",
            traces=directory("results/oom/fresh/traces/{graph}.{algorithm}"),
        params:
            o=OOM,
            variants=lambda w: comma(OOM["variants"][w.algorithm]),
            budgets=comma(OOM["budgets"]),
            hot="" if OOM["hottest_first"] else "--no-hot",
            device=DEVICE,
        wildcard_constraints:
            algorithm="bfs|sssp|cc|pagerank",
        resources:
            gpu=1,
        log:
            "logs/oom/measure_{graph}.{algorithm}.log",
        conda:
            "../../envs/measure.yaml"
        shell:
            "python3 -m emogi.oom_measure --binary {input.binary} --graph {input.graph} --name {wildcards.graph}"
            " --algorithm {wildcards.algorithm} --variants {params.variants} --roots-file {input.roots}"
            " --roots {params.o[roots]} --hot-roots {params.o[hot_roots]} --budgets {params.budgets}"
            " --sublaunches {params.o[sublaunches]} --reps {params.o[reps]} --warmup {params.o[warmup]} {params.hot}"
            " --trace-dir {output.traces} --out {output.runs} --device {params.device} > {log} 2>&1"

    rule oom_simulate:
        input:
            runs="results/oom/fresh/{graph}.{algorithm}.runs.csv",
            traces="results/oom/fresh/traces/{graph}.{algorithm}",
            graph=f"resources/graphs/{{graph}}.w{OOM_WIDTH}.csr",
            params=OOM["simulator_params"],
        output:
            sim="results/oom/fresh/{graph}.{algorithm}.simulated.csv",
            placement="results/oom/fresh/{graph}.{algorithm}.placement.csv",
        threads: min(8, workflow.cores)  # a trace per process; several parts at once
        log:
            "logs/oom/simulate_{graph}.{algorithm}.log",
        conda:
            "../../envs/analysis.yaml"
        shell:
            "python3 -m model.oom_simulate --graph {input.graph} --runs {input.runs} --trace-dir {input.traces}"
            " --params {input.params} --out {output.sim} --out-placement {output.placement} --jobs {threads}"
            " > {log} 2>&1"

    rule oom_tables:
        input:
            runs=OOM_PART_FILES["runs"],
            sim=OOM_PART_FILES["simulated"],
            placement=OOM_PART_FILES["placement"],
            provenance="results/fresh/provenance.json",
        output:
            OOM_TABLE_FILES,
            OOM_SOURCE_FILE,
            "results/oom/tables/oom_calibration.json",
        log:
            "logs/oom/tables.log",
        conda:
            "../../envs/analysis.yaml"
        shell:
            "python3 -m emogi.archive --study oom collect --oom {input.runs} --oom-simulated {input.sim}"
            " --oom-placement {input.placement} --provenance {input.provenance} --out-dir results/oom/tables"
            " > {log} 2>&1 && python3 -m model.oom_calibrate --tables results/oom/tables >> {log} 2>&1"

    rule oom_archive:
        # `snakemake --cores all oom_archive --configfile config/oom.yaml` after a fresh run: archive/oom-<gpu>-<date>/
        input:
            OOM_TABLE_FILES,
            OOM_SOURCE_FILE,
        output:
            "results/oom/archived.txt",
        log:
            "logs/oom/archive.log",
        conda:
            "../../envs/analysis.yaml"
        shell:
            "python3 -m emogi.archive --study oom pack --tables-dir results/oom/tables --config config/oom.yaml"
            " > {output} 2> {log}"

else:

    rule oom_restore:
        output:
            OOM_TABLE_FILES,
            OOM_SOURCE_FILE,
        params:
            archive=OOM["archive"],
        log:
            "logs/oom/restore.log",
        conda:
            "../../envs/analysis.yaml"
        shell:
            "python3 -m emogi.archive --study oom restore --archive {params.archive} --out-dir results/oom/tables"
            " > {log} 2>&1"


# The UVM simulator's validations 3 to 12 and uvm-capped's 2 to 8 (docs/uvm-validations.md and
# docs/uvm-capped-validations.md, docs/uvm-capped-validation8.md): each judged once on the CPU after its device calls
# (model.uvm_validationN and model.uvm_capped_validationN judge regenerate the graphs: past the default run's
# minutes), so the workflow draws fig_uvm_validationN (fig_uvm_capped_validationN) from the judged cells of the newest
# archive/uvm-validationN-* (uvm-capped-validationN-*) folder holding validationN_cells.csv
# (capped_validationN_cells.csv), with that folder's source record; without such a folder, no figure and no block.
UVM_VALIDATIONS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
UVM_CAPPED_VALIDATIONS = (2, 3, 4, 5, 6, 7, 8)
UVM_VALIDATION_ARCHIVES = {}  # figure -> the newest archive folder holding that validation's judged cells
for _name in [f"validation{n}" for n in UVM_VALIDATIONS] + [f"capped_validation{n}" for n in UVM_CAPPED_VALIDATIONS]:
    _found = sorted(
        p
        for p in (REPO / "archive").glob(f"uvm-{_name.replace('_', '-')}-*")
        if (p / f"{_name}_cells.csv").is_file()
    )
    if _found:
        UVM_VALIDATION_ARCHIVES[f"fig_uvm_{_name}"] = _found[-1]
