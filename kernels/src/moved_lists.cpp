#include "emogi/moved_lists.hpp"

#include <algorithm>
#include <cstring>

#include "emogi/parallel_for.hpp"

namespace emogi {

MovedLists move_lists(const uint64_t* offsets, uint64_t num_vertices, size_t entry_bytes, size_t budget_bytes,
                      bool longest_first) {
  MovedLists m;
  const uint64_t padding = kMoveAlignEntries * entry_bytes;
  uint64_t room = budget_bytes > padding ? (budget_bytes - padding) / entry_bytes : 0;  // entries that fit
  auto degree = [&](uint64_t v) { return offsets[v + 1] - offsets[v]; };

  std::vector<uint64_t> order;
  for (uint64_t v = 0; v < num_vertices; ++v)
    if (degree(v) && degree(v) <= room) order.push_back(v);
  std::sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
    if (degree(a) == degree(b)) return a < b;
    return longest_first ? degree(a) > degree(b) : degree(a) < degree(b);
  });
  for (uint64_t v : order) {
    if (degree(v) > room) continue;
    m.vertices.push_back(v);
    m.entries += degree(v);
    room -= degree(v);
  }
  m.shift = (m.entries + kMoveAlignEntries - 1) / kMoveAlignEntries * kMoveAlignEntries;

  m.starts.resize(num_vertices);
  for (uint64_t v = 0; v < num_vertices; ++v) m.starts[v] = offsets[v] + m.shift;
  uint64_t at = 0;
  for (uint64_t v : m.vertices) {
    m.starts[v] = at;
    at += degree(v);
  }
  return m;
}

std::vector<unsigned char> gather_moved(const void* array, size_t element_bytes, const uint64_t* offsets,
                                        const MovedLists& moved) {
  std::vector<unsigned char> copy(moved.shift * element_bytes, 0);
  const auto* from = static_cast<const unsigned char*>(array);
  parallel_for(moved.vertices.size(), [&](uint64_t k) {
    const uint64_t v = moved.vertices[k];
    std::memcpy(copy.data() + moved.starts[v] * element_bytes, from + offsets[v] * element_bytes,
                (offsets[v + 1] - offsets[v]) * element_bytes);
  });
  return copy;
}

}  // namespace emogi
