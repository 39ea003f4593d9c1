// The `streamed` memory mode (Buono et al., CF'17): the edge list (and weights) in pinned host memory, cut into
// blocks of vertex ranges (stream_blocks.hpp), and every launch that reads lists becomes one kernel per block.
// Block k is copied by cudaMemcpyAsync on a copy stream into buffer k mod B while the compute stream runs the
// kernel of an earlier block on another buffer. Two events per buffer order them: `copied` (the compute stream
// waits for it before the block's kernel) and `consumed` (the copy stream waits for it before overwriting the
// buffer). A buffer that still holds the block asked for is not copied again (a graph of at most B blocks is
// copied once per run). Every copy is timed by events, so a run reports the bytes it copied and the copy engine's
// time, measured rather than assumed.
//
// Two layouts (--stream-layout). `rows`, the default: blocks of vertex ranges as above. `columns` (SpMV only):
// CF'17's column blocks (column_blocks.hpp), each a DCSR block of consecutive columns whose entries fit the block
// size; a block's copy is its ids and weights, its row index (non-empty rows' ids and starts) and its slice of x,
// and its kernel walks its rows (column_sweep.cuh) adding each row's partial sum into y. Either way a block is a set
// of element ranges of host arrays, one per array, copied into that array's buffer of the block's turn: the copy,
// event and poisoning logic below is one for both.
//
// Frontier-aware skipping (--stream-skip, on by default): before a sweep, an iterative algorithm says which
// vertices are active in it (ListReads::only_active: SSSP's vertices whose distance fell, CC's whose label changed,
// PageRank's above the tolerance). One kernel marks each block that holds an active vertex (a split list's parts
// count for its vertex), the marks come back to the host, and the sweep copies and launches only marked blocks,
// taking the buffers in turn among them. A block skipped so does nothing in its kernel anyway (every vertex of it
// returns early), so the results stay those of the full sweep.
//
// Reading in place (--stream-direct-below F, off at 0): the same kernel also counts each block's entries of active
// lists, and a marked block with fewer than F of its entries active is not copied: its kernel reads the lists over
// the link where they lie, only those it needs, while the copy stream goes on with the next copied block. They are
// read from a second host copy placed as the zerocopy mode places it (managed, kept on the host, AccessedBy the
// GPU): scattered reads from pinned memory fall off past ~1 GiB (../shared/FACTS.md, the footprint cliff). The
// kernel and its results are the same either way; only where the lists are read from differs.
//
// Packed copies (--stream-pack on, rows): the pinned host copy holds each id in the fewest whole bytes the largest
// vertex id needs (3 bytes below 2^24 vertices: kron24's 4-byte ids), each weight likewise (1 byte for GAP's
// weights 1..255); a block's copy moves those bytes into a staging buffer, and a kernel on the copy stream widens
// them into the block's buffer before the `copied` event, so the algorithms' kernels read the widths they always
// do. Fewer bytes cross the link per pass (3/4 of 4-byte ids); the bytes counted are those copied.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "emogi/column_blocks.hpp"
#include "emogi/column_sweep.cuh"
#include "emogi/csr.hpp"
#include "emogi/cuda_check.hpp"
#include "emogi/edge_store.cuh"
#include "emogi/graph_view.cuh"
#include "emogi/names.hpp"
#include "emogi/stream_blocks.hpp"
#include "emogi/streamed_refusal.hpp"
#include "emogi/warp_ops.cuh"

