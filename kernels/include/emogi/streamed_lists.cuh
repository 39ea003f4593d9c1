// The `streamed` memory mode (Buono et al., CF'17): the edge list (and weights) in pinned host memory, cut into
// blocks of vertex ranges (stream_blocks.hpp), and every launch that reads lists becomes one kernel per block.
// Block k is copied by cudaMemcpyAsync on a copy stream into buffer k mod B while the compute stream runs the
// kernel of an earlier block on another buffer. Two events per buffer order them: `copied` (the compute stream
// waits for it before the block's kernel) and `consumed` (the copy stream waits for it before overwriting the
// buffer). A buffer that still holds the block asked for is not copied again (a graph of at most B blocks is
// copied once per run). Every copy is timed by events, so a run reports the bytes it copied and the copy engine's
// time, measured rather than assumed.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emogi/csr.hpp"
#include "emogi/cuda_check.hpp"
#include "emogi/graph_view.cuh"
#include "emogi/names.hpp"
#include "emogi/stream_blocks.hpp"

namespace emogi {

struct StreamOptions {
  uint64_t block_bytes = 0;  // one buffer: the ids and weights of one block (--stream-block-bytes)
  unsigned buffers = 2;      // --stream-buffers
  bool poison = false;       // tests: fill a buffer with 0xFF bytes before each copy into it (--stream-poison)
};

// What one run did: copies issued and skipped (the buffer held the block), bytes copied (ids and weights, the
// alignment slack included) and the copies' summed event time.
struct StreamRunStats {
  uint64_t sweeps = 0, copies = 0, skipped = 0, bytes = 0;
  double copy_ms = 0;
};

// The blocks a graph is cut into for `options` (checked: throws std::invalid_argument with the option's name).
StreamPlan streamed_plan(const MappedCsr& g, bool with_weights, const StreamOptions& options);

// Why `variant` of `algorithm` cannot run streamed on a graph cut as `plan`, or "" when it can. Streaming needs
// every list read to go through ListReads::launch on the algorithm's stream, block by block.
std::string streamed_refusal(Algorithm algorithm, Variant variant, const StreamPlan& plan);

class StreamedLists {
 public:
  StreamedLists(const MappedCsr& g, bool with_weights, const StreamOptions& options);
  ~StreamedLists();
  StreamedLists(const StreamedLists&) = delete;
  StreamedLists& operator=(const StreamedLists&) = delete;

  const StreamPlan& plan() const { return plan_; }
  unsigned buffers() const { return unsigned(edge_buffers_.size()); }
  uint64_t buffer_bytes() const { return buffer_entries_ * (index_bytes_ + weight_bytes_); }
  std::string describe() const;

  // Before every run: no buffer holds a block (the run copies everything it reads), counters zeroed.
  void prepare_run();
  // After a run: waits for its copies and returns what they were.
  StreamRunStats finish_run();

  // One sweep over the blocks on the compute stream: each(block, buffer) launches the block's kernel(s) there.
  template <class Each>
  void sweep(cudaStream_t compute, Each each) {
    const size_t n = plan_.blocks.size(), buffers = edge_buffers_.size();
    ++stats_.sweeps;
    for (size_t k = 0; k < n && k < buffers; ++k) issue_copy(k);
    for (size_t k = 0; k < n; ++k) {
      const size_t b = k % buffers;
      EMOGI_CUDA_CHECK(cudaStreamWaitEvent(compute, copied_[b], 0));
      each(plan_.blocks[k], unsigned(b));
      EMOGI_CUDA_CHECK(cudaEventRecord(consumed_[b], compute));
      if (k + buffers < n) issue_copy(k + buffers);
    }
  }

  // Points g's lists at buffer `buffer`, which holds `block`: position i is at i - copy_from there, and kernels
  // read only [first_entry, last_entry) of each list (DeviceGraph's window).
  template <class Index>
  void point(DeviceGraph<Index>& g, const StreamBlock& block, unsigned buffer) const {
    const Index* e = static_cast<const Index*>(edge_buffers_[buffer]);
    g.edges = {e, e, 0, block.copy_from};
    if (!weight_buffers_.empty()) {
      const uint32_t* w = static_cast<const uint32_t*>(weight_buffers_[buffer]);
      g.weights = {w, w, 0, block.copy_from};
    }
    g.window_begin = block.first_entry, g.window_end = block.last_entry;
  }

 private:
  void issue_copy(size_t k);  // block k into buffer k mod B on the copy stream, unless the buffer holds it

  StreamPlan plan_;
  unsigned index_bytes_, weight_bytes_;
  uint64_t buffer_entries_ = 0;  // entries one buffer holds: the largest block's copy
  bool poison_;
  void* host_edges_ = nullptr;  // pinned copies of the file's arrays
  void* host_weights_ = nullptr;
  std::vector<void*> edge_buffers_, weight_buffers_;  // GPU memory, one of each per buffer
  std::vector<size_t> held_;                          // the block each buffer holds (kNone: none)
  std::vector<cudaEvent_t> copied_, consumed_;
  std::vector<cudaEvent_t> timing_;  // pairs (start, stop) around each copy, reused run after run
  size_t timed_ = 0;                 // pairs used this run
  cudaStream_t copy_stream_{};
  StreamRunStats stats_;
};

}  // namespace emogi
