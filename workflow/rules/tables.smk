# The study's tables, results/tables/{runs,profile,link}.csv + source.json, come either from this machine's
# fresh measurements or from a committed archive; everything downstream reads only these.

if SOURCE == "fresh":

    rule collect_tables:
        input:
            unpack(lambda w: setup.fresh_table_parts(config, GRAPHS, WIDTHS, THROTTLE_GRAPH)),
            provenance="results/fresh/provenance.json",
        output:
            TABLES,
        params:
            parts=lambda w, input: " ".join(
                f"--{name.replace('_', '-')} {' '.join(input[name])}" for name in TABLE_NAMES if input.get(name)
            ),
        log:
            "logs/tables/collect.log",
        conda:
            "../../envs/analysis.yaml"
        shell:
            "python3 -m emogi.archive collect {params.parts} --provenance {input.provenance}"
            " --out-dir results/tables > {log} 2>&1"

    rule archive:
        # `snakemake --cores all archive` after a fresh run: writes archive/<gpu>-<date>/ to commit.
        input:
            TABLES,
        output:
            "results/archived.txt",
        params:
            config=workflow.overwrite_configfiles[-1] if workflow.overwrite_configfiles else "config/config.yaml",
        log:
            "logs/tables/archive.log",
        conda:
            "../../envs/analysis.yaml"
        shell:
            "python3 -m emogi.archive pack --tables-dir results/tables --config {params.config} > {output} 2> {log}"

else:

    rule restore_tables:
        output:
            TABLES,
        params:
            archive=config["archive"],
        log:
            "logs/tables/restore.log",
        conda:
            "../../envs/analysis.yaml"
        shell:
            "python3 -m emogi.archive restore --archive {params.archive} --out-dir results/tables > {log} 2>&1"

    # Only fresh measurements can be archived: say so at start-up instead of "no rule to produce archive".
    if "archive" in setup.requested_targets():
        raise SystemExit(
            f"snakemake archive: nothing to archive, the tables would come from archive/{config['archive']} "
            f"(measurements: {config['measurements']}); archive packs a fresh run made on a GPU "
            "(measurements: fresh, or auto where nvidia-smi sees a GPU)"
        )
