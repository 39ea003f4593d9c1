// Finding a graph's transpose file and pairing it with the graph (csr_transpose.hpp).
#include "emogi/csr_transpose.hpp"

#include <sys/stat.h>

#include "emogi/csr_check.hpp"

namespace emogi {

std::string transpose_path(const std::string& graph_path) {
  const std::string suffix = ".csr";
  const size_t slash = graph_path.find_last_of('/');
  const size_t name_at = slash == std::string::npos ? 0 : slash + 1;
  const bool has_suffix = graph_path.size() >= name_at + suffix.size() &&
                          graph_path.compare(graph_path.size() - suffix.size(), suffix.size(), suffix) == 0;
  return (has_suffix ? graph_path.substr(0, graph_path.size() - suffix.size()) : graph_path) + ".t.csr";
}

std::string transpose_command(const std::string& graph_path) { return "python -m emogi.csr transpose " + graph_path; }

std::unique_ptr<MappedCsr> open_transpose(const MappedCsr& g, std::string path, bool verify_checksum) {
  if (path.empty()) path = transpose_path(g.path());
  const std::string again = "; make it again: " + transpose_command(g.path());
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0)
    throw GraphFormatError(g.path() + ": is directed and has no transpose at " + path + ": make it with " +
                           transpose_command(g.path()));
  auto t = std::make_unique<MappedCsr>(path, verify_checksum);
  if (!t->is_transpose()) throw GraphFormatError(path + ": not a transpose file (its TRANSPOSE flag is clear)" + again);
  if (t->header().transposes != g.header().checksum)
    throw GraphFormatError(path + ": not the transpose of " + g.path() + ": it transposes the graph with checksum " +
                           hex16(t->header().transposes) + ", " + g.path() + " has " + hex16(g.header().checksum) +
                           again);
  if (t->num_vertices() != g.num_vertices() || t->num_edges() != g.num_edges() || t->index_bytes() != g.index_bytes())
    throw GraphFormatError(path + ": V=" + std::to_string(t->num_vertices()) + " E=" + std::to_string(t->num_edges()) +
                           " index_bytes=" + std::to_string(t->index_bytes()) + ", but " + g.path() +
                           " has V=" + std::to_string(g.num_vertices()) + " E=" + std::to_string(g.num_edges()) +
                           " index_bytes=" + std::to_string(g.index_bytes()) + again);
  return t;
}

}  // namespace emogi
