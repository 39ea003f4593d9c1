# The GPU over the host link against the CPU in host memory (issue 23, docs/cpu.md): figures/fig_cpu_gpu.py draws
# from archive/cpu-gpu-* folders (config cpu_study.archive: latest = the newest, or a comma-separated list whose
# first folder with a file gives it), which device calls on the GPU host write (tools/device/cpu_study.sh and the
# GPU runs beside it). No fresh path here: those measurements need the GPU host's CPU beside its GPU. Without such
# a folder, `latest` leaves the figure and its report section out.
from figures.cpu_data import find_archives as _find_cpu_archives  # noqa: E402
from figures.inputs import FigureDataError as _FigureDataError  # noqa: E402

try:
    CPU_ARCHIVES = _find_cpu_archives(config["cpu_study"]["archive"], REPO / "archive")
except _FigureDataError as _err:
    if config["cpu_study"]["archive"] != "latest":
        raise WorkflowError(f"config cpu_study.archive: {_err}")
    CPU_ARCHIVES = []
CPU_ARCHIVE = ",".join(str(p) for p in CPU_ARCHIVES)  # the folders, first found wins (figures/cpu_data.py)
CPU_FIGURE_FILES = ["results/figures/fig_cpu_gpu.png", "results/figures/fig_cpu_gpu.csv"] if CPU_ARCHIVE else []

if CPU_ARCHIVE:

    rule cpu_figure:
        input:
            archive=[str(p) for folder in CPU_ARCHIVES for p in sorted(folder.iterdir()) if p.is_file()],
            gap=REPO / "paper/gap_reference_h100.yaml",
            table53=REPO / "paper/graphit_table53.yaml",
        output:
            png=report("results/figures/fig_cpu_gpu.png", category="Figures", labels={"figure": "fig_cpu_gpu"}),
            csv="results/figures/fig_cpu_gpu.csv",
        params:
            # the folders, in CPU_ARCHIVES' order (first found wins), from their files
            archive=lambda w, input: ",".join(dict.fromkeys(str(Path(f).parent) for f in input.archive)),
        log:
            "logs/figures/fig_cpu_gpu.log",
        conda:
            "../../envs/analysis.yaml"
        shell:
            "python3 -m figures.fig_cpu_gpu --archive {params.archive} --gap-reference {input.gap}"
            " --out {output.png} --out-csv {output.csv} > {log} 2>&1"
