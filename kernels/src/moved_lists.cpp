#include "emogi/moved_lists.hpp"

#include <algorithm>
#include <cstring>

#include "emogi/parallel_for.hpp"

namespace emogi {

namespace {

// Entries that fit in the budget beside the copy's padding.
uint64_t room_entries(size_t entry_bytes, size_t budget_bytes) {
  const uint64_t padding = kMoveAlignEntries * entry_bytes;
  return budget_bytes > padding ? (budget_bytes - padding) / entry_bytes : 0;
}

// Moves the lists of `order` that still fit, in that order, and places the rest after the copy.
MovedLists move_in_order(const uint64_t* offsets, uint64_t num_vertices, size_t entry_bytes, size_t budget_bytes,
                         const std::vector<uint64_t>& order) {
  MovedLists m;
  uint64_t room = room_entries(entry_bytes, budget_bytes);
  auto degree = [&](uint64_t v) { return offsets[v + 1] - offsets[v]; };
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

}  // namespace

MovedLists move_lists(const uint64_t* offsets, uint64_t num_vertices, size_t entry_bytes, size_t budget_bytes,
                      bool longest_first) {
  const uint64_t room = room_entries(entry_bytes, budget_bytes);
  auto degree = [&](uint64_t v) { return offsets[v + 1] - offsets[v]; };
  std::vector<uint64_t> order;
  for (uint64_t v = 0; v < num_vertices; ++v)
    if (degree(v) && degree(v) <= room) order.push_back(v);
  std::sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
    if (degree(a) == degree(b)) return a < b;
    return longest_first ? degree(a) > degree(b) : degree(a) < degree(b);
  });
  return move_in_order(offsets, num_vertices, entry_bytes, budget_bytes, order);
}

MovedLists move_hot_lists(const uint64_t* offsets, uint64_t num_vertices, size_t entry_bytes, size_t budget_bytes,
                          const uint32_t* reads) {
  const uint64_t room = room_entries(entry_bytes, budget_bytes);
  auto degree = [&](uint64_t v) { return offsets[v + 1] - offsets[v]; };
  std::vector<uint64_t> order;
  for (uint64_t v = 0; v < num_vertices; ++v)
    if (reads[v] && degree(v) && degree(v) <= room) order.push_back(v);
  std::sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
    if (reads[a] != reads[b]) return reads[a] > reads[b];
    if (degree(a) != degree(b)) return degree(a) < degree(b);
    return a < b;
  });
  return move_in_order(offsets, num_vertices, entry_bytes, budget_bytes, order);
}

double read_share(const uint64_t* offsets, uint64_t num_vertices, const uint32_t* reads, const MovedLists& moved) {
  double all = 0, near = 0;  // entries read (bytes per entry cancel out)
  for (uint64_t v = 0; v < num_vertices; ++v) all += double(reads[v]) * double(offsets[v + 1] - offsets[v]);
  for (uint64_t v : moved.vertices) near += double(reads[v]) * double(offsets[v + 1] - offsets[v]);
  return all > 0 ? near / all : 0;
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
