"""The graphs a run traverses: made, downloaded or imported, then written as CSR files (emogi.csr's format).

Each module is also a command (`python -m emogi.datasets.<module>`) that a rule in workflow/rules/datasets.smk or
dataset_report.smk runs.

    sources           which graph comes from where (config `graphs:`), for the workflow; the download preflight
    generators        Kronecker and uniform-random graphs in the GAP suite's conventions
    external_build    memory-bounded CSR construction from pair chunks (the generators' streaming build)
    build_plan        its memory plan: bucket count and weight tasks within a memory limit; memory and cores here
    weights           SSSP weights for graphs without their own: uniform 8..72, a hash of the edge and a seed
    download          resumable, checksum-verified HTTP downloads (SuiteSparse and LAW files)
    matrix_market     Matrix Market files read into arrays, every malformed one a one-line error
    suitesparse       SuiteSparse Matrix Market archives to CSR
    law               LAW WebGraph files to CSR
    bel               the EMOGI artifact's .bel files to CSR and back
    roots             BFS source vertices, drawn for a seed
    degree_histogram  vertices per out-degree (Fig. 6's input)
    table             the paper's Table 2 beside ours
"""
