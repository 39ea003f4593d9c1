"""Python side of the EMOGI reproduction: the graph format, generators, tables, provenance and the archive."""
