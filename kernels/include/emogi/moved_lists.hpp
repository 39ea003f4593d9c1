// `auto` with --auto-order longest-first or shortest-first: when not every list fits in GPU memory, copy whole
// lists there, longest or shortest first, and read the others by zero-copy where the file put them. Push
// PageRank re-reads a long list more often than a short one (model/pagerank_sweeps.py), so there GPU memory saves
// more link bytes per byte on long lists; a traversal reads each list about once, and a short list costs the
// link more per byte than a long one.
//
// `hottest-first` orders by a trace of the run instead (--auto-hot: how many launches read each list). What GPU
// memory buys is c, the share of the bytes a run reads that it serves (the link carries the other 1 - c). A list
// adds reads x its bytes to c for its bytes of GPU memory, so its read count is its value per byte: taking lists
// by descending count is the knapsack's greedy, optimal but for the room the last lists leave unused.
//
// Positions kernels read: [0, shift) is the copy, shift + p is the file's position p.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace emogi {

// The copy's length is a multiple of this many entries, so that a file position's offset within a 128-byte line
// and a 4 KiB segment (worklist.cuh) is the same in the combined positions, for 4- and 8-byte entries.
constexpr uint64_t kMoveAlignEntries = 1024;

struct MovedLists {
  std::vector<uint64_t> starts;    // V entries: where each vertex's list begins in the combined positions
  std::vector<uint64_t> vertices;  // the moved lists' vertices, in their order in the copy
  uint64_t entries = 0;            // list entries in the copy
  uint64_t shift = 0;              // positions the copy takes: `entries` rounded up to kMoveAlignEntries
};

// Takes whole non-empty lists, longest or shortest first (equal lengths: lower vertex id first), each one that
// still fits in `budget_bytes` at `entry_bytes` per entry (the ids plus, for SSSP, the weights), padding included.
MovedLists move_lists(const uint64_t* offsets, uint64_t num_vertices, size_t entry_bytes, size_t budget_bytes,
                      bool longest_first);

// Takes whole lists in descending `reads[v]` (equal counts: the shorter list, so more reads fit, then the lower
// vertex id), never one read 0 times, each one that still fits as move_lists does.
MovedLists move_hot_lists(const uint64_t* offsets, uint64_t num_vertices, size_t entry_bytes, size_t budget_bytes,
                          const uint32_t* reads);

// c: the moved lists' share of the read bytes, sum of reads[v] x v's list bytes (0 where nothing is read).
double read_share(const uint64_t* offsets, uint64_t num_vertices, const uint32_t* reads, const MovedLists& moved);

// The copy of one array (`element_bytes` per entry) in the moved order: `shift` entries, the padding zeroed.
std::vector<unsigned char> gather_moved(const void* array, size_t element_bytes, const uint64_t* offsets,
                                        const MovedLists& moved);

}  // namespace emogi
