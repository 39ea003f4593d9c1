#include "emogi/column_blocks.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace emogi {
namespace {

// A progress line every tenth of the rows of a graph with at least this many entries.
constexpr uint64_t kProgressEntries = uint64_t(1) << 26;

void report(const std::function<void(const std::string&)>& progress, const std::string& line) {
  if (progress) progress(line);
}

}  // namespace

std::vector<uint64_t> even_column_bounds(uint64_t num_vertices, uint64_t n) {
  if (n == 0) throw std::invalid_argument("column blocks: at least one block");
  if (num_vertices > 0) n = std::min(n, num_vertices);
  std::vector<uint64_t> bounds(n + 1);
  for (uint64_t k = 0; k <= n; ++k) bounds[k] = uint64_t((unsigned __int128)(k)*num_vertices / n);
  return bounds;
}

std::vector<uint64_t> capacity_column_bounds(const std::vector<uint64_t>& column_entries, uint64_t capacity) {
  if (capacity == 0) throw std::invalid_argument("column blocks: a block must hold at least one entry");
  const uint64_t v = column_entries.size();
  std::vector<uint64_t> bounds{0};
  uint64_t held = 0;
  for (uint64_t c = 0; c < v; ++c) {
    const uint64_t e = column_entries[c];
    if (e > capacity)
      throw std::invalid_argument("column blocks: column " + std::to_string(c) + " holds " + std::to_string(e) +
                                  " entries, more than a block of " + std::to_string(capacity) +
                                  " (a column is not split across blocks): give a --stream-block-bytes of at least " +
                                  std::to_string(e) + " entries' ids and weights");
    if (held + e > capacity) bounds.push_back(c), held = 0;
    held += e;
  }
  bounds.push_back(v);  // a graph without vertices: one empty block
  return bounds;
}

template <class Index>
std::vector<uint64_t> column_entries(const uint64_t* offsets, const Index* ids, uint64_t num_vertices) {
  std::vector<uint64_t> counts(num_vertices, 0);
  const uint64_t edges = num_vertices ? offsets[num_vertices] - offsets[0] : 0;
  for (uint64_t e = 0; e < edges; ++e) ++counts[ids[offsets[0] + e]];
  return counts;
}

template <class Index>
ColumnBlocks build_column_blocks(const uint64_t* offsets, const Index* ids, uint64_t num_vertices,
                                 const std::vector<uint64_t>& bounds,
                                 const std::function<void(const std::string&)>& progress) {
  if (bounds.size() < 2 || bounds.front() != 0 || bounds.back() != num_vertices ||
      !std::is_sorted(bounds.begin(), bounds.end()))
    throw std::invalid_argument("column blocks: the bounds must rise from 0 to V = " + std::to_string(num_vertices));
  const size_t n = bounds.size() - 1;
  if (n > UINT32_MAX) throw std::invalid_argument("column blocks: more than 2^32 blocks");
  ColumnBlocks cb;
  cb.num_vertices = num_vertices;
  cb.first_column = bounds;
  // Which block each column is in: O(1) per entry in both passes (4 bytes a vertex, released at the end).
  std::vector<uint32_t> block_of(num_vertices);
  for (size_t k = 0; k < n; ++k) std::fill(block_of.begin() + bounds[k], block_of.begin() + bounds[k + 1], k);
  const uint64_t edges = num_vertices ? offsets[num_vertices] - offsets[0] : 0;
  const bool chatty = edges >= kProgressEntries;
  const uint64_t tenth = std::max<uint64_t>(1, num_vertices / 10);

  // Pass 1: entries and non-empty rows per block (a row counts once in a block: its entries come together).
  std::vector<uint64_t> entries(n, 0), rows(n, 0), last_row(n, ~uint64_t(0));
  for (uint64_t v = 0; v < num_vertices; ++v) {
    for (uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) {
      const uint32_t k = block_of[ids[e]];
      ++entries[k];
      if (last_row[k] != v) last_row[k] = v, ++rows[k];
    }
    if (chatty && (v + 1) % tenth == 0)
      report(progress, "column blocks: counted " + std::to_string((v + 1) * 100 / num_vertices) + "% of the rows");
  }
  cb.first_entry.assign(n + 1, 0), cb.first_row.assign(n + 1, 0);
  for (size_t k = 0; k < n; ++k)
    cb.first_entry[k + 1] = cb.first_entry[k] + entries[k], cb.first_row[k + 1] = cb.first_row[k] + rows[k];
  cb.row_ids.resize(cb.first_row[n]);
  cb.row_start.resize(cb.first_row[n] + n);
  cb.source.resize(edges);

  // Pass 2: each entry to its block's next position; a row's first entry in a block opens the row there.
  std::vector<uint64_t> at_entry(cb.first_entry.begin(), cb.first_entry.end() - 1);
  std::vector<uint64_t> at_row(cb.first_row.begin(), cb.first_row.end() - 1);
  std::fill(last_row.begin(), last_row.end(), ~uint64_t(0));
  for (uint64_t v = 0; v < num_vertices; ++v) {
    for (uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) {
      const uint32_t k = block_of[ids[e]];
      if (last_row[k] != v) {
        last_row[k] = v;
        cb.row_ids[at_row[k]] = v;
        cb.row_start[at_row[k] + k] = at_entry[k] - cb.first_entry[k];
        ++at_row[k];
      }
      cb.source[at_entry[k]++] = e - offsets[0];
    }
    if (chatty && (v + 1) % tenth == 0)
      report(progress, "column blocks: placed " + std::to_string((v + 1) * 100 / num_vertices) + "% of the rows");
  }
  for (size_t k = 0; k < n; ++k) cb.row_start[cb.first_row[k + 1] + k] = entries[k];  // past the last row
  return cb;
}

template std::vector<uint64_t> column_entries<uint32_t>(const uint64_t*, const uint32_t*, uint64_t);
template std::vector<uint64_t> column_entries<uint64_t>(const uint64_t*, const uint64_t*, uint64_t);
template ColumnBlocks build_column_blocks<uint32_t>(const uint64_t*, const uint32_t*, uint64_t,
                                                    const std::vector<uint64_t>&,
                                                    const std::function<void(const std::string&)>&);
template ColumnBlocks build_column_blocks<uint64_t>(const uint64_t*, const uint64_t*, uint64_t,
                                                    const std::vector<uint64_t>&,
                                                    const std::function<void(const std::string&)>&);

}  // namespace emogi
