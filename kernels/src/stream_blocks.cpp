#include "emogi/stream_blocks.hpp"

#include <stdexcept>
#include <string>

namespace emogi {

StreamPlan plan_stream_blocks(const uint64_t* offsets, uint64_t num_vertices, uint64_t capacity_entries,
                              uint64_t align_entries) {
  if (align_entries == 0) throw std::invalid_argument("stream blocks: the alignment must be at least one entry");
  if (capacity_entries < 2 * align_entries)
    throw std::invalid_argument("stream blocks: a block of " + std::to_string(capacity_entries) +
                                " entries is below two alignments of " + std::to_string(align_entries) +
                                " (give a larger --stream-block-bytes)");
  StreamPlan plan;
  plan.align_entries = align_entries;
  plan.capacity_entries = capacity_entries / align_entries * align_entries;  // so a split point stays aligned
  const uint64_t capacity = plan.capacity_entries;
  for (uint64_t v = 0; v < num_vertices; ++v)
    if (offsets[v + 1] - offsets[v] > plan.longest_list)
      plan.longest_list = offsets[v + 1] - offsets[v], plan.longest_vertex = v;

  uint64_t v = 0, e = num_vertices ? offsets[0] : 0;
  while (v < num_vertices) {
    StreamBlock b;
    b.first_vertex = v, b.first_entry = e, b.copy_from = e / align_entries * align_entries;
    const uint64_t limit = b.copy_from + capacity;            // entries [copy_from, limit) fit in a buffer
    while (v < num_vertices && offsets[v + 1] <= limit) ++v;  // whole lists (or the rest of a split one)
    // List v (if any) does not fit in what is left. It starts the next block if a block can hold it, else it is
    // split from here: this block takes what it can, the next ones go on from there.
    const bool fits_a_block =
        v < num_vertices && offsets[v + 1] - offsets[v] / align_entries * align_entries <= capacity;
    if (v == num_vertices || (v > b.first_vertex && (fits_a_block || offsets[v] >= limit))) {
      b.last_vertex = v, b.last_entry = v == num_vertices ? offsets[num_vertices] : offsets[v];
    } else {
      b.last_vertex = v + 1, b.last_entry = limit;
      if (b.first_entry <= offsets[v]) {  // the split starts here: counted once
        ++plan.split_lists;
        if (plan.first_split == UINT64_MAX) plan.first_split = v;
      }
    }
    e = b.last_entry;
    plan.blocks.push_back(b);
  }
  return plan;
}

namespace {

// visit(k, v) for every active vertex v and every block k that holds it (for_blocks_holding, on the host).
template <class Visit>
void for_active_in_blocks(const StreamPlan& plan, const std::vector<uint8_t>& active, Visit visit) {
  std::vector<uint64_t> first, last;
  for (const StreamBlock& b : plan.blocks) first.push_back(b.first_vertex), last.push_back(b.last_vertex);
  const uint64_t vertices = plan.blocks.empty() ? 0 : plan.blocks.back().last_vertex;
  for (uint64_t v = 0; v < vertices; ++v)
    if (active.at(v)) for_blocks_holding(first.data(), last.data(), first.size(), v, [&](uint64_t k) { visit(k, v); });
}

}  // namespace

std::vector<uint8_t> mark_active_blocks(const StreamPlan& plan, const std::vector<uint8_t>& active) {
  std::vector<uint8_t> marks(plan.blocks.size(), 0);
  for_active_in_blocks(plan, active, [&](uint64_t k, uint64_t) { marks[k] = 1; });
  return marks;
}

std::vector<uint64_t> active_entries_per_block(const StreamPlan& plan, const uint64_t* offsets,
                                               const std::vector<uint8_t>& active) {
  std::vector<uint64_t> entries(plan.blocks.size(), 0);
  for_active_in_blocks(plan, active, [&](uint64_t k, uint64_t v) {
    const StreamBlock& b = plan.blocks[k];
    entries[k] += entries_in_block(offsets[v], offsets[v + 1], b.first_entry, b.last_entry);
  });
  return entries;
}

std::vector<size_t> sweep_order(size_t num_blocks, const uint8_t* marks) {
  std::vector<size_t> order;
  for (size_t k = 0; k < num_blocks; ++k)
    if (!marks || marks[k]) order.push_back(k);
  return order;
}

std::vector<SweepStep> sweep_steps(const std::vector<size_t>& order, const std::vector<uint8_t>& in_place) {
  std::vector<SweepStep> steps;
  for (size_t j = 0; j < order.size(); ++j) {
    const bool here = in_place[j] != 0;
    if (here && !steps.empty() && steps.back().in_place && steps.back().last + 1 == order[j])
      steps.back().last = order[j];
    else
      steps.push_back({order[j], order[j], here});
  }
  return steps;
}

}  // namespace emogi
