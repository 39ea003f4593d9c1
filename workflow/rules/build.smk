# Build: the CMake project in kernels/ (nvcc found by emogi/toolchain.py; architectures by toolkit version
# unless the config names them).


rule build_kernels:
    input:
        sorted(str(p) for p in (REPO / "kernels").rglob("*") if p.is_file()),
    output:
        "build/emogi",
    params:
        source=REPO / "kernels",
        nvcc=config["build"]["nvcc"],
        arch=config["build"]["cuda_architectures"],
        loads=config["build"]["loads_in_flight"],
    log:
        "logs/build/kernels.log",
    conda:
        "../../envs/build.yaml"
    shell:
        "python3 -m emogi.toolchain --source {params.source} --build build --nvcc {params.nvcc}"
        " --arch '{params.arch}' --loads-in-flight {params.loads} > {log} 2>&1"
