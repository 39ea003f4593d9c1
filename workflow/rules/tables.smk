# The study's tables, results/tables/{runs,profile,link}.csv + source.json, come either from this machine's
# fresh measurements or from a committed archive; everything downstream reads only these.

if SOURCE == "fresh":

    rule collect_tables:
        input:
            runs=expand("results/fresh/runs/{graph}.w{width}.csv", graph=GRAPHS, width=WIDTHS),
            profile=(
                expand("results/fresh/profile/{graph}.w{width}.csv", graph=GRAPHS, width=WIDTHS)
                if config["profile"]["enabled"]
                else []
            ),
            link="results/fresh/link.csv",
            provenance="results/fresh/provenance.json",
        output:
            TABLES,
        log:
            "logs/tables/collect.log",
        conda:
            "../../envs/analysis.yaml"
        shell:
            "python3 -m emogi.archive collect --runs {input.runs} --profile {input.profile} --link {input.link}"
            " --provenance {input.provenance} --out-dir results/tables > {log} 2>&1"

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