namespace emogi {

struct StreamOptions {
  uint64_t block_bytes = 0;   // one buffer: the ids and weights of one block (--stream-block-bytes)
  unsigned buffers = 2;       // --stream-buffers
  bool poison = false;        // tests: fill a buffer with 0xFF bytes before each copy into it (--stream-poison)
  bool skip_inactive = true;  // skip blocks without an active vertex where the algorithm says which are (--stream-skip)
  double direct_below = 0;    // read a block in place when fewer than this of its entries are active (0: never)
  StreamLayout layout = StreamLayout::Rows;  // --stream-layout
  bool pack = false;  // copy ids and weights in the fewest bytes their values need, widened on the GPU (--stream-pack)
};

// The usual activity test: a per-vertex flag (SSSP's `flag`, CC's `current`, PageRank's `push`).
struct FlagSet {
  const uint8_t* flag;
  __device__ bool operator()(uint64_t v) const { return flag[v] != 0; }
};

// Marks (marked[k] = 1) the blocks that hold a vertex v with active(v) (for_blocks_holding); `marked` zeroed first.
// With `entries` (zeroed first), also adds up per block the entries of active vertices' lists it holds. A thread per
// vertex: a pass reads the vertices' flags once, at the GPU's memory bandwidth, and only active vertices search the
// blocks' bounds (a few KiB, in cache). Consecutive vertices share a block, so a warp sums its lanes' counts per
// block (a segmented suffix sum over lanes, the blocks ascending with the lane) and adds each sum with one atomic.
// `bounds`: the blocks' first vertices, past-last vertices, first entries and past-last entries, n of each.
template <class Active>
__global__ void stream_block_activity(const uint64_t* __restrict__ bounds, uint64_t num_blocks, uint64_t num_vertices,
                                      const uint64_t* __restrict__ offsets, Active active, uint8_t* __restrict__ marked,
                                      unsigned long long* __restrict__ entries) {
  const uint64_t *first = bounds, *last = bounds + num_blocks;
  const uint64_t *first_entry = bounds + 2 * num_blocks, *last_entry = bounds + 3 * num_blocks;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  const unsigned lane = threadIdx.x % kWarpSize;
  // base is the same for a whole thread block, so every lane of a warp takes each turn (the shuffles need them all).
  for (uint64_t base = uint64_t(blockIdx.x) * blockDim.x; base < num_vertices; base += stride) {
    const uint64_t v = base + threadIdx.x;
    const bool on = v < num_vertices && active(v);
    if (!entries) {
      if (on)
        for_blocks_holding(first, last, num_blocks, v, [&](uint64_t k) {
          if (!marked[k]) marked[k] = 1;  // many vertices mark one block: most find it marked
        });
      continue;
    }
    const uint64_t key = v < num_vertices ? last_block_holding(first, num_blocks, v) : ~uint64_t(0);
    unsigned long long count = 0;
    if (on)
      for_blocks_holding(first, last, num_blocks, v, [&](uint64_t k) {
        if (!marked[k]) marked[k] = 1;
        const uint64_t e = entries_in_block(offsets[v], offsets[v + 1], first_entry[k], last_entry[k]);
        if (k == key)
          count = e;
        else if (e)
          atomicAdd(&entries[k], (unsigned long long)e);  // an earlier part of a split list: rare
      });
    for (unsigned off = 1; off < kWarpSize; off <<= 1) {
      const unsigned long long c = __shfl_down_sync(kFullMask, count, off);
      const uint64_t k = __shfl_down_sync(kFullMask, key, off);
      if (lane + off < kWarpSize && k == key) count += c;
    }
    const uint64_t before = __shfl_up_sync(kFullMask, key, 1);
    if (count && (lane == 0 || before != key)) atomicAdd(&entries[key], count);
  }
}

// What one run did: blocks swept (launched), blocks left out for having no active vertex, copies issued and skipped
// (the buffer held the block), bytes copied (ids and weights, the alignment slack included), the copies' summed
// event time, and the blocks read in place (--stream-direct-below).
struct StreamRunStats {
  uint64_t sweeps = 0, blocks = 0, inactive = 0, copies = 0, skipped = 0, bytes = 0;
  uint64_t in_place = 0, in_place_entries = 0;  // blocks read in place, and their active entries as counted
  double copy_ms = 0;
  std::vector<uint64_t> per_sweep;           // blocks launched in each sweep (the active fraction's numerator)
  std::vector<uint64_t> per_sweep_in_place;  // of them, read in place
  static std::string text(const std::vector<uint64_t>& counts);  // "40,12,3"
  std::string per_sweep_text() const { return text(per_sweep); }
  bool reading_in_place = false;  // --stream-direct-below was given
  // "; read in place: 3 blocks, 1234 active entries, per sweep 0,1,2" under --stream-direct-below, else "".
  std::string in_place_text() const;
};

// The blocks a graph is cut into for `options` (checked: throws std::invalid_argument with the option's name).
StreamPlan streamed_plan(const MappedCsr& g, bool with_weights, const StreamOptions& options);

class StreamedLists {
 public:
  StreamedLists(const MappedCsr& g, bool with_weights, const StreamOptions& options);
  ~StreamedLists();
  StreamedLists(const StreamedLists&) = delete;
  StreamedLists& operator=(const StreamedLists&) = delete;

