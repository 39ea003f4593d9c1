# Figures: one script per paper figure (figures/), each a function of the tables; each says whether its data
# are fresh or archived.


rule fig09_speedup_over_uvm:
    input:
        script=REPO / "figures/fig09_speedup_over_uvm.py",
        runs="results/tables/runs.csv",
        source="results/tables/source.json",
    output:
        png="results/figures/fig09_speedup_over_uvm.png",
        csv="results/figures/fig09_speedup_over_uvm.csv",
    log:
        "logs/figures/fig09.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 {input.script} --runs {input.runs} --source {input.source} --out {output.png}"
        " --out-csv {output.csv} > {log} 2>&1"


rule fig08_pcie_bandwidth:
    input:
        script=REPO / "figures/fig08_pcie_bandwidth.py",
        profile="results/tables/profile.csv",
        link="results/tables/link.csv",
        source="results/tables/source.json",
    output:
        png="results/figures/fig08_pcie_bandwidth.png",
        csv="results/figures/fig08_pcie_bandwidth.csv",
    log:
        "logs/figures/fig08.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 {input.script} --profile {input.profile} --link {input.link} --source {input.source}"
        " --out {output.png} --out-csv {output.csv} > {log} 2>&1"
