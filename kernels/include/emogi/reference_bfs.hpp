// The CPU reference every GPU traversal is checked against: a plain queue BFS.
#pragma once
#include <cstdint>
#include <vector>

namespace emogi {

constexpr uint32_t kReferenceUnvisited = 0xFFFFFFFFu;

struct ReferenceBfs {
  std::vector<uint32_t> depth;   // kReferenceUnvisited for vertices not reached
  uint32_t levels = 0;           // deepest depth + 1
  uint64_t reached = 0;          // vertices reached, the root included
  uint64_t edges_traversed = 0;  // sum of the out-degrees of reached vertices
};

template <class Index>
ReferenceBfs reference_bfs(const uint64_t* offsets, const Index* edges, uint64_t num_vertices, uint64_t root);

}  // namespace emogi