  StreamLayout layout() const { return layout_; }
  const StreamPlan& plan() const { return plan_; }  // the row layout's blocks (none in the column layout)
  size_t num_blocks() const { return num_blocks_; }
  unsigned buffers() const { return unsigned(held_.size()); }
  uint64_t buffer_bytes() const;  // one turn's buffers, all arrays together
  std::string describe() const;

  // Before every run: no buffer holds a block (the run copies everything it reads), counters zeroed.
  void prepare_run();
  // After a run: waits for its copies and returns what they were.
  StreamRunStats finish_run();
  // The run's counts so far (their copies issued, not necessarily done): --pass-log's per-sweep differences.
  const StreamRunStats& running() const { return stats_; }

  bool skips_inactive() const { return skip_inactive_; }
  static constexpr unsigned kInPlace = ~0u;  // the `buffer` of a block read in place (point, sweep's each)

  // Marks the blocks that hold a vertex v with active(v), in stream order on `compute`, and waits for the marks:
  // the next sweep copies and launches only those (and, under --stream-direct-below, reads the sparsely active ones
  // in place). `offsets`: the graph's, in GPU memory. A no-op without --stream-skip, and in the column layout (no
  // vertex ranges to mark; its one algorithm, SpMV, reads every row and never asks).
  template <class Active>
  void mark_active(cudaStream_t compute, const uint64_t* offsets, Active active) {
    if (!skip_inactive_ || plan_.blocks.empty()) return;
    const uint64_t n = plan_.blocks.size(), vertices = plan_.blocks.back().last_vertex;
    EMOGI_CUDA_CHECK(cudaMemsetAsync(marks_, 0, n, compute));
    if (entries_) EMOGI_CUDA_CHECK(cudaMemsetAsync(entries_, 0, n * sizeof(unsigned long long), compute));
    const uint64_t grid = std::max<uint64_t>(1, std::min<uint64_t>((vertices + 255) / 256, 65535));
    stream_block_activity<Active>
        <<<dim3(unsigned(grid)), 256, 0, compute>>>(bounds_, n, vertices, offsets, active, marks_, entries_);
    EMOGI_CHECK_LAUNCH();
    EMOGI_CUDA_CHECK(cudaMemcpyAsync(host_marks_, marks_, n, cudaMemcpyDeviceToHost, compute));
    if (entries_)
      EMOGI_CUDA_CHECK(
          cudaMemcpyAsync(host_entries_, entries_, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost, compute));
    EMOGI_CUDA_CHECK(cudaStreamSynchronize(compute));
    marked_ = true;
  }

