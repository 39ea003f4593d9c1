// Checks of the host-side pieces that need no GPU (run by tests/test_host_units.py, so CI runs them too).
// Prints one line per failed check and exits 1 if any failed.
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "emogi/chunk_lru.hpp"
#include "emogi/gpu_budget.hpp"
#include "emogi/moved_lists.hpp"
#include "emogi/request_count.hpp"
#include "emogi/trace_file.hpp"
#include "expect.hpp"

namespace emogi::testing {
void csr_reader_checks();    // csr_tests.cpp
void stream_block_checks();  // stream_blocks_tests.cpp
void column_block_checks();  // column_blocks_tests.cpp
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

void hottest_first_takes_the_lists_read_most() {
  // Reads 2, 9, 1, 2, 4: v4, then v3 before v0 (2 reads each, the shorter first); v2 no longer fits, and the empty
  // v1 is never moved however often it is read.
  const std::vector<uint32_t> reads = {2, 9, 1, 2, 4};
  const emogi::MovedLists m = emogi::move_hot_lists(kOffsets.data(), 5, 8, kRoomFor6, reads.data());
  expect_eq(m.vertices, V{4, 3, 0}, "hottest-first: by reads, ties the shorter list first");
  const uint64_t s = kMoveAlignEntries;
  expect_eq(m.starts, V{3, 3 + s, 3 + s, 2, 0}, "hottest-first: starts");
  // entries read: 2x3 + 1x5 + 2x1 + 4x2 = 21, of them 6 + 2 + 8 = 16 in the moved lists
  expect_eq(emogi::read_share(kOffsets.data(), 5, reads.data(), m), 16.0 / 21.0, "hottest-first: c = 16/21");

  const std::vector<uint32_t> once = {0, 0, 7, 0, 0};
  const emogi::MovedLists only = emogi::move_hot_lists(kOffsets.data(), 5, 8, kRoomFor6, once.data());
  expect_eq(only.vertices, V{2}, "hottest-first: lists never read stay, room or not");
  expect_eq(emogi::read_share(kOffsets.data(), 5, once.data(), only), 1.0, "hottest-first: all reads in the copy");

  const V even = {0, 2, 4, 6};  // three lists of 2, read once each, room for two
  const std::vector<uint32_t> ones = {1, 1, 1};
  const emogi::MovedLists ties = emogi::move_hot_lists(even.data(), 3, 8, kMoveAlignEntries * 8 + 4 * 8, ones.data());
  expect_eq(ties.vertices, V{0, 1}, "hottest-first: equal reads and lengths, the lower id first");
  const std::vector<uint32_t> none = {0, 0, 0};
  expect_eq(emogi::read_share(even.data(), 3, none.data(), ties), 0.0, "nothing read: c = 0");
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

// The GPU-memory budget counts what is allocated, refuses what does not fit in one line, and without a limit
// refuses nothing.
void budget_counts_takes_and_refuses_past_the_limit() {
  emogi::GpuBudget unlimited;
  unlimited.take(size_t(1) << 50, "the vertex data");
  expect_eq(unlimited.left(), emogi::GpuBudget::kNone, "no budget: nothing is refused, nothing is left over");
  emogi::GpuBudget b;
  b.set_limit(size_t(1) << 20);
  b.take(768 << 10, "the vertex data");
  expect_eq(b.left(), size_t(256) << 10, "1 MiB budget, 768 KiB taken: 256 KiB left");
  std::string message;
  try {
    b.take(512 << 10, "the vertex data");
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  expect_eq(message,
            std::string("--gpu-memory-budget 1.00 MiB is smaller than the vertex data: 512.00 KiB more asked for "
                        "with 768.00 KiB of the budget in use"),
            "over the budget: one line naming what did not fit");
  expect_eq(b.used(), size_t(768) << 10, "a refused take leaves the count as it was");
  b.give_back(768 << 10);
  expect_eq(b.left(), size_t(1) << 20, "freed memory goes back to the budget");
  expect_eq(emogi::format_bytes(100), std::string("100 B"), "sizes under 1 KiB in bytes");
}

// uvm-capped's LRU (chunk_lru.hpp), on cases whose answer is known, as the UVM simulator's tests have them.
void lru_keeps_a_working_set_and_cycles_a_sweep() {
  using Chunks = std::vector<uint64_t>;
  auto touch = [](emogi::ChunkLru& lru, Chunks chunks) {
    std::vector<uint8_t> flags(lru.chunks());
    for (uint64_t c : chunks) flags[c] = 1;
    return lru.step(flags.data());
  };
  emogi::ChunkLru small(5, 3);
  for (int pass = 0; pass < 3; ++pass) expect_eq(touch(small, {0, 1}), Chunks{}, "a working set under capacity stays");
  expect_eq(small.resident(), uint64_t(2), "the working set is resident");

  emogi::ChunkLru one_step(5, 2);
  expect_eq(touch(one_step, {0, 1, 2, 3, 4}), Chunks{0, 1, 2}, "one step over capacity: the lowest addresses go");

  emogi::ChunkLru sweep(5, 2);  // a sweep one chunk per step (sub-launches): LRU evicts each chunk before its reuse
  bool every_step_evicts = true;
  for (int pass = 0; pass < 2; ++pass)
    for (uint64_t c = 0; c < 5; ++c) {
      const Chunks evicted = touch(sweep, {c});
      if (pass == 1) every_step_evicts = every_step_evicts && evicted == Chunks{(c + 3) % 5};
    }
  expect_eq(every_step_evicts, true, "a sweep over more than capacity evicts the chunk used longest ago, every step");
  sweep.reset();
  expect_eq(sweep.resident(), uint64_t(0), "reset: nothing resident");

  const std::vector<emogi::ChunkRun> runs = emogi::chunk_runs({1, 2, 3, 7, 8, 10});
  expect_eq(runs.size(), size_t(3), "runs of consecutive chunks");
  expect_eq(runs[0].first == 1 && runs[0].count == 3 && runs[1].first == 7 && runs[1].count == 2 &&
                runs[2].first == 10 && runs[2].count == 1,
            true, "runs: 1-3, 7-8, 10");
}

// `emogi_host_tests write-trace PATH V E CHECKSUM EDGE_BYTES`: a trace file of known content for
// tests/test_trace_recording.py (launch i reads the lists of the vertices v with v % (i + 2) == 0; launch 1 reads
// entry 1 of each list, launch 2 the lists from entry 2 and may stop early).
int write_trace(char** argv) {
  emogi::TraceMeta meta;
  meta.graph = "g \"quoted\"", meta.checksum = argv[4], meta.algorithm = "cc", meta.variant = "afforest";
  meta.mode = "device", meta.num_vertices = std::stoull(argv[2]), meta.num_edges = std::stoull(argv[3]);
  meta.edge_bytes = unsigned(std::stoul(argv[5]));
  emogi::TraceFile trace(argv[1], meta);
  const emogi::ListPart parts[3] = {{}, {1, 1}, {2, emogi::kWholeList, "stops early"}};
  for (uint64_t i = 0; i < 3; ++i) {
    std::vector<uint32_t> words((meta.num_vertices + 31) / 32);
    for (uint64_t v = 0; v < meta.num_vertices; v += i + 2) words[v / 32] |= 1u << (v % 32);
    trace.add_launch(words, "launch " + std::to_string(i), parts[i]);
  }
  trace.finish();
  trace.commit();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 7 && std::string(argv[1]) == "write-trace") return write_trace(argv + 1);
  budget_counts_takes_and_refuses_past_the_limit();
  lru_keeps_a_working_set_and_cycles_a_sweep();
  longest_first_takes_the_longest_that_still_fit();
  shortest_first_takes_the_shortest();
  hottest_first_takes_the_lists_read_most();
  no_room_moves_nothing();
  gather_copies_the_moved_lists_in_order();
  warp_walks_count_one_request_per_line_per_step();
  emogi::testing::csr_reader_checks();
  emogi::testing::stream_block_checks();
  emogi::testing::column_block_checks();
  std::printf("%d of %d checks passed\n", checks - failures, checks);
  return failures ? 1 : 0;
}
