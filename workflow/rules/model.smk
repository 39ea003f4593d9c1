# Model: the link-bandwidth bound t >= D / W of every zero-copy traversal (D from Nsight, W from the link
# probe), beside the measured time. The fitted Little's-law model extends model/littles_law.py.


rule link_bound:
    input:
        runs="results/tables/runs.csv",
        profile="results/tables/profile.csv",
        link="results/tables/link.csv",
    output:
        "results/model/link_bound.csv",
    log:
        "logs/model/link_bound.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m model.bounds --runs {input.runs} --profile {input.profile} --link {input.link}"
        " --out {output} > {log} 2>&1"
