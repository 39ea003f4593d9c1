// plan_stream_blocks (stream_blocks.hpp): every entry in exactly one block, blocks within the buffer, vertex ranges
// that cover every vertex and its whole list, split lists where a list is longer than a block; empty and
// single-vertex graphs.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "emogi/stream_blocks.hpp"
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

}  // namespace

void stream_block_checks() {
  whole_lists_while_they_fit();
  a_list_longer_than_a_block_is_split();
  empty_and_single_vertex_graphs();
  too_small_a_block_is_refused();
  random_graphs_keep_the_invariants();
}

}  // namespace emogi::testing
