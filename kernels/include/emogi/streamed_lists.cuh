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
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emogi/column_blocks.hpp"
#include "emogi/column_sweep.cuh"
#include "emogi/csr.hpp"
#include "emogi/cuda_check.hpp"
#include "emogi/graph_view.cuh"
#include "emogi/names.hpp"
#include "emogi/stream_blocks.hpp"
#include "emogi/streamed_refusal.hpp"

namespace emogi {

struct StreamOptions {
  uint64_t block_bytes = 0;   // one buffer: the ids and weights of one block (--stream-block-bytes)
  unsigned buffers = 2;       // --stream-buffers
  bool poison = false;        // tests: fill a buffer with 0xFF bytes before each copy into it (--stream-poison)
  bool skip_inactive = true;  // skip blocks without an active vertex where the algorithm says which are (--stream-skip)
  StreamLayout layout = StreamLayout::Rows;  // --stream-layout
};

// The usual activity test: a per-vertex flag (SSSP's `flag`, CC's `current`, PageRank's `push`).
struct FlagSet {
  const uint8_t* flag;
  __device__ bool operator()(uint64_t v) const { return flag[v] != 0; }
};

// Marks (marked[k] = 1) the blocks that hold a vertex v with active(v) (for_blocks_holding); `marked` zeroed first.
// A thread per vertex: a pass reads the vertices' flags once, at the GPU's memory bandwidth, and only active
// vertices search the blocks' bounds (a few KiB, in cache).
template <class Active>
__global__ void stream_block_activity(const uint64_t* __restrict__ first, const uint64_t* __restrict__ last,
                                      uint64_t num_blocks, uint64_t num_vertices, Active active,
                                      uint8_t* __restrict__ marked) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t v = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; v < num_vertices; v += stride)
    if (active(v))
      for_blocks_holding(first, last, num_blocks, v, [&](uint64_t k) {
        if (!marked[k]) marked[k] = 1;  // many vertices mark one block: most find it marked
      });
}

// What one run did: blocks swept (launched), blocks left out for having no active vertex, copies issued and skipped
// (the buffer held the block), bytes copied (ids and weights, the alignment slack included) and the copies' summed
// event time.
struct StreamRunStats {
  uint64_t sweeps = 0, blocks = 0, inactive = 0, copies = 0, skipped = 0, bytes = 0;
  double copy_ms = 0;
  std::vector<uint64_t> per_sweep;     // blocks launched in each sweep (the active fraction's numerator)
  std::string per_sweep_text() const;  // "40,12,3"
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

  bool skips_inactive() const { return skip_inactive_; }

  // Marks the blocks that hold a vertex v with active(v), in stream order on `compute`, and waits for the marks:
  // the next sweep copies and launches only those. A no-op without --stream-skip, and in the column layout (no
  // vertex ranges to mark; its one algorithm, SpMV, reads every row and never asks).
  template <class Active>
  void mark_active(cudaStream_t compute, Active active) {
    if (!skip_inactive_ || plan_.blocks.empty()) return;
    const uint64_t n = plan_.blocks.size(), vertices = plan_.blocks.back().last_vertex;
    EMOGI_CUDA_CHECK(cudaMemsetAsync(marks_, 0, n, compute));
    const uint64_t grid = std::max<uint64_t>(1, std::min<uint64_t>((vertices + 255) / 256, 65535));
    stream_block_activity<Active>
        <<<dim3(unsigned(grid)), 256, 0, compute>>>(bounds_, bounds_ + n, n, vertices, active, marks_);
    EMOGI_CHECK_LAUNCH();
    EMOGI_CUDA_CHECK(cudaMemcpyAsync(host_marks_, marks_, plan_.blocks.size(), cudaMemcpyDeviceToHost, compute));
    EMOGI_CUDA_CHECK(cudaStreamSynchronize(compute));
    marked_ = true;
  }

