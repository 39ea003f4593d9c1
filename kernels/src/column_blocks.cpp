#include "emogi/column_blocks.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>

namespace emogi {
namespace {

// Progress lines for a graph with at least this many entries.
constexpr uint64_t kProgressEntries = uint64_t(1) << 26;

void report(const std::function<void(const std::string&)>& progress, const std::string& line) {
  if (progress) progress(line);
}

// Threads for a pass over `work` items: one below a million (tests, small graphs), else every hardware thread (at
// most 64).
unsigned thread_count(uint64_t work) {
  if (work < (uint64_t(1) << 20)) return 1;
  return std::max(1u, std::min(std::thread::hardware_concurrency(), 64u));
}

// body(t) on `threads` threads (here where one).
template <class Body>
void run_threads(unsigned threads, Body body) {
  if (threads <= 1) return body(0u);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back([&, t] { body(t); });
  for (std::thread& th : pool) th.join();
}

// body(lo, hi) over consecutive ranges of [0, n), one per thread of thread_count(n).
template <class Body>
void on_ranges(uint64_t n, Body body) {
  const unsigned threads = thread_count(n);
  run_threads(threads, [&](unsigned t) {
    body(uint64_t((unsigned __int128)(t)*n / threads), uint64_t((unsigned __int128)(t + 1) * n / threads));
  });
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
  uint64_t* c = counts.data();
  const uint64_t first = num_vertices ? offsets[0] : 0, edges = num_vertices ? offsets[num_vertices] - first : 0;
  on_ranges(edges, [&](uint64_t lo, uint64_t hi) {
    for (uint64_t e = lo; e < hi; ++e) __atomic_fetch_add(&c[ids[first + e]], 1, __ATOMIC_RELAXED);
  });
  return counts;
}

template <class Index>
ColumnBlocks build_column_blocks(const uint64_t* offsets, const Index* ids, uint64_t num_vertices,
                                 const std::vector<uint64_t>& bounds,
                                 const std::function<void(const std::string&)>& progress, unsigned workers) {
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
  const bool chatty = progress && edges >= kProgressEntries;

  // Threads take consecutive row ranges (row ranges[t] .. ranges[t + 1]), so thread t's rows follow thread t - 1's
  // in every block: each thread counts its own entries and rows per block (pass 1), then writes from its own
  // cursors (pass 2), and the layout is the one a single thread makes.
  const unsigned threads = unsigned(std::max<uint64_t>(
      1, std::min<uint64_t>(workers ? workers : thread_count(edges), std::max<uint64_t>(num_vertices, 1))));
  std::vector<uint64_t> ranges(threads + 1);
  for (unsigned t = 0; t <= threads; ++t) ranges[t] = uint64_t((unsigned __int128)(t)*num_vertices / threads);
  std::vector<uint64_t> entries(size_t(threads) * n, 0), rows(size_t(threads) * n, 0);  // [t * n + k]
  run_threads(threads, [&](size_t t) {
    uint64_t* my_entries = &entries[t * n];
    uint64_t* my_rows = &rows[t * n];
    std::vector<uint64_t> last_row(n, ~uint64_t(0));  // a row counts once in a block: its entries come together
    for (uint64_t v = ranges[t]; v < ranges[t + 1]; ++v)
      for (uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) {
        const uint32_t k = block_of[ids[e]];
        ++my_entries[k];
        if (last_row[k] != v) last_row[k] = v, ++my_rows[k];
      }
  });
  if (chatty) report(progress, "column blocks: counted the entries and rows of " + std::to_string(n) + " blocks");
  cb.first_entry.assign(n + 1, 0), cb.first_row.assign(n + 1, 0);
  for (size_t k = 0; k < n; ++k) {
    uint64_t e = 0, r = 0;
    for (unsigned t = 0; t < threads; ++t) e += entries[size_t(t) * n + k], r += rows[size_t(t) * n + k];
    cb.first_entry[k + 1] = cb.first_entry[k] + e, cb.first_row[k + 1] = cb.first_row[k] + r;
  }
  // Each thread's cursors: its block's start plus what the threads before it put there.
  for (size_t k = 0; k < n; ++k) {
    uint64_t e = cb.first_entry[k], r = cb.first_row[k];
    for (unsigned t = 0; t < threads; ++t) {
      const uint64_t my_e = entries[size_t(t) * n + k], my_r = rows[size_t(t) * n + k];
      entries[size_t(t) * n + k] = e, rows[size_t(t) * n + k] = r;
      e += my_e, r += my_r;
    }
  }
  cb.row_ids.resize(cb.first_row[n]);
  cb.row_start.resize(cb.first_row[n] + n);
  cb.source.resize(edges);

  // Pass 2: each entry to its block's next position; a row's first entry in a block opens the row there.
  run_threads(threads, [&](size_t t) {
    uint64_t* at_entry = &entries[t * n];
    uint64_t* at_row = &rows[t * n];
    std::vector<uint64_t> last_row(n, ~uint64_t(0));
    for (uint64_t v = ranges[t]; v < ranges[t + 1]; ++v)
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
  });
  for (size_t k = 0; k < n; ++k) cb.row_start[cb.first_row[k + 1] + k] = cb.entries(k);  // past the last row
  if (chatty) report(progress, "column blocks: placed " + std::to_string(edges) + " entries");
  return cb;
}

template std::vector<uint64_t> column_entries<uint32_t>(const uint64_t*, const uint32_t*, uint64_t);
template std::vector<uint64_t> column_entries<uint64_t>(const uint64_t*, const uint64_t*, uint64_t);
template ColumnBlocks build_column_blocks<uint32_t>(const uint64_t*, const uint32_t*, uint64_t,
                                                    const std::vector<uint64_t>&,
                                                    const std::function<void(const std::string&)>&, unsigned);
template ColumnBlocks build_column_blocks<uint64_t>(const uint64_t*, const uint64_t*, uint64_t,
                                                    const std::vector<uint64_t>&,
                                                    const std::function<void(const std::string&)>&, unsigned);

}  // namespace emogi
