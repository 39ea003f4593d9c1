// Checks of the host-side pieces that need no GPU (run by tests/test_host_units.py, so CI runs them too).
// Prints one line per failed check and exits 1 if any failed.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "emogi/moved_lists.hpp"
#include "emogi/request_count.hpp"
#include "expect.hpp"

namespace emogi::testing {
void csr_reader_checks();  // csr_tests.cpp
}  // namespace emogi::testing

namespace {

using emogi::kMoveAlignEntries;
using emogi::testing::checks;
using emogi::testing::expect_eq;
using emogi::testing::failures;
using V = std::vector<uint64_t>;

// Degrees 3, 0, 5, 1, 2; 8-byte entries; room for 6 entries beside the copy's padding.
const V kOffsets = {0, 3, 3, 8, 9, 11};
const size_t kRoomFor6 = kMoveAlignEntries * 8 + 6 * 8;

void longest_first_takes_the_longest_that_still_fit() {
  const emogi::MovedLists m = emogi::move_lists(kOffsets.data(), 5, 8, kRoomFor6, true);
  expect_eq(m.vertices, V{2, 3}, "longest-first: v2 (5 entries), then v3 (1), the only one left that fits");
  expect_eq(m.entries, uint64_t(6), "longest-first: entries moved");
  expect_eq(m.shift, kMoveAlignEntries, "longest-first: the copy's positions rounded up");
  const uint64_t s = kMoveAlignEntries;
  expect_eq(m.starts, V{0 + s, 3 + s, 0, 5, 9 + s}, "longest-first: moved lists in the copy, the rest shifted");
}

void shortest_first_takes_the_shortest() {
  const emogi::MovedLists m = emogi::move_lists(kOffsets.data(), 5, 8, kRoomFor6, false);
  expect_eq(m.vertices, V{3, 4, 0}, "shortest-first: degrees 1, 2, 3 (the empty list is never moved)");
  const uint64_t s = kMoveAlignEntries;
  expect_eq(m.starts, V{3, 3 + s, 3 + s, 0, 1}, "shortest-first: starts");
}

void no_room_moves_nothing() {
  const emogi::MovedLists m = emogi::move_lists(kOffsets.data(), 5, 8, kMoveAlignEntries * 8, true);
  expect_eq(m.vertices.size(), size_t(0), "no room beside the padding: nothing moved");
  expect_eq(m.shift, uint64_t(0), "nothing moved: no shift");
  expect_eq(m.starts, V{0, 3, 3, 8, 9}, "nothing moved: starts are the offsets");
}

void gather_copies_the_moved_lists_in_order() {
  const emogi::MovedLists m = emogi::move_lists(kOffsets.data(), 5, 8, kRoomFor6, false);
  std::vector<uint32_t> weights(11);
  for (uint32_t i = 0; i < 11; ++i) weights[i] = 100 + i;
  const std::vector<unsigned char> copy = emogi::gather_moved(weights.data(), 4, kOffsets.data(), m);
  expect_eq(copy.size(), size_t(m.shift * 4), "gather: the copy spans `shift` entries");
  const uint32_t* w = reinterpret_cast<const uint32_t*>(copy.data());
  expect_eq(std::vector<uint32_t>(w, w + 7), std::vector<uint32_t>{108, 109, 110, 100, 101, 102, 0},
            "gather: v3's, v4's, then v0's entries, then zero padding");
}

// Requests and sectors of warp walks, counted by hand: 8-byte entries, 16 to a 128-byte line, 4 to a sector.
void warp_walks_count_one_request_per_line_per_step() {
  // merged+aligned over [20, 70): steps from 16 read [20, 48) and [48, 70): lines 1-2 and 3-4, sectors 5-17
  const emogi::RequestCount aligned = emogi::count_warp_walk(16, 20, 70, 8);
  expect_eq(aligned.requests, uint64_t(4), "aligned walk: two lines a step, two steps");
  expect_eq(aligned.sectors, uint64_t(13), "aligned walk: sectors 5..17");
  // merged over the same list: steps [20, 52) and [52, 70) -> lines 1-3 and 3-4, line 3 asked for twice
  const emogi::RequestCount merged = emogi::count_warp_walk(20, 20, 70, 8);
  expect_eq(merged.requests, uint64_t(5), "unaligned walk: a line split between steps is two requests");
  expect_eq(merged.sectors, uint64_t(13), "unaligned walk: steps split no sector here (begin on a sector)");
  // from 21 the steps [21, 53) and [53, 70) split sector 13 (entries 52-55) too
  expect_eq(emogi::count_warp_walk(21, 21, 70, 8).sectors, uint64_t(14), "unaligned walk: a split sector twice");
  // 4-byte entries, one whole aligned line per step
  expect_eq(emogi::count_warp_walk(32, 32, 96, 4).requests, uint64_t(2), "4-byte aligned walk: a line a step");
  expect_eq(emogi::count_warp_walk(0, 5, 5, 8).requests, uint64_t(0), "an empty list asks for nothing");
}

}  // namespace

int main() {
  longest_first_takes_the_longest_that_still_fit();
  shortest_first_takes_the_shortest();
  no_room_moves_nothing();
  gather_copies_the_moved_lists_in_order();
  warp_walks_count_one_request_per_line_per_step();
  emogi::testing::csr_reader_checks();
  std::printf("%d of %d checks passed\n", checks - failures, checks);
  return failures ? 1 : 0;
}