  // One sweep over the blocks on the compute stream: each(k, buffer) launches block k's kernel(s) there. The
  // blocks are all of them, or the marked ones after mark_active (the marks hold for this sweep only).
  template <class Each>
  void sweep(cudaStream_t compute, Each each) {
    order_ = sweep_order(num_blocks_, marked_ ? host_marks_ : nullptr);
    stats_.inactive += num_blocks_ - order_.size();
    stats_.blocks += order_.size();
    stats_.per_sweep.push_back(order_.size());
    marked_ = false;
    const size_t n = order_.size(), buffers = held_.size();
    ++stats_.sweeps;
    for (size_t j = 0; j < n && j < buffers; ++j) issue_copy(j);
    for (size_t j = 0; j < n; ++j) {
      const size_t b = buffer_of(j);
      EMOGI_CUDA_CHECK(cudaStreamWaitEvent(compute, copied_[b], 0));
      each(order_[j], unsigned(b));
      EMOGI_CUDA_CHECK(cudaEventRecord(consumed_[b], compute));
      if (j + buffers < n) issue_copy(j + buffers);
    }
  }

  // Points g's lists at buffer `buffer`, which holds block k. Rows: position i is at i - copy_from there, and
  // kernels read only [first_entry, last_entry) of each list (DeviceGraph's window). Columns: the block is a graph
  // of its own, list i (row ids[i]) at [starts[i], starts[i + 1]) of the block's ids and weights. g's vertex count
  // stays the graph's (the algorithm sizes its vectors by it); its vertex list is the block's until the next point.
  template <class Index>
  void point(DeviceGraph<Index>& g, size_t k, unsigned buffer) const {
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
    uint64_t buffer_elems = 0;  // the longest range a block copies of it
    std::vector<void*> buffers;
    const char* what = "";
  };
  int add_array(void* host, unsigned elem_bytes, const char* what);  // its index in arrays_
  void set_range(size_t k, int array, uint64_t from, uint64_t to);   // block k copies [from, to) of the array
  void lay_out_rows(const MappedCsr& g, bool with_weights, const StreamOptions& options);
  template <class Index>
  void lay_out_columns(const MappedCsr& g, bool with_weights, const StreamOptions& options);
  size_t buffer_of(size_t j) const { return sweep_buffer(j, order_[j], num_blocks_, held_.size()); }
  void issue_copy(size_t j);  // the sweep's j-th block into its buffers on the copy stream, unless they hold it

  StreamLayout layout_;
  StreamPlan plan_;       // rows
  ColumnBlocks columns_;  // columns: the blocks' bounds (the big arrays are released once pinned)
  size_t num_blocks_ = 0;
  unsigned index_bytes_, weight_bytes_;
  uint64_t capacity_entries_ = 0;                  // a block's ids and weights at most (the describe line)
  uint64_t row_index_bytes_ = 0, total_rows_ = 0;  // columns: the row index over all blocks (the describe line)
  bool poison_, skip_inactive_;
  std::vector<Copied> arrays_;
  int ids_ = -1, weights_ = -1, row_ids_ = -1, row_starts_ = -1, x_ = -1;  // which array is which (-1: none)
  std::vector<uint64_t> ranges_;   // block k, array a: [ranges_[2 (k A + a)], ranges_[2 (k A + a) + 1])
  uint64_t* bounds_ = nullptr;     // GPU memory: the blocks' first vertices, then their past-last ones (mark_active)
  uint8_t* marks_ = nullptr;       // GPU memory, 1 per block: mark_active's marks
  uint8_t* host_marks_ = nullptr;  // pinned: the same, read by the sweep
  bool marked_ = false;            // the next sweep takes only the marked blocks
  std::vector<size_t> order_;      // the blocks this sweep takes, in plan order
  std::vector<size_t> held_;       // the block each turn's buffers hold (kNone: none)
  std::vector<cudaEvent_t> copied_, consumed_;
  std::vector<cudaEvent_t> timing_;  // pairs (start, stop) around each copy, reused run after run
  size_t timed_ = 0;                 // pairs used this run
  cudaStream_t copy_stream_{};
  StreamRunStats stats_;
};

}  // namespace emogi
