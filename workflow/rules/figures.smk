# Figures: one script per paper figure (figures/), each a function of the tables (and of the model's outputs),
# each stamped with whether its data are fresh or archived. FIGURE_INPUTS says which files each script reads,
# under which of its command-line flags.

FIGURE_INPUTS = {
    "fig09_speedup_over_uvm": {"runs": "results/tables/runs.csv"},
    "fig11_applications": {"apps": "results/tables/apps.csv"},
    "fig12_edge_width": {"apps": "results/tables/apps.csv"},
    "fig07_pcie_requests": {"profile": "results/tables/profile.csv"},
    "fig10_read_amplification": {"profile": "results/tables/profile.csv", "runs": "results/tables/runs.csv"},
    "fig08_pcie_bandwidth": {"profile": "results/tables/profile.csv", "link": "results/tables/link.csv"},
    "fig_copy_bandwidth": {"link": "results/tables/link.csv"},
    "fig_zero_copy_toy": {"toy": "results/tables/toy.csv", "toy-profile": "results/tables/toy_profile.csv", "link": "results/tables/link.csv"},
    "fig_latency": {"latency": "results/tables/latency.csv"},
    "fig_concurrency": {
        "concurrency": "results/tables/concurrency.csv",
        "latency": "results/tables/latency.csv",
        "parameters": "results/model/parameters.json",
    },
    "fig_footprint_cliff": {"concurrency": "results/tables/concurrency.csv"},
    "fig_runtime_vs_transfer_size": {"amplification": "results/tables/amplification.csv", "parameters": "results/model/parameters.json"},
    "fig_added_latency": {
        "predictions": "results/model/predictions.csv",
        "parameters": "results/model/parameters.json",
        "summary": "results/model/prediction_summary.json",
        "latency-emulation": "results/tables/latency_emulation.csv",
    },
    "fig_model_vs_measured": {"predictions": "results/model/predictions.csv", "summary": "results/model/prediction_summary.json"},
    # predicted from the graph files alone (model.smk's link_ladder): no measurement but the archived Gen5 fit
    "fig_link_ladder": {"ladder": "results/model/link_ladder.csv"},
}
# Out of GPU memory (oom.smk): their own tables and source record.
_OOM = {"oom": "results/oom/tables/oom.csv", "oom-simulated": "results/oom/tables/oom_simulated.csv"}
OOM_FIGURE_INPUTS = {
    "fig09_oom": _OOM,
    "fig10_oom": {"oom-simulated": _OOM["oom-simulated"]},
    "fig11_oom": {**_OOM, "oom-placement": "results/oom/tables/oom_placement.csv"},
    "fig_uvm_sim_oom": _OOM,
}
OOM_FIGURES = list(OOM_FIGURE_INPUTS)
FIGURE_INPUTS.update(OOM_FIGURE_INPUTS)
# Streamed transfers (streamed.smk): an archived session's table, link and CPU SpMV, and its source record.
STREAMED_FIGURE_INPUTS = {
    "fig_streamed_spmv": {"streamed": STREAMED_SPMV_FILES["streamed"], "link": STREAMED_SPMV_FILES["link"],
                          "cpu-spmv": STREAMED_SPMV_FILES["cpu_spmv"]},
    "fig_streamed_pagerank": {"streamed": STREAMED_FILES["streamed"], "link": STREAMED_FILES["link"]},
}
STREAMED_FIGURES = list(STREAMED_FIGURE_INPUTS)
FIGURE_INPUTS.update(STREAMED_FIGURE_INPUTS)
# Issue 22's crossover (streamed.smk): the pass table of its own archive, with that call's source record.
FIGURE_INPUTS["fig_streamed_crossover"] = {
    "passes": CROSSOVER_FILES["passes"], "link": CROSSOVER_FILES["link"], "parameters": REPO / CROSSOVER_PARAMETERS,
    "request-shape": REPO / CROSSOVER_ARCHIVE / "request_shape.csv", "gpu-work": REPO / CROSSOVER_GPU_WORK,
    "uvm-curve": REPO / CROSSOVER_ARCHIVE / "uvm_curve.csv", "uvm-params": REPO / CROSSOVER_UVM_PARAMS,
    "uvm-calibration": REPO / CROSSOVER_UVM_CALIBRATION,
}
# The mode selector judged (streamed.smk), with its own session's source record.
FIGURE_INPUTS["fig_select"] = {"select-judge": SELECT_JUDGE_FILE}
# The model judged on held-out graphs (model.smk's holdout_judge), with that session's source record.
FIGURE_INPUTS["fig_holdout"] = {"holdout": f"{HOLDOUT_DIR}/holdout_cells.csv"}
# ... and v3 (holdout_judge_v3), beside it.
FIGURE_INPUTS["fig_holdout_v3"] = {"holdout": f"{HOLDOUT_V3_DIR}/holdout_cells.csv"}
# ... and v4 to v11 (holdout_judge_split: fig_holdout_v4 to _v11), each where its archive exists.
# ... and v13 (holdout_judge_passes: its passes' statistic), where its archive exists.
HOLDOUT_SPLIT_FIGURES = {f"fig_holdout_{s}": HOLDOUT_SPLIT_DIR.format(split=s) for s in HOLDOUT_SPLIT_ARCHIVES}
HOLDOUT_SPLIT_FIGURES |= {f"fig_holdout_{s}": HOLDOUT_SPLIT_DIR.format(split=s) for s in HOLDOUT_PASS_ARCHIVES}
for _figure, _dir in HOLDOUT_SPLIT_FIGURES.items():
    FIGURE_INPUTS[_figure] = {"holdout": f"{_dir}/holdout_cells.csv"}