  // One sweep over the blocks on the compute stream: each(step, buffer) launches the kernel(s) of one step there
  // (sweep_steps): a copied block, step.first, in buffer `buffer`; or (rows only) consecutive blocks read in place,
  // step.first to step.last, as one launch with buffer kInPlace, in their turn, while the copies go on among the
  // others. The blocks are all of them, or the marked ones after mark_active (the marks hold for this sweep only).
  template <class Each>
  void sweep(cudaStream_t compute, Each each) {
    const std::vector<size_t> order = sweep_order(num_blocks_, marked_ ? host_marks_ : nullptr);
    std::vector<uint8_t> in_place(order.size(), 0);
    copy_order_.clear();
    uint64_t read_in_place = 0;
    for (size_t j = 0; j < order.size(); ++j) {
      const size_t k = order[j];
      if (marked_ && entries_ && reads_in_place(host_entries_[k], plan_.blocks[k], direct_below_)) {
        in_place[j] = 1, ++read_in_place, stats_.in_place_entries += host_entries_[k];
      } else {
        copy_order_.push_back(k);
      }
    }
    stats_.inactive += num_blocks_ - order.size();
    stats_.blocks += order.size();
    stats_.in_place += read_in_place;
    stats_.per_sweep.push_back(order.size());
    stats_.per_sweep_in_place.push_back(read_in_place);
    marked_ = false;
    const size_t copies = copy_order_.size(), buffers = held_.size();
    ++stats_.sweeps;
    for (size_t c = 0; c < copies && c < buffers; ++c) issue_copy(c);
    size_t c = 0;
    for (const SweepStep& step : sweep_steps(order, in_place)) {
      if (step.in_place) {
        each(step, kInPlace);
        continue;
      }
      const size_t b = buffer_of(c);
      EMOGI_CUDA_CHECK(cudaStreamWaitEvent(compute, copied_[b], 0));
      each(step, unsigned(b));
      EMOGI_CUDA_CHECK(cudaEventRecord(consumed_[b], compute));
      if (c + buffers < copies) issue_copy(c + buffers);
      ++c;
    }
  }

  // Points g's lists at buffer `buffer`, which holds block step.first. Rows: position i is at i - copy_from there,
  // and kernels read only [first_entry, last_entry) of each list (DeviceGraph's window); buffer kInPlace: at the
  // zero-copy host copy itself, where position i is at i, the window the step's blocks' entries together. Columns:
  // the block is a graph of its own, list i (row ids[i]) at [starts[i], starts[i + 1]) of the block's ids and
  // weights. g's vertex count stays the graph's (the algorithm sizes its vectors by it); its vertex list is the
  // block's until the next point.
  template <class Index>
  void point(DeviceGraph<Index>& g, const SweepStep& step, unsigned buffer) const {
    const size_t k = step.first;
    if (buffer == kInPlace) {  // rows only: entries_ (the in-place counts) exist in the row layout alone
      g.window_begin = plan_.blocks[step.first].first_entry, g.window_end = plan_.blocks[step.last].last_entry;
      const Index* edges = static_cast<const Index*>(device_edges_);
      g.edges = SplitArray<Index>{edges, edges, 0, 0};
      if (device_weights_) {
        const uint32_t* weights = static_cast<const uint32_t*>(device_weights_);
        g.weights = SplitArray<uint32_t>{weights, weights, 0, 0};
      }
      return;
    }
    const Index* e = static_cast<const Index*>(arrays_[ids_].buffers[buffer]);
    const uint32_t* w = weights_ < 0 ? nullptr : static_cast<const uint32_t*>(arrays_[weights_].buffers[buffer]);
    if (layout_ == StreamLayout::Columns) {
      const uint64_t* starts = static_cast<const uint64_t*>(arrays_[row_starts_].buffers[buffer]);
      g.offsets = starts, g.starts = starts;
      g.edges = {e, e, 0, 0};
      if (w) g.weights = {w, w, 0, 0};
      g.window_begin = 0, g.window_end = ~uint64_t(0);
      return;
    }
    const StreamBlock& block = plan_.blocks[k];
    g.edges = {e, e, 0, block.copy_from};
    if (w) g.weights = {w, w, 0, block.copy_from};
    g.window_begin = block.first_entry, g.window_end = block.last_entry;
  }

  // The column layout's sweep of block k in buffer `buffer` (column_sweep.cuh): its rows, their ids, its x slice.
  template <class Index>
  ColumnBlockRows<Index> column_rows(size_t k, unsigned buffer) const {
    return {columns_.rows(k), static_cast<const Index*>(arrays_[row_ids_].buffers[buffer]),
            static_cast<const float*>(arrays_[x_].buffers[buffer]), columns_.first_column[k]};
  }

