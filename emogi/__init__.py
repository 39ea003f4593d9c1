"""Python side of the EMOGI reproduction: the graph format (csr), the datasets (emogi.datasets), running and
profiling the kernels, tables, provenance and the archive."""
