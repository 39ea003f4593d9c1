#include "emogi/reference_bfs.hpp"

#include <stdexcept>
#include <string>

namespace emogi {

template <class Index>
ReferenceBfs reference_bfs(const uint64_t* offsets, const Index* edges, uint64_t num_vertices, uint64_t root) {
  if (root >= num_vertices)
    throw std::invalid_argument("root " + std::to_string(root) +
                                " is not a vertex (V = " + std::to_string(num_vertices) + ")");
  ReferenceBfs r;
  r.depth.assign(num_vertices, kReferenceUnvisited);
  std::vector<uint64_t> frontier{root}, next;
  r.depth[root] = 0;
  for (uint32_t level = 0; !frontier.empty(); ++level) {
    r.levels = level + 1;
    next.clear();
    for (uint64_t v : frontier) {
      r.edges_traversed += offsets[v + 1] - offsets[v];
      for (uint64_t i = offsets[v]; i < offsets[v + 1]; ++i) {
        const uint64_t u = edges[i];
        if (r.depth[u] == kReferenceUnvisited) {
          r.depth[u] = level + 1;
          next.push_back(u);
        }
      }
    }
    r.reached += frontier.size();
    frontier.swap(next);
  }
  return r;
}

template ReferenceBfs reference_bfs<uint32_t>(const uint64_t*, const uint32_t*, uint64_t, uint64_t);
template ReferenceBfs reference_bfs<uint64_t>(const uint64_t*, const uint64_t*, uint64_t, uint64_t);

}  // namespace emogi