 private:
  // A host array (pinned) whose element ranges the blocks copy, and its buffer of each turn in GPU memory.
  struct Copied {
    void* host = nullptr;
    unsigned elem_bytes = 0;
    unsigned packed_bytes = 0;   // 0: the host holds elem_bytes per element; else it holds this many (packed)
    std::vector<void*> staging;  // packed: each turn's buffer the packed bytes are copied into
    uint64_t buffer_elems = 0;   // the longest range a block copies of it
    std::vector<void*> buffers;
    const char* what = "";
  };
  int add_array(void* host, unsigned elem_bytes, const char* what);  // its index in arrays_
  // Adds a row array of n elements of elem_bytes each at `source`, pinned: packed when `pack` and its largest value
  // needs fewer bytes than elem_bytes.
  int add_row_array(const void* source, uint64_t n, unsigned elem_bytes, bool pack, const char* what);
  std::string packing_text() const;  // ", ids copied in 3 bytes, weights in 1 byte", or "" when nothing is packed
  void set_range(size_t k, int array, uint64_t from, uint64_t to);
  std::pair<uint64_t, uint64_t> range_of(size_t k, size_t array) const {  // what block k copies of the array
    const size_t at = 2 * (k * arrays_.size() + array);
    return {ranges_[at], ranges_[at + 1]};
  }  // block k copies [from, to) of the array
  void lay_out_rows(const MappedCsr& g, bool with_weights, const StreamOptions& options);
  template <class Index>
  void lay_out_columns(const MappedCsr& g, bool with_weights, const StreamOptions& options);
  // The sweep's c-th copied block: its turn's buffers, and its copy on the copy stream (unless they hold it).
  size_t buffer_of(size_t c) const { return sweep_buffer(c, copy_order_[c], num_blocks_, held_.size()); }
  void issue_copy(size_t c);

  StreamLayout layout_;
  StreamPlan plan_;       // rows
  ColumnBlocks columns_;  // columns: the blocks' bounds (the big arrays are released once pinned)
  size_t num_blocks_ = 0;
  unsigned index_bytes_, weight_bytes_;
  uint64_t capacity_entries_ = 0;                  // a block's ids and weights at most (the describe line)
  uint64_t row_index_bytes_ = 0, total_rows_ = 0;  // columns: the row index over all blocks (the describe line)
  bool poison_, skip_inactive_;
  double direct_below_;
  std::vector<Copied> arrays_;
  int ids_ = -1, weights_ = -1, row_ids_ = -1, row_starts_ = -1, x_ = -1;  // which array is which (-1: none)
  std::vector<uint64_t> ranges_;  // block k, array a: [ranges_[2 (k A + a)], ranges_[2 (k A + a) + 1])
  uint64_t* bounds_ = nullptr;    // GPU memory: the blocks' first and past-last vertices and entries (mark_active)
  uint8_t* marks_ = nullptr;      // GPU memory, 1 per block: mark_active's marks
  unsigned long long* entries_ = nullptr;       // GPU memory, per block: active entries (--stream-direct-below only)
  uint8_t* host_marks_ = nullptr;               // pinned: the marks, read by the sweep
  unsigned long long* host_entries_ = nullptr;  // pinned: the active entries, read by the sweep
  bool marked_ = false;                         // the next sweep takes only the marked blocks
  std::vector<size_t> copy_order_;              // the blocks this sweep copies, in plan order
  std::unique_ptr<EdgeStore> in_place_edges_, in_place_weights_;  // zero-copy copies (read in place; rows only)
  const void* device_edges_ = nullptr;                            // their pointers, as kernels address them
  const void* device_weights_ = nullptr;
  std::vector<size_t> held_;  // the block each turn's buffers hold (kNone: none)
  std::vector<cudaEvent_t> copied_, consumed_;
  std::vector<cudaEvent_t> timing_;  // pairs (start, stop) around each copy, reused run after run
  size_t timed_ = 0;                 // pairs used this run
  cudaStream_t copy_stream_{};
  StreamRunStats stats_;
};

}  // namespace emogi
