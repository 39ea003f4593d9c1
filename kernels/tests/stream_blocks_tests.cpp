// plan_stream_blocks (stream_blocks.hpp): every entry in exactly one block, blocks within the buffer, vertex ranges
// that cover every vertex and its whole list, split lists where a list is longer than a block; empty and
// single-vertex graphs. Frontier-aware skipping: a block left unmarked holds no entry of an active vertex, and the
// sweep's buffers keep the pipeline's distinct turns (or each block its own buffer). What the streamed mode runs
// (the registry's `streamed`) and its one-line refusals.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "emogi/stream_blocks.hpp"
#include "emogi/streamed_refusal.hpp"
#include "expect.hpp"

namespace emogi::testing {
namespace {

using V = std::vector<uint64_t>;

V offsets_of(const V& degrees) {
  V off{0};
  for (uint64_t d : degrees) off.push_back(off.back() + d);
  return off;
}

// The invariants every plan keeps, checked one by one (what: the case, in failure lines).
void check_plan(const V& off, const StreamPlan& p, uint64_t capacity, uint64_t align, const std::string& what) {
  const uint64_t n = off.size() - 1, edges = off.back();
  bool contiguous = true, within = true, aligned = true, covers = true, inside = true, nonempty = true;
  uint64_t next_entry = 0, next_vertex = 0, splits = 0, last_split = UINT64_MAX;
  for (size_t k = 0; k < p.blocks.size(); ++k) {
    const StreamBlock& b = p.blocks[k];
    contiguous &= b.first_entry == next_entry && b.last_entry >= b.first_entry;
    within &= b.copied_entries() <= capacity;
    aligned &= b.copy_from % align == 0 && b.copy_from <= b.first_entry && b.first_entry - b.copy_from < align;
    // A block starts at the next vertex, or again at the last one when that list goes on (a split list).
    const bool continues = k > 0 && b.first_vertex + 1 == next_vertex && b.first_entry > off[b.first_vertex];
    covers &= b.first_vertex == next_vertex || continues;
    if (continues && b.first_vertex != last_split) ++splits, last_split = b.first_vertex;
    inside &= off[b.first_vertex] <= b.first_entry && b.last_entry <= off[b.last_vertex];
    nonempty &= b.last_vertex > b.first_vertex;
    next_entry = b.last_entry, next_vertex = b.last_vertex;
  }
  expect_eq(contiguous && next_entry == edges, true, (what + ": every entry in exactly one block").c_str());
  expect_eq(within, true, (what + ": every block within the buffer").c_str());
  expect_eq(aligned, true, (what + ": copies start at the alignment below the block").c_str());
  expect_eq(covers && next_vertex == n, true, (what + ": vertex ranges cover every vertex in order").c_str());
  expect_eq(inside, true, (what + ": a block's entries lie in its vertices' lists").c_str());
  expect_eq(nonempty, true, (what + ": every block has a vertex").c_str());
  expect_eq(p.split_lists, splits, (what + ": split lists counted once each").c_str());
}

void whole_lists_while_they_fit() {
  // Degrees 3, 0, 5, 1, 2 (offsets 0 3 3 8 9 11), room for 8 at an alignment of 4: v0..v2 end at entry 8 exactly;
  // v3's list would pass it, so the second block (copied from 8) takes v3 and v4.
  const V off = offsets_of({3, 0, 5, 1, 2});
  const StreamPlan p = plan_stream_blocks(off.data(), 5, 8, 4);
  check_plan(off, p, 8, 4, "degrees 3 0 5 1 2, room 8");
  expect_eq(p.blocks.size(), size_t(2), "room 8: two blocks");
  expect_eq(V{p.blocks[0].first_vertex, p.blocks[0].last_vertex, p.blocks[0].last_entry}, V{0, 3, 8},
            "room 8: the first block holds v0..v2, entries 0..8");
  expect_eq(V{p.blocks[1].first_vertex, p.blocks[1].last_vertex, p.blocks[1].copy_from}, V{3, 5, 8},
            "room 8: the second v3, v4, copied from 8");
  expect_eq(p.split_lists, uint64_t(0), "room 8: no list split");
  // Room for 6: v2's 5 entries start at 3 (copied from 0) and would end at 8 > 6, but fit a block of their own.
  const StreamPlan q = plan_stream_blocks(off.data(), 5, 6, 2);
  check_plan(off, q, 6, 2, "degrees 3 0 5 1 2, room 6");
  expect_eq(q.split_lists, uint64_t(0), "room 6: lists that fit a block are never split");
}

void a_list_longer_than_a_block_is_split() {
  // A hub of 100 entries between short lists, room for 16 at an alignment of 8.
  const V off = offsets_of({2, 100, 3, 0, 4});
  const StreamPlan p = plan_stream_blocks(off.data(), 5, 16, 8);
  check_plan(off, p, 16, 8, "hub of 100, room 16");
  expect_eq(p.split_lists, uint64_t(1), "hub of 100: one list split");
  expect_eq(p.first_split, uint64_t(1), "hub of 100: v1 is split");
  expect_eq(p.longest_vertex, uint64_t(1), "hub of 100: the longest list is v1's");
  uint64_t hub_entries = 0;
  for (const StreamBlock& b : p.blocks)
    if (b.first_vertex <= 1 && 1 < b.last_vertex)
      hub_entries += std::min(b.last_entry, off[2]) - std::max(b.first_entry, off[1]);
  expect_eq(hub_entries, uint64_t(100), "hub of 100: its parts add up to its list");
}

void empty_and_single_vertex_graphs() {
  const V none{0};
  expect_eq(plan_stream_blocks(none.data(), 0, 64, 32).blocks.size(), size_t(0), "no vertices: no block");
  const V lonely{0, 0};
  const StreamPlan one = plan_stream_blocks(lonely.data(), 1, 64, 32);
  check_plan(lonely, one, 64, 32, "one vertex, no edges");
  expect_eq(one.blocks.size(), size_t(1), "one vertex, no edges: one empty block");
  const V loops{0, 1000};  // one vertex with 1000 entries (self-loops), room for 64
  const StreamPlan cut = plan_stream_blocks(loops.data(), 1, 64, 32);
  check_plan(loops, cut, 64, 32, "one vertex, 1000 entries");
  expect_eq(cut.blocks.size(), size_t(16), "one vertex, 1000 entries in blocks of 64: 16 blocks");
  expect_eq(cut.split_lists, uint64_t(1), "one vertex, 1000 entries: its list split once");
  const V isolated = offsets_of(V(1000, 0));  // many vertices, no edges
  const StreamPlan idle = plan_stream_blocks(isolated.data(), 1000, 64, 32);
  check_plan(isolated, idle, 64, 32, "1000 isolated vertices");
  expect_eq(idle.blocks.size(), size_t(1), "1000 isolated vertices: one block");
}

void too_small_a_block_is_refused() {
  const V off = offsets_of({1, 2});
  bool threw = false;
  try {
    plan_stream_blocks(off.data(), 2, 63, 32);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  expect_eq(threw, true, "a block below two alignments is refused");
}

void random_graphs_keep_the_invariants() {
  std::mt19937_64 rng(22);
  for (int trial = 0; trial < 200; ++trial) {
    const uint64_t n = 1 + rng() % 300, align = uint64_t(1) << (rng() % 6), capacity = 2 * align + rng() % 500;
    V degrees(n);
    for (auto& d : degrees) d = rng() % 4 == 0 ? rng() % 2000 : rng() % 20;  // some lists longer than a block
    const V off = offsets_of(degrees);
    check_plan(off, plan_stream_blocks(off.data(), n, capacity, align), capacity / align * align, align,
               "random graph " + std::to_string(trial));
  }
}

// Marks on a hand-made case: the hub of 100 (v1) split across blocks, only v1 active: every block with a part of
// the hub is marked, the rest not; nothing active: nothing marked.
void marks_follow_the_active_vertices() {
  const V off = offsets_of({2, 100, 3, 0, 4});
  const StreamPlan p = plan_stream_blocks(off.data(), 5, 16, 8);
  const std::vector<uint8_t> marks = mark_active_blocks(p, {0, 1, 0, 0, 0});
  bool hub_blocks_marked = true, others_not = true;
  for (size_t k = 0; k < p.blocks.size(); ++k) {
    const bool holds_hub = p.blocks[k].first_vertex <= 1 && 1 < p.blocks[k].last_vertex;
    hub_blocks_marked &= !holds_hub || marks[k];
    others_not &= holds_hub || !marks[k];
  }
  expect_eq(hub_blocks_marked, true, "only the hub active: every block with a part of its list is marked");
  expect_eq(others_not, true, "only the hub active: no other block is marked");
  const std::vector<uint8_t> none = mark_active_blocks(p, std::vector<uint8_t>(5, 0));
  expect_eq(size_t(std::count(none.begin(), none.end(), 0)), p.blocks.size(), "nothing active: nothing marked");
  expect_eq(sweep_order(p.blocks.size(), none.data()).size(), size_t(0), "nothing active: the sweep takes none");
  expect_eq(sweep_order(3, nullptr), std::vector<size_t>{0, 1, 2}, "no marks: the sweep takes every block");
  const uint8_t some[] = {0, 1, 1, 0, 1};
  expect_eq(sweep_order(5, some), std::vector<size_t>{1, 2, 4}, "marks: the marked blocks in plan order");
}

// Random graphs, plans and active sets: every entry of an active vertex's list lies in a marked block (so a skipped
// block holds nothing a pass reads), and every marked block holds an active vertex (so nothing is copied for
// nothing). A block's active entries (--stream-direct-below) are the entries of active lists it holds.
void skipped_blocks_hold_no_active_entry() {
  std::mt19937_64 rng(2222);
  bool covered = true, needed = true, found = true, counted = true;
  for (int trial = 0; trial < 200; ++trial) {
    const uint64_t n = 1 + rng() % 300, align = uint64_t(1) << (rng() % 6), capacity = 2 * align + rng() % 500;
    V degrees(n);
    for (auto& d : degrees) d = rng() % 4 == 0 ? rng() % 2000 : rng() % 20;
    const V off = offsets_of(degrees);
    const StreamPlan p = plan_stream_blocks(off.data(), n, capacity, align);
    const unsigned density = unsigned(rng() % 5);  // none, few, ..., all active
    std::vector<uint8_t> active(n);
    for (auto& a : active) a = density == 4 || (density > 0 && rng() % (1u << (2 * (4 - density))) == 0);
    const std::vector<uint8_t> marks = mark_active_blocks(p, active);
    const std::vector<uint64_t> entries = active_entries_per_block(p, off.data(), active);
    std::vector<uint64_t> seen(n, 0);  // entries of each vertex's list in marked blocks
    for (size_t k = 0; k < p.blocks.size(); ++k) {
      const StreamBlock& b = p.blocks[k];
      bool any = false;   // by brute force: block k holds an active vertex
      uint64_t held = 0;  // and the entries of active lists it holds
      for (uint64_t v = b.first_vertex; v < b.last_vertex; ++v) {
        any |= active[v] != 0;
        const uint64_t part =
            std::min(b.last_entry, off[v + 1]) - std::min(std::max(b.first_entry, off[v]), off[v + 1]);
        if (marks[k]) seen[v] += part;
        if (active[v]) held += part;
      }
      counted &= entries[k] == held;
      needed &= !marks[k] || any;
      found &= !any || marks[k];
    }
    for (uint64_t v = 0; v < n; ++v) covered &= !active[v] || seen[v] == degrees[v];
  }
  expect_eq(covered, true, "random plans: an active vertex's whole list lies in marked blocks");
  expect_eq(needed, true, "random plans: every marked block holds an active vertex");
  expect_eq(found, true, "random plans: every block that holds an active vertex is marked");
  expect_eq(counted, true, "random plans: a block's active entries are those of the active lists it holds");
}

// --stream-direct-below: a block is read in place when its active entries are below the fraction of its entries;
// never at 0, always (unless wholly active) at 1.
void in_place_below_the_fraction() {
  StreamBlock b;
  b.first_entry = 100, b.last_entry = 200;  // 100 entries
  expect_eq(reads_in_place(49, b, 0.5), true, "in place: 49 of 100 active, below 0.5");
  expect_eq(reads_in_place(50, b, 0.5), false, "in place: 50 of 100 active, not below 0.5");
  expect_eq(reads_in_place(0, b, 0.0), false, "in place: never at 0");
  expect_eq(reads_in_place(99, b, 1.0), true, "in place: 99 of 100 active, below 1");
  expect_eq(reads_in_place(100, b, 1.0), false, "in place: a wholly active block is copied");
  expect_eq(entries_in_block(90, 150, 100, 200), uint64_t(50), "entries in block: a list that starts before it");
  expect_eq(entries_in_block(150, 250, 100, 200), uint64_t(50), "entries in block: a list that ends after it");
  expect_eq(entries_in_block(200, 250, 100, 200), uint64_t(0), "entries in block: a list after it");
}

// The sweep's buffers: any `buffers` consecutive blocks of a sweep go to distinct buffers (one is read while the
// others are copied into), whichever blocks the marks leave; and with at most as many blocks as buffers each
// block has its own, so a block copied once is never copied again, whatever later passes skip.
void sweep_buffers_take_turns_or_stay() {
  bool distinct = true, own = true;
  for (size_t blocks = 1; blocks <= 12; ++blocks)
    for (size_t buffers = 1; buffers <= 4; ++buffers)
      for (unsigned mask = 0; mask < (1u << blocks); mask += 1 + mask / 7) {
        std::vector<uint8_t> marks;
        for (size_t k = 0; k < blocks; ++k) marks.push_back(uint8_t((mask >> k) & 1));
        const std::vector<size_t> order = sweep_order(blocks, marks.data());
        for (size_t j = 0; j < order.size(); ++j) {
          const size_t b = sweep_buffer(j, order[j], blocks, buffers);
          for (size_t i = j + 1; i < order.size() && i < j + buffers; ++i)
            distinct &= sweep_buffer(i, order[i], blocks, buffers) != b;
          if (blocks <= buffers) own &= b == order[j];
          distinct &= b < buffers;
        }
      }
  expect_eq(distinct, true, "sweeps: consecutive blocks within the buffer count take distinct buffers");
  expect_eq(own, true, "sweeps: at most as many blocks as buffers, each block keeps its own");
}

// Blocks read in place with consecutive numbers launch as one step; a copied block, or a gap in the numbers (a
// block the marks skip), starts a new one.
void in_place_neighbours_launch_together() {
  const std::vector<SweepStep> steps = sweep_steps({0, 1, 2, 4, 5, 7, 8}, {1, 1, 0, 1, 1, 1, 0});
  std::vector<size_t> got;
  for (const SweepStep& s : steps) got.insert(got.end(), {s.first, s.last, size_t(s.in_place)});
  expect_eq(got, std::vector<size_t>{0, 1, 1, 2, 2, 0, 4, 5, 1, 7, 7, 1, 8, 8, 0},
            "sweep steps: 0-1 in place, 2 copied, 4-5 in place, 7 in place after a gap, 8 copied");
  const std::vector<SweepStep> copied = sweep_steps({3, 4}, {0, 0});
  expect_eq(copied.size(), size_t(2), "sweep steps: copied neighbours stay one step each");
  expect_eq(sweep_steps({}, {}).size(), size_t(0), "sweep steps: an empty sweep has none");
}

// Every algorithm's scan variants stream (and gauss-seidel where no list is split); the rest are refused in one line
// that names what does stream.
void what_streams_and_what_is_refused() {
  const V off = offsets_of({2, 100, 3});
  const StreamPlan whole = plan_stream_blocks(off.data(), 3, 256, 32),
                   split = plan_stream_blocks(off.data(), 3, 64, 32);
  bool scans = true;
  for (Algorithm a : {Algorithm::Sssp, Algorithm::Cc, Algorithm::PageRank, Algorithm::Spmv})
    for (Variant v : {Variant::Naive, Variant::Merged, Variant::MergedAligned, Variant::Chunked})
      scans &= streamed_refusal(a, v, split).empty();
  expect_eq(scans, true, "streamed: the scan variants of sssp, cc, pagerank and spmv stream, split lists or not");
  expect_eq(streamed_refusal(Algorithm::PageRank, Variant::GaussSeidel, whole), std::string(),
            "streamed: gauss-seidel streams where no list is split");
  const std::string gs = streamed_refusal(Algorithm::PageRank, Variant::GaussSeidel, split);
  expect_eq(gs.find("vertex 1's list") != std::string::npos, true, "streamed: gauss-seidel names the split list");
  const std::string cc = streamed_refusal(Algorithm::Cc, Variant::Afforest, whole);
  expect_eq(cc,
            std::string("cc afforest does not stream its lists (streamed runs cc naive, merged, merged-aligned, "
                        "chunked; emogi/registry.yaml, `streamed`)"),
            "streamed: afforest refused, naming what streams");
  bool refused = true, one_line = true;
  for (auto [a, v] :
       {std::pair{Algorithm::Sssp, Variant::Frontier}, std::pair{Algorithm::PageRank, Variant::Frontier},
        std::pair{Algorithm::Bfs, Variant::MergedAligned}, std::pair{Algorithm::Bfs, Variant::Frontier}}) {
    const std::string why = streamed_refusal(a, v, whole);
    refused &= why.find("does not stream its lists") != std::string::npos;
    one_line &= why.find('\n') == std::string::npos;
  }
  expect_eq(refused && one_line, true, "streamed: sssp and pagerank frontier and bfs are refused, in one line");
  expect_eq(streamed_refusal(Algorithm::Bfs, Variant::Naive, whole).find("streamed runs bfs in no variant") !=
                std::string::npos,
            true, "streamed: bfs streams in no variant");
}

}  // namespace

void stream_block_checks() {
  whole_lists_while_they_fit();
  a_list_longer_than_a_block_is_split();
  empty_and_single_vertex_graphs();
  too_small_a_block_is_refused();
  random_graphs_keep_the_invariants();
  marks_follow_the_active_vertices();
  skipped_blocks_hold_no_active_entry();
  in_place_below_the_fraction();
  sweep_buffers_take_turns_or_stay();
  in_place_neighbours_launch_together();
  what_streams_and_what_is_refused();
}

}  // namespace emogi::testing
