// build_column_blocks (column_blocks.hpp): every entry in exactly one block, in the block of its column, under its
// row, rows ascending and non-empty; blocks within the capacity; the empty graph, a single vertex, a row that spans
// every block; the product it computes is the CSR's; a column longer than a block refused; the column layout refused
// for algorithms other than SpMV.
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "emogi/column_blocks.hpp"
#include "emogi/stream_blocks.hpp"
#include "emogi/streamed_refusal.hpp"
#include "expect.hpp"

namespace emogi::testing {
namespace {

using V = std::vector<uint64_t>;

struct Csr {
  V offsets{0};
  std::vector<uint32_t> ids;
  void row(const std::vector<uint32_t>& list) {
    ids.insert(ids.end(), list.begin(), list.end());
    offsets.push_back(ids.size());
  }
  uint64_t vertices() const { return offsets.size() - 1; }
};

// The invariants of a layout, one check each (what: the case, in failure lines).
void check_layout(const Csr& g, const V& bounds, const ColumnBlocks& cb, const std::string& what) {
  const size_t n = bounds.size() - 1;
  expect_eq(cb.num_blocks(), n, (what + ": one block per pair of bounds").c_str());
  expect_eq(cb.source.size(), g.ids.size(), (what + ": as many positions as entries").c_str());
  std::vector<int> seen(g.ids.size(), 0);
  bool in_column = true, under_row = true, rows_rise = true, rows_nonempty = true, in_order = true, starts = true;
  for (size_t k = 0; k < n && cb.num_blocks() == n; ++k) {
    const uint64_t r0 = cb.first_row[k], r1 = cb.first_row[k + 1], s0 = cb.first_row_start(k);
    starts &= cb.row_start[s0] == 0 && cb.row_start[s0 + (r1 - r0)] == cb.entries(k);
    for (uint64_t i = r0; i < r1; ++i) {
      const uint64_t row = cb.row_ids[i];
      rows_rise &= i == r0 || cb.row_ids[i - 1] < row;
      const uint64_t b = cb.row_start[s0 + (i - r0)], e = cb.row_start[s0 + (i - r0) + 1];
      rows_nonempty &= b < e;
      for (uint64_t p = cb.first_entry[k] + b; p < cb.first_entry[k] + e && p < cb.source.size(); ++p) {
        const uint64_t src = cb.source[p];
        if (src >= g.ids.size()) {
          under_row = false;
          continue;
        }
        ++seen[src];
        under_row &= g.offsets[row] <= src && src < g.offsets[row + 1];
        in_column &= bounds[k] <= g.ids[src] && g.ids[src] < bounds[k + 1];
        in_order &= p == cb.first_entry[k] + b || cb.source[p - 1] < src;  // the row's entries in list order
      }
    }
  }
  bool once = true;
  for (int s : seen) once &= s == 1;
  expect_eq(once, true, (what + ": every entry in exactly one block").c_str());
  expect_eq(in_column, true, (what + ": an entry lies in its column's block").c_str());
  expect_eq(under_row, true, (what + ": an entry lies under its own row").c_str());
  expect_eq(rows_rise && rows_nonempty, true, (what + ": a block's rows ascend, none empty").c_str());
  expect_eq(in_order, true, (what + ": a row's entries keep their list order").c_str());
  expect_eq(starts, true, (what + ": a block's row starts run from 0 to its entries").c_str());
}

Csr small_graph() {  // 5 vertices: rows 0 and 3 reach every column, row 1 none, column 4 five times
  Csr g;
  g.row({0, 1, 2, 3, 4});
  g.row({});
  g.row({4, 1});
  g.row({4, 3, 2, 1, 0});
  g.row({4, 4});
  return g;
}

void small_graph_by_count() {
  const Csr g = small_graph();
  for (uint64_t n : {1, 2, 3, 5, 9}) {
    const V bounds = even_column_bounds(g.vertices(), n);
    const ColumnBlocks cb = build_column_blocks(g.offsets.data(), g.ids.data(), g.vertices(), bounds);
    check_layout(g, bounds, cb, "small graph, " + std::to_string(n) + " blocks by count");
  }
  const V bounds = even_column_bounds(g.vertices(), 5);  // one column a block
  const ColumnBlocks cb = build_column_blocks(g.offsets.data(), g.ids.data(), g.vertices(), bounds);
  // Row 0 and row 3 each have an entry in every block: they span all five.
  uint64_t spanning = 0;
  for (size_t k = 0; k < cb.num_blocks(); ++k)
    for (uint64_t i = cb.first_row[k]; i < cb.first_row[k + 1]; ++i) spanning += cb.row_ids[i] == 0;
  expect_eq(spanning, uint64_t(5), "small graph: row 0 spans every block");
  expect_eq(cb.first_entry, V{0, 2, 5, 7, 9, 14}, "small graph: entries per column 2, 3, 2, 2, 5");
  expect_eq(cb.rows(4), uint64_t(4), "small graph: column 4 under rows 0, 2, 3, 4");
  expect_eq(cb.row_ids.size(), uint64_t(2 + 3 + 2 + 2 + 4), "small graph: non-empty rows over the blocks");
  expect_eq(cb.index_bytes(8), uint64_t(13 * 8 + (13 + 5) * 8), "small graph: the row index's bytes");
  // Column 4's block: row 4's two entries are its list's last two.
  const uint64_t s = cb.first_row_start(4);
  expect_eq(V(cb.row_start.begin() + s, cb.row_start.begin() + s + 5), V{0, 1, 2, 3, 5}, "small graph: row starts");
}

void capacity_bounds_fit_the_buffer() {
  const Csr g = small_graph();
  const V counts = column_entries(g.offsets.data(), g.ids.data(), g.vertices());
  expect_eq(counts, V{2, 3, 2, 2, 5}, "column entries: the in-degrees");
  // Capacity 5: columns 0-1 (5), 2-3 (4), 4 (5).
  const V bounds = capacity_column_bounds(counts, 5);
  expect_eq(bounds, V{0, 2, 4, 5}, "capacity 5: columns 0-1, 2-3, 4");
  const ColumnBlocks cb = build_column_blocks(g.offsets.data(), g.ids.data(), g.vertices(), bounds);
  check_layout(g, bounds, cb, "small graph, capacity 5");
  bool within = true;
  for (size_t k = 0; k < cb.num_blocks(); ++k) within &= cb.entries(k) <= 5;
  expect_eq(within, true, "capacity 5: every block within the buffer");
  bool refused = false;
  try {
    capacity_column_bounds(counts, 4);
  } catch (const std::invalid_argument& e) {
    refused = std::string(e.what()).find("column 4 holds 5 entries") != std::string::npos;
  }
  expect_eq(refused, true, "capacity 4: column 4's 5 entries refused, naming the column");
}

void empty_and_single_vertex_graphs() {
  const Csr empty;
  const V none = capacity_column_bounds({}, 8);
  expect_eq(none, V{0, 0}, "empty graph: one empty block");
  const ColumnBlocks e = build_column_blocks(empty.offsets.data(), empty.ids.data(), 0, none);
  check_layout(empty, none, e, "empty graph");
  expect_eq(e.row_start, V{0}, "empty graph: one past-the-end start");

  Csr lone;
  lone.row({});
  const V one = even_column_bounds(1, 4);
  expect_eq(one, V{0, 1}, "single vertex: the blocks capped at V");
  check_layout(lone, one, build_column_blocks(lone.offsets.data(), lone.ids.data(), 1, one), "single vertex");
  Csr loop;
  loop.row({0, 0});
  const V b = capacity_column_bounds(column_entries(loop.offsets.data(), loop.ids.data(), 1), 2);
  const ColumnBlocks l = build_column_blocks(loop.offsets.data(), loop.ids.data(), 1, b);
  check_layout(loop, b, l, "single vertex with two self-loops");
  expect_eq(l.row_ids, V{0}, "single vertex: its one row");
}

void random_graphs_keep_the_invariants() {
  std::mt19937_64 rng(22);
  for (int trial = 0; trial < 40; ++trial) {
    const uint32_t n = 1 + rng() % 60;
    Csr g;
    for (uint32_t v = 0; v < n; ++v) {
      std::vector<uint32_t> list(rng() % 3 == 0 ? 0 : rng() % 12);
      for (uint32_t& u : list) u = rng() % n;
      g.row(list);
    }
    const V counts = column_entries(g.offsets.data(), g.ids.data(), n);
    uint64_t most = 1;
    for (uint64_t c : counts) most = std::max(most, c);
    const uint64_t capacity = most + rng() % 20;
    const V bounds = capacity_column_bounds(counts, capacity);
    const ColumnBlocks cb = build_column_blocks(g.offsets.data(), g.ids.data(), n, bounds);
    check_layout(g, bounds, cb, "random graph " + std::to_string(trial));
    const ColumnBlocks by3 = build_column_blocks(g.offsets.data(), g.ids.data(), n, bounds, {}, 3);
    expect_eq(by3.source == cb.source && by3.row_ids == cb.row_ids && by3.row_start == cb.row_start &&
                  by3.first_entry == cb.first_entry && by3.first_row == cb.first_row,
              true, ("random graph " + std::to_string(trial) + ": three threads lay it out as one").c_str());
    bool within = true;
    for (size_t k = 0; k < cb.num_blocks(); ++k) within &= cb.entries(k) <= capacity;
    expect_eq(within, true, ("random graph " + std::to_string(trial) + ": blocks within the capacity").c_str());
  }
}

void a_large_graph_on_every_core_matches_one_thread() {  // past the one-thread threshold (a million entries)
  std::mt19937_64 rng(24);
  Csr g;
  const uint32_t n = 3000;
  for (uint32_t v = 0; v < n; ++v) {
    std::vector<uint32_t> list(rng() % 800);
    for (uint32_t& u : list) u = rng() % n;
    g.row(list);
  }
  V serial(n, 0);
  for (uint32_t u : g.ids) ++serial[u];
  expect_eq(column_entries(g.offsets.data(), g.ids.data(), n), serial, "large graph: column entries on every core");
  const V bounds = even_column_bounds(n, 7);
  const ColumnBlocks all = build_column_blocks(g.offsets.data(), g.ids.data(), n, bounds);
  const ColumnBlocks one = build_column_blocks(g.offsets.data(), g.ids.data(), n, bounds, {}, 1);
  expect_eq(all.source == one.source && all.row_ids == one.row_ids && all.row_start == one.row_start, true,
            "large graph: every core lays it out as one thread");
}

// The product the streamed mode computes from the layout (block by block, row by row, x[column] and the weight of
// the CSR entry each position came from) equals the CSR's own, y = A x.
void the_layout_computes_the_csr_product() {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 10; ++trial) {
    const uint32_t n = 1 + rng() % 200;
    Csr g;
    for (uint32_t v = 0; v < n; ++v) {
      std::vector<uint32_t> list(rng() % 20);
      for (uint32_t& u : list) u = rng() % n;
      g.row(list);
    }
    std::vector<double> weight(g.ids.size()), x(n), want(n, 0), got(n, 0);
    for (double& w : weight) w = double(1 + rng() % 100);
    for (double& xi : x) xi = 1 + double(rng() % 7) / 7;
    for (uint64_t v = 0; v < n; ++v)
      for (uint64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) want[v] += weight[e] * x[g.ids[e]];
    const ColumnBlocks cb =
        build_column_blocks(g.offsets.data(), g.ids.data(), n, even_column_bounds(n, 1 + rng() % 9), {}, 2);
    for (size_t k = 0; k < cb.num_blocks(); ++k)
      for (uint64_t i = 0; i < cb.rows(k); ++i) {
        const uint64_t s = cb.first_row_start(k) + i;
        double sum = 0;
        for (uint64_t p = cb.row_start[s]; p < cb.row_start[s + 1]; ++p) {
          const uint64_t e = cb.source[cb.first_entry[k] + p];
          sum += weight[e] * x[g.ids[e]];
        }
        got[cb.row_ids[cb.first_row[k] + i]] += sum;
      }
    bool close = true;
    for (uint32_t v = 0; v < n; ++v) close &= std::fabs(got[v] - want[v]) <= 1e-12 * want[v];
    expect_eq(close, true, ("layout product " + std::to_string(trial) + ": y = A x").c_str());
  }
}

void bad_bounds_are_refused() {
  const Csr g = small_graph();
  for (const V& bounds : {V{0, 3}, V{1, 5}, V{0, 3, 2, 5}, V{0}}) {
    bool refused = false;
    try {
      build_column_blocks(g.offsets.data(), g.ids.data(), g.vertices(), bounds);
    } catch (const std::invalid_argument&) {
      refused = true;
    }
    expect_eq(refused, true, "column blocks: bounds that do not rise from 0 to V refused");
  }
}

void the_column_layout_runs_spmv_only() {
  const V off{0, 2, 5};
  const StreamPlan plan = plan_stream_blocks(off.data(), 2, 256, 32);
  bool spmv = true;
  for (Variant v : {Variant::Naive, Variant::Merged, Variant::MergedAligned, Variant::Chunked})
    spmv &= streamed_refusal(Algorithm::Spmv, v, plan, StreamLayout::Columns).empty();
  expect_eq(spmv, true, "column layout: spmv's scan variants stream");
  const std::string pr = streamed_refusal(Algorithm::PageRank, Variant::MergedAligned, plan, StreamLayout::Columns);
  expect_eq(pr.find("SpMV only") != std::string::npos, true, "column layout: pagerank refused, in one line");
  expect_eq(streamed_refusal(Algorithm::PageRank, Variant::MergedAligned, plan, StreamLayout::Rows), std::string(),
            "row layout: pagerank streams");
}

}  // namespace

void column_block_checks() {
  small_graph_by_count();
  capacity_bounds_fit_the_buffer();
  empty_and_single_vertex_graphs();
  random_graphs_keep_the_invariants();
  a_large_graph_on_every_core_matches_one_thread();
  the_layout_computes_the_csr_product();
  bad_bounds_are_refused();
  the_column_layout_runs_spmv_only();
}

}  // namespace emogi::testing