# The UVM simulator's validations 3 to 6 (oom.smk), from their archives' judged cells, where those exist.
for _figure, _archive in UVM_VALIDATION_ARCHIVES.items():
    FIGURE_INPUTS[_figure] = {"cells": _archive / f"{_figure.replace('fig_uvm_', '')}_cells.csv"}


rule figure:
    input:
        unpack(
            lambda w: setup.figure_inputs(REPO, FIGURE_INPUTS, w.figure)
            | ({"source": OOM_SOURCE_FILE} if w.figure in OOM_FIGURES else {})
            | ({"source": STREAMED_SOURCE_FILE} if w.figure in STREAMED_FIGURES else {})
            | ({"source": STREAMED_SPMV_SOURCE_FILE} if w.figure == "fig_streamed_spmv" else {})
            | ({"source": SELECT_SOURCE_FILE} if w.figure == "fig_select" else {})
            | ({"source": f"{HOLDOUT_DIR}/source.json"} if w.figure == "fig_holdout" else {})
            | ({"source": f"{HOLDOUT_V3_DIR}/source.json"} if w.figure == "fig_holdout_v3" else {})
            | ({"source": f"{HOLDOUT_SPLIT_FIGURES[w.figure]}/source.json"} if w.figure in HOLDOUT_SPLIT_FIGURES else {})
            | ({"source": UVM_VALIDATION_ARCHIVES[w.figure] / "source.json"} if w.figure in UVM_VALIDATION_ARCHIVES else {})
            | ({"source": CROSSOVER_SOURCE_FILE} if w.figure == "fig_streamed_crossover" else {})
        ),
    output:
        png=report("results/figures/{figure}.png", category="Figures", labels={"figure": "{figure}"}),
        csv="results/figures/{figure}.csv",
    params:
        args=lambda w, input: " ".join(f"--{flag} {input[flag.replace('-', '_')]}" for flag in FIGURE_INPUTS[w.figure]),
    wildcard_constraints:
        figure="|".join(FIGURE_INPUTS),
    log:
        "logs/figures/{figure}.log",
    conda:
        "../../envs/analysis.yaml"
    shell:
        "python3 -m figures.{wildcards.figure} {params.args} --source {input.source} --out {output.png}"
        " --out-csv {output.csv} > {log} 2>&1"
