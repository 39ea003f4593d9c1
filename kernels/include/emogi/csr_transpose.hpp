// The transpose of a directed graph (docs/graph-format.md, "Transpose"): its in-lists in a graph file of their
// own, stored beside it as G.t.csr for G.csr and written by `python -m emogi.csr transpose G.csr`. A transpose file
// has the TRANSPOSE flag and, in its header's `transposes` field, the checksum of the graph it transposes; it is
// checked as any graph file (csr.hpp) and then paired with its graph here.
#pragma once
#include <memory>
#include <string>

#include "emogi/csr.hpp"

namespace emogi {

// G.csr -> G.t.csr (a name without .csr gets .t.csr appended), as emogi.csr_transpose.transpose_path.
std::string transpose_path(const std::string& graph_path);

// The command that writes the transpose of `graph_path`.
std::string transpose_command(const std::string& graph_path);

// Maps and checks the transpose of `g`: `path`, or by the naming rule when empty. Throws GraphFormatError (one
// line, naming the command that makes it) when the file is missing or is not g's transpose: no TRANSPOSE flag,
// a `transposes` other than g's checksum, or another V, E or edge width.
std::unique_ptr<MappedCsr> open_transpose(const MappedCsr& g, std::string path = "", bool verify_checksum = true);

}  // namespace emogi
