// How the streamed mode cuts the edge list into blocks (CF'17's streamed blocks, by vertex ranges): each block
// holds the lists of consecutive vertices, copied as one range of entries into a GPU buffer of a fixed capacity.
// Whole lists while they fit; a list longer than a block is split across consecutive blocks, so a vertex may
// appear in several (its list's parts in entry order). Host code only, so CPU tests check it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#ifndef EMOGI_HOST_DEVICE
#ifdef __CUDACC__
#define EMOGI_HOST_DEVICE __host__ __device__
#else
#define EMOGI_HOST_DEVICE
#endif
#endif

namespace emogi {

// Which cut the streamed mode makes (--stream-layout): blocks of vertex ranges (rows, here), or CF'17's blocks of
// consecutive columns (column_blocks.hpp; SpMV only).
enum class StreamLayout { Rows, Columns };
inline const char* name_of(StreamLayout layout) { return layout == StreamLayout::Columns ? "columns" : "rows"; }

struct StreamBlock {
  uint64_t first_vertex = 0, last_vertex = 0;  // [first, last): vertices whose list, or a part of it, is here
  uint64_t first_entry = 0, last_entry = 0;    // [first, last): the list entries the block holds
  uint64_t copy_from = 0;                      // first_entry rounded down to the alignment: the copy starts here
  uint64_t copied_entries() const { return last_entry - copy_from; }
};

struct StreamPlan {
  std::vector<StreamBlock> blocks;  // in vertex and entry order; none for a graph without vertices
  uint64_t capacity_entries = 0;    // what one buffer holds (a multiple of the alignment)
  uint64_t align_entries = 1;
  uint64_t split_lists = 0;           // lists cut across blocks
  uint64_t first_split = UINT64_MAX;  // the first of them (for messages), UINT64_MAX when none
  uint64_t longest_list = 0;          // entries of the longest list
  uint64_t longest_vertex = 0;        // whose it is
};

// Blocks over offsets[0..V] for buffers of `capacity_entries` entries, every copy starting at a multiple of
// `align_entries` (so a block's lists sit at the same 128-byte alignment in the buffer as in the file). Throws
// std::invalid_argument when the capacity is below two alignments (no room to make progress after rounding).
StreamPlan plan_stream_blocks(const uint64_t* offsets, uint64_t num_vertices, uint64_t capacity_entries,
                              uint64_t align_entries);

// Calls mark(k) for every block k that holds vertex v (its list, a part of a split one, or v with an empty list),
// given the blocks' first and past-last vertices (first_vertex[0] == 0, both ascending) and v below the last block's
// end: a binary search for the last block that starts at or before v, then back over the blocks that hold earlier
// parts of v's list. On the host and the GPU (streamed_lists.cuh's stream_block_activity).
// The last block that starts at or before v: the one holding v's list, or its last part when split.
EMOGI_HOST_DEVICE inline uint64_t last_block_holding(const uint64_t* first_vertex, uint64_t num_blocks, uint64_t v) {
  uint64_t lo = 0, hi = num_blocks;  // first_vertex[lo] <= v, and v < first_vertex[hi] where hi < num_blocks
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (first_vertex[mid] <= v)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

template <class Mark>
EMOGI_HOST_DEVICE inline void for_blocks_holding(const uint64_t* first_vertex, const uint64_t* last_vertex,
                                                 uint64_t num_blocks, uint64_t v, Mark mark) {
  for (uint64_t k = last_block_holding(first_vertex, num_blocks, v);; --k) {
    mark(k);
    if (k == 0 || last_vertex[k - 1] <= v) return;
  }
}

// The entries of the list [list_begin, list_end) that block [first_entry, last_entry) holds (0 when none).
EMOGI_HOST_DEVICE inline uint64_t entries_in_block(uint64_t list_begin, uint64_t list_end, uint64_t first_entry,
                                                   uint64_t last_entry) {
  const uint64_t begin = list_begin > first_entry ? list_begin : first_entry;
  const uint64_t end = list_end < last_entry ? list_end : last_entry;
  return end > begin ? end - begin : 0;
}

// Read in place (--stream-direct-below F): a block whose active vertices' entries at a sweep's start are fewer than
// F of its entries is read over the link by zero-copy instead of copied whole. Copying moves every entry at the copy
// engine's rate; reading in place moves only the active lists, at zero-copy's lower rate: F is where they cross.
inline bool reads_in_place(uint64_t active_entries, const StreamBlock& b, double below) {
  return below > 0 && double(active_entries) < below * double(b.last_entry - b.first_entry);
}

// Frontier-aware skipping. marks[k] says whether block k holds a vertex active in the pass (a split list's every
// part holds its vertex): what streamed_lists.cuh's stream_block_activity computes, over a per-vertex `active`
// array. A block left unmarked holds no entry of an active vertex, so a pass that reads only active vertices'
// lists loses nothing by skipping it.
std::vector<uint8_t> mark_active_blocks(const StreamPlan& plan, const std::vector<uint8_t>& active);
// Per block, the entries of the active vertices' lists it holds (a split list counts in each block its part is in):
// what stream_block_activity counts on the GPU for --stream-direct-below.
std::vector<uint64_t> active_entries_per_block(const StreamPlan& plan, const uint64_t* offsets,
                                               const std::vector<uint8_t>& active);
// The blocks a sweep takes, in plan order: every block, or (with marks) the marked ones.
std::vector<size_t> sweep_order(size_t num_blocks, const uint8_t* marks);
// One launch of a sweep: block `first` copied into a buffer (last == first), or the consecutive blocks first..last
// read in place as one kernel. Blocks read in place need no buffer, so neighbouring ones launch together: a kernel
// per block would wait on each block's longest list in turn (kron24's hub lists, one warp each, over the link),
// where one kernel over them all lets those waits overlap, as they do in the zerocopy mode's one launch.
struct SweepStep {
  size_t first = 0, last = 0;
  bool in_place = false;
};
// The steps of a sweep over `order` (sweep_order's blocks), in_place[j] saying whether its j-th block is read in
// place: a run of blocks read in place with consecutive numbers becomes one step, every copied block one step.
std::vector<SweepStep> sweep_steps(const std::vector<size_t>& order, const std::vector<uint8_t>& in_place);
// The buffer the sweep's j-th block (block k of num_blocks) goes into: the buffers in turn, so that the next
// buffers - 1 blocks are copied while one is read; or block k's own buffer where every block has one, so that a
// block once copied stays where it is whatever a pass skips.
inline size_t sweep_buffer(size_t j, size_t k, size_t num_blocks, size_t buffers) {
  return num_blocks <= buffers ? k : j % buffers;
}

}  // namespace emogi
